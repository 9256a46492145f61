"""Every numba kernel against its slow pure-Python twin on random inputs (ARCHITECTURE.md,
principle 9; docs/physics.md, "Design")."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from carom.physics import layout as L
from carom.physics import twin
from carom.physics.collide import ball_ball
from carom.physics.cue import cue_strike
from carom.physics.cushion import ball_cushion
from carom.physics.detect import cushion_time, pair_time
from carom.physics.engine import run, settle_all
from carom.physics.motion import evolve, settle, transition_time
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.roots import first_contact, first_down_crossing
from carom.physics.twin import collide as t_collide
from carom.physics.twin import engine as t_engine
from carom.physics.twin import motion as t_motion
from carom.physics.twin import roots as t_roots
from carom.physics.twin import strike as t_strike

from .conftest import LARGE, R, settings_fast
from .strategies import ball_state, params, touching_pair

_ = twin
CLOSE = {"rel": 1e-9, "abs": 1e-11}


def close(a: np.ndarray | list[float], b: np.ndarray | list[float], rel: float = 1e-9,
          abs_: float = 1e-11) -> bool:
    return bool(np.allclose(np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rel, atol=abs_))


@settings(**settings_fast)
@given(s=ball_state(), dt=st.floats(0.0, 30.0), par=params())
def test_motion(s: np.ndarray, dt: float, par: Params) -> None:
    p = par.vector(LARGE)
    row = s.reshape(1, 7).copy()
    mode = settle(row, 0, p)
    t_state, t_mode = t_motion.settle(list(s), p)
    assert mode == t_mode
    assert close(row[0], t_state)
    assert transition_time(row, 0, mode, p) == pytest.approx(t_motion.transition_time(t_state, t_mode, p),
                                                             rel=1e-12)
    out, out_mode = evolve(row[0], mode, dt, p)
    t_out, t_out_mode = t_motion.evolve(t_state, t_mode, dt, p)
    assert close(out, t_out, 1e-9, 1e-9)
    assume(abs(dt - t_motion.transition_time(t_state, t_mode, p)) > 1e-9)
    assert out_mode == t_out_mode


def _physical(limit: float) -> st.SearchStrategy[float]:
    """Zero, or a size a ball's motion can have (no denormal curiosities)."""
    return st.one_of(st.just(0.0), st.floats(-limit, -1e-6), st.floats(1e-6, limit))


@settings(**settings_fast)
@given(d0=st.floats(-0.01, 3.0), d1=_physical(8.0), d2=_physical(1.5))
def test_first_down_crossing(d0: float, d1: float, d2: float) -> None:
    a, b = first_down_crossing(d0, d1, d2), t_roots.first_down_crossing(d0, d1, d2)
    assert a == b or a == pytest.approx(b, rel=1e-9)


@settings(**settings_fast)
@given(a=ball_state(still_chance=0.0), b=ball_state(), horizon=st.floats(0.01, 20.0))
def test_pair_time(a: np.ndarray, b: np.ndarray, horizon: float) -> None:
    p = DEFAULT_PARAMS.vector(LARGE)
    s = np.vstack([a, b])
    ma, mb = settle(s, 0, p), settle(s, 1, p)
    assume(math.hypot(*(s[0, :2] - s[1, :2])) > 2 * R)
    mine = pair_time(s, 0, 1, ma, mb, p, horizon)
    theirs = t_engine.pair_time(list(s[0]), ma, list(s[1]), mb, p, horizon)
    if math.isinf(mine) or math.isinf(theirs):
        assert mine == theirs
    else:
        assert mine == pytest.approx(theirs, rel=1e-9, abs=1e-12)


@settings(**settings_fast)
@given(coeffs=st.lists(_physical(5.0), min_size=5, max_size=5), horizon=st.floats(0.1, 5.0))
def test_first_contact_on_any_quartic(coeffs: list[float], horizon: float) -> None:
    e0, e1, e2, e3, e4 = coeffs
    # tangencies within rounding of zero are left to checks 8 and 9 (the oracle's
    # eigenvalues cannot place a double root better than about 1e-8)
    quartic = np.polynomial.Polynomial(coeffs)
    critical = [c.real for c in quartic.deriv().roots() if abs(c.imag) < 1e-6 and 0 <= c.real <= horizon]
    assume(all(abs(quartic(t)) > 1e-6 for t in [0.0, horizon, *critical]))
    assume(abs(e1) > 1e-6)
    mine = first_contact(e0, e1, e2, e3, e4, horizon, 1e-13)
    theirs = t_roots.first_contact(e0, e1, e2, e3, e4, horizon, 1e-13)
    if math.isinf(mine) or math.isinf(theirs):
        assert mine == theirs
    else:
        assert mine == pytest.approx(theirs, rel=1e-7, abs=1e-10)


