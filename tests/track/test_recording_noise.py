"""Each ball's noise measured over a recording (:func:`carom.track.judging.recording.ball_noise`).

A ball that only rests in a stroke is sent at its first and last sample: the stroke says
nothing of its noise, and the detector took the largest of the other balls'. One camera
sees a ball alike from stroke to stroke, so a recording measures each ball's noise where
it moved, and the strokes where it rested are read with it.
"""

from __future__ import annotations

import numpy as np

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedStroke
from carom.track.contacts.detection import detect, own_noise, stroke_noise
from carom.track.judging.recording import NOISE_STROKES, ball_noise, track_recording
from carom.track.reconstruct.ballmotion import estimate_noise
from carom.track.synthetic import HarshRanges, labelled_recording

TABLE = TABLES["large"]
RULES = discipline("three-cushion")


def _rolling(noise: float, seed: int) -> BallTrack:
    """A ball rolling up the table, sent every 20 ms with ``noise`` per coordinate."""
    rng = np.random.default_rng(seed)
    t = np.arange(0.0, 1.0, 0.02)
    xy = np.column_stack((np.full_like(t, 0.7), 0.5 + 1.0 * t - 0.2 * t * t))
    return BallTrack(t, xy + rng.normal(0.0, noise, xy.shape))


def _resting(place: tuple[float, float], seed: int) -> BallTrack:
    rng = np.random.default_rng(seed)
    return BallTrack(np.array([0.0, 1.0]), np.array([place, place]) + rng.normal(0.0, 0.0003, (2, 2)))


def _stroke(seed: int, yellow_moves: bool) -> TrackedStroke:
    """White rolls with 1.5 mm of noise; yellow rolls with 0.3 mm, or rests; red rests."""
    yellow = _rolling(0.0003, seed + 1) if yellow_moves else _resting((0.3, 2.4), seed + 1)
    return TrackedStroke(seed, Ball.WHITE, {Ball.WHITE: _rolling(0.0015, seed), Ball.YELLOW: yellow,
                                            Ball.RED: _resting((1.2, 2.0), seed + 2)})


def test_each_balls_noise_is_the_median_of_its_strokes_estimates() -> None:
    strokes = [_stroke(10 * k, yellow_moves=True) for k in range(5)]
    noise = ball_noise([own_noise(s) for s in strokes])
    yellow = sorted(estimate_noise(s.balls[Ball.YELLOW].t, s.balls[Ball.YELLOW].xy) or 0.0 for s in strokes)
    assert noise[Ball.YELLOW] == yellow[2]
    assert noise[Ball.YELLOW] < 0.5 * noise[Ball.WHITE]
    assert Ball.RED not in noise  # it never moved: no stroke measured it


def test_too_few_strokes_measure_no_balls_noise() -> None:
    strokes = [_stroke(10 * k, yellow_moves=k < NOISE_STROKES - 1) for k in range(6)]
    noise = ball_noise([own_noise(s) for s in strokes])
    assert Ball.YELLOW not in noise
    assert Ball.WHITE in noise


def test_a_resting_ball_is_read_with_its_own_noise_not_the_noisiest_balls() -> None:
    """Yellow rests in this stroke; alone it is given white's noise (the largest); with
    the recording's measure, its own, a fifth of it."""
    stroke = _stroke(99, yellow_moves=False)
    alone = detect(stroke, TABLE)
    measured = detect(stroke, TABLE, noise=stroke_noise(own_noise(stroke), {Ball.YELLOW: 0.0003}))
    assert alone.motions[Ball.YELLOW].sigma == alone.motions[Ball.WHITE].sigma
    assert measured.motions[Ball.YELLOW].sigma == 0.0003
    # a ball whose own samples tell keeps its own estimate
    assert measured.motions[Ball.WHITE].sigma == alone.motions[Ball.WHITE].sigma


def test_a_thin_touch_of_a_quiet_ball_is_found_in_its_recording() -> None:
    """A development stroke (seed 129333, the 34th of the recording from 129300, whose
    camera measures yellow with 0.3 mm of noise and the others with 1.1–1.5 mm): white
    touched yellow thinly, its second ball, and moved it 5.3 mm; yellow was sent at its
    first and last sample, 5.0 mm apart. Alone, yellow is given white's noise (1.9 mm) and
    the move is within it: no point, at 0.9997. Within its recording, yellow's noise is
    measured where it moved (0.6 mm), the move is clear, and the point is given. (Whether the
    stroke alone is still misread is not pinned: a detector that reads it right alone is
    better, not wrong.)"""
    strokes = labelled_recording(34, 129300, RULES, TABLE, HarshRanges())
    stroke = strokes[33]
    assert stroke.tracked.shot == 129333 and stroke.verdict.points == 1
    ruling = track_recording([s.tracked for s in strokes], RULES, TABLE)[33]
    assert ruling.points == 1
