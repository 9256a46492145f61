"""The stroke read back (docs/fit.md): a stroke the simulator made, tracked with the
tracker's noise, gives back its strike and where the balls lay; a stroke that cannot be
read back says why; the fit stays within its budget and is deterministic."""

from __future__ import annotations

import dataclasses
import math
import re

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.fit import Budget, FittedStroke, agreement, fit_stroke, what_if
from carom.fit.search import correlation_inflation
from carom.physics import simulate
from carom.rules.disciplines import discipline
from carom.rules.referee import judge_stroke
from carom.track import BallTrack

from .tracked import LARGE, POSITION, STRIKE, tracked_stroke, with_samples_cut

GENEROUS = Budget(simulations=3000, seconds=600.0)
"""The default number of simulations, and no processor-time guard (a slow machine must
not change a test's answer)."""
THREE_CUSHION = discipline("three-cushion")


@pytest.fixture(scope="module")
def fitted() -> FittedStroke:
    return fit_stroke(tracked_stroke(), LARGE, budget=GENEROUS)


def test_the_strike_comes_back_within_its_uncertainty(fitted: FittedStroke) -> None:
    """Within three standard deviations, and within what the samples can tell apart
    (a degree of elevation and a fraction of a degree of direction curve the ball alike)."""
    strike = fitted.strike
    for name, close in (("speed", 0.01), ("direction", 0.5), ("side", 0.01), ("height", 0.01),
                        ("elevation", 2.5)):
        error = abs(getattr(strike, name) - getattr(STRIKE, name))
        assert error < close, name
        assert error < 3 * fitted.uncertainty[name], name
    assert abs(fitted.strike_time - 0.013) < 0.002


def test_where_the_balls_lay_comes_back_closer_than_the_first_samples(fitted: FittedStroke) -> None:
    tracked = tracked_stroke()
    for ball in POSITION:
        assert math.dist(fitted.position[ball], POSITION[ball]) < 0.001
    assert sum(math.dist(fitted.position[b], POSITION[b]) for b in POSITION) < sum(
        math.dist(tracked.balls[b].first, POSITION[b]) for b in POSITION)


def test_the_re_simulated_stroke_follows_every_ball_within_the_noise(fitted: FittedStroke) -> None:
    assert all(rmse < 0.002 for rmse in fitted.rmse.values()), fitted.rmse
    assert fitted.free_run_rms < 0.0015
    assert fitted.played and fitted.problems == ()
    assert fitted.moved == (Ball.WHITE, Ball.YELLOW)


def test_the_re_simulated_stroke_agrees_with_the_recording(fitted: FittedStroke) -> None:
    recorded = judge_stroke(simulate(POSITION, STRIKE, LARGE), THREE_CUSHION, LARGE)
    agreed = agreement(fitted.stroke, recorded, THREE_CUSHION, LARGE)
    assert agreed.same
    assert agreed.fitted.first_contact is Ball.YELLOW


def test_the_uncertainty_is_a_spread_for_every_field(fitted: FittedStroke) -> None:
    assert set(fitted.uncertainty) == {"speed", "direction", "side", "height", "elevation", "time"}
    assert all(math.isfinite(u) and u > 0 for u in fitted.uncertainty.values())


def test_the_fit_is_deterministic(fitted: FittedStroke) -> None:
    again = fit_stroke(tracked_stroke(), LARGE, budget=GENEROUS)
    assert again.strike == fitted.strike and again.position == fitted.position and again.rmse == fitted.rmse


def test_a_fit_out_of_simulations_answers_with_its_best_and_says_so() -> None:
    short = fit_stroke(tracked_stroke(), LARGE, budget=Budget(simulations=150, seconds=600.0))
    assert short.simulations <= 150 + 15  # and the answer's own: its cost, RMSE and 13 for the Jacobian
    assert not short.played
    assert "the fit ran out of its time before it ended" in short.problems


def test_a_lost_ball_is_never_what_was_played() -> None:
    tracked = tracked_stroke()
    track = tracked.balls[Ball.YELLOW]
    lost = with_samples_cut(tracked, Ball.YELLOW, (track.t < 1.0) | (track.t > 2.5))
    fitted = fit_stroke(lost, LARGE, budget=Budget(simulations=400, seconds=600.0))
    assert not fitted.played
    assert any(p.startswith("yellow: lost between") for p in fitted.problems)


def test_a_stroke_whose_cue_ball_never_moved_cannot_be_fitted() -> None:
    tracked = tracked_stroke()
    still = BallTrack(np.array([0.0, 5.0]), np.array([POSITION[Ball.WHITE]] * 2))
    with pytest.raises(CaromError, match=r"nothing to fit.*never left"):
        fit_stroke(dataclasses.replace(tracked, balls={**tracked.balls, Ball.WHITE: still}), LARGE)


def test_what_if_unchanged_is_the_fitted_stroke(fitted: FittedStroke) -> None:
    assert what_if(fitted) == fitted.stroke


def test_what_if_plays_the_stroke_again_with_one_field_changed(fitted: FittedStroke) -> None:
    other = what_if(fitted, side=-0.3)
    assert other.extra["physics"]["strike"]["side"] == -0.3
    assert other.extra["physics"]["strike"]["speed"] == fitted.strike.speed
    assert other.end != fitted.stroke.end


def test_what_if_with_a_sample_draws_the_same_stroke_with_its_paths(fitted: FittedStroke) -> None:
    drawn = what_if(fitted, sample=0.01, side=-0.3)
    assert drawn.paths is not None and set(drawn.paths) == set(fitted.position)
    assert dataclasses.replace(drawn, paths=None) == what_if(fitted, side=-0.3)
    assert fitted.stroke.paths is None


@pytest.mark.parametrize(("change", "words"), [({"spin": 0.2}, "unknown strike field(s) spin"),
                                                ({"side": math.nan}, "side must be a finite number"),
                                                ({"side": 0.7}, "cue side: 0.7 is out of range")])
def test_what_if_refuses_what_is_not_a_strike(fitted: FittedStroke, change: dict[str, float],
                                              words: str) -> None:
    with pytest.raises(CaromError, match=re.escape(words)):
        what_if(fitted, **change)


def test_neighbouring_residuals_that_move_together_widen_the_uncertainty() -> None:
    rng = np.random.default_rng(3)
    assert correlation_inflation(rng.normal(size=4000)) == pytest.approx(1.0, abs=0.15)
    series = np.zeros(4000)
    for k in range(2, 4000):  # each coordinate its own AR(1) with ρ = 0.8, interleaved
        series[k] = 0.8 * series[k - 2] + rng.normal()
    assert correlation_inflation(series) == pytest.approx(9.0, rel=0.25)
