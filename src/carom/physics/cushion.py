"""Ball–cushion collisions with the contact above the ball's centre (PHYSICS.md,
"Cushion"; checks 7, 13, 14 and 16).

Both models work in the cushion's frame: X the horizontal normal into the cushion, Y
along it, Z up. The nose touches the ball at I = R(cos θ, 0, sin θ), sin θ = (h − R)/R.

* Han (2005), with the two published corrections: the normal impulse along I's normal
  is (1 + e)·m·vX·cos θ; friction acts against the slip of the ball's surface at I, in
  the direction of that slip (the paper's θ₀), and the ball grips the cushion when the
  impulse that stops the slip, 2m|s|/7, is at most μ times the normal impulse (the
  paper's inequality lacks μ). The cloth takes the vertical part (2-D model).
* Mathavan et al. (2010): the impact is integrated in small steps of the normal impulse
  at I. Friction acts at I (μ) and at the cloth contact C (μs), whose normal impulse keeps
  the centre on the cloth; each follows its own slip. Compression ends when the normal
  velocity at I is zero; restitution ends when the work released is e² times the work
  stored (Stronge's energetic coefficient).

A ball that meets a cushion slower than ``REST_SPEED``, or would not leave it, stops
against it: its normal velocity and the spin that would drive it into the cushion are
set to zero (energy only falls).
"""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel


@kernel
def cushion_normal(cushion: int) -> tuple[float, float]:
    """Unit horizontal normal from the table into ``cushion``."""
    if cushion == L.BOTTOM:
        return 0.0, -1.0
    if cushion == L.TOP:
        return 0.0, 1.0
    if cushion == L.LEFT:
        return -1.0, 0.0
    return 1.0, 0.0


@kernel
def han_2005(vx: float, vy: float, wx: float, wy: float, wz: float, radius: float, mass: float,
             sin_theta: float, e: float, mu: float, grip: float) -> tuple[float, float, float, float, float]:
    """Han 2005 (corrected) in the cushion frame; vx > 0 approaches the cushion."""
    cos_theta = math.sqrt(1.0 - sin_theta * sin_theta)
    # slip of the surface at I in the tangent basis t1 = Y, t2 = (-sin θ, 0, cos θ)
    s1 = vy + radius * (wz * cos_theta - wx * sin_theta)
    s2 = -vx * sin_theta - radius * wy
    normal = (1.0 + e) * mass * vx * cos_theta
    # the impulse that stops the slip, the part along the cushion sprung back by ``grip``
    # (tangential restitution), at most μ times the normal impulse
    p1 = -(1.0 + grip) * 2.0 * mass * s1 / 7.0
    p2 = -2.0 * mass * s2 / 7.0
    stop = math.hypot(p1, p2)
    if stop > mu * normal:
        p1 *= mu * normal / stop
        p2 *= mu * normal / stop
    # impulse -normal * n_I + p1 t1 + p2 t2; spin change (R/I) (n_I x Pt)
    vx += (-normal * cos_theta - p2 * sin_theta) / mass
    vy += p1 / mass
    k = 2.5 / (mass * radius)
    wx -= k * p1 * sin_theta
    wy -= k * p2
    wz += k * p1 * cos_theta
    return vx, vy, wx, wy, wz


