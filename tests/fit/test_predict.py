"""Prediction from the cue, the strict protocol: the strike read from the cue ball's first
0.2 s only, and an object ball's start from the simulated collision, read from the
tracks up to the moment it was struck."""

from __future__ import annotations

import math

from carom.core.balls import Ball
from carom.fit import Budget
from carom.fit.predict import object_ball_start, predict_from_cue
from carom.fit.search import Prior
from carom.physics import layout as L
from carom.physics.simulate import play

from .tracked import LARGE, POSITION, STRIKE, tracked_stroke

BUDGET = Budget(simulations=3000, seconds=600.0)


def test_the_first_fifth_of_a_second_gives_the_speed_and_heading_and_no_later_sample_is_read() -> None:
    tracked = tracked_stroke()
    prediction = predict_from_cue(tracked, LARGE, budget=BUDGET)
    assert math.isclose(prediction.until, 0.2)
    strike = prediction.strike
    assert prediction.stroke.events[0] == predict_from_cue(tracked, LARGE, budget=BUDGET).stroke.events[0]
    assert strike.side == 0.0 or abs(strike.side) < 0.05  # nothing in the run shows the side: the prior's
    ball_speed = 2 * strike.speed / (1 + 0.21 / 0.5 + 2.5 * (strike.side ** 2 + strike.height ** 2))
    true_speed = 2 * STRIKE.speed / (1 + 0.21 / 0.5 + 2.5 * (STRIKE.side ** 2 + STRIKE.height ** 2))
    assert abs(ball_speed * math.cos(math.radians(strike.elevation))
               - true_speed * math.cos(math.radians(STRIKE.elevation))) < 0.02


def test_the_side_where_the_run_does_not_show_it_is_the_priors() -> None:
    prior = Prior(side=0.3, side_spread=0.05)
    prediction = predict_from_cue(tracked_stroke(), LARGE, prior=prior, budget=BUDGET)
    assert abs(prediction.strike.side - 0.3) < 0.05


def test_the_object_balls_start_is_the_simulated_collisions() -> None:
    """Up to the impact the tracks show neither the cue ball's side and (a ball sliding
    all the way) height, whose throw turns the object ball, nor where the object ball lay
    better than its first sample (a millimetre there turns the line of centres by a
    degree): from the noisy tracks and the prior the start is within a few degrees; from
    exact tracks and the tip offsets and elevation the stroke was played with, within a
    fraction of one."""
    run = play(POSITION, STRIKE, LARGE)
    k = next(k for k in range(1, run.n_log) if run.log_kind[k] == L.EVENT_BALL)
    impact = float(run.log_t[k]) + 0.013
    true_v = run.log_state[k, 1, L.VX:L.VY + 1]
    striker_v = run.log_state[k, 0, L.VX:L.VY + 1]
    played = Prior(side=STRIKE.side, elevation=STRIKE.elevation, height=STRIKE.height, side_spread=0.01,
                   height_spread=0.01, elevation_spread=0.1)
    for noise, prior, close in ((0.001, Prior(), 3.0), (0.0, played, 0.3)):
        tracked = tracked_stroke(noise=noise)
        start = object_ball_start(tracked, Ball.YELLOW, impact, LARGE, prior=prior, budget=BUDGET)
        assert start is not None
        assert start.struck_by is Ball.WHITE and abs(start.t0 - impact) < 0.005
        assert abs(math.hypot(*start.v) / math.hypot(*true_v) - 1) < 0.03
        turn = math.degrees(math.atan2(start.v[1], start.v[0]) - math.atan2(true_v[1], true_v[0]))
        assert abs(turn) < close, prior
        assert math.dist(start.r, POSITION[Ball.YELLOW]) < 0.003
        momentum = (start.v[0] + start.striker_v[0], start.v[1] + start.striker_v[1])
        assert math.dist(momentum, true_v + striker_v) < 0.03 * math.hypot(*true_v)  # the striker's too
        if noise == 0.0:
            assert math.dist(start.striker_v, striker_v) < 0.02 * math.hypot(*true_v)
