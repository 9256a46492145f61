"""Closed-form motion of one ball between events (PHYSICS.md, "Motion states").

Sliding: friction μs·m·g acts against the contact-point velocity u = v + ω × (−R ẑ), whose
direction stays fixed while its size falls at 7/2·μs·g, so the centre follows a parabola
until rolling begins after τ = 2|u| / (7 μs g). Rolling: the centre decelerates at μr·g
along a straight line and ω follows v. Spin about the vertical decays at a constant rate
in every mode. Positions are polynomials of degree ≤ 2 in time inside each mode.

Kernels read and write rows of a state array (columns: ``carom.physics.layout``).
"""

from __future__ import annotations

import math

import numpy as np

from carom.physics import layout as L
from carom.physics.build.jit import kernel


@kernel
def decayed_spin(wz: float, t: float, decay: float) -> float:
    """ωz after ``t`` seconds of decay at ``decay`` rad/s², never past zero."""
    left = abs(wz) - decay * t
    if left <= 0.0:
        return 0.0
    return left if wz > 0.0 else -left


@kernel
def slip(s: np.ndarray, i: int, radius: float) -> tuple[float, float]:
    """Contact-point velocity u of ball ``i`` against the cloth."""
    return s[i, L.VX] - radius * s[i, L.WY], s[i, L.VY] + radius * s[i, L.WX]


