"""Reading frames: their own time stamps, and what is not a video."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from carom.video.errors import VideoError
from carom.video.frames import read_frames


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
