"""PHYSICS.md checks 1–9: the exact ones (tolerance 1e-9 relative unless said)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from carom.core.balls import Ball, Cushion
from carom.core.table import TableSpec
from carom.physics import layout as L
from carom.physics.detect import pair_time
from carom.physics.motion import evolve, transition_time
from carom.physics.params import DEFAULT_PARAMS
from carom.physics.simulate import Motion, events_of

from .conftest import LARGE, R, balls, entries, first_rolling_after, one_ball, rolling, settings_fast, stun

WIDE = TableSpec("test-wide", 40.0, 40.0, 0.1, R)
"""A table without cushions in reach, for motion alone."""
REL = 1e-9
G = DEFAULT_PARAMS.gravity


def test_check_1_stun_ball_slides_then_rolls_at_five_sevenths() -> None:
    params = DEFAULT_PARAMS.replace(mu_slide=0.21)
    run = one_ball((20.0, 5.0), stun((0.0, 2.0)), params, WIDE)
    k = entries(run, L.EVENT_TRANSITION)[0]
    assert run.log_b[k] == L.ROLLING
    tau = 2 * 2.0 / (7 * 0.21 * G)
    dist = 2.0 * tau - 0.5 * 0.21 * G * tau**2
    state = run.log_state[k, 0]
    assert run.log_t[k] == pytest.approx(tau, rel=REL)
    assert state[L.Y] - 5.0 == pytest.approx(dist, rel=REL)
    assert state[L.VY] == pytest.approx(5 / 7 * 2.0, rel=REL)
    assert state[L.VX] == 0.0
    # the figures as PHYSICS.md prints them (to the last digit it gives)
    assert abs(run.log_t[k] - 0.27738) < 1e-5
    assert abs(state[L.Y] - 5.0 - 0.47550) < 1e-5


def test_check_2_rolling_ball_stops_after_22_653_s_and_11_327_m() -> None:
    params = DEFAULT_PARAMS.replace(mu_roll=0.0045)
    run = one_ball((20.0, 5.0), rolling((1.0, 0.0)), params, WIDE)
    k = entries(run, L.EVENT_TRANSITION)[0]
    t_stop = 1.0 / (0.0045 * G)
    assert run.log_t[k] == pytest.approx(t_stop, rel=REL)
    assert run.final[0, L.X] - 20.0 == pytest.approx(0.5 * t_stop, rel=REL)
    assert abs(t_stop - 22.653) < 1e-3
    assert abs(run.final[0, L.X] - 20.0 - 11.327) < 1e-3
    assert run.duration == pytest.approx(t_stop, rel=REL)


spins = st.floats(-150.0, 150.0)
speeds = st.floats(0.05, 6.0)


@settings(**settings_fast)
@given(vx=st.floats(-6, 6), vy=st.floats(-6, 6), wx=spins, wy=spins, wz=spins,
       mu_a=st.floats(0.1, 0.3), mu_b=st.floats(0.1, 0.3))
def test_check_3_final_rolling_velocity_does_not_depend_on_mu_slide(
        vx: float, vy: float, wx: float, wy: float, wz: float, mu_a: float, mu_b: float) -> None:
    state = np.array([1.0, 1.0, vx, vy, wx, wy, wz])
    expected = ((5 * vx + 2 * R * wy) / 7, (5 * vy - 2 * R * wx) / 7)
    if math.hypot(*expected) < 1e-6:
        return
    finals = []
    for mu in (mu_a, mu_b):
        p = DEFAULT_PARAMS.replace(mu_slide=mu).vector(WIDE)
        tau = transition_time(state.reshape(1, 7), 0, L.SLIDING, p)
        assert tau == pytest.approx(2 * math.hypot(vx - R * wy, vy + R * wx) / (7 * mu * G), rel=1e-12)
        out, mode = evolve(state, L.SLIDING, tau, p)
        assert mode == L.ROLLING
        finals.append(out[L.VX:L.VY + 1])
    for final in finals:
        assert final[0] == pytest.approx(expected[0], rel=REL, abs=1e-12)
        assert final[1] == pytest.approx(expected[1], rel=REL, abs=1e-12)


ELASTIC = DEFAULT_PARAMS.replace(e_ball=1.0, throw_a=0.0, throw_b=0.0)


def _cut(cut_deg: float, speed: float, motion: Motion, params: object = ELASTIC,
         gap: float = 1e-7) -> tuple[np.ndarray, np.ndarray]:
    """A cue ball moving along +y meets a resting ball at cut angle ``cut_deg``: the log
    entry of the collision, and the run."""
    offset = 2 * R * math.sin(math.radians(cut_deg))
    ahead = math.sqrt((2 * R) ** 2 - offset**2) + gap
    run = balls({Ball.WHITE: (0.7, 0.5), Ball.RED: (0.7 + offset, 0.5 + ahead)}, {Ball.WHITE: motion},
                params)  # type: ignore[arg-type]
    return run, entries(run, L.EVENT_BALL)[0]  # type: ignore[return-value]


@settings(**settings_fast)
@given(cut=st.floats(1.0, 85.0), speed=st.floats(0.2, 6.0))
@example(cut=85.0, speed=0.21875)  # once ruled "pressed": a thin cut at a walking pace
def test_check_4_elastic_frictionless_stun_balls_leave_at_90_degrees(cut: float, speed: float) -> None:
    run, k = _cut(cut, speed, stun((0.0, speed)), gap=1e-9)
    after = run.log_state[k]
    v_in = after[0, L.VY] + after[1, L.VY]  # momentum: the speed at impact
    cue = after[0, L.VX:L.VY + 1]
    obj = after[1, L.VX:L.VY + 1]
    phi = math.radians(cut)
    assert np.dot(cue, obj) == pytest.approx(0.0, abs=1e-9 * v_in**2)
    assert np.linalg.norm(cue) == pytest.approx(v_in * math.sin(phi), rel=1e-9, abs=1e-12)
    assert np.linalg.norm(obj) == pytest.approx(v_in * math.cos(phi), rel=1e-9)
    assert v_in == pytest.approx(speed, rel=1e-6)


def test_check_5_rolling_half_ball_hit_deflects_33_670_degrees() -> None:
    run, k = _cut(30.0, 1.5, rolling((0.0, 1.5)), gap=1e-9)
    final = first_rolling_after(run, k, 0)
    deflection = math.degrees(math.atan2(abs(final[L.VX]), final[L.VY]))
    s, c = math.sin(math.radians(30)), math.cos(math.radians(30))
    expected = math.degrees(math.atan2(5 / 7 * s * c, 5 / 7 * s * s + 2 / 7))
    assert deflection == pytest.approx(expected, rel=REL)
    assert abs(deflection - 33.670) < 1e-3


@pytest.mark.parametrize("speed", [0.1, 0.5, 1.0, 2.0, 4.0, 8.0])
@pytest.mark.parametrize("offset", [0.0, 1e-9, -1e-9, 3e-8, -3e-8, 4e-7, -4e-7, 9e-7, -9e-7])
@pytest.mark.parametrize("corner", ["bl", "br", "tl", "tr"])
def test_check_7_rolled_into_a_corner_at_45_degrees_takes_both_cushions(
        speed: float, offset: float, corner: str) -> None:
    right, top = corner[1] == "r", corner[0] == "t"
    d = 0.05
    x = LARGE.width - R - d if right else R + d
    y = LARGE.length - R - d if top else R + d
    direction = (1.0 if right else -1.0, 1.0 if top else -1.0)
    v = (direction[0] * speed / math.sqrt(2), direction[1] * speed / math.sqrt(2))
    run = one_ball((x + offset, y - offset), rolling(v))
    events = events_of(run)
    cushions = {e.cushion for e in events[:2]}  # type: ignore[union-attr]
    assert cushions == {Cushion.RIGHT if right else Cushion.LEFT, Cushion.TOP if top else Cushion.BOTTOM}
    _assert_on_table(run)


def _assert_on_table(run: object) -> None:
    states = run.log_state[:run.n_log, :, :]  # type: ignore[attr-defined]
    for xy in (states[..., L.X], run.final[:, L.X]):  # type: ignore[attr-defined]
        assert np.all(xy >= R - 1e-9) and np.all(xy <= LARGE.width - R + 1e-9)
    for xy in (states[..., L.Y], run.final[:, L.Y]):  # type: ignore[attr-defined]
        assert np.all(xy >= R - 1e-9) and np.all(xy <= LARGE.length - R + 1e-9)


def _rolling_contact_time(speed: float, gap: float, lateral: float = 0.0) -> float:
    """Rolling at ``speed`` towards a resting ball: when the centres are 2R apart."""
    a = DEFAULT_PARAMS.mu_roll * G
    travel = gap + 2 * R - math.sqrt(4 * R * R - lateral * lateral) if lateral else gap
    return 2 * travel / (speed + math.sqrt(speed * speed - 2 * a * travel))


@pytest.mark.parametrize("gap", [1e-12, 1e-11, 1e-10, 1e-9, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1])
@pytest.mark.parametrize("speed", [0.3, 1.0, 3.0, 6.0])
def test_check_8_contact_time_equals_the_analytic_root(gap: float, speed: float) -> None:
    run = balls({Ball.WHITE: (0.7, 0.5), Ball.RED: (0.7, 0.5 + 2 * R + gap)},
                {Ball.WHITE: rolling((0.0, speed))})
    k = entries(run, L.EVENT_BALL)[0]
    assert abs(run.log_t[k] - _rolling_contact_time(speed, gap)) <= 1e-11
    # the kernel that finds it, on an oblique approach (a centre 1 cm to the side)
    lateral = 0.01
    s = np.zeros((2, 7))
    s[0, :] = (0.7, 0.5, 0.0, speed, -speed / R, 0.0, 0.0)
    s[1, :2] = (0.7 + lateral, 0.5 + 2 * R + gap)
    horizon = speed / (DEFAULT_PARAMS.mu_roll * G)
    t = pair_time(s, 0, 1, L.ROLLING, L.RESTING, DEFAULT_PARAMS.vector(LARGE), horizon)
    assert abs(t - _rolling_contact_time(speed, gap, lateral)) <= 1e-11


@pytest.mark.parametrize("speed", [0.2, 1.0, 5.0])
@pytest.mark.parametrize(("inside", "contact"), [
    (0.0, False), (-1e-9, False), (-1e-6, False), (1e-11, True), (1e-9, True), (1e-6, True)])
def test_check_9_grazing_at_exactly_2r_is_no_contact_just_inside_is(
        speed: float, inside: float, contact: bool) -> None:
    for side in (1.0, -1.0):
        offset = side * (2 * R - inside)
        run = balls({Ball.WHITE: (0.7, 0.5), Ball.RED: (0.7 + offset, 0.8)},
                    {Ball.WHITE: rolling((0.0, speed))})
        hits = [e for e in events_of(run) if e.__class__.__name__ == "BallContact"]
        assert bool(hits) is contact
