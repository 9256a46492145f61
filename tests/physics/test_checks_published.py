"""PHYSICS.md checks 10 and 11: throw (Alciatore TP A-14) and the cue strike."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carom.physics import layout as L
from carom.physics.collide import ball_ball
from carom.physics.cue import cue_strike
from carom.physics.params import DEFAULT_PARAMS, Params

from .conftest import LARGE, R


def throw_angle(speed: float, cut_deg: float, params: Params) -> float:
    """A stun cue ball at ``speed`` cuts a resting ball at ``cut_deg``: the angle between
    the object ball's path and the line of centres, degrees."""
    phi = math.radians(cut_deg)
    s = np.zeros((2, 7))
    s[0, :4] = (0.5, 0.5, 0.0, speed)
    s[1, :2] = (0.5 + 2 * R * math.sin(phi), 0.5 + 2 * R * math.cos(phi))
    assert ball_ball(s, 0, 1, params.vector(LARGE))
    line = np.array([math.sin(phi), math.cos(phi)])
    v = s[1, L.VX:L.VY + 1]
    return math.degrees(math.acos(float(np.dot(v, line) / np.linalg.norm(v))))


@pytest.mark.parametrize(("speed", "expected"), [(0.447, 4.715), (1.341, 3.549), (3.129, 1.698)])
def test_check_10_throw_of_a_stun_30_degree_cut(speed: float, expected: float) -> None:
    # Alciatore's published figures are for elastic balls (his formula has no e)
    assert throw_angle(speed, 30.0, DEFAULT_PARAMS.replace(e_ball=1.0)) == pytest.approx(expected, abs=0.02)


@pytest.mark.parametrize(("speed", "expected"), [(1.341, 3.549), (3.129, 1.698)])
def test_check_10_sliding_throw_does_not_depend_on_restitution(speed: float, expected: float) -> None:
    """Where the surfaces slide throughout, throw is atan μ whatever e; where they grip
    (slow, 0.447 m/s) a smaller e throws more (4.84° at e = 0.95)."""
    assert throw_angle(speed, 30.0, DEFAULT_PARAMS) == pytest.approx(expected, abs=0.02)
    assert throw_angle(0.447, 30.0, DEFAULT_PARAMS) > 4.715


@pytest.mark.parametrize(("offset", "expected"),
                         [(0.0, 4.2254), (0.25, 3.8065), (0.4, 3.2967), (0.5, 2.9340)])
def test_check_11_cue_strike_ball_speed(offset: float, expected: float) -> None:
    p = DEFAULT_PARAMS.replace(cue_mass=0.5).vector(LARGE)
    m = DEFAULT_PARAMS.ball_mass
    formula = 2 * 3.0 / (1 + m / 0.5 + 2.5 * offset**2)
    for side, height in ((0.0, offset), (0.0, -offset), (offset, 0.0), (-offset, 0.0),
                         (offset * 0.6, offset * 0.8)):
        vx, vy, *_ = cue_strike(3.0, 37.0, side, height, 0.0, p)
        assert math.hypot(vx, vy) == pytest.approx(formula, rel=1e-12)
        assert math.hypot(vx, vy) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("height", [-0.5, -0.3, 0.0, 0.2, 0.4, 0.5])
def test_check_11_level_cue_spin_is_2_5_times_the_offset(height: float) -> None:
    p = DEFAULT_PARAMS.vector(LARGE)
    vx, vy, wx, wy, wz = cue_strike(2.0, 0.0, 0.0, height, 0.0, p)
    assert vy == pytest.approx(0.0, abs=1e-15)
    assert R * wy / vx == pytest.approx(2.5 * height, rel=1e-12, abs=1e-15)
    assert wx == pytest.approx(0.0, abs=1e-12) and wz == pytest.approx(0.0, abs=1e-12)


def test_check_11_natural_roll_at_once_at_0_4_r() -> None:
    from carom.physics.motion import settle

    p = DEFAULT_PARAMS.vector(LARGE)
    s = np.zeros((1, 7))
    s[0, 2:] = cue_strike(3.0, 123.0, 0.0, 0.4, 0.0, p)
    assert settle(s, 0, p) == L.ROLLING


def test_side_spin_squirts_the_ball_away_from_the_side_struck() -> None:
    p = DEFAULT_PARAMS.vector(LARGE)
    vx, vy, _, _, wz = cue_strike(3.0, 90.0, 0.4, 0.0, 0.0, p)
    assert wz > 0          # right side: counter-clockwise seen from above
    assert vx < 0          # and the ball leaves to the left of the cue line
    squirt = math.degrees(math.atan2(-vx, vy))
    assert 0.5 < squirt < 3.0
    no_squirt = DEFAULT_PARAMS.replace(cue_end_mass=0.0).vector(LARGE)
    assert cue_strike(3.0, 90.0, 0.4, 0.0, 0.0, no_squirt)[0] == pytest.approx(0.0, abs=1e-15)


def test_elevated_cue_keeps_the_horizontal_part_and_gives_masse_spin() -> None:
    p = DEFAULT_PARAMS.vector(LARGE)
    level = cue_strike(3.0, 0.0, 0.3, 0.0, 0.0, p)
    raised = cue_strike(3.0, 0.0, 0.3, 0.0, 30.0, p)
    assert math.hypot(raised[0], raised[1]) == pytest.approx(math.hypot(level[0], level[1]) * math.cos(
        math.radians(30)), rel=1e-3)
    assert abs(raised[2]) > 1.0  # spin about the direction of travel: massé
