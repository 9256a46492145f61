"""Check 6 and the energy rule: every collision conserves momentum (ball–ball) and no
collision, and no stretch of motion, ever adds kinetic energy."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.physics import layout as L
from carom.physics.collide import ball_ball
from carom.physics.cue import cue_strike
from carom.physics.cushion import ball_cushion
from carom.physics.params import Params

from .conftest import LARGE, R, balls, energy, settings_fast
from .strategies import ball_state, params, touching_pair

SLACK = 1e-12
"""Relative rounding allowed on an energy that must not rise."""


@settings(**settings_fast)
@given(pair=touching_pair(), par=params())
def test_check_6_ball_ball_conserves_momentum_and_never_adds_energy(pair: np.ndarray, par: Params) -> None:
    s = pair.copy()
    before = energy(s, par)
    momentum = s[:, L.VX:L.VY + 1].sum(axis=0)
    assert ball_ball(s, 0, 1, par.vector(LARGE))
    assert np.allclose(s[:, L.VX:L.VY + 1].sum(axis=0), momentum, rtol=1e-12, atol=1e-12)
    assert energy(s, par) <= before * (1 + SLACK)


@settings(**settings_fast)
@given(pair=touching_pair(slowest=1e-6), par=params())
def test_pressed_and_crawling_contacts_never_add_energy(pair: np.ndarray, par: Params) -> None:
    """At a crawl the cloth's grip and the rest rule act too (external forces: momentum
    may change, energy may only fall)."""
    s = pair.copy()
    s[:, L.VX:L.VY + 1] *= 0.01
    before = energy(s, par)
    ball_ball(s, 0, 1, par.vector(LARGE))
    assert energy(s, par) <= before * (1 + SLACK)


@settings(**settings_fast)
@given(s=ball_state(still_chance=0.0), cushion=st.sampled_from([L.BOTTOM, L.TOP, L.LEFT, L.RIGHT]),
       par=params())
def test_a_cushion_never_adds_energy(s: np.ndarray, cushion: int, par: Params) -> None:
    row = s.reshape(1, 7).copy()
    before = energy(row, par)
    ball_cushion(row, 0, cushion, par.vector(LARGE))
    assert energy(row, par) <= before * (1 + SLACK)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), par=params())
def test_energy_never_rises_from_one_event_to_the_next(seed: int, par: Params) -> None:
    rng = np.random.default_rng(seed)
    p = par.vector(LARGE)
    from carom.core.balls import Ball
    from carom.physics.simulate import Motion

    position = {Ball.WHITE: (0.6, 0.7), Ball.YELLOW: (0.71, 0.71 + rng.uniform(0.1, 1.5)),
                Ball.RED: (rng.uniform(R, LARGE.width - R), 2.13)}
    vx, vy, wx, wy, wz = cue_strike(rng.uniform(1, 6), rng.uniform(0, 360), rng.uniform(-0.4, 0.4),
                                    rng.uniform(-0.3, 0.3), 0.0, p)
    if abs(position[Ball.RED][0] - 0.71) < 2 * R + 0.001:
        position[Ball.RED] = (0.2, 2.13)
    run = balls(position, {Ball.WHITE: Motion((vx, vy), (wx, wy, wz))}, par)
    energies = [energy(run.log_state[k], par) for k in range(run.n_log)]
    for before, after in itertools.pairwise(energies):
        assert after <= before * (1 + SLACK) + 1e-15
