"""How a resting ball left its place: direction, time, and a cushion met on the way.

A struck ball leaves along the line of centres (rule of thumb of every collision
model, up to a few degrees of throw), so its direction of departure points back at
the hitter. The direction is taken from the resting centre to the first sample that
shows it moving. When that sample was taken after the ball already bounced off a
cushion (a ball lying near a cushion), the motion after it, mirrored in that cushion's
line, runs back through the resting centre: the method of images.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from math import hypot, pi, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track import laws, tracker
from carom.track.contacts.hits import angle_between
from carom.track.reconstruct.ballmotion import BallMotion, Join
from carom.track.reconstruct.geometry import CushionLine
from carom.track.reconstruct.joins import Vector, along_across
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import FloatArray
from carom.track.tracker import DEFAULT_MODEL, TrackerModel


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
    sigma: float
    """The struck ball's position noise, m."""
    bounce: CushionLine | None = None
    """A cushion the ball met before its first moving sample."""
    bounce_t: float = 0.0
    moved: float = 1.0
    """Probability that the ball really moved: a small displacement between two
    measurements of a resting ball may be the tracker's error alone."""


def ball_of(dep: Departure, motions: Mapping[Ball, BallMotion]) -> Ball:
    """The ball of ``motions`` that left its rest at ``dep``."""
    return next(b for b, m in motions.items() if any(j is dep.join for j in m.joins))


def departure(motion: BallMotion, join: Join, lines: tuple[CushionLine, ...],
              model: TrackerModel = DEFAULT_MODEL, others: tuple[BallPath, ...] = (),
              diameter: float = 0.0615) -> Departure:
    """How the ball of ``motion`` left its rest at ``join``; ``others``: the other balls,
    whose nearness makes a resting ball's measured position less sure."""
    rest = join.rest_point if join.rest_point is not None else join.before.position(join.before.t1)
    sigma = motion.sigma
    first = join.via[0] if join.via else join.after.i0
    if join.kind == "nudge":
        # a ball found moved shows where it lay in the first sample of its rest (later
        # ones may already creep) and where it went in the last of its next rest, when
        # the ball that moved it has gone (samples just after may carry its bias)
        after = join.after
        if join.rest_point is None:
            rest = motion.xy[join.before.i0]
        p1 = motion.xy[after.i1]
        length = float(np.hypot(*(p1 - rest)))
        crowd = min(_crowding(rest, join.t_lo, others, diameter), _crowding(p1, after.t1, others, diameter))
        # a still ball's own noise estimate (from its moving samples, blurred) is an upper
        # bound of its measurements' noise, never below the tracker's floor
        moved = model.moved_probability(length, max(sigma, tracker.REST_NOISE), crowd)
        angle_sd = _angle_sd(sigma, length)
        if crowd < tracker.BIAS_NEAR:
            # another ball lay beside it when it was measured: the bias moves its centre
            # along the line to that ball by up to centimetres, so a displacement of
            # millimetres says little of the way it was pushed
            angle_sd = max(angle_sd, CROWDED_ANGLE_SD)
        return Departure(join, rest, (p1 - rest) / max(length, 1e-9), angle_sd, None, 0.0, sigma, moved=moved)
    p1 = motion.xy[first]
    # its first sample in motion taken with the hitter still beside it: the bias may have
    # moved it centimetres towards or away from the hitter
    crowded = _crowding(p1, float(motion.t[first]), others, diameter) < tracker.BIAS_NEAR
    if crowded and not join.via and join.after.size >= 3:
        p1 = motion.xy[first + 1]  # taken farther on, it says the way the ball left
    chord = p1 - rest
    length = float(np.hypot(*chord))
    direction = chord / max(length, 1e-9)
    if join.after.size < 2 or join.after.rest:
        return Departure(join, rest, direction, _angle_sd(sigma, length), None, 0.0, sigma)
    if join.via:
        # lone samples before the first clean motion: the ball met something else
        # soon after leaving; its first sample still shows the way it left
        second = first + 1
        t1, t2 = float(motion.t[first]), float(motion.t[second])
        step = motion.xy[second] - p1
        left_at: float | None = None
        left_sd = 0.0
        angle_sd = _angle_sd(sigma, length)
        if crowded:
            angle_sd = max(angle_sd, CROWDED_ANGLE_SD)  # and the next sample is past another event
        elif angle_between(step, chord, zero=pi) < laws.SPIN_DEFLECTION:
            sx, sy = (step / (t2 - t1)).tolist()
            (rx, ry), (px, py) = rest.tolist(), p1.tolist()
            left_at, left_sd = _left_at(t1, join.t_lo, (rx, ry), (px, py), (sx, sy))
        return Departure(join, rest, direction, angle_sd, left_at, left_sd, sigma)
    after = join.after
    # in plain floats: the rest, the first motion's place and velocity, their mirror images
    rx, ry = rest.tolist()
    p, v = after.point(join.t_hi), after.speed_vector(join.t_hi)
    straight_miss = _miss((rx, ry), p, v)
    # the likeliest reading through a cushion behind the rest (the mirror image)
    behind: tuple[float, CushionLine | None] = (float("inf"), None)
    for line in lines:
        normal_speed = line.along_normal(v)
        if normal_speed <= 0.0:
            continue
        miss = _miss((rx, ry), *_mirrored(line, p, v, normal_speed))
        if miss < behind[0] and line.depth((rx, ry)) >= -tracker.CUSHION_CALIBRATION:
            behind = (miss, line)
    allowed = 3.0 * hypot(motion.sigma, tracker.CONTACT_SHAPE_SD) + 0.003
    bounce = behind[1] if straight_miss > allowed and behind[0] < straight_miss / 2.0 else None
    if bounce is None:
        dx, dy = direction.tolist()
        bounce = _pushed_into((rx - diameter * dx, ry - diameter * dy), v, lines)
    if bounce is None:
        left_at, left_sd = _left_at(join.t_hi, join.t_lo, (rx, ry), p, v)
        return Departure(join, rest, direction, _angle_sd(sigma, length), left_at, left_sd, sigma)
    normal_speed = bounce.along_normal(v)
    p_m, v_m = _mirrored(bounce, p, v, normal_speed)
    away = np.array((p_m[0] - rx, p_m[1] - ry))
    mirrored_length = float(np.hypot(*away))
    direction = away / max(mirrored_length, 1e-9)
    bounce_t = join.t_hi - bounce.depth(p) / max(normal_speed, 1e-6)
    left_at, left_sd = _left_at(join.t_hi, join.t_lo, (rx, ry), p_m, v_m)
    # it came off the cushion slower than it went in (restitution about 0.5–0.9): the
    # way in took up to half as long again as the mirror says
    inward = bounce.depth((rx, ry)) / max(normal_speed, 1e-6)
    left_at, left_sd = left_at + 0.25 * inward, hypot(left_sd, 0.25 * inward)
    bounce_t = max(bounce_t, left_at)
    sd = _angle_sd(motion.sigma, mirrored_length)
    return Departure(join, rest, direction, sd, left_at, left_sd, sigma, bounce, bounce_t)


