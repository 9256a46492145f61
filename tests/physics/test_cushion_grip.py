"""The Han 2005 cushion's tangential restitution along the cushion (``han_grip``;
docs/physics.md, "Calibration against the real table")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.physics import layout as L
from carom.physics.cushion import han_2005
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.replay import Case, scores

from .conftest import LARGE, R, energy, settings_fast
from .realdata import replay_cases

M = DEFAULT_PARAMS.ball_mass
SIN = (DEFAULT_PARAMS.cushion_height - R) / R


def _bounce(vx: float, vy: float, w: tuple[float, float, float], grip: float,
            e: float = 0.85, mu: float = 0.24) -> tuple[float, float, float, float, float]:
    return han_2005(vx, vy, *w, R, M, SIN, e, mu, grip)  # type: ignore[no-any-return]


@pytest.mark.parametrize("grip", [0.0, 0.2, 0.5, 1.0])
def test_a_gripping_stun_ball_springs_back_the_grip_of_its_slip_along_the_cushion(grip: float) -> None:
    # a stun ball, no spin, slow along the cushion: the cushion grips it; the slip along
    # the cushion (here its speed along it) ends as −grip times itself
    vx, vy = 1.0, 0.1
    out = _bounce(vx, vy, (0.0, 0.0, 0.0), grip)
    slip_after = out[1] + R * out[4] * math.sqrt(1 - SIN * SIN) - R * out[2] * SIN
    assert slip_after == pytest.approx(-grip * vy, rel=1e-12, abs=1e-15)
    assert out[1] == pytest.approx(vy * (1 - 2 * (1 + grip) / 7), rel=1e-12)


def test_without_grip_the_model_is_the_published_one() -> None:
    # the slip along the cushion stops (the impulse 2m|s|/7 is within μ N)
    out = _bounce(1.0, 0.1, (0.0, 0.0, 0.0), 0.0)
    assert out[1] == pytest.approx(5 / 7 * 0.1, rel=1e-12)


@settings(**settings_fast)
@given(vx=st.floats(0.05, 8.0), vy=st.floats(-8.0, 8.0), wx=st.floats(-300.0, 300.0),
       wy=st.floats(-300.0, 300.0), wz=st.floats(-300.0, 300.0), grip=st.floats(0.0, 1.0),
       e=st.floats(0.8, 0.95), mu=st.floats(0.15, 0.30))
def test_the_cushions_friction_never_exceeds_mu_times_its_normal_impulse_nor_adds_energy(
        vx: float, vy: float, wx: float, wy: float, wz: float, grip: float, e: float, mu: float) -> None:
    out = _bounce(vx, vy, (wx, wy, wz), grip, e, mu)
    # the friction along the cushion changes vy alone: |Δvy| m ≤ μ N
    normal = (1 + e) * M * vx * math.sqrt(1 - SIN * SIN)
    assert abs(out[1] - vy) * M <= mu * normal * (1 + 1e-12)
    par = DEFAULT_PARAMS.replace(han_grip=grip, han_e=e, han_mu=mu)
    before = np.array([[0.5, 0.5, vx, vy, wx, wy, wz]])
    after = np.array([[0.5, 0.5, out[0], out[1], out[2], out[3], out[4]]])
    assert energy(after, par) <= energy(before, par) * (1 + 1e-12)


def test_grip_is_a_parameter_with_a_range() -> None:
    assert 0.0 <= DEFAULT_PARAMS.han_grip <= 1.0
    assert DEFAULT_PARAMS.vector(LARGE)[L.P_CUSHION_GRIP] == DEFAULT_PARAMS.han_grip
    with pytest.raises(ValueError, match="han_grip"):
        DEFAULT_PARAMS.with_overrides({"han_grip": 1.5})
    with pytest.raises(ValueError, match="han_grip"):
        Params(han_grip=-0.1)


def test_check_15_out_of_sample_spinless_grip_chosen_on_half_the_shots_helps_the_other_half() -> None:
    """OUT OF SAMPLE, spinless starts (the protocol of the held-back cases): the
    tangential restitution chosen on the odd shots (a coarse grid, the other defaults as
    they are) lowers the even shots' error after the second cushion and their RMSE,
    against the published model (no grip)."""
    cases = replay_cases()
    odd = [c for c in cases if c.shot % 2]
    even = [c for c in cases if not c.shot % 2]

    def total(chosen: list[Case], grip: float) -> float:
        s = scores(chosen, DEFAULT_PARAMS.replace(han_grip=grip))
        return s.after_first / 0.03 + s.after_second / 0.08 + s.rmse / 0.075

    grip = min((0.0, 0.1, 0.2, 0.3, 0.4), key=lambda g: total(odd, g))
    assert grip > 0.0
    held = scores(even, DEFAULT_PARAMS.replace(han_grip=grip))
    plain = scores(even, DEFAULT_PARAMS.replace(han_grip=0.0))
    assert held.after_second < plain.after_second
    assert held.rmse < plain.rmse
