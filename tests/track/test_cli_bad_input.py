"""``carom track`` under bad input: a clear error and exit status 2, never a traceback;
and recordings no tracker makes are flagged, never judged with full confidence."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import carom.cli.track  # noqa: F401  (registers the command)
from carom.cli.app import app
from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedStroke, track_stroke

runner = CliRunner()
THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]


def good() -> dict[str, Any]:
    return {
        "shot": 1, "cue": "white", "point": False,
        "balls": {
            "white": {"t": [0.0, 0.02, 0.04, 0.06], "x": [0.5, 0.52, 0.54, 0.56], "y": [0.7, 0.7, 0.7, 0.7]},
            "yellow": {"t": [0.0, 1.0], "x": [0.71, 0.71], "y": [1.5, 1.5]},
            "red": {"t": [0.0, 1.0], "x": [0.71, 0.71], "y": [2.13, 2.13]},
        },
    }


def run(tmp_path: Path, data: bytes) -> Any:
    path = tmp_path / "tracked.jsonl"
    path.write_bytes(data)
    return runner.invoke(app, ["track", str(path), "--json"])


def assert_refused(result: Any) -> None:
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "carom:" in result.stderr
    assert ("Traceback" not in result.output and result.exception is None) or isinstance(result.exception,
                                                                                        SystemExit)
    assert result.stdout == ""


JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**30, 10**30), st.text(max_size=5),
                 st.floats(allow_nan=False, allow_infinity=False), st.lists(st.integers(), max_size=3),
                 st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
"""Values that do not belong where a track's numbers, a ball's name or a stroke's id go."""

FIELDS = st.sampled_from([
    ("shot",), ("cue",), ("balls",), ("point",), ("balls", "white"), ("balls", "red", "t"),
    ("balls", "yellow", "x"), ("balls", "white", "t", 1), ("balls", "white", "y", 2),
])


def _put(obj: dict[str, Any], where: tuple[Any, ...], value: Any) -> None:
    for key in where[:-1]:
        obj = obj[key]
    obj[where[-1]] = value


def _acceptable(where: tuple[Any, ...], value: Any) -> bool:
    """Whether ``value`` at ``where`` still makes a valid stroke (then no refusal is due)."""
    if where == ("shot",):
        return isinstance(value, (int, str)) and not isinstance(value, bool) and abs(hash(value)) >= 0 \
            and (not isinstance(value, int) or abs(value) < 10**18)
    if where == ("point",):
        return value is None or isinstance(value, bool)
    if where in (("balls", "white", "y", 2),):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and abs(value) <= 10
    if where == ("balls", "white", "t", 1):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and 0.0001 <= value <= 0.0399
    return False


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(where=FIELDS, value=JUNK)
def test_a_generated_bad_file_is_refused_with_exit_2(tmp_path: Path, where: tuple[Any, ...],
                                                     value: Any) -> None:
    obj = good()
    _put(obj, where, value)
    result = run(tmp_path, (json.dumps(good()) + "\n" + json.dumps(obj) + "\n").encode())
    if _acceptable(where, value):
        assert result.exit_code == 0, result.output
        return
    assert_refused(result)
    assert "line 2" in result.stderr.replace("\n", "")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=200))
def test_arbitrary_bytes_never_end_in_a_traceback(tmp_path: Path, data: bytes) -> None:
    result = run(tmp_path, data)
    assert result.exit_code in (0, 2), (result.exit_code, result.output)
    if result.exit_code == 2:
        assert_refused(result)


@pytest.mark.parametrize(("data", "says"), [
    (b"", "holds no strokes"),
    (b"\n  \n", "holds no strokes"),
    (b"\xff\xfe{}\n", "not UTF-8"),
    (("[" * 100_000 + "]" * 100_000).encode(), "no reader recognises this file"),
    (('{"a": ' * 100_000 + "1" + "}" * 100_000).encode(), "nested deeper than 64 levels"),
    (json.dumps(good()).replace("0.02", "1e-300").encode(), "at least 0.0001 s apart"),
    (json.dumps(good()).replace("0.52", "1" + "0" * 400).encode(), "too large"),
])
def test_files_no_tracker_writes_are_refused(tmp_path: Path, data: bytes, says: str) -> None:
    result = run(tmp_path, data)
    assert_refused(result)
    assert says in result.stderr.replace("\n", "")


def _stroke(tracks: dict[Ball, tuple[np.ndarray, np.ndarray]]) -> TrackedStroke:
    return TrackedStroke(1, Ball.WHITE, {b: BallTrack(t, xy) for b, (t, xy) in tracks.items()})


def _rolling(x0: float, y0: float, t: np.ndarray, rng: np.random.Generator, noise: float) -> np.ndarray:
    x = x0 + rng.normal(0.0, noise, t.size)
    return np.column_stack((x, y0 + 0.3 * t + rng.normal(0.0, noise, t.size)))


def test_samples_scattered_by_centimetres_are_never_judged_with_confidence() -> None:
    """Three balls with 2 cm of noise that never come within 21 cm of each other."""
    rng = np.random.default_rng(3)
    t = np.arange(0.0, 4.0, 0.02)
    stroke = _stroke({b: (t, _rolling(x, 0.3, t, rng, 0.02)) for b, x in
                      ((Ball.WHITE, 0.3), (Ball.YELLOW, 0.7), (Ball.RED, 1.1))})
    ruling = track_stroke(stroke, THREE_CUSHION, LARGE)
    assert ruling.doubtful and ruling.confidence == 0.0
    assert "scatter by about" in ruling.doubts[0].what
    assert not [e for e in ruling.stroke.events if type(e).__name__ == "BallContact"]


def test_two_balls_on_one_spot_are_flagged() -> None:
    t = np.array([0.0, 1.0])
    stroke = _stroke({Ball.WHITE: (np.arange(0.0, 1.0, 0.02), np.column_stack((np.full(50, 0.5),
                                                                               np.linspace(0.5, 1.0, 50)))),
                      Ball.YELLOW: (t, np.array([[0.9, 1.4], [0.9, 1.4]])),
                      Ball.RED: (t, np.array([[0.9, 1.4], [0.9, 1.4]]))})
    ruling = track_stroke(stroke, THREE_CUSHION, LARGE)
    assert ruling.doubtful and ruling.confidence == 0.0
    assert "yellow and red are measured 0 mm apart" in ruling.doubts[0].what


def test_a_ball_jumping_metres_in_a_millisecond_is_flagged() -> None:
    t = np.array([0.0, 0.5, 0.501, 1.0])
    xy = np.array([[0.5, 0.5], [0.5, 0.6], [0.5, 2.5], [0.5, 2.5]])
    still = (np.array([0.0, 1.0]), np.array([[1.0, 0.3], [1.0, 0.3]]))
    stroke = _stroke({Ball.WHITE: (t, xy), Ball.YELLOW: still,
                      Ball.RED: (still[0], still[1] + np.array([0.0, 2.0]))})
    ruling = track_stroke(stroke, THREE_CUSHION, LARGE)
    assert ruling.doubtful and ruling.confidence == 0.0
    assert "white moves 1.90 m in 1 ms" in ruling.doubts[0].what
