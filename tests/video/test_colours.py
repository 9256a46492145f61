"""A stream's colour matrix and range: read from its marks (or its height), and planes
coded otherwise than BT.601 in limited range brought to it before the balls are looked for."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace

import av
import cv2
import numpy as np
import pytest

from carom.core.balls import Ball
from carom.video.balance import Balance
from carom.video.balls import PROTOTYPES, BallFinder
from carom.video.colours import REFERENCE, Coding
from carom.video.frames import Frame, read_frames
from carom.video.overlay import Overlay
from carom.video.render.clip import _coded, _mark
from carom.video.table import cloth_of
from tests.video.conftest import TABLE

HD_709 = Coding("BT.709", False)
WEBCAM = Coding("BT.709", True)
RADIUS = 16.0
"""A ball's radius, full-resolution pixels."""
PICTURE = (160, 240)
"""Full-resolution rows and columns of the made-up picture."""
CLOTH_BGR = (150, 80, 20)
BALLS = {Ball.WHITE: ((214, 214, 214), (40.0, 40.0)), Ball.YELLOW: ((84, 196, 201), (200.0, 40.0)),
         Ball.RED: ((59, 69, 168), (40.0, 124.0))}
"""Each ball's colour (BGR: its prototype's chroma in BT.601) and centre (full-resolution x, y),
outside the cloth's middle half."""


def _picture() -> np.ndarray:
    image = np.full((*PICTURE, 3), CLOTH_BGR, np.uint8)
    for colour, (x, y) in BALLS.values():
        cv2.circle(image, (round(x * 16), round(y * 16)), round(RADIUS * 16), colour, -1, cv2.LINE_AA, 4)
    return image


