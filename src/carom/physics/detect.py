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


@kernel
def cushion_time(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> tuple[float, int]:
    """Seconds until ball ``i`` reaches the line at R from a cushion nose, moving into it,
    and which cushion; (inf, NO_CUSHION) when it does not. Cushions that tie are taken in
    the order bottom, top, left, right."""
    if mode == L.RESTING or mode == L.SPINNING:
        return math.inf, L.NO_CUSHION
    radius = p[L.P_RADIUS]
    ax, ay = acceleration(s, i, mode, p)
    x = s[i, L.X]
    y = s[i, L.Y]
    vx = s[i, L.VX]
    vy = s[i, L.VY]
    best = math.inf
    which = L.NO_CUSHION
    t = first_down_crossing(y - radius, vy, 0.5 * ay)
    if t < best:
        best = t
        which = L.BOTTOM
    t = first_down_crossing(p[L.P_LENGTH] - radius - y, -vy, -0.5 * ay)
    if t < best:
        best = t
        which = L.TOP
    t = first_down_crossing(x - radius, vx, 0.5 * ax)
    if t < best:
        best = t
        which = L.LEFT
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
    moving_i = mode_i == L.SLIDING or mode_i == L.ROLLING
    moving_j = mode_j == L.SLIDING or mode_j == L.ROLLING
    if not (moving_i or moving_j) or not horizon > 0.0:
        return math.inf
    radius = p[L.P_RADIUS]
    aix, aiy = acceleration(s, i, mode_i, p)
    ajx, ajy = acceleration(s, j, mode_j, p)
    # d(t) = a + b t + c t^2, the centre of i seen from the centre of j
    ax = s[i, L.X] - s[j, L.X]
    ay = s[i, L.Y] - s[j, L.Y]
    bx = s[i, L.VX] - s[j, L.VX]
    by = s[i, L.VY] - s[j, L.VY]
    cx = 0.5 * (aix - ajx)
    cy = 0.5 * (aiy - ajy)
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
