"""Twin of ``carom.physics.cue.cue_strike``, in vectors (check 11)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from carom.physics import layout as L
from carom.physics.twin.vector import Vec, Z, add, cross, scale


def cue_strike(speed: float, direction: float, side: float, height: float, elevation: float,
               p: Sequence[float]) -> tuple[float, float, float, float, float]:
    m, radius = p[L.P_MASS], p[L.P_RADIUS]
    phi, theta = math.radians(direction), math.radians(elevation)
    heading: Vec = (math.cos(phi), math.sin(phi), 0.0)
    axis = add(scale(math.cos(theta), heading), scale(-math.sin(theta), Z))
    right = cross(heading, Z)
    up = cross(right, axis)
    depth = math.sqrt(max(0.0, 1.0 - side * side - height * height))
    contact = scale(radius, add(add(scale(side, right), scale(height, up)), scale(-depth, axis)))
    lever = cross(contact, axis)
    effective = 1.0 / m + 1.0 / p[L.P_CUE_MASS] + (lever[0] ** 2 + lever[1] ** 2 + lever[2] ** 2) / (
        0.4 * m * radius**2)
    impulse = 2.0 * speed / effective
    v = scale(impulse / m, axis)
    w = scale(impulse / (0.4 * m * radius**2), lever)
    vx, vy = v[0], v[1]
    end = p[L.P_CUE_END_MASS]
    if end > 0.0 and side != 0.0:
        rest = 1.0 - side * side
        alpha = math.atan(2.5 * side * math.sqrt(rest) / (1.0 + m / end + 2.5 * rest))
        vx, vy = (vx * math.cos(alpha) - vy * math.sin(alpha), vx * math.sin(alpha) + vy * math.cos(alpha))
    return vx, vy, w[0], w[1], w[2]