def _encoded(image: np.ndarray, coding: Coding | None) -> Frame:
    """``image``'s planes as a camera coding colour so gives them (None: as the renderer
    always did, unmarked)."""
    picture = av.VideoFrame.from_ndarray(image, format="bgr24")
    picture = picture.reformat(format="yuv420p") if coding is None else _coded(picture, coding)
    h, w = image.shape[:2]
    planes = [np.frombuffer(p, np.uint8).reshape(-1, p.line_size)[:rows, :w // (1 + (k > 0))].copy()
              for k, (p, rows) in enumerate(zip(picture.planes, (h, h // 2, h // 2), strict=True))]
    return Frame(0, 0.0, planes[0], planes[1], planes[2], REFERENCE if coding is None else coding)


def _write(path: Path, size: tuple[int, int], coding: Coding | None, codec: str = "libx264") -> None:
    """Two frames of a coloured picture, the stream marked with ``coding`` (None: unmarked)."""
    w, h = size
    with av.open(str(path), "w") as container:
        stream = container.add_stream(codec, rate=25)
        stream.width, stream.height = w, h
        stream.pix_fmt = "yuvj420p" if codec == "mjpeg" else "yuv420p"
        stream.time_base = stream.codec_context.time_base = Fraction(1, 25)
        if coding is not None:
            _mark(stream.codec_context, coding)
        image = cv2.resize(_picture(), (w, h))
        for k in range(2):
            frame = av.VideoFrame.from_ndarray(image, format="bgr24")
            frame = _coded(frame, coding) if coding is not None else frame
            frame.pts = k
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)


@pytest.mark.parametrize(("size", "coding", "read"), [
    ((64, 48), HD_709, HD_709), ((64, 48), WEBCAM, WEBCAM),
    ((64, 48), Coding("BT.601", True), Coding("BT.601", True)),
    ((1280, 720), REFERENCE, REFERENCE),
    ((64, 48), None, REFERENCE), ((1280, 720), None, HD_709),
])
def test_the_matrix_and_range_are_read_from_the_stream_or_its_height(
        tmp_path: Path, size: tuple[int, int], coding: Coding | None, read: Coding) -> None:
    """Marked: as marked; unmarked: BT.709 from 720 lines up, BT.601 below, limited range."""
    path = tmp_path / "marked.mp4"
    _write(path, size, coding)
    assert {frame.coding for frame in read_frames(str(path))} == {read}


@pytest.mark.parametrize(("device", "read"), [(False, HD_709), (True, REFERENCE)])
def test_a_usb_cameras_unmarked_hd_picture_is_read_as_bt601(device: bool, read: Coding) -> None:
    """A USB camera's raw YUV names no matrix, and the USB video class's default is BT.601's
    (SMPTE 170M) at any size: an unmarked 720-line picture from a V4L2 device is read so, the
    same picture from a file by the HD convention."""
    from carom.video.frames import coding_of

    picture = av.VideoFrame(1280, 720, "yuyv422")
    assert coding_of(picture, device=device) == read


def test_a_webcams_mjpeg_is_read_full_range(tmp_path: Path) -> None:
    path = tmp_path / "webcam.avi"
    _write(path, (64, 48), None, "mjpeg")
    assert {frame.coding.full for frame in read_frames(str(path))} == {True}


def test_marking_the_renderers_own_coding_changes_no_sample(tmp_path: Path) -> None:
    """The renderer's BT.601 limited clips, now marked so, decode to the same planes as
    unmarked, and are read untouched."""
    unmarked, marked = tmp_path / "unmarked.mp4", tmp_path / "marked.mp4"
    _write(unmarked, (1280, 720), None)
    _write(marked, (1280, 720), REFERENCE)
    for before, after in zip(read_frames(str(unmarked)), read_frames(str(marked)), strict=True):
        assert after.coding == REFERENCE
        assert after.recoded() is after
        for plane in "yuv":
            assert np.array_equal(getattr(before, plane), getattr(after, plane))


@pytest.mark.parametrize("coding", [HD_709, WEBCAM], ids=str)
def test_planes_coded_otherwise_are_brought_to_bt601_limited(coding: Coding) -> None:
    reference, other = _encoded(_picture(), None), _encoded(_picture(), coding)
    assert not np.array_equal(other.u, reference.u)
    recoded = other.recoded()
    # a rounding off but on the balls' edges: luma takes its share of colour from the chroma
    # of its 2 × 2 pixels, and libswscale averages chroma there otherwise in full range
    for plane in "yuv":
        off = np.abs(getattr(recoded, plane).astype(int) - getattr(reference, plane))
        assert np.percentile(off, 95) <= 1 and off.max() <= 12
    assert np.percentile(np.abs(other.bgr().astype(int) - reference.bgr()), 95) <= 3


def _finder(frame: Frame, balance: Balance | None = None, overlay: Overlay | None = None) -> BallFinder:
    h, w = PICTURE
    quad = np.array([[0.0, 0.0], [w - 1.0, 0.0], [w - 1.0, h - 1.0], [0.0, h - 1.0]])
    registration = SimpleNamespace(
        table=TABLE, cloth=cloth_of([frame], quad), to_table=lambda pixels, z: pixels / 1000.0,
        ball_radius_pixels=lambda points: np.full(len(points), RADIUS))
    finder = BallFinder(registration, (0, 0, w // 2, h // 2), np.ones((h // 2, w // 2), np.uint8),  # type: ignore[arg-type]
                        RADIUS / 2.0, {b: np.array(p) for b, p in PROTOTYPES.items()}, balance=balance)
    finder.show(overlay)
    return finder


@pytest.mark.parametrize("coding", [None, HD_709, WEBCAM], ids=str)
def test_balls_coded_bt709_are_found_with_their_identities(coding: Coding | None) -> None:
    """The balls in their places with their identities, and the cloth as the renderer's
    coding shows it (read as BT.601 limited, as before, the cloth of the BT.709 picture was
    0.05 off, of the full-range one 0.06)."""
    frame = _encoded(_picture(), coding)
    finder = _finder(frame)
    blobs = finder.find(frame)
    assert sorted(b.ball.value for b in blobs) == sorted(b.value for b in BALLS)
    for blob in blobs:
        assert np.hypot(*(blob.centre - BALLS[blob.ball][1])) < 0.3
        assert not blob.mixed
    reference = _finder(_encoded(_picture(), None)).cloth
    assert np.hypot(finder.cloth.u - reference.u, finder.cloth.v - reference.v) < 0.01


def test_the_cast_and_the_coding_are_one_map_and_the_panel_follows_them() -> None:
    """A cast undone on planes coded BT.709: one map, as the two one after the other; a
    panel measured on the camera's levels carried through both."""
    frame = _encoded(_picture(), HD_709)
    balance = Balance.of((1.2, 1.0, 0.8))
    panel = Overlay(0, 0, 64, 64, 0.4, (60.0, 80.0, 70.0), 1.0)
    finder = _finder(frame, balance, panel)
    assert finder.transform is not None and finder.overlay is not None
    y, u, v = finder.planes(frame)
    recoded = frame.recoded()
    to_reference = HD_709.to_reference()
    assert to_reference is not None
    seen = replace(panel, colour=to_reference.panel(panel.alpha, panel.colour))
    steps = BallFinder(finder.registration, finder.box, finder.mask, finder.radius, finder.prototypes,
                       balance=balance, overlay=balance.panel(seen))
    y2, u2, v2 = steps.planes(recoded)
    assert np.abs(y - y2).max() <= 3.0
    assert np.abs(u - u2).max() < 0.05 and np.abs(v - v2).max() < 0.05
