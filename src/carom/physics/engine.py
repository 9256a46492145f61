"""The event loop: from the balls' states after the strike to rest (PHYSICS.md).

Each ball keeps the state it had at its last event and the time of that event; between
events it moves in closed form (``motion``). For every ball the loop knows the time of
its next mode change and of its next cushion, and for every pair the time of its next
contact, each computed once after an event that changes one of its balls. The earliest
time wins. **Simultaneous events** (within ``TIE`` = 1e-12 s of the earliest) are taken
one at a time in this order: cushion contacts (by ball: white, yellow, red; a ball's
cushions bottom, top, left, right), then ball–ball contacts (pairs white–yellow,
white–red, yellow–red), then mode changes (by ball); after each, the times that changed
are computed again, so the others follow at once, seeing its result.

The loop stops when no ball moves (spin about the vertical may go on) or after
``MAX_STEPS`` events (status 1, the balls are stopped where they are).
"""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel
from carom.physics.collide import ball_ball
from carom.physics.cue import cue_strike
from carom.physics.cushion import ball_cushion
from carom.physics.detect import cushion_time_accelerated, pair_time_accelerated
from carom.physics.motion import (
    acceleration,
    acceleration_given,
    advance,
    advance_given,
    end_mode,
    motion_norm,
    settle,
    transition_time_given,
)


@kernel
def settle_all(s: np.ndarray, p: np.ndarray) -> np.ndarray:
    """The mode of every ball of ``s`` (made consistent with it)."""
    n = s.shape[0]
    modes = np.empty(n, dtype=np.int64)
    for i in range(n):
        modes[i] = settle(s, i, p)
    return modes


@kernel
def contact_code(kind: int, a: int, b: int) -> int:
    """One byte per contact for the batch outcome: kind·16 + ball·4 + other ball or cushion."""
    return kind * 16 + a * 4 + b


@kernel
def _log(log_t: np.ndarray, log_kind: np.ndarray, log_a: np.ndarray, log_b: np.ndarray,
         log_state: np.ndarray, log_mode: np.ndarray, k: int, t: float, kind: int, a: int, b: int,
         ref: np.ndarray, tref: np.ndarray, mode: np.ndarray, p: np.ndarray) -> None:
    log_t[k] = t
    log_kind[k] = kind
    log_a[k] = a
    log_b[k] = b
    if log_state.shape[0] > 0:
        for m in range(ref.shape[0]):
            advance(ref, m, mode[m], t - tref[m], p, log_state[k], m)
            log_mode[k, m] = mode[m]


