"""Hypothesis strategies for ball states and parameters."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import strategies as st

from carom.physics.params import DEFAULT_PARAMS, Params

from .conftest import LARGE, R

speed = st.floats(-6.0, 6.0, allow_nan=False)
spin = st.floats(-200.0, 200.0, allow_nan=False)
x_on_table = st.floats(R, LARGE.width - R)
y_on_table = st.floats(R, LARGE.length - R)


@st.composite
def ball_state(draw: st.DrawFn, still_chance: float = 0.15) -> np.ndarray:
    """One ball's state: anywhere on the table, any velocity and spin (sometimes none)."""
    s = np.zeros(7)
    s[0] = draw(x_on_table)
    s[1] = draw(y_on_table)
    if draw(st.floats(0, 1)) >= still_chance:
        s[2:4] = (draw(speed), draw(speed))
        s[4:7] = (draw(spin), draw(spin), draw(spin))
    return s


@st.composite
def params(draw: st.DrawFn) -> Params:
    """Parameters anywhere in PHYSICS.md's ranges, either cushion model."""
    return DEFAULT_PARAMS.replace(
        mu_slide=draw(st.floats(0.18, 0.25)), mu_roll=draw(st.floats(0.004, 0.006)),
        spin_decay=draw(st.floats(5.0, 15.0)), e_ball=draw(st.floats(0.92, 0.98)),
        cushion_model=draw(st.sampled_from(["han2005", "mathavan2010"])),
        han_e=draw(st.floats(0.80, 0.95)), han_mu=draw(st.floats(0.15, 0.30)),
        han_grip=draw(st.floats(0.0, 1.0)),
        mathavan_e=draw(st.floats(0.80, 0.95)), mathavan_mu=draw(st.floats(0.15, 0.30)),
        mathavan_steps=200)


@st.composite
def touching_pair(draw: st.DrawFn, slowest: float = 0.05) -> np.ndarray:
    """Two balls in contact (2 × 7), the first moving towards the second at ``slowest`` m/s
    or more (faster than the cloth can press them together, see ``collide.py``)."""
    a = draw(ball_state(still_chance=0.0))
    b = draw(ball_state())
    angle = draw(st.floats(0.0, 2 * math.pi))
    a[0:2] = (0.7, 1.4)
    b[0:2] = (0.7 + 2 * R * math.cos(angle), 1.4 + 2 * R * math.sin(angle))
    n = np.array([math.cos(angle), math.sin(angle)])
    relative = a[2:4] - b[2:4]
    along = float(np.dot(relative, n))
    if along <= slowest:
        # keep the sideways part of the relative velocity, make the approach fast enough
        a[2:4] = b[2:4] + relative + (draw(st.floats(slowest, 6.0)) - along) * n
    return np.vstack([a, b])