def _mirrored(line: CushionLine, p: Vector, v: Vector, normal_speed: float) -> tuple[Vector, Vector]:
    """A place ``p`` and a velocity ``v`` (its speed into the table ``normal_speed``)
    mirrored in the cushion ``line``."""
    nx, ny = line.unit
    shift, turn = 2.0 * line.depth(p), 2.0 * normal_speed
    return (p[0] - shift * nx, p[1] - shift * ny), (v[0] - turn * nx, v[1] - turn * ny)


def _pushed_into(behind: Vector, v: Vector, lines: tuple[CushionLine, ...]) -> CushionLine | None:
    """The cushion a ball lying nearer it than a hitter fits was driven into, when it is
    seen leaving straight away from it (at ``v``; ``behind``: where the hitter would have to
    lie, a diameter back from its rest): the hitter would have to lie beyond the cushion
    to send it that way, so it went into the cushion and came back along its line."""
    for line in lines:
        if line.depth(behind) < -laws.CUSHION_COMPRESSION and line.along_normal(v) > 0.0:
            return line
    return None


CROWDED_ANGLE_SD = 1.0
"""Uncertainty, radians, of the direction of a small displacement of a ball measured with
another ball within :data:`~carom.track.tracker.BIAS_NEAR` (the largest the readings use)."""

def _crowding(point: FloatArray, t: float, others: tuple[BallPath, ...], diameter: float) -> float:
    """How far, m beyond ``2R``, the nearest other ball lay from ``point`` at ``t``."""
    x, y = point.tolist()
    gaps = []
    for other in others:
        ox, oy = other.point_at(t)
        gaps.append(float(np.hypot(ox - x, oy - y)) - diameter)
    return min(gaps, default=float("inf"))


def _angle_sd(sigma: float, length: float) -> float:
    """Uncertainty of a direction measured over ``length`` from a resting centre to a
    sample taken while the balls may still touch (worse than the noise)."""
    return hypot(sigma, tracker.CONTACT_SHAPE_SD) / max(length, 1e-3)


def _miss(q: Vector, p: Vector, v: Vector) -> float:
    """How far ``q`` lies from the line through ``p`` along ``v`` (or behind ``p``)."""
    (qx, qy), (px, py), (vx, vy) = q, p, v
    speed = hypot(vx, vy)
    if speed <= 0.0:
        return hypot(px - qx, py - qy)
    along, across = along_across(q, p, vx / speed, vy / speed)
    return across if along <= 0.0 else hypot(across, along)


def _left_at(t_at: float, t_lo: float, rest: Vector, p: Vector, v: Vector) -> tuple[float, float]:
    """When a struck ball left ``rest`` to be at ``p`` with velocity ``v`` at ``t_at``
    (not before ``t_lo``): dated with the sliding deceleration of a stun object ball;
    the uncertainty spans the range from no deceleration to full sliding."""
    (rx, ry), (px, py), (vx, vy) = rest, p, v
    speed = hypot(vx, vy)
    a = laws.OBJECT_BALL_SLIDE
    if speed <= laws.REST_SPEED:
        # its first motion shows no speed (a slow roll seen at its end): it came the
        # chord from its rest and stopped, sliding all the way at the soonest, rolling
        # at the latest; the samples cannot date it closer than that
        chord = hypot(px - rx, py - ry)
        soonest = sqrt(2.0 * chord / a)
        latest = sqrt(2.0 * chord / laws.ROLL_DECELERATION)
        return min(max(t_lo, t_at - soonest), t_at), max(0.5 * (latest - soonest), 0.003)
    along = ((px - rx) * vx + (py - ry) * vy) / speed
    if along <= 0.0:
        return t_at, 0.01
    tau = (-speed + sqrt(speed * speed + 2.0 * a * along)) / a
    tau_roll = along / speed
    left = min(max(t_lo, t_at - tau), t_at)
    return left, hypot(0.5 * (tau_roll - tau), tracker.CONTACT_SHAPE_SD / speed, 0.003)
