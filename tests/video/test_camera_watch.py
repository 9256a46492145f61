"""Whether the camera still sees the table: a picture that changed because someone stands
in front of the camera is not a camera that moved (the table is looked for again, and
the video refused only when it stays unfound)."""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from carom.video import pipeline
from carom.video.errors import VideoError
from carom.video.frames import Frame, read_frames
from carom.video.pipeline import UNFOUND_FOR, CameraWatch, Settings, track_video
from carom.video.render.clip import Truth
from tests.video.conftest import TABLE

FIRST = object()


def _frame(time: float) -> Frame:
    blank = np.zeros((4, 4), np.uint8)
    return Frame(int(time * 25), time, blank, blank, blank)


def _watch(monkeypatch: pytest.MonkeyPatch, shifts: Iterator[float], found: Iterator[object],
           from_confirmed: float = math.inf) -> CameraWatch:
    """A watch whose picture checks give ``shifts`` and whose searches give ``found`` (the
    first registration, another one, or nothing: ``None``); a picture lies
    ``from_confirmed`` from the last one the table was found again in where it was."""
    monkeypatch.setattr(pipeline, "camera_shift", lambda registration, frame: next(shifts))
    monkeypatch.setattr(pipeline, "shrunk", lambda frame: frame.y, raising=False)
    monkeypatch.setattr(pipeline, "picture_shift", lambda ref, now: from_confirmed, raising=False)

    def search(frames: list[Frame], table: object, prior: object) -> object:
        result = next(found)
        if result is None:
            raise VideoError("no table found: the cloth's edge is not clear along a side")
        return result
    monkeypatch.setattr(pipeline, "find_table", search)
    monkeypatch.setattr(pipeline, "_shift", lambda a, b: 0.0 if b is FIRST else 50.0)
    return CameraWatch(FIRST, Settings(TABLE), "hall.mp4")  # type: ignore[arg-type]


def test_a_table_unfound_behind_someone_is_looked_for_again(monkeypatch: pytest.MonkeyPatch) -> None:
    watch = _watch(monkeypatch, iter([9.0, 9.0, 9.0, 9.0, 0.0]), iter([None, None, None]))
    assert watch.check(_frame(1.0)) is None  # one check unlike the first picture: not yet searched
    note = watch.check(_frame(2.0))
    assert note is not None and "not found in it again: the camera may have moved" in str(note)
    assert watch.check(_frame(3.0)) is not None and watch.unfound_since == 2.0
    assert watch.check(_frame(4.0)) is not None
    assert watch.check(_frame(5.0)) is None and watch.unfound_since is None  # the picture is back
    assert watch.registration is FIRST and watch.moves == []


def test_a_table_unfound_for_five_seconds_refuses_the_video(monkeypatch: pytest.MonkeyPatch) -> None:
    watch = _watch(monkeypatch, iter([9.0] * 20), iter([None] * 20))
    with pytest.raises(VideoError, match=rf"frame \d+ \(7\.000 s\): the camera moved and the table is not "
                                         rf"found again for {UNFOUND_FOR:.0f} s"):
        for second in range(1, 20):
            watch.check(_frame(float(second)))


def test_a_table_found_where_it_was_is_no_move_however_often(monkeypatch: pytest.MonkeyPatch) -> None:
    watch = _watch(monkeypatch, iter([9.0] * 20), iter([FIRST] * 20))
    for second in range(1, 20):
        assert watch.check(_frame(float(second))) is None
    assert watch.moves == [] and watch.registration is FIRST


def test_a_picture_like_the_last_one_the_table_was_found_in_is_not_searched_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Someone stays in front of the camera: the table is searched for once and found where
    it was; the pictures after, unlike the first but like that one, need no search (before,
    one every two seconds: 48 CPU s for a 50 s clip instead of 17)."""
    watch = _watch(monkeypatch, iter([9.0] * 20), iter([FIRST]), from_confirmed=0.5)
    for second in range(1, 20):
        assert watch.check(_frame(float(second))) is None
    assert watch.moves == [] and watch.confirmed is not None


def test_a_camera_moving_while_someone_stands_in_front_is_still_noticed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = object()
    watch = _watch(monkeypatch, iter([9.0] * 20), iter([FIRST, elsewhere]), from_confirmed=9.0)
    notes = [watch.check(_frame(float(second))) for second in range(1, 5)]
    assert notes[3] is not None and "the camera moved near frame 100 (4.000 s)" in str(notes[3])
    assert watch.registration is elsewhere and watch.confirmed is None


def test_a_table_found_elsewhere_is_a_move_and_three_a_minute_refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    elsewhere = [object() for _ in range(20)]
    watch = _watch(monkeypatch, iter([9.0] * 20), iter(elsewhere))
    assert watch.check(_frame(1.0)) is None
    note = watch.check(_frame(2.0))
    assert str(note) == "the camera moved near frame 50 (2.000 s); the table was found again"
    assert watch.registration is elsewhere[0]
    with pytest.raises(VideoError, match=r"the camera moves \(3 times in 60 s\)"):
        for second in range(3, 20):
            watch.check(_frame(float(second)))


def test_a_picture_hidden_for_three_seconds_is_tracked_through(clip: tuple[Path, Truth]) -> None:
    """The clip's picture black for three seconds in the middle of its stroke (someone right
    in front of the lens): the table is not found in it, the video is not refused, and the
    stroke is kept, doubtful, saying why (before, the first such check refused the video)."""
    def hidden() -> Iterator[Frame]:
        for frame in read_frames(str(clip[0])):
            if 2.5 <= frame.time <= 5.5:
                dark = np.zeros_like(frame.y)
                frame = Frame(frame.index, frame.time, dark, frame.u, frame.v)
            yield frame

    lines = list(track_video(str(clip[0]), Settings(TABLE), frames=hidden))
    assert lines, "the stroke is kept"
    doubts = [d["what"] for line in lines for d in line["doubts"]]
    assert any("the table was not found in it again: the camera may have moved" in d for d in doubts), doubts
