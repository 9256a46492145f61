"""The command line: replay, draw, inspect; refusals by line and reason, exit status 2."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from carom.cli.main import app
from tests.helpers import header, text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def test_replay_prints_the_scoresheet_in_both_languages() -> None:
    path = EXAMPLES / "three-cushion.carom.jsonl"
    out = runner.invoke(app, ["replay", str(path)])
    assert out.exit_code == 0 and "Average" in out.stdout and "High run" in out.stdout
    out = runner.invoke(app, ["replay", str(path), "--lang", "sk"])
    assert out.exit_code == 0 and "Priemer" in out.stdout and "Nábeh" in out.stdout


def test_replay_refuses_a_bad_file_with_line_and_reason_on_stderr(tmp_path: Path) -> None:
    bad = tmp_path / "bad.carom.jsonl"
    bad.write_text(text(header(points=2), "opener 0", "inning 2", "inning 0", "carom"))
    out = runner.invoke(app, ["replay", str(bad), "--json"])
    assert out.exit_code == 2
    assert out.stdout == ""
    assert "line 5: a call record after the match ended" in out.stderr


def test_replay_json_of_a_fresh_match(tmp_path: Path) -> None:
    path = tmp_path / "m.carom.jsonl"
    path.write_text(text(header(points=2), "opener 1", "carom", "miss"))
    out = runner.invoke(app, ["replay", str(path), "--json"])
    data = json.loads(out.stdout)
    assert data["lag_winner"] is None and data["finished"] is False and data["winner"] is None
    assert data["rulings"] == [
        {"line": 3, "player": 1, "points": 1, "fouls": [], "next": 1, "spot": None},
        {"line": 4, "player": 1, "points": 0, "fouls": [], "next": 0, "spot": None},
    ]
    assert data["players"][1] == {"points": 1, "innings": 1, "high_run": 1, "average": 1.0, "sets": 0}


def test_draw_writes_before_and_after(tmp_path: Path) -> None:
    out_file = tmp_path / "t.svg"
    path = EXAMPLES / "balkline-47-2.carom.jsonl"
    result = runner.invoke(app, ["draw", str(path), "--line", "5", "-o", str(out_file)])
    assert result.exit_code == 0, result.output
    svg = out_file.read_text()
    assert svg.count('class="carom-table"') == 2 and "line 5: before" in svg
    assert 'data-zone="anchor-left-1"' in svg and 'data-ball="red"' in svg


def test_draw_refuses_a_line_without_a_record(tmp_path: Path) -> None:
    path = EXAMPLES / "three-cushion.carom.jsonl"
    result = runner.invoke(app, ["draw", str(path), "--line", "9999", "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "no record at line 9999" in result.stderr


def test_inspect_venue_met_and_not_met(tmp_path: Path) -> None:
    good = EXAMPLES / "venue.toml"
    result = runner.invoke(app, ["inspect", str(good)])
    assert result.exit_code == 0, result.output
    assert "Q1" in result.stdout and "Q7" in result.stdout and "not met" not in result.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text(good.read_text().replace("height = 0.795", "height = 0.75"))
    result = runner.invoke(app, ["inspect", str(bad)])
    assert result.exit_code == 1 and "not met" in result.stdout


def test_inspect_names_a_missing_field(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[table]\nlength = 2.84\n")
    result = runner.invoke(app, ["inspect", str(bad)])
    assert result.exit_code == 2 and "table.width: missing" in result.stderr


def test_help_explains_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for command in ("replay", "draw", "inspect"):
        assert command in result.stdout


def test_every_example_input_is_accepted() -> None:
    from carom.batch.spec import read_spec
    from carom.core.inputs import parse_toml, read_document, read_text
    from carom.physics.spec import parse_spec
    from carom.rules.equipment import inspect
    from carom.solve.position_file import read_position

    assert parse_spec(read_document(EXAMPLES / "simulate.json")).strike is not None
    assert read_spec(EXAMPLES / "batch.json").strokes == 100_000
    assert read_position(EXAMPLES / "position.json").ball.value == "white"
    assert inspect(parse_toml(read_text(EXAMPLES / "venue.toml", 64 * 1024)))


def test_inspect_refuses_nonsense_with_the_field(tmp_path: Path) -> None:
    good = (EXAMPLES / "venue.toml").read_text()
    for change, message in ((("non_slip_floor = true", 'non_slip_floor = "no"'),
                             "venue.non_slip_floor: expected true or false, got 'no'"),
                            (("surface_lux = 640", "surface_lux = inf"), "lighting.surface_lux: inf is not"),
                            (('discipline = "three-cushion"', 'discipline = "pool"'),
                             "balls.discipline: unknown 'pool'"),
                            (("length = 2.842", "length = 284.2"), "it looks like centimetres: write 2.842")):
        bad = tmp_path / "bad.toml"
        bad.write_text(good.replace(*change))
        result = runner.invoke(app, ["inspect", str(bad)])
        assert result.exit_code == 2 and result.stdout == "" and message in result.stderr, result.stderr
