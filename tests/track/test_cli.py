"""``carom track``: human and JSON output, refusals, and a match record that replays."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

import carom.cli.replay
import carom.cli.track
from carom.cli.app import app
from carom.core.balls import Ball
from tests.track.synthetic import stroke, to_jsonl

del carom.cli.replay
W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
runner = CliRunner()


def synthetic_file(tmp_path: Path) -> Path:
    point, _ = stroke({W: (1.0552, 1.0752), Y: (1.0765, 1.3382), RED: (0.4740, 1.3092)},
                      {W: (-0.1673, 2.5744)}, W, duration=6.0)
    miss, _ = stroke({W: (0.6, 0.8), Y: (0.2, 0.2), RED: (1.2, 0.2)}, {W: (0.05, 0.4)}, W,
                     duration=3.0, seed=1)
    path = tmp_path / "tracked.jsonl"
    path.write_text(to_jsonl([point, miss], [True, False]), encoding="utf-8")
    return path


def test_json_gives_one_object_per_stroke(tmp_path: Path) -> None:
    result = runner.invoke(app, ["track", str(synthetic_file(tmp_path)), "--json"])
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert [r["shot"] for r in rows] == [1, 2]
    assert [r["points"] for r in rows] == [1, 0]
    for r in rows:
        assert set(r) >= {"shot", "points", "fouls", "confidence", "doubtful", "stroke"}
        assert 0.0 <= r["confidence"] <= 1.0 and isinstance(r["doubtful"], bool)
        assert r["stroke"]["type"] == "stroke" and set(r["stroke"]["start"]) == {"white", "yellow", "red"}


def test_human_output_lists_events_rulings_and_doubts(tmp_path: Path) -> None:
    result = runner.invoke(app, ["track", str(synthetic_file(tmp_path)), "--discipline", "three-cushion"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "shot 1  white  carom, 1 point  confidence" in out
    assert "white hits yellow" in out and "white: left cushion" in out
    assert "agreement with the file's point field: 2/2" in out
    # the two strokes were not played one after the other: the second does not start
    # where the first left the balls, so the first is put before a human
    assert ("doubtful strokes (confidence below 0.99, or a recording that misses something after them): 1"
            in out)
    assert "  shot 1  confidence" in out and "the recording misses something" in out
    # two strokes hold too few samples near a resting ball to measure the camera's bias
    assert "camera bias near other balls: too few samples near resting balls" in out


def test_carom_out_replays(tmp_path: Path, real_match: Path) -> None:
    out = tmp_path / "match.carom.jsonl"
    result = runner.invoke(app, ["track", str(real_match), "--json", "--carom-out", str(out)])
    assert result.exit_code == 0, result.output
    lines = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["format"] == "carom/1" and lines[0]["discipline"] == "three-cushion"
    assert lines[1] == {"type": "opener", "player": 0}
    strokes = [x for x in lines[1:] if x["type"] == "stroke"]
    assert len(strokes) == 91 and all("start" in s for s in strokes)
    replayed = runner.invoke(app, ["replay", str(out), "--json"])
    assert replayed.exit_code == 0, replayed.output
    rulings = json.loads(replayed.stdout)["rulings"]
    players = {0: "white", 1: "yellow"}
    stroke_rulings = [r for r in rulings if lines[r["line"] - 1].get("type") == "stroke"]
    # every tracked stroke is played by the owner of the ball struck: no F13
    assert all(players[r["player"]] == lines[r["line"] - 1]["ball"] for r in stroke_rulings)
    assert not any("F13" in r["fouls"] for r in rulings)


def test_a_malformed_file_is_refused_with_line_and_field(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    good = synthetic_file(tmp_path).read_text(encoding="utf-8").splitlines()[0]
    path.write_text(good + "\n" + good.replace('"t": [0.0,', '"t": [0.5,', 1) + "\n", encoding="utf-8")
    result = runner.invoke(app, ["track", str(path), "--json"])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "line 2: balls.white.t[1]: times must increase" in result.stderr.replace("\n", "")


def test_an_unknown_discipline_is_refused(tmp_path: Path) -> None:
    result = runner.invoke(app, ["track", str(synthetic_file(tmp_path)), "--discipline", "pool"])
    assert result.exit_code == 2
    assert "unknown discipline 'pool'" in result.stderr.replace("\n", "")
