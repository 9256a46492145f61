"""The cue strike's kernel: the velocity and spin the cue gives a resting ball
(PHYSICS.md, "Cue strike"; check 11; the model is described in ``strike.py``)."""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel


@kernel
def cue_strike(speed: float, direction: float, side: float, height: float, elevation: float,
               p: np.ndarray) -> tuple[float, float, float, float, float]:
    """Velocity (vx, vy) and spin (ωx, ωy, ωz) the cue gives a resting ball. Angles in
    degrees, offsets as fractions of R."""
    radius = p[L.P_RADIUS]
    mass = p[L.P_MASS]
    phi = math.radians(direction)
    theta = math.radians(elevation)
    hx = math.cos(phi)
    hy = math.sin(phi)
    ct = math.cos(theta)
    st = math.sin(theta)
    # cue axis d (forward and down), the right and the "up" directions across it
    dx, dy, dz = ct * hx, ct * hy, -st
    rx, ry, rz = hy, -hx, 0.0
    ux, uy, uz = st * hx, st * hy, ct
    ball_speed = 2.0 * speed / (1.0 + mass / p[L.P_CUE_MASS] + 2.5 * (side * side + height * height))
    # q / R = side * right + height * up - c * d; (q x d) / R = side (right x d) + height (up x d)
    qx = side * rx + height * ux
    qy = side * ry + height * uy
    qz = side * rz + height * uz
    cx = qy * dz - qz * dy
    cy = qz * dx - qx * dz
    cz = qx * dy - qy * dx
    k = 2.5 * ball_speed / radius
    wx = k * cx
    wy = k * cy
    wz = k * cz
    vx = ball_speed * dx
    vy = ball_speed * dy
    end_mass = p[L.P_CUE_END_MASS]
    if end_mass > 0.0 and side != 0.0:
        rest = 1.0 - side * side
        alpha = math.atan(2.5 * side * math.sqrt(rest) / (1.0 + mass / end_mass + 2.5 * rest))
        ca = math.cos(alpha)
        sa = math.sin(alpha)
        vx, vy = ca * vx - sa * vy, sa * vx + ca * vy
    return vx, vy, wx, wy, wz
