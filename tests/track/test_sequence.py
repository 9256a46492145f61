"""A recording judged as a sequence: a stroke the next one does not follow is doubtful."""

from __future__ import annotations

import json
from dataclasses import replace
from math import sqrt
from pathlib import Path

from typer.testing import CliRunner

import carom.cli.track
from carom.cli.app import app
from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import TrackedStroke, match_record, track_sequence, track_stroke, tracker
from carom.track.judging.sequence import displacement_allowed, missing_between
from tests.track.synthetic import stroke, to_jsonl

del carom.cli.track
W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
THREE_CUSHION = discipline("three-cushion")
LARGE = TABLES["large"]
runner = CliRunner()

FIRST_START = {W: (0.60, 0.80), Y: (0.20, 0.20), RED: (1.20, 2.40)}
"""White rolls up the table and stops; yellow and red lie out of its way."""


def first_stroke(shot: object = 1) -> TrackedStroke:
    tracked, _ = stroke(FIRST_START, {W: (0.05, 0.9)}, W, duration=4.0, seed=3)
    return replace(tracked, shot=shot)


def next_stroke(after: TrackedStroke, *, shot: object = 2,
                moved: dict[Ball, tuple[float, float]] | None = None, seed: int = 4) -> TrackedStroke:
    """Yellow played from where ``after`` left the balls (or, with ``moved``, from
    elsewhere for the balls named)."""
    start = {ball: track.last for ball, track in after.balls.items()}
    start.update(moved or {})
    tracked, _ = stroke(start, {Y: (0.6, 0.3)}, Y, duration=3.0, seed=seed)
    return replace(tracked, shot=shot)


def test_the_threshold_is_the_noise_of_two_samples_and_a_ball_diameter() -> None:
    allowed = displacement_allowed(LARGE)
    assert allowed == 2.0 * LARGE.ball_radius + 5.0 * sqrt(2.0) * tracker.POSITION_NOISE_CEILING
    assert 0.08 < allowed < 0.10


def test_strokes_that_follow_each_other_raise_no_doubt() -> None:
    a = first_stroke()
    b = next_stroke(a)
    rulings = list(track_sequence([a, b], THREE_CUSHION, LARGE))
    assert [r.tracked.shot for r in rulings] == [1, 2]
    assert not any(d.about_recording for r in rulings for d in r.doubts)
    assert [r.doubtful for r in rulings] == [track_stroke(s, THREE_CUSHION, LARGE).doubtful for s in (a, b)]


def test_a_ball_moved_between_two_strokes_makes_the_first_doubtful() -> None:
    a = first_stroke()
    b = next_stroke(a, moved={RED: (0.70, 2.00)})
    first, second = track_sequence([a, b], THREE_CUSHION, LARGE)
    alone = track_stroke(a, THREE_CUSHION, LARGE)
    assert first.doubtful and not alone.doubtful
    assert first.confidence == alone.confidence
    assert first.points == alone.points
    doubt = first.doubts[0]
    assert doubt.about_recording and doubt.probability is None
    assert doubt.what.startswith("the balls moved between this stroke's end and the next stroke's start: "
                                 "the recording misses something")
    assert "red lies 0.64 m" in doubt.what
    # the last stroke has no next one to contradict it
    assert not any(d.about_recording for d in second.doubts)


def test_a_move_within_noise_and_a_ball_size_is_not_a_doubt() -> None:
    a = first_stroke()
    x, y = a.balls[RED].last
    b = next_stroke(a, moved={RED: (x + 0.03, y - 0.03)})
    first, _ = track_sequence([a, b], THREE_CUSHION, LARGE)
    assert not any(d.about_recording for d in first.doubts)


def test_a_gap_in_the_shot_ids_explains_the_moved_balls() -> None:
    a = first_stroke(shot=10)
    b = next_stroke(a, shot=12, moved={RED: (0.70, 2.00), W: (0.30, 1.50)})
    assert missing_between(a, b) == 1
    first, _ = track_sequence([a, b], THREE_CUSHION, LARGE)
    assert not any(d.about_recording for d in first.doubts)
    # ids that are not whole numbers cannot show a gap: the positions decide
    c = next_stroke(replace(a, shot="x"), shot="y", moved={RED: (0.70, 2.00)})
    assert missing_between(replace(a, shot="x"), c) == 0
    assert next(iter(track_sequence([replace(a, shot="x"), c], THREE_CUSHION, LARGE))).doubtful


def test_the_command_line_and_the_match_record_flag_the_stroke(tmp_path: Path) -> None:
    a = first_stroke()
    b = next_stroke(a, moved={RED: (0.70, 2.00)})
    c = next_stroke(b, shot=3, seed=5)
    path = tmp_path / "broken.jsonl"
    path.write_text(to_jsonl([a, b, c]), encoding="utf-8")
    out = tmp_path / "match.carom.jsonl"
    result = runner.invoke(app, ["track", str(path), "--json", "--carom-out", str(out)])
    assert result.exit_code == 0, result.output
    rows = [json.loads(x) for x in result.stdout.splitlines()]
    assert rows[0]["doubtful"] is True
    assert rows[0]["doubts"][0]["probability"] is None
    assert "the recording misses something" in rows[0]["doubts"][0]["what"]
    assert not any(d["probability"] is None for r in rows[1:] for d in r["doubts"])
    strokes = [json.loads(x) for x in out.read_text(encoding="utf-8").splitlines()]
    strokes = [s for s in strokes if s.get("type") == "stroke"]
    assert strokes[0]["doubtful"] is True
    human = runner.invoke(app, ["track", str(path)])
    assert "shot 1  white" in human.stdout and "DOUBTFUL" in human.stdout.splitlines()[0]
    assert "doubt  the balls moved between this stroke's end and the next stroke's start" in human.stdout
    # the match record flags it even from rulings judged one by one
    record = match_record([track_stroke(s, THREE_CUSHION, LARGE) for s in (a, b, c)], THREE_CUSHION, LARGE)
    written = [r for _, r in record.records if type(r).__name__ == "Stroke"]
    assert written[0].extra["doubtful"] is True
