"""Ball–ball collision with throw (PHYSICS.md, "Ball–ball"; checks 4, 5, 6 and 10).

An instantaneous impulse at the contact point. Along the line of centres: restitution
``e``, J = (1 + e)·m·v_n / 2 for equal masses. In the tangent plane: Coulomb friction
against the relative slip of the two surfaces, with Alciatore's speed-dependent
coefficient μ(v) = a + b·exp(−c·v) (TP A-14), capped at the impulse that stops the slip
(the surfaces grip: a tangential impulse F changes the slip by 7F/m for two solid
spheres). The slip has a vertical part (top and bottom spin): its impulse changes the
spins; the vertical push it gives the centres goes into the cloth (the model is 2-D).

A ball whose sliding drives it into the ball it touches would, with e < 1, bounce ever
more often (a Zeno series, then rounding lets the balls pass through each other). When
the approach is slower than the pressing acceleration times ``PRESS_TIME``, the cloth's
friction on each pushing ball is applied first as one impulse: the one that stops the
part of its slip along the line of centres (so friction no longer drives the balls
together), then the collision proper; likewise when the impact itself leaves a ball
sliding into the other (follow into a ball that cannot get away). Two balls that their
rolling still presses together, both slower than ``CRAWL``, come to rest where they touch
(they would within millimetres). All of it only removes energy.
"""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel


@kernel
def _slip(s: np.ndarray, i: int, p: np.ndarray) -> tuple[float, float, float]:
    """Ball ``i``'s slip on the cloth: the velocity of its contact point, and its size."""
    radius = p[L.P_RADIUS]
    ux = s[i, L.VX] - radius * s[i, L.WY]
    uy = s[i, L.VY] + radius * s[i, L.WX]
    return ux, uy, math.sqrt(ux * ux + uy * uy)


@kernel
def _press(s: np.ndarray, i: int, nx: float, ny: float, p: np.ndarray) -> float:
    """The acceleration along (nx, ny) that sliding friction gives ball ``i``."""
    ux, uy, un = _slip(s, i, p)
    if un <= L.SPEED_EPS:
        return 0.0
    return float(-p[L.P_MU_SLIDE] * p[L.P_GRAVITY] * (ux * nx + uy * ny) / un)


@kernel
def _drive(s: np.ndarray, i: int, nx: float, ny: float, p: np.ndarray) -> float:
    """The acceleration along (nx, ny) that the cloth gives ball ``i``, sliding or rolling."""
    ux, uy, un = _slip(s, i, p)
    if un > L.SPEED_EPS:
        return float(-p[L.P_MU_SLIDE] * p[L.P_GRAVITY] * (ux * nx + uy * ny) / un)
    vn = math.sqrt(s[i, L.VX] * s[i, L.VX] + s[i, L.VY] * s[i, L.VY])
    if vn > L.SPEED_EPS:
        return float(-p[L.P_MU_ROLL] * p[L.P_GRAVITY] * (s[i, L.VX] * nx + s[i, L.VY] * ny) / vn)
    return 0.0


@kernel
def _stop_slip_along(s: np.ndarray, i: int, nx: float, ny: float, towards: float, p: np.ndarray) -> None:
    """Ball ``i``'s cloth friction as one impulse: the one that stops the part of its
    slip that drives it along ``towards``·(nx, ny) (a horizontal impulse F at the cloth
    contact changes the slip by 7F/2m)."""
    radius = p[L.P_RADIUS]
    mass = p[L.P_MASS]
    ux, uy, _ = _slip(s, i, p)
    along = ux * nx + uy * ny
    if along * towards >= 0.0:
        return
    f = -2.0 * mass * along / 7.0
    s[i, L.VX] += f * nx / mass
    s[i, L.VY] += f * ny / mass
    k = 2.5 * f / (mass * radius)
    s[i, L.WX] += k * ny
    s[i, L.WY] -= k * nx


