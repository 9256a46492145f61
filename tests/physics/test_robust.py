"""Corner shots, frozen balls and grazing contacts: no ball ever leaves the table or
passes through another (PHYSICS.md, checks 7 and 9)."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
from hypothesis import example, given, settings
from hypothesis import strategies as st

from carom.core.balls import Ball
from carom.physics import layout as L
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.paths import sample_positions, sample_times
from carom.physics.simulate import Motion, Run, play
from carom.physics.strike import Strike

from .conftest import LARGE, R, rolling
from .strategies import params

SLACK = 1e-9


def assert_sound(run: Run) -> None:
    """Every ball on the cloth and no two overlapping: at every event, at rest, and every
    millisecond in between."""
    assert run.status == L.STATUS_OK
    times = sample_times(run.log_t[1:run.n_log], run.duration, 0.001)
    sampled = sample_positions(run.log_t, run.log_state, run.log_mode, run.n_log, times, run.vector)
    xy = np.concatenate([run.log_state[:run.n_log, :, :2], run.final[None, :, :2], sampled])
    assert np.all(xy[..., 0] >= R - SLACK) and np.all(xy[..., 0] <= LARGE.width - R + SLACK)
    assert np.all(xy[..., 1] >= R - SLACK) and np.all(xy[..., 1] <= LARGE.length - R + SLACK)
    for i, j in combinations(range(len(run.balls)), 2):
        assert np.all(np.hypot(*(xy[:, i] - xy[:, j]).T) >= 2 * R - SLACK)


directions = st.floats(0.0, 360.0)
offsets = st.floats(-0.45, 0.45)


@settings(max_examples=40, deadline=None)
@given(angle=directions, direction=directions, speed=st.floats(0.3, 7.0), side=offsets,
       height=st.floats(-0.3, 0.3), par=params())
def test_a_ball_struck_while_frozen_to_another(angle: float, direction: float, speed: float, side: float,
                                               height: float, par: Params) -> None:
    a = math.radians(angle)
    position = {Ball.WHITE: (0.7, 1.4), Ball.RED: (0.7 + 2 * R * math.cos(a), 1.4 + 2 * R * math.sin(a)),
                Ball.YELLOW: (0.3, 0.4)}
    strike = Strike(Ball.WHITE, speed, direction, side * 0.8, height)
    assert_sound(play(position, strike, LARGE, par))


@settings(max_examples=25, deadline=None)
@given(direction=directions, speed=st.floats(0.3, 7.0), par=params())
@example(direction=280.16936139669417, speed=6.252882242307051, par=DEFAULT_PARAMS)
@example(direction=227.56327611790945, speed=2.316860672570124, par=DEFAULT_PARAMS)
def test_three_balls_frozen_together(direction: float, speed: float, par: Params) -> None:
    """A triangle of touching balls, and a line of them, struck anywhere."""
    triangle = {Ball.WHITE: (0.7, 1.4), Ball.YELLOW: (0.7 + 2 * R, 1.4),
                Ball.RED: (0.7 + R, 1.4 + math.sqrt(3) * R)}
    line = {Ball.WHITE: (0.7, 1.4), Ball.YELLOW: (0.7, 1.4 + 2 * R), Ball.RED: (0.7, 1.4 + 4 * R)}
    for position in (triangle, line):
        assert_sound(play(position, Strike(Ball.WHITE, speed, direction), LARGE, par))


@settings(max_examples=40, deadline=None)
@given(corner=st.sampled_from(["bl", "br", "tl", "tr"]), direction=directions, speed=st.floats(0.3, 7.0),
       side=offsets, gap=st.sampled_from([0.0, 1e-12, 1e-9, 1e-6, 1e-3]), par=params())
def test_a_ball_in_a_corner_frozen_to_both_cushions(corner: str, direction: float, speed: float,
                                                     side: float, gap: float, par: Params) -> None:
    x = LARGE.width - R - gap if corner[1] == "r" else R + gap
    y = LARGE.length - R - gap if corner[0] == "t" else R + gap
    position = {Ball.WHITE: (x, y), Ball.YELLOW: (0.7, 1.0), Ball.RED: (0.7, 2.0)}
    assert_sound(play(position, Strike(Ball.WHITE, speed, direction, side * 0.8), LARGE, par))


@settings(max_examples=40, deadline=None)
@given(cushion_side=st.sampled_from(["left", "right"]), along=st.floats(0.1, 2.7), angle=st.floats(0, 180),
       direction=directions, speed=st.floats(0.3, 7.0), par=params())
def test_two_balls_frozen_together_against_a_cushion(cushion_side: str, along: float, angle: float,
                                                      direction: float, speed: float, par: Params) -> None:
    x = R if cushion_side == "left" else LARGE.width - R
    sign = 1.0 if cushion_side == "left" else -1.0
    a = math.radians(angle - 90.0)
    other = (x + sign * 2 * R * math.cos(a), along + 2 * R * math.sin(a))
    if not (R <= other[1] <= LARGE.length - R) or not (R <= other[0] <= LARGE.width - R):
        return
    position = {Ball.WHITE: (x, along), Ball.RED: other,
                Ball.YELLOW: (0.71, 2.5 if along < 1.4 else 0.3)}
    assert_sound(play(position, Strike(Ball.WHITE, speed, direction), LARGE, par))


@settings(max_examples=40, deadline=None)
@given(miss=st.floats(-1e-6, 1e-6), side=st.sampled_from([1.0, -1.0]), speed=st.floats(0.3, 6.0),
       spin=st.floats(-100, 100), par=params())
def test_grazing_passes(miss: float, side: float, speed: float, spin: float, par: Params) -> None:
    """Aimed within a micrometre of a graze, with side spin: contact or not, no overlap."""
    offset = side * (2 * R + miss)
    position = {Ball.WHITE: (0.7, 0.5), Ball.RED: (0.7 + offset, 1.0)}
    assert_sound(play(position, None, LARGE, par, {Ball.WHITE: rolling((0.0, speed), spin)}))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), par=params())
def test_random_positions_and_strikes(seed: int, par: Params) -> None:
    rng = np.random.default_rng(seed)
    while True:
        xy = np.column_stack([rng.uniform(R, LARGE.width - R, 3), rng.uniform(R, LARGE.length - R, 3)])
        if min(math.hypot(*(xy[i] - xy[j])) for i, j in combinations(range(3), 2)) >= 2 * R:
            break
    position = {b: (float(xy[i, 0]), float(xy[i, 1]))
                for i, b in enumerate((Ball.WHITE, Ball.YELLOW, Ball.RED))}
    strike = Strike(Ball.WHITE, rng.uniform(0.3, 8.0), rng.uniform(0, 360), rng.uniform(-0.35, 0.35),
                    rng.uniform(-0.35, 0.35), rng.choice([0.0, 0.0, rng.uniform(0, 40)]))
    assert_sound(play(position, strike, LARGE, par))


def test_a_ball_pressed_into_a_cushion_by_its_spin_stops_bouncing() -> None:
    """A slow ball with strong spin towards the cushion it touches: it comes to lie along the
    cushion instead of bouncing ever more often (Zeno)."""
    run = play({Ball.WHITE: (R, 1.0)}, None, LARGE, DEFAULT_PARAMS,
               {Ball.WHITE: Motion((-0.001, 0.3), (0.0, -80.0, 0.0))})
    assert run.n_log < 50
    assert_sound(run)


@settings(max_examples=30, deadline=None)
@given(speed=st.floats(0.5, 6.0), height=st.floats(0.0, 0.45), gap=st.sampled_from([0.0, 1e-9, 1e-4]),
       par=params())
def test_follow_into_a_ball_frozen_to_the_cushion(speed: float, height: float, gap: float,
                                                  par: Params) -> None:
    """The cue ball with topspin drives into a ball that cannot get away: it pushes it
    instead of bouncing ever more often, and nothing passes through anything."""
    position = {Ball.RED: (0.7, LARGE.length - R - gap), Ball.WHITE: (0.7, 2.0), Ball.YELLOW: (0.2, 0.3)}
    run = play(position, Strike(Ball.WHITE, speed, 90.0, 0.0, height), LARGE, par)
    assert run.n_log < 200
    assert_sound(run)
