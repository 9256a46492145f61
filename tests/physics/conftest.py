"""Shared values and builders for the physics tests (PHYSICS.md, "Checks")."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.table import TABLES, TableSpec
from carom.physics import layout as L
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.simulate import Motion, Run, play

LARGE = TABLES["large"]
SMALL = TABLES["small"]
R = DEFAULT_PARAMS.ball_radius
G = DEFAULT_PARAMS.gravity

settings_fast = {"max_examples": 60, "deadline": None}
"""Hypothesis settings: moderate counts, no timing (the machine is shared)."""


@pytest.fixture
def p() -> np.ndarray:
    return DEFAULT_PARAMS.vector(LARGE)


def rolling(v: tuple[float, float], wz: float = 0.0, radius: float = R) -> Motion:
    """A ball rolling at ``v``."""
    return Motion(v, (-v[1] / radius, v[0] / radius, wz))


def stun(v: tuple[float, float]) -> Motion:
    return Motion(v, (0.0, 0.0, 0.0))


def one_ball(r: tuple[float, float], motion: Motion, params: Params = DEFAULT_PARAMS,
             table: TableSpec = LARGE) -> Run:
    return play({Ball.WHITE: r}, None, table, params, {Ball.WHITE: motion})


def balls(position: Mapping[Ball, tuple[float, float]], motion: Mapping[Ball, Motion],
          params: Params = DEFAULT_PARAMS, table: TableSpec = LARGE) -> Run:
    return play(position, None, table, params, motion)


def entries(run: Run, kind: int) -> list[int]:
    """Indices of the log entries of ``kind``."""
    return [k for k in range(run.n_log) if run.log_kind[k] == kind]


def first_rolling_after(run: Run, k: int, row: int = 0) -> np.ndarray:
    """The state of ball ``row`` when it next starts rolling after log entry ``k``."""
    for q in range(k + 1, run.n_log):
        if run.log_kind[q] == L.EVENT_TRANSITION and run.log_a[q] == row and run.log_b[q] == L.ROLLING:
            return run.log_state[q, row]
    raise AssertionError("the ball never rolled again")


def energy(state: np.ndarray, params: Params = DEFAULT_PARAMS) -> float:
    """Kinetic energy of the balls of ``state`` (n × 7): ½mv² + ½Iω² (check 6)."""
    m, radius = params.ball_mass, params.ball_radius
    v2 = state[:, L.VX] ** 2 + state[:, L.VY] ** 2
    w2 = state[:, L.WX] ** 2 + state[:, L.WY] ** 2 + state[:, L.WZ] ** 2
    return float(np.sum(0.5 * m * v2 + 0.2 * m * radius**2 * w2))


def angle_of(vx: float, vy: float) -> float:
    return math.degrees(math.atan2(vy, vx))