@kernel
def mathavan_2010(vx: float, vy: float, wx: float, wy: float, wz: float, radius: float,
                  mass: float, sin_theta: float, e: float, mu: float, mu_cloth: float,
                  steps: int) -> tuple[float, float, float, float, float]:
    """Mathavan, Jackson and Parkin 2010 in the cushion frame; vx > 0 approaches."""
    cos_theta = math.sqrt(1.0 - sin_theta * sin_theta)
    inertia = 0.4 * mass * radius * radius
    grip_rate = 3.5 / mass
    """Change of a surface point's slip per unit of tangential impulse on a solid sphere."""
    dp = (1.0 + e) * mass * vx / cos_theta / steps
    stored = 0.0
    released = 0.0
    compressing = True
    for _ in range(50 * steps):
        s1 = vy + radius * (wz * cos_theta - wx * sin_theta)
        s2 = -vx * sin_theta - radius * wy
        # friction against each slip, no more than stops it within the step (the
        # surfaces grip instead of chattering, and the outcome stays continuous)
        sn = math.hypot(s1, s2)
        grip = sn / (mu * dp * grip_rate) if mu > 0.0 else 0.0
        f1 = s1 / sn * min(1.0, grip) if sn > 0.0 else 0.0
        f2 = s2 / sn * min(1.0, grip) if sn > 0.0 else 0.0
        rn = max(sin_theta + mu * f2 * cos_theta, 0.0)
        cx = vx - radius * wy
        cy = vy + radius * wx
        cn = math.hypot(cx, cy)
        grip = cn / (mu_cloth * rn * dp * grip_rate) if mu_cloth * rn > 0.0 else 0.0
        g1 = cx / cn * min(1.0, grip) if cn > 0.0 else 0.0
        g2 = cy / cn * min(1.0, grip) if cn > 0.0 else 0.0
        # rates of change per unit of normal impulse at I
        rvx = (-cos_theta + mu * f2 * sin_theta - mu_cloth * rn * g1) / mass
        rvy = (-mu * f1 - mu_cloth * rn * g2) / mass
        rwx = radius * (mu * f1 * sin_theta - mu_cloth * rn * g2) / inertia
        rwy = radius * (mu * f2 + mu_cloth * rn * g1) / inertia
        rwz = -radius * mu * f1 * cos_theta / inertia
        # the step, cut short where compression or restitution ends within it, so that
        # the outcome depends continuously on the state
        h = dp
        last = False
        power = vx * cos_theta
        if compressing:
            if rvx < 0.0 and vx + rvx * h <= 0.0:
                h = -vx / rvx
                last = True
            stored += power * h
        else:
            left = e * e * stored - released
            if -power * h >= left:
                h = left / -power if power < 0.0 else 0.0
                last = True
            released -= power * h
        vx += rvx * h
        vy += rvy * h
        wx += rwx * h
        wy += rwy * h
        wz += rwz * h
        if compressing:
            if last:
                vx = 0.0
                compressing = False
                if e == 0.0:
                    break
        elif last:
            break
    return vx, vy, wx, wy, wz


@kernel
def ball_cushion(s: np.ndarray, i: int, cushion: int, p: np.ndarray) -> bool:
    """Ball ``i`` of ``s`` meets ``cushion``: apply the cushion model of ``p`` in place.
    Returns whether the state changed (a ball already leaving the cushion is left alone)."""
    nx, ny = cushion_normal(cushion)
    tx, ty = -ny, nx
    vX = s[i, L.VX] * nx + s[i, L.VY] * ny
    if vX <= -L.REST_SPEED:
        return False
    vY = s[i, L.VX] * tx + s[i, L.VY] * ty
    wX = s[i, L.WX] * nx + s[i, L.WY] * ny
    wY = s[i, L.WX] * tx + s[i, L.WY] * ty
    wZ = s[i, L.WZ]
    radius = p[L.P_RADIUS]
    if vX >= L.REST_SPEED:
        if p[L.P_CUSHION_MODEL] == L.CUSHION_MATHAVAN:
            vX, vY, wX, wY, wZ = mathavan_2010(vX, vY, wX, wY, wZ, radius, p[L.P_MASS],
                                               p[L.P_CUSHION_SIN], p[L.P_E_CUSHION],
                                               p[L.P_MU_CUSHION], p[L.P_MU_SLIDE],
                                               int(p[L.P_CUSHION_STEPS]))
        else:
            vX, vY, wX, wY, wZ = han_2005(vX, vY, wX, wY, wZ, radius, p[L.P_MASS],
                                          p[L.P_CUSHION_SIN], p[L.P_E_CUSHION], p[L.P_MU_CUSHION],
                                          p[L.P_CUSHION_GRIP])
    if vX > -L.REST_SPEED:
        # stops against the cushion: no normal velocity, no spin driving it back in
        vX = 0.0
        wY = 0.0
    vx = vX * nx + vY * tx
    vy = vX * ny + vY * ty
    wx = wX * nx + wY * tx
    wy = wX * ny + wY * ty
    changed = (vx != s[i, L.VX] or vy != s[i, L.VY] or wx != s[i, L.WX] or wy != s[i, L.WY]
               or wZ != s[i, L.WZ])
    s[i, L.VX] = vx
    s[i, L.VY] = vy
    s[i, L.WX] = wx
    s[i, L.WY] = wy
    s[i, L.WZ] = wZ
    return bool(changed)
