"""When the next contact happens: ball–cushion (a quadratic) and ball–ball (a quartic)
(PHYSICS.md, "Event times"; checks 7, 8 and 9).

Both work on the balls' states at a common time and return the seconds from then.
"""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel
from carom.physics.motion import acceleration
from carom.physics.roots import first_contact, first_down_crossing

PRUNE = 1.0 + 1e-9
"""A relative margin, far above rounding: the quick tests that skip an exact event time
leave out only events that the exact computation leaves out too."""
CLEAR = 1e-9
"""Metres (and seconds): an absolute margin of the same kind."""


@kernel
def cushion_time(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> tuple[float, int]:
    """Seconds until ball ``i`` reaches the line at R from a cushion nose, moving into it,
    and which cushion; (inf, NO_CUSHION) when it does not. Cushions that tie are taken in
    the order bottom, top, left, right."""
    ax, ay = acceleration(s, i, mode, p)
    return cushion_time_accelerated(s, i, mode, ax, ay, p, math.inf)


@kernel
def _clear(d0: float, d1: float, d2: float, within: float) -> bool:
    """d(t) = d0 + d1 t + d2 t² stays clearly above zero for t in [0, ``within``]: no
    crossing before then (a quick test, without the quadratic's roots)."""
    if d2 <= 0.0:  # concave: lowest at an end
        return min(d0, d0 + (d1 + d2 * within) * within) > CLEAR
    return d0 + min(d1, 0.0) * within > CLEAR


@kernel
def cushion_time_accelerated(s: np.ndarray, i: int, mode: int, ax: float, ay: float, p: np.ndarray,
                             within: float) -> tuple[float, int]:
    """:func:`cushion_time` given the ball's acceleration (``motion.acceleration``), where
    only a contact within ``within`` seconds matters: a cushion the ball clearly cannot
    reach by then is left out (inf when none is left). The event loop passes the time
    left in the ball's mode: a later cushion time could neither be the next event nor
    shorten a pair's horizon."""
    if mode == L.RESTING or mode == L.SPINNING:
        return math.inf, L.NO_CUSHION
    radius = p[L.P_RADIUS]
    x = s[i, L.X]
    y = s[i, L.Y]
    vx = s[i, L.VX]
    vy = s[i, L.VY]
    best = math.inf
    which = L.NO_CUSHION
    reach = within * PRUNE + CLEAR
    if not _clear(y - radius, vy, 0.5 * ay, reach):
        t = first_down_crossing(y - radius, vy, 0.5 * ay)
        if t < best:
            best = t
            which = L.BOTTOM
    if not _clear(p[L.P_LENGTH] - radius - y, -vy, -0.5 * ay, reach):
        t = first_down_crossing(p[L.P_LENGTH] - radius - y, -vy, -0.5 * ay)
        if t < best:
            best = t
            which = L.TOP
    if not _clear(x - radius, vx, 0.5 * ax, reach):
        t = first_down_crossing(x - radius, vx, 0.5 * ax)
        if t < best:
            best = t
            which = L.LEFT
    if not _clear(p[L.P_WIDTH] - radius - x, -vx, -0.5 * ax, reach):
        t = first_down_crossing(p[L.P_WIDTH] - radius - x, -vx, -0.5 * ax)
        if t < best:
            best = t
            which = L.RIGHT
    return best, which


@kernel
def pair_time(s: np.ndarray, i: int, j: int, mode_i: int, mode_j: int, p: np.ndarray,
              horizon: float) -> float:
    """Seconds until balls ``i`` and ``j`` touch, approaching, within ``horizon`` (the
    time their motions stay as they are); inf when they do not."""
    aix, aiy = acceleration(s, i, mode_i, p)
    ajx, ajy = acceleration(s, j, mode_j, p)
    return pair_time_accelerated(s, i, j, mode_i, mode_j, aix, aiy, ajx, ajy, p, horizon)


@kernel
def pair_time_accelerated(s: np.ndarray, i: int, j: int, mode_i: int, mode_j: int, aix: float, aiy: float,
                          ajx: float, ajy: float, p: np.ndarray, horizon: float) -> float:
    """:func:`pair_time` given the balls' accelerations (``motion.acceleration`` of the
    same states and modes): the event loop computes each ball's once for all its pairs."""
    moving_i = mode_i == L.SLIDING or mode_i == L.ROLLING
    moving_j = mode_j == L.SLIDING or mode_j == L.ROLLING
    if not (moving_i or moving_j) or not horizon > 0.0:
        return math.inf
    radius = p[L.P_RADIUS]
    # d(t) = a + b t + c t^2, the centre of i seen from the centre of j
    ax = s[i, L.X] - s[j, L.X]
    ay = s[i, L.Y] - s[j, L.Y]
    bx = s[i, L.VX] - s[j, L.VX]
    by = s[i, L.VY] - s[j, L.VY]
    cx = 0.5 * (aix - ajx)
    cy = 0.5 * (aiy - ajy)
    # a quick test without hypot first: when even a generous bound on how far the balls
    # can close in within the horizon leaves them clearly apart, the test below says so too
    near = (math.sqrt(bx * bx + by * by) * horizon + math.sqrt(cx * cx + cy * cy) * horizon * horizon) * PRUNE
    if ax * ax + ay * ay > ((near + 2.0 * radius) * PRUNE) ** 2:
        return math.inf
    dist = math.hypot(ax, ay)
    reach = math.hypot(bx, by) * horizon + math.hypot(cx, cy) * horizon * horizon
    if dist - reach > 2.0 * radius:
        return math.inf
    e4 = cx * cx + cy * cy
    e3 = 2.0 * (bx * cx + by * cy)
    e2 = bx * bx + by * by + 2.0 * (ax * cx + ay * cy)
    e1 = 2.0 * (ax * bx + ay * by)
    e0 = (dist - 2.0 * radius) * (dist + 2.0 * radius)
    return first_contact(e0, e1, e2, e3, e4, horizon, 4.0 * radius * L.GRAZE)
