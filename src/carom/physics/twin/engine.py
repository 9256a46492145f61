"""Twin of ``carom.physics.engine.run``: the same events, by a plain loop that brings every
ball to the present and re-evaluates every time after every event (PHYSICS.md)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from carom.physics import layout as L
from carom.physics.twin.collide import NORMALS, ball_ball, ball_cushion
from carom.physics.twin.motion import acceleration, evolve, parts, settle, transition_time
from carom.physics.twin.roots import first_contact, first_down_crossing
from carom.physics.twin.vector import dot, norm, scale, sub

Event = tuple[float, int, int, int]
"""(time, kind, ball, other ball / cushion / new mode)."""


def cushion_time(state: Sequence[float], mode: int, p: Sequence[float]) -> tuple[float, int]:
    if mode not in (L.SLIDING, L.ROLLING):
        return math.inf, L.NO_CUSHION
    r, v, _ = parts(state)
    a = acceleration(state, mode, p)
    radius = p[L.P_RADIUS]
    best, which = math.inf, L.NO_CUSHION
    for cushion in (L.BOTTOM, L.TOP, L.LEFT, L.RIGHT):
        n = NORMALS[cushion]
        # distance of the centre from the line at R from the nose
        if cushion == L.TOP:
            d0 = (p[L.P_LENGTH] - radius) - r[1]
        elif cushion == L.RIGHT:
            d0 = (p[L.P_WIDTH] - radius) - r[0]
        else:
            d0 = dot(r, scale(-1.0, n)) - radius
        t = first_down_crossing(d0, -dot(v, n), -0.5 * dot(a, n))
        if t < best:
            best, which = t, cushion
    return best, which


def pair_time(a: Sequence[float], ma: int, b: Sequence[float], mb: int, p: Sequence[float],
              horizon: float) -> float:
    if not (ma in (L.SLIDING, L.ROLLING) or mb in (L.SLIDING, L.ROLLING)) or not horizon > 0:
        return math.inf
    ra, va, _ = parts(a)
    rb, vb, _ = parts(b)
    acc = sub(acceleration(a, ma, p), acceleration(b, mb, p))
    d = sub(ra, rb)
    # |d + (va - vb) t + acc t²/2|² − (2R)², as polynomials in t (lowest power first)
    quartic = np.zeros(5)
    for k in range(2):
        poly = np.array([d[k], va[k] - vb[k], 0.5 * acc[k]])
        quartic += np.convolve(poly, poly)
    gap = norm(d)
    quartic[0] = (gap - 2.0 * p[L.P_RADIUS]) * (gap + 2.0 * p[L.P_RADIUS])
    e0, e1, e2, e3, e4 = (float(c) for c in quartic)
    return first_contact(e0, e1, e2, e3, e4, horizon, 4.0 * p[L.P_RADIUS] * L.GRAZE)


def run(state: np.ndarray, p: Sequence[float]) -> tuple[list[Event], list[list[float]], float]:
    """Play the balls of ``state`` (n × 7) to rest: the events, the final states, the end."""
    balls = []
    modes = []
    for s in state:
        settled, mode = settle([float(x) for x in s], p)
        balls.append(settled)
        modes.append(mode)
    n = len(balls)
    t = 0.0
    events: list[Event] = []
    for _ in range(L.MAX_STEPS):
        if not any(m in (L.SLIDING, L.ROLLING) for m in modes):
            break
        trans = [transition_time(balls[i], modes[i], p) for i in range(n)]
        cush = [cushion_time(balls[i], modes[i], p) for i in range(n)]
        pairs = {}
        for i in range(n):
            for j in range(i + 1, n):
                horizon = min(trans[i], trans[j], cush[i][0], cush[j][0])
                pairs[i, j] = pair_time(balls[i], modes[i], balls[j], modes[j], p, horizon)
        best = min([*trans, *(c[0] for c in cush), *pairs.values()])
        limit = best + L.TIE
        chosen: tuple[int, int, int] | None = None
        for i in range(n):
            if chosen is None and cush[i][0] <= limit:
                chosen = (L.EVENT_CUSHION, i, cush[i][1])
        for (i, j), tp in pairs.items():
            if chosen is None and tp <= limit:
                chosen = (L.EVENT_BALL, i, j)
        for i in range(n):
            if chosen is None and trans[i] <= limit:
                chosen = (L.EVENT_TRANSITION, i, 0)
        assert chosen is not None
        kind, a, b = chosen
        for i in range(n):
            # a mode change is run through exactly: evolve crosses it when given its time
            dt = trans[i] if kind == L.EVENT_TRANSITION and i == a else best
            balls[i], modes[i] = evolve(balls[i], modes[i], dt, p)
        t += best
        if kind == L.EVENT_TRANSITION:
            events.append((t, kind, a, modes[a]))
        elif kind == L.EVENT_CUSHION:
            into = dot(parts(balls[a])[1], NORMALS[b])
            balls[a], modes[a] = settle(ball_cushion(balls[a], b, p), p)
            if into > 0.0:
                events.append((t, kind, a, b))
        else:
            speed_a, speed_b = norm(parts(balls[a])[1]), norm(parts(balls[b])[1])
            out = ball_ball(balls[a], balls[b], p)
            if out is None:
                continue
            (balls[a], modes[a]), (balls[b], modes[b]) = settle(out[0], p), settle(out[1], p)
            events.append((t, kind, b, a) if speed_b > speed_a else (t, kind, a, b))
    return events, balls, t