@kernel
def motion_norm(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> float:
    """|u| of a sliding ball (its slip on the cloth), |v| of a rolling one, else 0: the
    one norm that the mode's acceleration, duration and motion all take. The event loop
    computes it once per state instead of in every one of them."""
    if mode == L.SLIDING:
        ux, uy = slip(s, i, p[L.P_RADIUS])
        return math.hypot(ux, uy)
    if mode == L.ROLLING:
        return math.hypot(s[i, L.VX], s[i, L.VY])
    return 0.0


@kernel
def acceleration(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> tuple[float, float]:
    """Acceleration of the centre in ``mode`` (constant inside the mode)."""
    return acceleration_given(s, i, mode, motion_norm(s, i, mode, p), p)


@kernel
def acceleration_given(s: np.ndarray, i: int, mode: int, norm: float, p: np.ndarray) -> tuple[float, float]:
    """:func:`acceleration`, given the state's :func:`motion_norm`."""
    g = p[L.P_GRAVITY]
    if mode == L.SLIDING:
        ux, uy = slip(s, i, p[L.P_RADIUS])
        un = norm
        if un == 0.0:
            return 0.0, 0.0
        a = p[L.P_MU_SLIDE] * g / un
        return -a * ux, -a * uy
    if mode == L.ROLLING:
        vn = norm
        if vn == 0.0:
            return 0.0, 0.0
        a = p[L.P_MU_ROLL] * g / vn
        return -a * s[i, L.VX], -a * s[i, L.VY]
    return 0.0, 0.0


@kernel
def transition_time(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> float:
    """Seconds until ball ``i`` leaves ``mode``: τ = 2|u|/(7 μs g) when sliding (check 1),
    |v|/(μr g) when rolling (check 2), |ωz|/decay when spinning; inf at rest."""
    return transition_time_given(s, i, mode, motion_norm(s, i, mode, p), p)


@kernel
def transition_time_given(s: np.ndarray, i: int, mode: int, norm: float, p: np.ndarray) -> float:
    """:func:`transition_time`, given the state's :func:`motion_norm`."""
    g = p[L.P_GRAVITY]
    if mode == L.SLIDING:
        return float(2.0 * norm / (7.0 * p[L.P_MU_SLIDE] * g))
    if mode == L.ROLLING:
        return float(norm / (p[L.P_MU_ROLL] * g))
    if mode == L.SPINNING:
        if p[L.P_SPIN_DECAY] > 0.0:
            return float(abs(s[i, L.WZ]) / p[L.P_SPIN_DECAY])
        return math.inf
    return math.inf


@kernel
def settle(s: np.ndarray, i: int, p: np.ndarray) -> int:
    """The mode of ball ``i`` from its state (after a collision or a strike): sliding
    while its contact point slips, rolling when it does not, else spinning or resting.
    Makes the state exactly consistent with the mode it returns."""
    radius = p[L.P_RADIUS]
    ux, uy = slip(s, i, radius)
    if math.hypot(ux, uy) > L.SPEED_EPS:
        return L.SLIDING
    if math.hypot(s[i, L.VX], s[i, L.VY]) > L.SPEED_EPS:
        s[i, L.WX] = -s[i, L.VY] / radius
        s[i, L.WY] = s[i, L.VX] / radius
        return L.ROLLING
    s[i, L.VX] = 0.0
    s[i, L.VY] = 0.0
    s[i, L.WX] = 0.0
    s[i, L.WY] = 0.0
    if s[i, L.WZ] != 0.0:
        return L.SPINNING
    return L.RESTING


@kernel
def advance(src: np.ndarray, i: int, mode: int, dt: float, p: np.ndarray,
            dst: np.ndarray, j: int) -> None:
    """Row ``j`` of ``dst`` := ball ``i`` of ``src`` after ``dt`` seconds in ``mode``.

    ``dt`` must not pass the end of the mode (:func:`transition_time`); a sliding or
    rolling ball is held at its mode's end should rounding carry ``dt`` past it."""
    advance_given(src, i, mode, dt, motion_norm(src, i, mode, p), p, dst, j)


@kernel
def advance_given(src: np.ndarray, i: int, mode: int, dt: float, norm: float, p: np.ndarray,
                  dst: np.ndarray, j: int) -> None:
    """:func:`advance`, given the :func:`motion_norm` of ball ``i`` of ``src``."""
    radius = p[L.P_RADIUS]
    g = p[L.P_GRAVITY]
    x = src[i, L.X]
    y = src[i, L.Y]
    vx = src[i, L.VX]
    vy = src[i, L.VY]
    wx = src[i, L.WX]
    wy = src[i, L.WY]
    wz = decayed_spin(src[i, L.WZ], dt, p[L.P_SPIN_DECAY])
    if mode == L.SLIDING:
        ux = vx - radius * wy
        uy = vy + radius * wx
        un = norm
        if un > 0.0:
            a = p[L.P_MU_SLIDE] * g
            t = min(dt, 2.0 * un / (7.0 * a))
            cx = ux / un
            cy = uy / un
            x += (vx - 0.5 * a * cx * t) * t
            y += (vy - 0.5 * a * cy * t) * t
            vx -= a * cx * t
            vy -= a * cy * t
            k = 2.5 * a * t / radius
            wx -= k * cy
            wy += k * cx
        else:
            x += vx * dt
            y += vy * dt
    elif mode == L.ROLLING:
        speed = norm
        if speed > 0.0:
            b = p[L.P_MU_ROLL] * g
            t = min(dt, speed / b)
            cx = vx / speed
            cy = vy / speed
            x += (vx - 0.5 * b * cx * t) * t
            y += (vy - 0.5 * b * cy * t) * t
            left = speed - b * t
            vx = cx * left
            vy = cy * left
        wx = -vy / radius
        wy = vx / radius
    dst[j, L.X] = x
    dst[j, L.Y] = y
    dst[j, L.VX] = vx
    dst[j, L.VY] = vy
    dst[j, L.WX] = wx
    dst[j, L.WY] = wy
    dst[j, L.WZ] = wz


@kernel
def end_mode(s: np.ndarray, i: int, mode: int, p: np.ndarray) -> int:
    """Ball ``i`` has just reached the end of ``mode``: set the exact state of the next
    mode (u = 0 when rolling begins, v = 0 when it stops, ωz = 0 when spinning stops)
    and return that mode."""
    radius = p[L.P_RADIUS]
    if mode == L.SLIDING:
        s[i, L.WX] = -s[i, L.VY] / radius
        s[i, L.WY] = s[i, L.VX] / radius
        if math.hypot(s[i, L.VX], s[i, L.VY]) > L.SPEED_EPS:
            return L.ROLLING
        mode = L.ROLLING
    if mode == L.ROLLING:
        s[i, L.VX] = 0.0
        s[i, L.VY] = 0.0
        s[i, L.WX] = 0.0
        s[i, L.WY] = 0.0
        if s[i, L.WZ] != 0.0 and p[L.P_SPIN_DECAY] > 0.0:
            return L.SPINNING
        s[i, L.WZ] = 0.0
        return L.RESTING
    s[i, L.WZ] = 0.0
    return L.RESTING


@kernel
def evolve(state: np.ndarray, mode: int, dt: float, p: np.ndarray) -> tuple[np.ndarray, int]:
    """One ball's state (7 floats) and mode after ``dt`` seconds, through every mode it
    passes (sliding, rolling, spinning, rest). For tests, paths and callers outside the
    event loop."""
    s = np.empty((1, L.STATE_WIDTH))
    s[0, :] = state
    left = dt
    while mode != L.RESTING:
        end = transition_time(s, 0, mode, p)
        if left < end:
            advance(s, 0, mode, left, p, s, 0)
            return s[0], mode
        advance(s, 0, mode, end, p, s, 0)
        left -= end
        mode = end_mode(s, 0, mode, p)
    return s[0], mode