@kernel
def ball_ball(s: np.ndarray, i: int, j: int, p: np.ndarray) -> bool:
    """Collide balls ``i`` and ``j`` of ``s`` in place; False (and nothing changed) when
    they are neither approaching along their line of centres nor pressed together."""
    nx = s[j, L.X] - s[i, L.X]
    ny = s[j, L.Y] - s[i, L.Y]
    dist = math.hypot(nx, ny)
    if dist == 0.0:
        return False
    nx /= dist
    ny /= dist
    gripped = _grip_if_pressed(s, i, j, nx, ny, p)
    hit = _impulse(s, i, j, nx, ny, p)
    # a ball that the impact left sliding into the other (follow into a blocked ball)
    if hit and _grip_if_pressed(s, i, j, nx, ny, p):
        _impulse(s, i, j, nx, ny, p)
    # two balls that their rolling still presses together at a crawl come to rest
    approach = (s[i, L.VX] - s[j, L.VX]) * nx + (s[i, L.VY] - s[j, L.VY]) * ny
    pressing = _drive(s, i, nx, ny, p) - _drive(s, j, nx, ny, p)
    crawling = math.hypot(s[i, L.VX], s[i, L.VY]) < L.CRAWL and math.hypot(s[j, L.VX], s[j, L.VY]) < L.CRAWL
    if pressing > 0.0 and abs(approach) <= pressing * L.PRESS_TIME and crawling:
        for k in (i, j):
            s[k, L.VX] = 0.0
            s[k, L.VY] = 0.0
            s[k, L.WX] = 0.0
            s[k, L.WY] = 0.0
        return True
    return hit or gripped


@kernel
def _grip_if_pressed(s: np.ndarray, i: int, j: int, nx: float, ny: float, p: np.ndarray) -> bool:
    """Where sliding friction drives the touching balls together and they approach (or
    part) too slowly to escape it, apply the cloth's grip on each pushing ball. Balls
    that part while sliding past each other faster than that are not pressed: their
    sideways motion takes them apart (a thin cut at a walking pace, check 4)."""
    dvx = s[i, L.VX] - s[j, L.VX]
    dvy = s[i, L.VY] - s[j, L.VY]
    approach = dvx * nx + dvy * ny
    across = dvy * nx - dvx * ny
    pressing = _press(s, i, nx, ny, p) - _press(s, j, nx, ny, p)
    reach = pressing * L.PRESS_TIME
    if pressing > 0.0 and abs(approach) <= reach and (approach >= 0.0 or abs(across) <= reach):
        _stop_slip_along(s, i, nx, ny, 1.0, p)
        _stop_slip_along(s, j, nx, ny, -1.0, p)
        return True
    return False


@kernel
def _impulse(s: np.ndarray, i: int, j: int, nx: float, ny: float, p: np.ndarray) -> bool:
    """The collision impulse, normal and tangential; False when not approaching."""
    radius = p[L.P_RADIUS]
    mass = p[L.P_MASS]
    approach = (s[i, L.VX] - s[j, L.VX]) * nx + (s[i, L.VY] - s[j, L.VY]) * ny
    if approach <= 0.0:
        return False
    normal = 0.5 * (1.0 + p[L.P_E_BALL]) * mass * approach
    # velocities of the two surfaces at the contact point: ball i at +R n, ball j at -R n
    cix = s[i, L.VX] - radius * s[i, L.WZ] * ny
    ciy = s[i, L.VY] + radius * s[i, L.WZ] * nx
    ciz = radius * (s[i, L.WX] * ny - s[i, L.WY] * nx)
    cjx = s[j, L.VX] + radius * s[j, L.WZ] * ny
    cjy = s[j, L.VY] - radius * s[j, L.WZ] * nx
    cjz = -radius * (s[j, L.WX] * ny - s[j, L.WY] * nx)
    sx = cix - cjx
    sy = ciy - cjy
    sz = ciz - cjz
    along = sx * nx + sy * ny
    sx -= along * nx
    sy -= along * ny
    slip = math.sqrt(sx * sx + sy * sy + sz * sz)
    fx = 0.0
    fy = 0.0
    fz = 0.0
    if slip > 0.0:
        mu = p[L.P_THROW_A] + p[L.P_THROW_B] * math.exp(-p[L.P_THROW_C] * slip)
        friction = min(mu * normal, mass * slip / 7.0)
        fx = -friction * sx / slip
        fy = -friction * sy / slip
        fz = -friction * sz / slip
    # ball i receives -normal*n + f, ball j +normal*n - f
    s[i, L.VX] += (-normal * nx + fx) / mass
    s[i, L.VY] += (-normal * ny + fy) / mass
    s[j, L.VX] += (normal * nx - fx) / mass
    s[j, L.VY] += (normal * ny - fy) / mass
    # both get the same change of spin: (R n x f) / I
    k = 2.5 / (mass * radius)
    dwx = k * ny * fz
    dwy = -k * nx * fz
    dwz = k * (nx * fy - ny * fx)
    s[i, L.WX] += dwx
    s[i, L.WY] += dwy
    s[i, L.WZ] += dwz
    s[j, L.WX] += dwx
    s[j, L.WY] += dwy
    s[j, L.WZ] += dwz
    return True
