"""The tracked-data library interface: readers, the registry, and errors that name the
line and the field."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.track import READERS, Reader, TrackedStroke, TrackFormatError, read_lines, read_tracked, register
from carom.track.readers import NumberedLines
from carom.track.samples import BallTrack


def line(**changes: object) -> str:
    obj: dict[str, object] = {
        "shot": 7, "cue": "white", "point": True,
        "balls": {
            "white": {"t": [0.0, 0.02, 0.04], "x": [0.5, 0.52, 0.54], "y": [0.7, 0.7, 0.7]},
            "yellow": {"t": [0.0, 1.0], "x": [0.71, 0.71], "y": [0.71, 0.71]},
            "red": {"t": [0.0, 1.0], "x": [0.71, 0.71], "y": [2.13, 2.13]},
        },
    }
    obj.update(changes)
    return json.dumps(obj)


def test_the_real_match_file_reads(real_match: Path) -> None:
    strokes = list(read_tracked(real_match))
    assert len(strokes) == 91
    first = strokes[0]
    assert first.shot == 545599 and first.cue is Ball.WHITE and first.line == 1
    assert set(first.balls) == {Ball.WHITE, Ball.YELLOW, Ball.RED}
    assert all(np.all(np.diff(track.t) > 0) for s in strokes for track in s.balls.values())
    assert sum(1 for s in strokes if s.label is None) == 6


def test_a_line_becomes_a_stroke() -> None:
    (stroke,) = read_lines([line(extra_field=3)])
    assert stroke.shot == 7 and stroke.cue is Ball.WHITE and stroke.label is True
    assert stroke.balls[Ball.WHITE].xy.shape == (3, 2)
    assert stroke.extra == {"extra_field": 3}


def test_blank_lines_are_skipped_and_lines_numbered() -> None:
    strokes = list(read_lines([line(), "\n", line(shot=8)]))
    assert [(s.shot, s.line) for s in strokes] == [(7, 1), (8, 3)]


def test_point_is_optional() -> None:
    obj = json.loads(line())
    del obj["point"]
    (stroke,) = read_lines([json.dumps(obj)])
    assert stroke.label is None


BAD = [
    ("not json", "line 2: not JSON"),
    ("[1, 2]", "line 2: expected a JSON object"),
    (line(shot=None), "line 2: shot: expected a number or a string"),
    (line(cue="blue"), 'line 2: cue: unknown ball "blue"'),
    (line(balls=[]), "line 2: balls: expected an object of ball tracks"),
    (line(point="yes"), 'line 2: point: expected true, false or null, got "yes"'),
]


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_lines_name_the_line_and_the_field(text: str, message: str) -> None:
    with pytest.raises(TrackFormatError) as caught:
        list(read_lines([line(), text]))
    assert str(caught.value).startswith(message)
    assert caught.value.line == 2


def _with_ball(name: str, track: object) -> str:
    obj = json.loads(line())
    obj["balls"][name] = track
    return json.dumps(obj)


@pytest.mark.parametrize(("track", "field", "reason"), [
    ({"t": [0.0, 0.1], "x": [0.5, 0.6], "y": [0.5]}, "balls.red", "t, x and y differ in length"),
    ({"t": [0.0, 0.1], "x": [0.5, "a"], "y": [0.5, 0.5]}, "balls.red.x[1]", "expected a finite number"),
    ({"t": [0.0, 0.0], "x": [0.5, 0.6], "y": [0.5, 0.5]}, "balls.red.t[1]", "times must increase"),
    ({"t": [], "x": [], "y": []}, "balls.red.t", "expected a non-empty list"),
    ({"t": [0.0], "x": [0.5]}, "balls.red.y", "expected a non-empty list"),
    ([1, 2], "balls.red", "expected"),
])
def test_bad_tracks_name_the_field(track: object, field: str, reason: str) -> None:
    with pytest.raises(TrackFormatError) as caught:
        list(read_lines([_with_ball("red", track)]))
    assert caught.value.field == field
    assert reason in caught.value.reason
    assert str(caught.value).startswith(f"line 1: {field}: ")


def test_a_missing_ball_is_refused() -> None:
    obj = json.loads(line())
    del obj["balls"]["red"]
    with pytest.raises(TrackFormatError, match="line 1: balls: no track for red"):
        list(read_lines([json.dumps(obj)]))


def test_nan_and_numbers_beyond_a_float_are_refused() -> None:
    """The one reader of JSON (``carom.core.inputs``) refuses them, with the line."""
    with pytest.raises(TrackFormatError, match="line 1: NaN is not a number JSON allows"):
        list(read_lines([line().replace("0.52", "NaN")]))
    with pytest.raises(TrackFormatError, match=r"line 1: balls.white.x\[1\]: 1e400 is too large"):
        list(read_lines([line().replace("0.52", "1e400")]))


@pytest.mark.parametrize(("track", "field", "reason"), [
    ({"t": [0.0, 1e-300], "x": [0.5, 0.6], "y": [0.5, 0.5]}, "balls.red.t[1]", "at least 0.0001 s apart"),
    ({"t": [0.0, 1e9], "x": [0.5, 0.6], "y": [0.5, 0.5]}, "balls.red.t[1]", "out of range"),
    ({"t": [0.0, 0.1], "x": [500.0, 600.0], "y": [0.5, 0.5]}, "balls.red.x[0]", "positions are in metres"),
])
def test_samples_beyond_any_tracker_are_refused(track: object, field: str, reason: str) -> None:
    with pytest.raises(TrackFormatError) as caught:
        list(read_lines([_with_ball("red", track)]))
    assert caught.value.field == field and reason in caught.value.reason


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "empty.jsonl"
    path.write_text("\n\n", encoding="utf-8")
    with pytest.raises(TrackFormatError, match="holds no strokes"):
        list(read_tracked(path))


def test_bytes_that_are_not_utf8_name_their_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.jsonl"
    latin = line().replace('"shot": 7', '"shot": "caf\u00e9"').encode("latin-1")
    path.write_bytes(line().encode() + b"\n" + latin + b"\n")
    with pytest.raises(TrackFormatError, match="line 2: not UTF-8 text"):
        list(read_tracked(path))


def test_an_unrecognised_file_is_refused() -> None:
    with pytest.raises(TrackFormatError, match="no reader recognises this file"):
        list(read_lines(["x,y,t"]))
    with pytest.raises(TrackFormatError, match="unknown tracked format 'nope'"):
        list(read_lines([line()], "nope"))


def test_a_new_reader_plugs_in() -> None:
    """A CSV tracker: ``shot,cue,ball,t,x,y`` rows, one stroke per shot."""

    def sniff(first: str) -> bool:
        return first.startswith("shot,cue,ball,t,x,y")

    def read(lines: NumberedLines) -> Iterator[TrackedStroke]:
        rows: dict[str, list[tuple[int, list[str]]]] = {}
        for number, text in lines:
            if not text.startswith("shot,"):
                rows.setdefault(text.split(",")[0], []).append((number, text.strip().split(",")))
        for shot, items in rows.items():
            balls: dict[Ball, list[tuple[float, float, float]]] = {}
            for _, (_, _, ball, t, x, y) in items:
                balls.setdefault(Ball(ball), []).append((float(t), float(x), float(y)))
            tracks = {b: BallTrack(np.array([r[0] for r in v]), np.array([[r[1], r[2]] for r in v]))
                      for b, v in balls.items()}
            yield TrackedStroke(shot, Ball(items[0][1][1]), tracks, line=items[0][0])

    register(Reader("test-csv", "rows of shot,cue,ball,t,x,y", sniff, read))
    try:
        text = ["shot,cue,ball,t,x,y", "1,white,white,0,0.5,0.5", "1,white,white,0.1,0.6,0.5",
                "1,white,yellow,0,1,1", "1,white,red,0,1,2"]
        (stroke,) = read_lines(text)
        assert stroke.shot == "1" and len(stroke.balls[Ball.WHITE]) == 2
        assert next(iter(read_lines(text, "test-csv"))).shot == "1"
    finally:
        READERS.pop("test-csv")
