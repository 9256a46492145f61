"""The event loop's shortcuts leave every result as it was (docs/physics.md, "Shortcuts in
the event loop, same results"): a cushion search limited to the time left in the
ball's mode finds what the full search finds when that is within the time, and
nothing earlier than the time otherwise; the kernels given a norm or an acceleration
give what they give computing it themselves."""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from carom.physics import layout as L
from carom.physics.detect import cushion_time, cushion_time_accelerated, pair_time, pair_time_accelerated
from carom.physics.motion import (
    acceleration,
    acceleration_given,
    advance,
    advance_given,
    motion_norm,
    settle,
    transition_time,
    transition_time_given,
)
from carom.physics.params import Params

from .conftest import LARGE, settings_fast
from .strategies import ball_state, params


@settings(**settings_fast)
@given(s=ball_state(still_chance=0.0), par=params(), share=st.floats(0.0, 1.5))
def test_a_cushion_skipped_within_a_time_is_one_met_later(s: np.ndarray, par: Params, share: float) -> None:
    p = par.vector(LARGE)
    row = s.reshape(1, 7).copy()
    mode = settle(row, 0, p)
    assume(mode >= L.SLIDING)  # the loop asks only about moving balls
    full = cushion_time(row, 0, mode, p)
    within = share * transition_time(row, 0, mode, p)
    ax, ay = acceleration(row, 0, mode, p)
    quick = cushion_time_accelerated(row, 0, mode, ax, ay, p, within)
    if full[0] <= within + L.TIE:
        assert quick == full
    else:
        assert quick[0] > within + L.TIE  # too late to matter, whichever cushion it is


@settings(**settings_fast)
@given(s=ball_state(), dt=st.floats(0.0, 30.0), par=params())
def test_the_kernels_given_the_norm_give_what_they_give_alone(s: np.ndarray, dt: float, par: Params) -> None:
    p = par.vector(LARGE)
    row = s.reshape(1, 7).copy()
    mode = settle(row, 0, p)
    norm = motion_norm(row, 0, mode, p)
    assert transition_time_given(row, 0, mode, norm, p) == transition_time(row, 0, mode, p)
    assert acceleration_given(row, 0, mode, norm, p) == acceleration(row, 0, mode, p)
    dt = min(dt, transition_time(row, 0, mode, p))
    alone, given_norm = np.empty((1, 7)), np.empty((1, 7))
    advance(row, 0, mode, dt, p, alone, 0)
    advance_given(row, 0, mode, dt, norm, p, given_norm, 0)
    assert np.array_equal(alone, given_norm)


@settings(**settings_fast)
@given(a=ball_state(), b=ball_state(), horizon=st.floats(0.0, 60.0), par=params())
def test_a_pair_time_given_the_accelerations_is_the_pair_time(a: np.ndarray, b: np.ndarray, horizon: float,
                                                              par: Params) -> None:
    p = par.vector(LARGE)
    s = np.stack([a, b])
    modes = [settle(s, 0, p), settle(s, 1, p)]
    (aix, aiy), (ajx, ajy) = acceleration(s, 0, modes[0], p), acceleration(s, 1, modes[1], p)
    alone = pair_time(s, 0, 1, modes[0], modes[1], p, horizon)
    assert pair_time_accelerated(s, 0, 1, modes[0], modes[1], aix, aiy, ajx, ajy, p, horizon) == alone
