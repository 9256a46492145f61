"""Reading frames: their own time stamps, interlaced video field by field, and what is not
a video."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from carom.core.balls import Ball
from carom.video.errors import VideoError
from carom.video.frames import Frame, read_frames
from carom.video.render.clip import _woven, render_clip
from carom.video.render.look import Look, draw_look
from carom.video.render.play import Match, play_match
from tests.video.conftest import RULES, SEED, SIZE, TABLE


def _write(path: Path, stamps: list[float], fmt: str | None = None) -> None:
    with av.open(str(path), "w", format=fmt) as container:
        stream = container.add_stream("libx264", rate=30)
        stream.width, stream.height, stream.pix_fmt = 64, 48, "yuv420p"
        stream.time_base = stream.codec_context.time_base = Fraction(1, 90_000)
        for k, t in enumerate(stamps):
            frame = av.VideoFrame.from_ndarray(np.full((48, 64, 3), 40 + k, np.uint8), format="bgr24")
            frame.pts, frame.time_base = round(t * 90_000), Fraction(1, 90_000)
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


def test_each_frame_keeps_its_own_time_at_a_variable_rate(tmp_path: Path) -> None:
    stamps = [0.0, 0.031, 0.07, 0.1, 0.141, 0.2, 0.215, 0.26]
    path = tmp_path / "vfr.mp4"
    _write(path, stamps)
    times = [f.time for f in read_frames(str(path))]
    assert times == pytest.approx(stamps, abs=2e-5)


def test_a_file_that_is_not_a_video_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "notes.mp4"
    path.write_text("not a video\n")
    with pytest.raises(VideoError, match=r"notes.mp4: cannot be read as a video"):
        list(read_frames(str(path)))
    with pytest.raises(VideoError, match="no such file"):
        list(read_frames(str(tmp_path / "missing.mp4")))


def test_a_truncated_stream_gives_the_frames_before_its_end(tmp_path: Path) -> None:
    path = tmp_path / "cut.ts"
    _write(path, [k / 30 for k in range(60)], "mpegts")
    whole = path.read_bytes()
    path.write_bytes(whole[: len(whole) // 2])
    frames = []
    try:
        for frame in read_frames(str(path)):
            frames.append(frame)
    except VideoError as error:  # a decoder may notice the cut, and must then name the frame
        assert error.frame == len(frames)
    assert 5 < len(frames) < 60
    assert [f.index for f in frames] == list(range(len(frames)))


def test_a_progressive_clip_is_read_as_decoded(tmp_path: Path) -> None:
    path = tmp_path / "progressive.mp4"
    _write(path, [k / 30 for k in range(12)])
    with av.open(str(path)) as container:
        decoded = [picture.to_ndarray() for picture in container.decode(video=0)]
    frames = list(read_frames(str(path)))
    assert len(frames) == len(decoded) == 12
    for frame, planes in zip(frames, decoded, strict=True):
        woven = np.concatenate((frame.y, frame.u.reshape(-1, frame.width), frame.v.reshape(-1, frame.width)))
        assert np.array_equal(woven, planes)


def test_an_interlaced_frame_samples_each_fields_colour_on_its_own_lines() -> None:
    red = np.zeros((48, 64, 3), np.uint8)
    red[..., 2] = 200
    blue = np.zeros((48, 64, 3), np.uint8)
    blue[..., 0] = 200
    planes = _woven(red, blue).to_ndarray()
    y, u = planes[:48], planes[48:60].reshape(24, 32)
    assert len(set(u[0::2].ravel())) == len(set(u[1::2].ravel())) == 1  # no row mixes the two fields
    assert u[0, 0] < 128 < u[1, 0]  # red's blue-difference below the middle, blue's above
    assert len(set(y[0::2].ravel())) == len(set(y[1::2].ravel())) == 1 and y[0, 0] != y[1, 0]


def test_an_interlaced_422_frame_keeps_a_colour_row_for_each_line_of_its_field() -> None:
    red = np.zeros((48, 64, 3), np.uint8)
    red[..., 2] = 200
    blue = np.zeros((48, 64, 3), np.uint8)
    blue[..., 0] = 200
    woven = _woven(red, blue, pixels="yuv422p")
    assert woven.format.name == "yuv422p"
    planes = woven.to_ndarray()
    u = planes[48:72].reshape(48, 32)
    assert len(set(u[0::2].ravel())) == len(set(u[1::2].ravel())) == 1  # no row mixes the two fields
    assert u[0, 0] < 128 < u[1, 0]


def _ball_centre(frame: Frame, look: Look, match: Match, ball: Ball) -> np.ndarray:
    """Where ``ball`` shows in ``frame``: the centroid of what is brighter than the cloth near
    its true place, on the plane of the balls' centres (m)."""
    r = TABLE.ball_radius
    true = match.positions(frame.time)[ball]
    at = look.camera.project(np.array([[true[0], true[1], r]]))[0]
    radius = float(np.linalg.norm(look.camera.project(np.array([[true[0] + r, true[1], r]]))[0] - at))
    x0, y0, side = int(at[0] - 3 * radius), int(at[1] - 3 * radius), int(6 * radius)
    window = frame.whole().y[y0: y0 + side, x0: x0 + side].astype(float)
    weight = np.clip(window - np.median(window) - 30.0, 0.0, None)
    rows, columns = np.mgrid[0: window.shape[0], 0: window.shape[1]]
    total = weight.sum()
    pixel = np.array([[(weight * columns).sum() / total + x0, (weight * rows).sum() / total + y0]])
    return look.camera.to_plane(pixel, r)[0]


def test_an_interlaced_clip_is_read_field_by_field(tmp_path: Path) -> None:
    path = tmp_path / "interlaced.mp4"
    match = play_match(SEED, 1, RULES, TABLE, lead=0.8, pause=0.8, speeds=(0.8, 1.0))
    look = replace(draw_look(SEED, TABLE, "overhead", SIZE, 25.0), interlaced=True)
    stroke = match.strokes[0]
    truth = render_clip(path, match, look, SEED, seconds=stroke.start + 0.4)
    frames = list(read_frames(str(path)))
    assert len(frames) == 2 * len(truth.times)
    times = np.array([f.time for f in frames])
    assert np.allclose(times[0::2], truth.times, atol=2e-5)  # the top field at its frame's time
    assert np.allclose(times[1::2], truth.times + 0.5 / 25.0, atol=2e-5)  # the bottom one half a frame later
    moving = [f for f in frames if f.time > stroke.start + 0.05]
    seen = np.array([_ball_centre(f, look, match, stroke.cue) for f in moving])
    true = np.array([match.positions(f.time)[stroke.cue] for f in moving])
    steps = np.linalg.norm(np.diff(true, axis=0), axis=1)
    assert steps.min() > 0.012  # the cue ball moves more than a third of its radius from field to field
    assert np.linalg.norm(seen - true, axis=1).max() < 0.005
    assert np.abs(np.diff(seen - true, axis=0)).max() < 0.002  # no step back and forth between fields
