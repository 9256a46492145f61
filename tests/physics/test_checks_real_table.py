"""PHYSICS.md checks 12–16: the real table (``tests/data``) and a players' system."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from carom.core.balls import Ball, Cushion
from carom.core.events import CushionContact
from carom.physics import Strike, simulate
from carom.physics import layout as L
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.replay import Case, replay, rolling_decelerations, scores
from carom.physics.simulate import Motion

from .conftest import LARGE, R, entries, first_rolling_after, one_ball, rolling
from .realdata import replay_cases, with_start_spin
from .test_checks_exact import WIDE

MATHAVAN = DEFAULT_PARAMS.replace(cushion_model="mathavan2010")


def test_check_12_rolling_deceleration_of_the_model() -> None:
    decel = DEFAULT_PARAMS.mu_roll * DEFAULT_PARAMS.gravity
    assert 0.041 <= decel <= 0.052
    run = one_ball((20.0, 1.0), rolling((0.0, 1.5)), table=WIDE)
    stop = entries(run, L.EVENT_TRANSITION)[0]
    assert run.log_t[stop] == pytest.approx(1.5 / decel, rel=1e-9)


def test_check_12_rolling_deceleration_of_the_real_table() -> None:
    found = [d for _, d in rolling_decelerations(replay_cases())]
    assert len(found) >= 20
    assert 0.041 <= float(np.median(found)) <= 0.052


def test_check_12_in_sample_the_fitted_rolling_resistance_is_the_tracks() -> None:
    """IN-SAMPLE: μr was fitted to these cases, within 0.0025 m/s² of their tracks."""
    found = [d for _, d in rolling_decelerations(replay_cases())]
    assert abs(float(np.median(found)) - DEFAULT_PARAMS.mu_roll * DEFAULT_PARAMS.gravity) < 0.0025


def rebound(params: Params, angle: float, speed: float) -> tuple[float, float]:
    """A rolling ball meets the right cushion at ``angle`` degrees: its speed as a
    fraction of the incoming one and its angle from the normal, once rolling again."""
    a = math.radians(angle)
    run = one_ball((LARGE.width - R - 1e-4, 1.0), rolling((speed * math.cos(a), speed * math.sin(a))), params)
    hit = entries(run, L.EVENT_CUSHION)[0]
    incoming = math.hypot(*run.log_state[hit - 1, 0, L.VX:L.VY + 1]) if hit > 1 else speed
    out = first_rolling_after(run, hit)
    return (math.hypot(out[L.VX], out[L.VY]) / incoming,
            math.degrees(math.atan2(abs(out[L.VY]), abs(out[L.VX]))))


@pytest.mark.parametrize("params", [DEFAULT_PARAMS, MATHAVAN], ids=["han2005", "mathavan2010"])
@pytest.mark.parametrize("speed", [0.3, 0.8, 1.5, 3.0])
def test_check_13_square_on_rebound_is_0_57_of_the_speed(params: Params, speed: float) -> None:
    ratio, angle = rebound(params, 0.0, speed)
    assert ratio == pytest.approx(0.57, abs=0.03)
    assert angle == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize("speed", [0.3, 0.8, 1.5, 3.0])
def test_check_14_rolling_in_at_45_degrees_leaves_at_57_6(speed: float) -> None:
    _, angle = rebound(DEFAULT_PARAMS, 45.0, speed)
    assert angle == pytest.approx(57.6, abs=4.0)


@pytest.mark.parametrize("speed", [0.3, 0.8, 1.5, 3.0])
def test_check_14_with_mathavan_at_its_fitted_values(speed: float) -> None:
    _, angle = rebound(MATHAVAN, 45.0, speed)
    assert angle == pytest.approx(57.6, abs=4.0)


def test_check_14_over_the_whole_band_of_incoming_angles() -> None:
    """Balls meeting the cushion anywhere in 45° ± 5° leave on average within 57.6° ± 4°,
    and a wider angle in gives a wider angle out."""
    angles = [rebound(DEFAULT_PARAMS, a, 1.0)[1] for a in np.linspace(40.0, 50.0, 11)]
    assert all(a < b for a, b in itertools.pairwise(angles))
    assert float(np.mean(angles)) == pytest.approx(57.6, abs=4.0)


def test_check_15_in_sample_the_defaults_on_the_cases_they_were_fitted_to() -> None:
    """IN-SAMPLE: the defaults and the start model were fitted to these very cases
    (``tools/calibrate.py``); the cross-validated figures are in docs/physics.md. This
    only guards the fit against a change that breaks it: PHYSICS.md's targets."""
    s = scores(with_start_spin(replay_cases()), DEFAULT_PARAMS)
    assert (s.n_first, s.n_second, s.n_rmse) == (54, 45, 54)
    assert s.after_first <= 0.05
    assert s.after_second <= 0.10
    assert s.rmse <= 0.09


def test_check_15_in_sample_without_start_spin_as_the_published_file_gives_it() -> None:
    """IN-SAMPLE, spinless starts (the published file's ``"w": [0, 0, 0]``)."""
    s = scores(replay_cases(), DEFAULT_PARAMS)
    assert s.after_first <= 0.05
    assert s.after_second <= 0.10
    assert s.rmse <= 0.09


