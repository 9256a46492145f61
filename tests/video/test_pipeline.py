"""A rendered clip end to end: the table, the balls, the stroke, the ruling."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from carom.core.balls import BALLS, Ball
from carom.track import read_lines, track_sequence
from carom.video.errors import VideoError
from carom.video.frames import Frame, read_frames
from carom.video.pipeline import Settings, track_video
from carom.video.render.clip import Truth
from tests.video.conftest import RULES, TABLE


@pytest.fixture(scope="module")
def tracked(clip: tuple[Path, Truth]) -> list[dict]:
    return list(track_video(str(clip[0]), Settings(TABLE)))


def _errors(truth: Truth, line: dict) -> dict[Ball, np.ndarray]:
    out = {}
    for name, cols in line["balls"].items():
        ball = Ball(name)
        rows = []
        for t, x, y in zip(cols["t"], cols["x"], cols["y"], strict=True):
            k = int(np.argmin(np.abs(truth.times - (t + line["video"]["time"]))))
            rows.append([np.hypot(x - truth.centres[b][k, 0], y - truth.centres[b][k, 1]) for b in BALLS])
        out[ball] = np.array(rows)
    return out


def test_the_one_stroke_is_found_with_its_cue_ball_player_and_inning(clip: tuple[Path, Truth],
                                                                    tracked: list[dict]) -> None:
    truth = clip[1].match.strokes[0]
    assert len(tracked) == 1
    line = tracked[0]
    assert line["cue"] == truth.cue.value and line["player"] == truth.player and line["inning"] == 1
    assert line["doubts"] == []
    left = line["video"]["time"] + 0.3  # the samples begin 0.3 s before the cue ball's last still one
    assert truth.start - 0.3 < left <= truth.start + 0.02


def test_every_sample_lies_near_its_own_ball_and_never_nearer_another(clip: tuple[Path, Truth],
                                                                      tracked: list[dict]) -> None:
    errors = _errors(clip[1], tracked[0])
    own = np.concatenate([rows[:, BALLS.index(ball)] for ball, rows in errors.items()])
    assert np.median(own) < 0.006  # 960×540: a pixel is 3.5 mm here
    assert np.percentile(own, 99) < 0.015
    for ball, rows in errors.items():
        others = np.delete(rows, BALLS.index(ball), axis=1)
        assert np.all(rows[:, BALLS.index(ball)] < others.min(axis=1)), f"{ball} swapped"
    assert all(min(cols["sd"]) > 0.0 for cols in tracked[0]["balls"].values())


def test_the_auto_referee_rules_on_the_tracked_stroke_as_on_the_true_one(clip: tuple[Path, Truth],
                                                                         tracked: list[dict]) -> None:
    text = [json.dumps(line) for line in tracked]
    ruling = next(iter(track_sequence(read_lines(text), RULES, TABLE)))
    assert ruling.points == clip[1].match.strokes[0].verdict.points


def test_a_video_that_ends_in_a_stroke_keeps_it_doubtful(clip: tuple[Path, Truth]) -> None:
    end = clip[1].match.strokes[0].start + 1.0

    def cut() -> Iterator[Frame]:
        for frame in read_frames(str(clip[0])):
            if frame.time > end:
                return
            yield frame

    lines = list(track_video(str(clip[0]), Settings(TABLE), frames=cut))
    assert len(lines) == 1
    assert "before the balls came to rest" in lines[0]["doubts"][0]["what"]


def test_a_camera_that_keeps_moving_is_refused_naming_the_frame(clip: tuple[Path, Truth]) -> None:
    def panning() -> Iterator[Frame]:
        for frame in read_frames(str(clip[0])):
            shift = int(max(0.0, frame.time - 1.0) * 40) * 2  # 80 pixels a second after the first
            yield Frame(frame.index, frame.time, np.roll(frame.y, shift, axis=1),
                        np.roll(frame.u, shift // 2, axis=1), np.roll(frame.v, shift // 2, axis=1))

    with pytest.raises(VideoError, match=r"stroke\.mp4: frame \d+ \(\d+\.\d+ s\): the camera mov"):
        list(track_video(str(clip[0]), Settings(TABLE), frames=panning))


def test_a_picture_without_a_table_is_refused(tmp_path: Path) -> None:
    grey = np.full((540, 960, 3), 120, np.uint8)
    from carom.video.frames import from_bgr

    frames = [from_bgr(k, k / 25.0, grey) for k in range(60)]
    with pytest.raises(VideoError, match="no table found"):
        list(track_video("grey.mp4", Settings(TABLE), frames=lambda: iter(frames)))
