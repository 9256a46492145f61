"""How a resting ball left its place: direction, time, and a cushion met on the way.

A struck ball leaves along the line of centres (rule of thumb of every collision
model, up to a few degrees of throw), so its direction of departure points back at
the hitter. The direction is taken from the resting centre to the first sample that
shows it moving. When that sample was taken after the ball already bounced off a
cushion (a ball lying near a cushion), the motion after it, mirrored in that cushion's
line, runs back through the resting centre: the method of images.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import acos, exp, hypot, pi, sqrt

import numpy as np

from carom.track import laws
from carom.track.reconstruct.ballmotion import BallMotion, Join
from carom.track.reconstruct.geometry import CushionLine
from carom.track.samples import FloatArray


@dataclass(frozen=True, slots=True)
class Departure:
    """A resting ball set moving (a ``start`` or ``nudge`` join)."""

    join: Join
    rest: FloatArray
    direction: FloatArray
    """Unit vector of the first motion, away from the resting centre."""
    angle_sd: float
    """Standard deviation of ``direction``, radians."""
    left_at: float | None
    """When the ball left, from its first samples (``None``: the samples cannot say)."""
    left_sd: float
    bounce: CushionLine | None = None
    """A cushion the ball met before its first moving sample."""
    bounce_t: float = 0.0
    moved: float = 1.0
    """Probability that the ball really moved (a small displacement between two samples
    of a resting ball may be noise)."""


def departure(motion: BallMotion, join: Join, lines: tuple[CushionLine, ...]) -> Departure:
    rest = join.rest_point if join.rest_point is not None else join.before.position(join.before.t1)
    first = join.via[0] if join.via else join.after.i0
    p1 = motion.xy[first]
    chord = p1 - rest
    length = float(np.hypot(*chord))
    direction = chord / max(length, 1e-9)
    if join.kind == "nudge" or join.after.size < 2 or join.after.rest:
        # two noisy measurements of a still ball differ by a Rayleigh-distributed amount
        moved = 1.0 - exp(-length * length / (4.0 * motion.sigma * motion.sigma))
        return Departure(join, rest, direction, _angle_sd(motion.sigma, length), None, 0.0, moved=moved)
    if join.via:
        # lone samples before the first clean motion: the ball met something else
        # soon after leaving; its first sample still shows the way it left
        second = first + 1
        t1, t2 = float(motion.t[first]), float(motion.t[second])
        step = motion.xy[second] - p1
        left_at: float | None = None
        left_sd = 0.0
        if _angle_between(step, chord) < laws.SPIN_DEFLECTION:
            left_at, left_sd = _left_at(t1, join.t_lo, rest, p1, step / (t2 - t1))
        return Departure(join, rest, direction, _angle_sd(motion.sigma, length), left_at, left_sd)
    after = join.after
    p = after.position(join.t_hi)
    v = after.velocity(join.t_hi)
    speed = float(np.hypot(*v))
    straight_miss = _miss(rest, p, v)
    best: tuple[float, CushionLine | None] = (straight_miss, None)
    for line in lines:
        normal_speed = float(line.normal @ v)
        if normal_speed <= 0.0:
            continue
        p_m = p - 2.0 * line.depth(p) * line.normal
        v_m = v - 2.0 * normal_speed * line.normal
        miss = _miss(rest, p_m, v_m)
        if miss < best[0] and line.depth(rest) >= -laws.CUSHION_CALIBRATION:
            best = (miss, line)
    allowed = 3.0 * hypot(motion.sigma, laws.CONTACT_SHAPE_SD) + 0.003
    bounce = best[1] if straight_miss > allowed and best[0] < straight_miss / 2.0 else None
    if bounce is None:
        left_at, left_sd = _left_at(join.t_hi, join.t_lo, rest, p, v)
        return Departure(join, rest, direction, _angle_sd(motion.sigma, length), left_at, left_sd)
    normal_speed = float(bounce.normal @ v)
    p_m = p - 2.0 * bounce.depth(p) * bounce.normal
    v_m = v - 2.0 * normal_speed * bounce.normal
    direction = (p_m - rest) / max(float(np.hypot(*(p_m - rest))), 1e-9)
    bounce_t = join.t_hi - bounce.depth(p) / max(normal_speed, 1e-6)
    left_at, left_sd = _left_at(join.t_hi, join.t_lo, rest, p_m, v_m)
    bounce_t = max(bounce_t, left_at)
    sd = _angle_sd(motion.sigma, float(np.hypot(*(p_m - rest))))
    del speed
    return Departure(join, rest, direction, sd, left_at, left_sd, bounce, bounce_t)


def _angle_sd(sigma: float, length: float) -> float:
    """Uncertainty of a direction measured over ``length`` from a resting centre to a
    sample taken while the balls may still touch (worse than the noise)."""
    return hypot(sigma, laws.CONTACT_SHAPE_SD) / max(length, 1e-3)


def _miss(q: FloatArray, p: FloatArray, v: FloatArray) -> float:
    """How far ``q`` lies from the line through ``p`` along ``v`` (or behind ``p``)."""
    (qx, qy), (px, py), (vx, vy) = q.tolist(), p.tolist(), v.tolist()
    speed = hypot(vx, vy)
    if speed <= 0.0:
        return hypot(px - qx, py - qy)
    ux, uy = vx / speed, vy / speed
    dx, dy = qx - px, qy - py
    along = dx * ux + dy * uy
    across = abs(dx * -uy + dy * ux)
    return across if along <= 0.0 else hypot(across, along)


def _angle_between(u: FloatArray, w: FloatArray) -> float:
    (ux, uy), (wx, wy) = u.tolist(), w.tolist()
    nu, nw = hypot(ux, uy), hypot(wx, wy)
    if nu == 0.0 or nw == 0.0:
        return pi
    return acos(min(max((ux * wx + uy * wy) / (nu * nw), -1.0), 1.0))


def _left_at(t_at: float, t_lo: float, rest: FloatArray, p: FloatArray, v: FloatArray) -> tuple[float, float]:
    """When a struck ball left ``rest`` to be at ``p`` with velocity ``v`` at ``t_at``
    (not before ``t_lo``): dated with the sliding deceleration of a stun object ball;
    the uncertainty spans the range from no deceleration to full sliding."""
    (rx, ry), (px, py), (vx, vy) = rest.tolist(), p.tolist(), v.tolist()
    speed = hypot(vx, vy)
    along = ((px - rx) * vx + (py - ry) * vy) / max(speed, 1e-6)
    if along <= 0.0 or speed <= 0.0:
        return t_at, 0.01
    a = laws.OBJECT_BALL_SLIDE
    tau = (-speed + sqrt(speed * speed + 2.0 * a * along)) / a
    tau_roll = along / speed
    left = min(max(t_lo, t_at - tau), t_at)
    return left, hypot(0.5 * (tau_roll - tau), laws.CONTACT_SHAPE_SD / speed, 0.003)