def test_check_15_out_of_sample_the_start_spin_fitted_on_half_the_shots_helps_the_other_half() -> None:
    """OUT OF SAMPLE: the start model's two values, chosen on the odd shots (a coarse
    grid), lower the error on the even shots after the first and second cushion and over
    4 s, compared with spinless starts (the simulator's parameters are the defaults, fitted
    on all cases: only the start model is held out here)."""
    cases = replay_cases()
    odd = [c for c in cases if c.shot % 2]
    even = [c for c in cases if not c.shot % 2]

    def total(chosen: list[Case], backspin: float, side: float) -> float:
        s = scores(with_start_spin(chosen, backspin, side), DEFAULT_PARAMS)
        return s.after_first / 0.03 + s.after_second / 0.08 + s.rmse / 0.075

    grid = [(b, k) for b in (0.0, 0.05, 0.1) for k in (-0.2, -0.1, 0.0, 0.1, 0.2, 0.3)]
    backspin, side = min(grid, key=lambda bk: total(odd, *bk))
    assert side > 0.0
    spun, plain = scores(with_start_spin(even, backspin, side), DEFAULT_PARAMS), scores(even, DEFAULT_PARAMS)
    assert spun.after_first < plain.after_first
    assert spun.after_second < plain.after_second
    assert spun.rmse < plain.rmse


def test_the_replay_is_what_carom_simulate_prints_for_the_case() -> None:
    """The scorer replays a case exactly as ``carom simulate`` with the case's r, v and w
    (the protocol of the held-back cases)."""
    case = with_start_spin(replay_cases())[3]
    times = case.t[case.t <= case.t0 + 2.0]
    stroke = simulate({Ball.RED: case.r}, None, LARGE, motion={Ball.RED: Motion(case.v, case.w)}, sample=0.01)
    assert stroke.paths is not None
    path = np.array(stroke.paths[Ball.RED])
    mine = replay(case, DEFAULT_PARAMS, path[:, 0] + case.t0)
    np.testing.assert_allclose(mine, path[:, 1:], rtol=0, atol=1e-9)  # the same to rounding of t0
    assert replay(case, DEFAULT_PARAMS, times).shape == (len(times), 2)


D = LARGE.diamond


def corner_five(aim: float, speed: float, side: float, height: float) -> list[tuple[Cushion, float, float]]:
    """Corner-5 system: the cue ball from the top-left corner through diamond ``aim`` of
    the right long cushion (diamonds counted from the bottom); its cushion contacts as
    (cushion, x, y) in diamonds."""
    corner = (0.0, LARGE.length)
    target = (LARGE.width, aim * D)
    heading = math.atan2(target[1] - corner[1], target[0] - corner[0])
    start = (corner[0] + 0.5 * D * math.cos(heading), corner[1] + 0.5 * D * math.sin(heading))
    start = (max(start[0], R + 0.01), min(start[1], LARGE.length - R - 0.01))
    heading = math.atan2(target[1] - start[1], target[0] - start[0])
    stroke = simulate({Ball.WHITE: start}, Strike(Ball.WHITE, speed, math.degrees(heading), side, height),
                      LARGE, sample=0.002)
    assert stroke.paths is not None
    path = np.array(stroke.paths[Ball.WHITE])
    out = []
    for e in stroke.events:
        assert isinstance(e, CushionContact) and e.t is not None
        q = int(np.argmin(np.abs(path[:, 0] - e.t)))
        out.append((e.cushion, path[q, 1] / D, path[q, 2] / D))
    return out


@pytest.mark.parametrize(("speed", "side", "height"), [
    (3.0, 0.3, 0.0), (3.0, 0.3, 0.2), (3.5, 0.3, 0.2), (4.0, 0.3, 0.2), (4.0, 0.4, 0.0), (3.0, 0.2, 0.2)])
def test_check_16_corner_five_benchmark(speed: float, side: float, height: float) -> None:
    """From the corner (5) through diamond 3 of the far long cushion: the third cushion at
    diamond 2 (5 − 3), then on to the opposite corner (± 0.5 diamond)."""
    hits = corner_five(3.0, speed, side, height)
    assert [h[0] for h in hits[:3]] == [Cushion.RIGHT, Cushion.BOTTOM, Cushion.LEFT]
    assert hits[2][2] == pytest.approx(2.0, abs=0.5)
    _, x, y = hits[3]
    assert x >= 3.0 and y >= 7.0  # the fourth cushion within a diamond of the opposite corner


@pytest.mark.parametrize("aim", [2.0, 2.5, 3.0, 3.5, 4.0])
def test_check_16_corner_five_system_third_rail_is_start_minus_aim(aim: float) -> None:
    hits = corner_five(aim, 3.5, 0.3, 0.2)
    assert [h[0] for h in hits[:3]] == [Cushion.RIGHT, Cushion.BOTTOM, Cushion.LEFT]
    assert hits[2][2] == pytest.approx(5.0 - aim, abs=0.5)
