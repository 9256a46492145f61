"""A field of an interlaced picture read as its own rows: row r of a field is the picture's
row 2r + field, in its planes, in the whole picture filled in from it, and in the centre of a
ball found in it."""

from __future__ import annotations

import av
import numpy as np
import pytest

from carom.core.balls import Ball
from carom.video import frames
from carom.video.balls import PROTOTYPES, BallFinder
from carom.video.frames import Frame
from carom.video.overlay import Overlay
from tests.video.made_up import CLOTH, RADIUS, finder

HEIGHT, WIDTH = 160, 240
"""The whole picture's rows and columns."""


def _finder() -> BallFinder:
    return finder(HEIGHT // 2, WIDTH // 2, fields=True)


def _planes(centre: tuple[float, float]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A red ball on the cloth at ``centre`` (full-resolution x, y; pixel k's middle at k),
    its edge shared out by a 4 × 4 sampling of each pixel: luma, U and V at full resolution."""
    steps = (np.arange(4) + 0.5) / 4.0 - 0.5
    rows, cols = np.mgrid[0:HEIGHT, 0:WIDTH].astype(float)
    share = np.zeros((HEIGHT, WIDTH))
    for dy in steps:
        for dx in steps:
            share += ((cols + dx - centre[0]) ** 2 + (rows + dy - centre[1]) ** 2 <= RADIUS ** 2) / 16.0
    cloth_luma, ball_luma = CLOTH.luma + 16.0, 150.0 + 16.0
    red = PROTOTYPES[Ball.RED]
    luma = cloth_luma + share * (ball_luma - cloth_luma)
    u = CLOTH.u * cloth_luma + share * (red[0] * ball_luma - CLOTH.u * cloth_luma)
    v = CLOTH.v * cloth_luma + share * (red[1] * ball_luma - CLOTH.v * cloth_luma)
    return luma - 16.0, u + 128.0, v + 128.0


def _halved(plane: np.ndarray) -> np.ndarray:
    return plane.reshape(plane.shape[0] // 2, 2, plane.shape[1] // 2, 2).mean(axis=(1, 3))


def _coded(planes: list[np.ndarray], field: int | None) -> Frame:
    return Frame(0, 0.0, *(np.clip(np.round(p), 0, 255).astype(np.uint8) for p in planes), field=field)


def _whole(centre: tuple[float, float]) -> Frame:
    y, u, v = _planes(centre)
    return _coded([y, _halved(u), _halved(v)], None)


def _field(centre: tuple[float, float], field: int) -> Frame:
    """One field of the picture: its own rows, its chroma sampled from them only."""
    y, u, v = (p[field::2] for p in _planes(centre))
    return _coded([y, _halved(u), _halved(v)], field)


@pytest.mark.parametrize("field", [0, 1])
def test_a_balls_centre_in_a_field_is_where_it_is_in_the_picture(field: int) -> None:
    """Found in a field's own rows (half as many), the ball's centre is the picture's to
    half a pixel, and on the whole (over a pixel's places) to a tenth: taken as lying where
    the field's rows are numbered (its row r at 2r), it would be half a pixel off on the
    whole, up in one field and down in the other."""
    errors = []
    for k in range(8):
        centre = (110.0 + 0.3 * k, 76.0 + 0.25 * k)
        blobs = _finder().find(_field(centre, field))
        assert [b.ball for b in blobs] == [Ball.RED]
        assert blobs[0].share == pytest.approx(1.0, abs=0.25)
        errors.append(blobs[0].centre - centre)
    assert np.abs(errors).max() < 0.5
    assert np.abs(np.mean(errors, axis=0)).max() < 0.1


def test_a_fields_rows_lie_in_their_place_in_the_whole_picture() -> None:
    y, u, v = (np.clip(np.round(p), 0, 255).astype(np.uint8) for p in _planes((120.0, 80.0)))
    for field in (0, 1):
        frame = Frame(3, 0.1, y[field::2], u[field::2][:, ::2], v[field::2][:, ::2], field=field)
        whole = frame.whole()
        assert whole.field is None and whole.y.shape == (HEIGHT, WIDTH) and frame.height == HEIGHT
        assert np.array_equal(whole.y[field::2], y[field::2])
        assert np.array_equal(whole.u[field::2], u[field::2][:, ::2])
        between = whole.y[1 + field:HEIGHT - 1 + field:2].astype(int)  # the others, each between two
        mean = (y[field::2][:-1].astype(int) + y[field::2][1:].astype(int)) / 2.0
        assert np.abs(between - mean).max() <= 0.5
    assert Frame(0, 0.0, y, u[::2, ::2], v[::2, ::2]).whole().y is y


def test_a_panel_over_a_field_covers_its_own_rows_under_the_panels() -> None:
    panel = Overlay(10, 7, 50, 21, 0.6, (20.0, 0.0, 0.0), 1.0)
    for field in (0, 1):
        own = panel.in_field(field)
        under = [r for r in range(20) if panel.y0 <= 2 * r + field < panel.y1]
        assert (own.y0, own.y1) == (under[0], under[-1] + 1)
        assert (own.x0, own.x1) == (panel.x0, panel.x1)


def test_a_studios_4_2_2_fields_keep_their_own_colour_rows() -> None:
    """A 4:2:2 picture's chroma has a row for each of the picture's: each field's colour is
    taken from its own rows only, halved within them."""
    picture = av.VideoFrame(64, 48, "yuv422p")
    rows = np.arange(48)[:, None]
    luma = np.repeat(rows, 64, axis=1).astype(np.uint8)
    chroma = np.repeat(np.where(rows % 2 == 0, 60, 200), 32, axis=1).astype(np.uint8)
    for plane, values in zip(picture.planes, (luma, chroma, chroma), strict=True):
        assert plane.line_size == values.shape[1]
        plane.update(values.tobytes())
    for field, colour in ((0, 60), (1, 200)):
        frame = frames._planes(picture, 0, 0.0, "studio.mp4", field)
        assert frame.field == field and frame.y.shape == (24, 64) and frame.u.shape == (12, 32)
        assert np.array_equal(frame.y[:, 0], np.arange(field, 48, 2))
        assert set(frame.u.ravel()) == set(frame.v.ravel()) == {colour}


def test_a_studios_4_2_2_field_halves_its_own_colour_rows_in_pairs() -> None:
    """Each of a 4:2:2 field's colour rows is the mean of two of the field's own rows (the
    picture's rows 4r + field and 4r + 2 + field), rounded half up."""
    picture = av.VideoFrame(64, 48, "yuv422p")
    rows = np.arange(48)[:, None]
    chroma = np.repeat(3 * rows + 1, 32, axis=1).astype(np.uint8)
    for plane, values in zip(picture.planes, (np.zeros((48, 64), np.uint8), chroma, chroma), strict=True):
        plane.update(values.tobytes())
    for field in (0, 1):
        frame = frames._planes(picture, 0, 0.0, "studio.mp4", field)
        own = 3 * np.arange(field, 48, 2) + 1
        expected = (own[0::2] + own[1::2] + 1) // 2
        assert np.array_equal(frame.u[:, 0], expected) and np.array_equal(frame.v[:, 5], expected)
