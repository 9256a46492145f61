"""Balls found in made-up frames: a ball's streak is its colour mixed with the cloth's."""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.video.balls import PROTOTYPES, BallFinder
from carom.video.frames import Frame
from tests.video.made_up import CLOTH, RADIUS, finder

SIZE = (80, 120)
"""Half-resolution rows and columns."""


def _finder() -> BallFinder:
    return finder(*SIZE)


def _swept(centre: tuple[float, float], length: float) -> np.ndarray:
    """Each half-resolution pixel's share of the exposure under a ball that runs
    ``length`` half-resolution pixels along x, centred on ``centre``."""
    rows, cols = np.mgrid[0:SIZE[0], 0:SIZE[1]].astype(float)
    r = RADIUS / 2.0
    chord = np.sqrt(np.clip(r * r - (rows - centre[1]) ** 2, 0.0, None))
    start, end = centre[0] - length / 2.0, centre[0] + length / 2.0
    covered = np.clip(np.minimum(cols + chord, end) - np.maximum(cols - chord, start), 0.0, None)
    return covered / length if length > 0 else (chord >= np.abs(cols - centre[0])).astype(float)


def _frame(*balls: tuple[np.ndarray, float, tuple[float, float]]) -> Frame:
    """The cloth with each ball (its share per pixel, its luma and its chroma over luma)
    mixed in: luma and U, V less 128 mix in proportion."""
    cloth_luma = CLOTH.luma + 16.0
    luma = np.full(SIZE, cloth_luma)
    u = np.full(SIZE, CLOTH.u * cloth_luma)
    v = np.full(SIZE, CLOTH.v * cloth_luma)
    for share, ball_luma, (bu, bv) in balls:
        luma += share * (ball_luma + 16.0 - luma)
        u += share * (bu * (ball_luma + 16.0) - u)
        v += share * (bv * (ball_luma + 16.0) - v)
    y = np.repeat(np.repeat(luma - 16.0, 2, axis=0), 2, axis=1)
    return Frame(0, 0.0, *(np.clip(np.round(p), 0, 255).astype(np.uint8) for p in (y, u + 128.0, v + 128.0)))


YELLOW = (200.0, PROTOTYPES[Ball.YELLOW])
WHITE = (225.0, PROTOTYPES[Ball.WHITE])


def test_a_struck_yellows_grey_streak_over_a_blue_cloth_is_no_white_ball() -> None:
    """Yellow mixed with blue runs through grey: the streak's washed-out part is near
    neutral, yet darker than any white ball mixed with that cloth could be."""
    blobs = _finder().find(_frame((_swept((60.0, 40.0), 22.0), *YELLOW)))
    assert Ball.WHITE not in [b.ball for b in blobs]


def test_a_fast_white_beside_a_still_yellow_is_white() -> None:
    """A white ball's streak runs from white to the cloth's light blue: darker on the
    whole than the still yellow it runs past, and yet a white ball."""
    blobs = _finder().find(_frame((_swept((60.0, 40.0), 0.0), *YELLOW),
                                  (_swept((60.0, 24.0), 10.0), *WHITE)))
    assert sorted(b.ball.value for b in blobs) == ["white", "yellow"]


def test_a_struck_yellows_streak_mixed_with_a_blue_cloth_is_a_yellow_in_motion() -> None:
    """Yellow run 16 half-resolution pixels (two radii) in the exposure: its pixels are
    yellow mixed with the blue cloth, their mean chroma farther from yellow's own than a
    still ball's is, but on the line from it to the cloth's, as near yellow as a streak of
    that length spreads its light. Refused as no ball's colour, a struck yellow at 3.4 m/s
    went unseen for 21 frames and its stroke was taken as white's, which it ran into."""
    (blob,) = _finder().find(_frame((_swept((60.0, 40.0), 16.0), *YELLOW)))
    assert blob.ball is Ball.YELLOW and blob.mixed
    assert np.allclose(blob.centre, (120.5, 80.5), atol=0.5)


def _cue_ferrule() -> np.ndarray:
    """A cue's white ferrule just after the strike, with the cue's two antialiased edges
    running from it (thin lines): as long as a fast ball's streak, of a ball's width by its
    moments, but not a swept disc."""
    share = np.zeros(SIZE)
    share[20:26, 30:36] = 1.0
    for k in range(40):
        for row, col in ((24 + k, 31 + k), (24 + k, 34 + int(1.25 * k))):
            if row + 2 < SIZE[0] and col + 2 < SIZE[1]:
                share[row:row + 2, col:col + 2] = 1.0
    return share


def test_a_cues_ferrule_and_edges_are_no_white_ball() -> None:
    assert _finder().find(_frame((_cue_ferrule(), *WHITE))) == []


def test_a_fast_white_streak_is_a_white_ball() -> None:
    """A white ball run 12 half-resolution pixels in the exposure (its streak longer than
    its diameter): a filled swept disc."""
    (blob,) = _finder().find(_frame((_swept((60.0, 40.0), 12.0), *WHITE)))
    assert blob.ball is Ball.WHITE and blob.streak > 2.0 * RADIUS


RED = (120.0, PROTOTYPES[Ball.RED])


def test_a_still_white_lying_against_red_with_reds_highlight_is_white() -> None:
    """White touches red, red with a highlight: both are balls (the filled-streak test is
    not made on a patch split between two balls)."""
    rows, cols = np.mgrid[0:SIZE[0], 0:SIZE[1]].astype(float)
    highlight = (np.hypot(cols - 70.0, rows - 40.0) <= 2.5).astype(float)
    blobs = _finder().find(_frame((_swept((50.0, 40.0), 0.0), *WHITE), (_swept((66.0, 40.0), 0.0), *RED),
                                  (highlight, *WHITE)))
    assert sorted(b.ball.value for b in blobs) == ["red", "white"], blobs


def test_bare_reads_the_disc_at_a_place_wherever_it_lies() -> None:
    """A still ball's place is bare cloth when most of its disc is (a ball left it); the
    disc may lie partly, or wholly, off the picture searched (nothing there to tell)."""
    finder = _finder()
    r = RADIUS / 2.0
    finder.find(_frame((_swept((30.0, 40.0), 0.0), *WHITE)))  # a white ball at (60, 80) full-size
    assert not finder.bare(np.array([60.0, 80.0]))  # the ball is there
    assert finder.bare(np.array([180.0, 80.0]))  # cloth
    assert not finder.bare(np.array([60.0 + 0.5 * RADIUS, 80.0]))  # half of its disc the ball: not most bare
    assert finder.bare(np.array([2.0 * r, 2.0 * r]))  # a corner, the disc partly off the picture
    assert not finder.bare(np.array([-10.0 * RADIUS, 80.0]))  # wholly off it: nothing tells