@kernel
def run(state: np.ndarray, mode: np.ndarray, p: np.ndarray, log_t: np.ndarray,
        log_kind: np.ndarray, log_a: np.ndarray, log_b: np.ndarray, log_state: np.ndarray,
        log_mode: np.ndarray, codes: np.ndarray, code_t: np.ndarray) -> tuple[int, int, int, float]:
    """Play the balls of ``state`` (n × 7, modes ``mode``) to rest; on return ``state``
    and ``mode`` hold the final states.

    Every event goes into the log (``log_t``, ``log_kind``, ``log_a``, ``log_b``; entry 0 is
    the start) when the log has room, with every ball's state and mode at that moment
    when ``log_state`` (capacity × n × 7) is not empty. Ball and cushion contacts also
    go into ``codes`` (:func:`contact_code`) while it has room, and their times into
    ``code_t`` while it has room. Returns (log entries, contacts, status, time of the last
    event)."""
    n = state.shape[0]
    cap = log_t.shape[0]
    ref = state
    tref = np.zeros(n)
    cur = np.empty((n, L.STATE_WIDTH))
    t_trans = np.empty(n)
    t_cush = np.empty(n)
    which = np.empty(n, dtype=np.int64)
    t_pair = np.full((n, n), math.inf)
    affected = np.ones(n, dtype=np.bool_)
    norm = np.empty(n)
    """Each ball's ``motion_norm`` at ``ref``: kept up to date with it."""
    acc = np.empty((n, 2))
    ready = np.empty(n, dtype=np.bool_)
    t_now = 0.0
    n_log = 0
    n_codes = 0
    status = L.STATUS_OK
    if cap > 0:
        _log(log_t, log_kind, log_a, log_b, log_state, log_mode, 0, 0.0, 0, 0, 0, ref, tref, mode, p)
        n_log = 1
    for step in range(L.MAX_STEPS + 1):
        # the times that the last event changed
        for i in range(n):
            if affected[i]:
                norm[i] = motion_norm(ref, i, mode[i], p)
                left = transition_time_given(ref, i, mode[i], norm[i], p)
                t_trans[i] = tref[i] + left
                ax, ay = acceleration_given(ref, i, mode[i], norm[i], p)
                dt, c = cushion_time_accelerated(ref, i, mode[i], ax, ay, p, left)
                t_cush[i] = tref[i] + dt
                which[i] = c
        # each ball brought to now (and its acceleration) once, for all its pairs
        for i in range(n):
            ready[i] = False
        for i in range(n):
            for j in range(i + 1, n):
                if not (affected[i] or affected[j]):
                    continue
                horizon = min(min(t_trans[i], t_trans[j]), min(t_cush[i], t_cush[j])) - t_now
                if horizon > 0.0 and (mode[i] >= L.SLIDING or mode[j] >= L.SLIDING):
                    if not ready[i]:
                        advance_given(ref, i, mode[i], t_now - tref[i], norm[i], p, cur, i)
                        acc[i, 0], acc[i, 1] = acceleration(cur, i, mode[i], p)
                        ready[i] = True
                    if not ready[j]:
                        advance_given(ref, j, mode[j], t_now - tref[j], norm[j], p, cur, j)
                        acc[j, 0], acc[j, 1] = acceleration(cur, j, mode[j], p)
                        ready[j] = True
                    t_pair[i, j] = t_now + pair_time_accelerated(cur, i, j, mode[i], mode[j], acc[i, 0],
                                                                 acc[i, 1], acc[j, 0], acc[j, 1], p, horizon)
                else:
                    t_pair[i, j] = math.inf
        moving = False
        for i in range(n):
            if mode[i] >= L.SLIDING:
                moving = True
        if not moving:
            break
        if step == L.MAX_STEPS:
            status = L.STATUS_TOO_MANY_EVENTS
            break
        # the earliest event, and among those within TIE of it the first in the documented order
        best = math.inf
        for i in range(n):
            best = min(best, min(t_cush[i], t_trans[i]))
            for j in range(i + 1, n):
                best = min(best, t_pair[i, j])
        limit = best + L.TIE
        kind = 0
        a = 0
        b = 0
        for i in range(n):
            if t_cush[i] <= limit:
                kind = L.EVENT_CUSHION
                a = i
                b = which[i]
                break
        if kind == 0:
            for i in range(n):
                for j in range(i + 1, n):
                    if kind == 0 and t_pair[i, j] <= limit:
                        kind = L.EVENT_BALL
                        a = i
                        b = j
        if kind == 0:
            for i in range(n):
                if t_trans[i] <= limit:
                    kind = L.EVENT_TRANSITION
                    a = i
                    break
        t_now = max(t_now, best)
        for i in range(n):
            affected[i] = False
        # bring the event's balls to now and resolve it
        advance_given(ref, a, mode[a], t_now - tref[a], norm[a], p, ref, a)
        tref[a] = t_now
        if kind == L.EVENT_BALL:
            advance_given(ref, b, mode[b], t_now - tref[b], norm[b], p, ref, b)
            tref[b] = t_now
            speed_a = math.hypot(ref[a, L.VX], ref[a, L.VY])
            speed_b = math.hypot(ref[b, L.VX], ref[b, L.VY])
            if ball_ball(ref, a, b, p):
                mode[a] = settle(ref, a, p)
                mode[b] = settle(ref, b, p)
                affected[a] = True
                affected[b] = True
                if speed_b > speed_a:
                    a, b = b, a
            else:
                t_pair[a, b] = math.inf
                kind = 0
                norm[a] = motion_norm(ref, a, mode[a], p)  # moved on, not affected
                norm[b] = motion_norm(ref, b, mode[b], p)
        elif kind == L.EVENT_CUSHION:
            nx = 0.0
            ny = 0.0
            if b == L.BOTTOM:
                ny = -1.0
            elif b == L.TOP:
                ny = 1.0
            elif b == L.LEFT:
                nx = -1.0
            else:
                nx = 1.0
            into = ref[a, L.VX] * nx + ref[a, L.VY] * ny
            if ball_cushion(ref, a, b, p):
                mode[a] = settle(ref, a, p)
                affected[a] = True
            else:
                t_cush[a] = math.inf
                norm[a] = motion_norm(ref, a, mode[a], p)  # moved on, not affected
            if not into > 0.0:
                kind = 0
        else:
            mode[a] = end_mode(ref, a, mode[a], p)
            b = mode[a]
            affected[a] = True
        if kind == 0:
            continue
        if n_log < cap:
            _log(log_t, log_kind, log_a, log_b, log_state, log_mode, n_log, t_now, kind, a, b,
                 ref, tref, mode, p)
            n_log += 1
        elif cap > 0:
            status = L.STATUS_LOG_FULL
            break
        if kind != L.EVENT_TRANSITION:
            if n_codes < codes.shape[0]:
                codes[n_codes] = contact_code(kind, a, b)
            if n_codes < code_t.shape[0]:
                code_t[n_codes] = t_now
            n_codes += 1
    # everything to the end time; a ball still moving (status 1) is stopped there
    for i in range(n):
        advance_given(ref, i, mode[i], t_now - tref[i], norm[i], p, ref, i)
        if status != L.STATUS_OK and mode[i] >= L.SLIDING:
            ref[i, L.VX] = 0.0
            ref[i, L.VY] = 0.0
            ref[i, L.WX] = 0.0
            ref[i, L.WY] = 0.0
            mode[i] = settle(ref, i, p)
    return n_log, n_codes, status, t_now


@kernel
def strike_and_run(state: np.ndarray, cue: int, strike: np.ndarray, p: np.ndarray, log_t: np.ndarray,
                   log_kind: np.ndarray, log_a: np.ndarray, log_b: np.ndarray, log_state: np.ndarray,
                   log_mode: np.ndarray, codes: np.ndarray,
                   code_t: np.ndarray) -> tuple[int, int, int, float]:
    """Give ball ``cue`` of ``state`` the strike (speed, direction, side, height, elevation;
    none when ``cue`` < 0), added to the motion it has, and :func:`run` the stroke. One
    compiled call for the whole stroke; ``state`` holds the final states on return."""
    if cue >= 0:
        vx, vy, wx, wy, wz = cue_strike(strike[0], strike[1], strike[2], strike[3], strike[4], p)
        state[cue, L.VX] += vx
        state[cue, L.VY] += vy
        state[cue, L.WX] += wx
        state[cue, L.WY] += wy
        state[cue, L.WZ] += wz
    mode = settle_all(state, p)
    return run(state, mode, p, log_t, log_kind, log_a, log_b, log_state, log_mode, codes, code_t)