@settings(**settings_fast)
@given(s=ball_state(still_chance=0.0), par=params())
@example(s=np.array([1.0, 0.03075, 0.0, 1.3899228575899917e-254, 0.0, 1.0, 0.0]), par=DEFAULT_PARAMS)
@example(s=np.array([1.0, 0.03075, 0.0, 1.3899228575899917e-254, 3.0, 57.0, 0.0]), par=DEFAULT_PARAMS)
def test_cushion_time(s: np.ndarray, par: Params) -> None:
    p = par.vector(LARGE)
    row = s.reshape(1, 7).copy()
    mode = settle(row, 0, p)
    mine = cushion_time(row, 0, mode, p)
    theirs = t_engine.cushion_time(list(row[0]), mode, p)
    assert mine[1] == theirs[1]
    assert mine[0] == theirs[0] or mine[0] == pytest.approx(theirs[0], rel=1e-9, abs=1e-12)


@settings(**settings_fast)
@given(pair=touching_pair(), par=params())
def test_ball_ball(pair: np.ndarray, par: Params) -> None:
    p = par.vector(LARGE)
    s = pair.copy()
    done = ball_ball(s, 0, 1, p)
    theirs = t_collide.ball_ball(list(pair[0]), list(pair[1]), p)
    assert done == (theirs is not None)
    if theirs is not None:
        assert close(s[0], theirs[0]) and close(s[1], theirs[1])


@settings(**settings_fast)
@given(s=ball_state(still_chance=0.0), cushion=st.sampled_from([L.BOTTOM, L.TOP, L.LEFT, L.RIGHT]),
       par=params())
def test_ball_cushion(s: np.ndarray, cushion: int, par: Params) -> None:
    p = par.vector(LARGE)
    row = s.reshape(1, 7).copy()
    ball_cushion(row, 0, cushion, p)
    theirs = t_collide.ball_cushion(list(s), cushion, p)
    assert close(row[0], theirs, 1e-9, 1e-9)


@settings(**settings_fast)
@given(speed=st.floats(0.0, 8.0), direction=st.floats(-720.0, 720.0), side=st.floats(-0.35, 0.35),
       height=st.floats(-0.35, 0.35), elevation=st.floats(0.0, 60.0))
def test_cue_strike(speed: float, direction: float, side: float, height: float, elevation: float) -> None:
    p = DEFAULT_PARAMS.vector(LARGE)
    mine = cue_strike(speed, direction, side, height, elevation, p)
    theirs = t_strike.cue_strike(speed, direction, side, height, elevation, p)
    assert close(mine, theirs, 1e-12, 1e-12)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), par=params())
def test_event_loop_on_random_strokes(seed: int, par: Params) -> None:
    """Three balls anywhere, one struck at random: the same contacts in the same order and
    the same end position (within 1e-6 m: the two loops round differently)."""
    rng = np.random.default_rng(seed)
    p = par.vector(LARGE)
    s = np.zeros((3, 7))
    while True:
        s[:, 0] = rng.uniform(R, LARGE.width - R, 3)
        s[:, 1] = rng.uniform(R, LARGE.length - R, 3)
        gaps = [math.hypot(*(s[i, :2] - s[j, :2])) for i, j in ((0, 1), (0, 2), (1, 2))]
        if min(gaps) > 2 * R + 1e-3:
            break
    s[0, 2:] = cue_strike(rng.uniform(0.5, 6.0), rng.uniform(0, 360), rng.uniform(-0.4, 0.4),
                          rng.uniform(-0.3, 0.3), 0.0, p)
    start = s.copy()
    modes = settle_all(s, p)
    cap = 4096
    log = (np.empty(cap), np.empty(cap, np.int64), np.empty(cap, np.int64), np.empty(cap, np.int64),
           np.empty((0, 3, 7)), np.empty((0, 3), np.int64))
    n_log, _, status, end = run(s, modes, p, *log, np.empty(0, np.uint8), np.empty(0))
    assert status == L.STATUS_OK
    mine = [(int(log[1][k]), int(log[2][k]), int(log[3][k])) for k in range(1, n_log)
            if log[1][k] != L.EVENT_TRANSITION]
    events, final, t_end = t_engine.run(start, p)
    theirs = [e[1:] for e in events if e[1] != L.EVENT_TRANSITION]
    assert mine == theirs
    assert end == pytest.approx(t_end, rel=1e-6)
    assert close(s[:, :2], np.array(final)[:, :2], 0.0, 1e-6)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_sampled_positions(seed: int) -> None:
    """``paths.sample_positions`` against the twin's motion from the logged states."""
    from carom.core.balls import Ball
    from carom.physics.paths import sample_positions
    from carom.physics.simulate import play
    from carom.physics.strike import Strike

    rng = np.random.default_rng(seed)
    position = {Ball.WHITE: (0.9, 0.7), Ball.YELLOW: (0.71, 0.71), Ball.RED: (0.71, 2.13)}
    run = play(position, Strike(Ball.WHITE, rng.uniform(1, 6), rng.uniform(0, 360), rng.uniform(-0.4, 0.4)),
               LARGE)
    times = np.sort(rng.uniform(0.0, run.duration + 1.0, 40))
    mine = sample_positions(run.log_t, run.log_state, run.log_mode, run.n_log, times, run.vector)
    for q, t in enumerate(times):
        k = int(np.searchsorted(run.log_t[:run.n_log], t, side="right")) - 1
        for row in range(3):
            theirs, _ = t_motion.evolve(list(run.log_state[k, row]), int(run.log_mode[k, row]),
                                        t - run.log_t[k], run.vector)
            assert close(mine[q, row], theirs[:2], 1e-9, 1e-9)
