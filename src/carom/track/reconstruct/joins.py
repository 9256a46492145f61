"""Joins: what lies between two pieces of a ball's motion, and when it happened."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from math import hypot, sqrt

import numpy as np

from carom.track import laws
from carom.track.reconstruct.fit import Fit
from carom.track.reconstruct.pieces import Piece
from carom.track.samples import FloatArray

Vector = tuple[float, float]
"""A point or a velocity in plain floats (the joins are worked out in scalars)."""


@dataclass(slots=True)
class Join:
    """What lies between two consecutive pieces of a ball: one or more events.

    ``kind``: ``start`` (rest, then motion), ``stop`` (motion, then rest), ``turn``
    (motion, then motion), ``restart`` (motion, a rest no sample shows, motion) or
    ``nudge`` (two rests at different places: an untracked move).
    """
    # Not frozen, though never changed once made: the detector makes thousands of these
    # per match, and a frozen dataclass takes several times longer to construct.

    kind: str
    before: Piece
    after: Piece
    t_lo: float
    """Time of the last sample before the join."""
    t_hi: float
    """Time of the first sample after it."""
    t: float
    """Estimated time of the event."""
    point: FloatArray
    """Estimated centre of the ball at the event."""
    v_in: FloatArray
    v_out: FloatArray
    gap: float
    """How far apart the motions before and after come at the event, metres: large when
    the join holds more than one event."""
    sd_dv: float
    """Standard deviation of one coordinate of ``v_out - v_in`` from the noise."""
    via: tuple[int, ...] = ()
    """Indices of lone samples inside the join (between two events)."""
    rest_point: FloatArray | None = None
    """``restart`` only: where the ball lay between stopping and being set moving again."""
    t_stop: float = 0.0
    """``restart`` only: when it came to rest (``t`` is when it left again)."""
    rolling: bool = False
    """``turn`` only: the ball must have been rolling into it, or kept the line another
    ball struck it along (:class:`~carom.track.reconstruct.breaks.Breaks`), so that
    without an event its velocity would have changed by rolling resistance alone."""

    @property
    def dv(self) -> FloatArray:
        return self.v_out - self.v_in

    @property
    def free_change(self) -> float:
        """The largest velocity change friction alone could make across the join, m/s:
        rolling resistance for a ball that was rolling into it, else sliding friction
        (less for a slow ball, :func:`~carom.track.reconstruct.breaks.free_acceleration`)."""
        if self.rolling:
            return laws.MAX_ROLL_DECELERATION * (self.t_hi - self.t_lo)
        v_in, v_out = self.v_in.tolist(), self.v_out.tolist()
        speed = max(hypot(v_in[0], v_in[1]), hypot(v_out[0], v_out[1]))
        allowed = laws.MAX_FREE_ACCELERATION * min(1.0, speed / laws.FULL_SLIDE_SPEED)
        return allowed * (self.t_hi - self.t_lo)

    @property
    def significance(self) -> float:
        """How many standard deviations the change of velocity exceeds what free
        motion allows (negative: friction could explain it)."""
        (x_in, y_in), (x_out, y_out) = self.v_in.tolist(), self.v_out.tolist()
        excess = hypot(x_out - x_in, y_out - y_in) - self.free_change
        return excess / max(self.sd_dv, 1e-6)


def join_all(pieces: list[Piece], sigma_at: Callable[[float], float]) -> tuple[list[Piece], list[Join]]:
    """Estimate the joins; lone moving samples between two breaks become ``via`` points
    of the join around them."""
    kept: list[Piece] = []
    via: list[list[int]] = []
    for piece in pieces:
        if not piece.rest and piece.size == 1 and kept:
            via[-1].append(piece.i0)
            continue
        kept.append(piece)
        via.append([])
    joins = [_join(sigma_at, a, b, tuple(v))
             for a, b, v in zip(kept[:-1], kept[1:], via[:-1], strict=True)]
    return kept, joins


def _join(sigma_at: Callable[[float], float], a: Piece, b: Piece, via: tuple[int, ...]) -> Join:
    t_lo, t_hi = a.t1, b.t0
    vx_in, vy_in = (0.0, 0.0) if a.rest else a.tail.speed_vector(t_lo)
    vx_out, vy_out = (0.0, 0.0) if b.rest else b.head.speed_vector(t_hi)
    v_in, v_out = np.array((vx_in, vy_in)), np.array((vx_out, vy_out))
    p_in, p_out = a.tail.point(t_lo), b.head.point(t_hi)
    sd_in = 0.0 if a.rest else a.tail.velocity_sd(t_lo, sigma_at(hypot(vx_in, vy_in)))
    sd_out = 0.0 if b.rest else b.head.velocity_sd(t_hi, sigma_at(hypot(vx_out, vy_out)))
    sd_dv = hypot(sd_in, sd_out) if sd_in < float("inf") and sd_out < float("inf") else float("inf")
    if a.rest and b.rest:
        gap = hypot(p_out[0] - p_in[0], p_out[1] - p_in[1])
        return Join("nudge", a, b, t_lo, t_hi, 0.5 * (t_lo + t_hi), np.array(p_in), v_in, v_out, gap, sd_dv,
                    via)
    if a.rest:
        te, gap = _leave_from(p_in, b.head, t_lo, t_hi)
        return Join("start", a, b, t_lo, t_hi, te, np.array(p_in), v_in, b.head.velocity(te), gap, sd_dv, via)
    if b.rest:
        te, gap = _arrive_at(p_out, p_in, (vx_in, vy_in), t_lo, t_hi)
        return Join("stop", a, b, t_lo, t_hi, te, np.array(p_out), v_in, v_out, gap, sd_dv, via)
    rest = None if via else _rest_between(p_in, (vx_in, vy_in), p_out, (vx_out, vy_out), t_lo, t_hi)
    if rest is not None:
        q, t_stop = rest
        te, gap = _leave_from(q, b.head, t_stop, t_hi)
        rest_point = np.array(q)
        return Join("restart", a, b, t_lo, t_hi, te, rest_point, v_in, b.head.velocity(te), gap, sd_dv, via,
                    rest_point, t_stop)
    te, (px, py), gap = _meet(p_in, (vx_in, vy_in), t_lo, p_out, (vx_out, vy_out), t_hi)
    return Join("turn", a, b, t_lo, t_hi, te, np.array((px, py)), v_in, v_out, gap, sd_dv, via)


REST_GAP = 0.15
"""A gap between two moving samples at least this much longer, s, than the motion on
either side needs to cover it held a rest (a tracker sends nothing while a ball rests)."""


def _rest_between(p_in: Vector, v_in: Vector, p_out: Vector, v_out: Vector,
                  t_lo: float, t_hi: float) -> tuple[Vector, float] | None:
    """Where and when the ball came to rest inside a long gap between two motions, or
    ``None`` if it kept moving. It stops on its incoming line, no farther than a
    rolling ball runs out, at the point nearest to where the outgoing motion comes from."""
    speed_in, speed_out = hypot(*v_in), hypot(*v_out)
    chord_x, chord_y = p_out[0] - p_in[0], p_out[1] - p_in[1]
    chord = hypot(chord_x, chord_y)
    needed = chord / max(speed_in, speed_out, laws.REST_SPEED)
    if t_hi - t_lo < SLOWED_COVER * needed + REST_GAP:
        return None
    run_out = min(laws.run_out(speed_in), chord, REST_RUN_OUT)
    if speed_in > laws.REST_SPEED and run_out > 0.0:
        ux, uy = v_in[0] / speed_in, v_in[1] / speed_in
        best = 0.0
        if speed_out > laws.REST_SPEED:
            wx, wy = v_out[0] / speed_out, v_out[1] / speed_out
            # the point q = p_in + s u closest to the outgoing line through p_out along w
            # (normal to that line: (-wy, wx))
            denominator = ux * -wy + uy * wx
            if abs(denominator) > 1e-6:
                best = (chord_x * -wy + chord_y * wx) / denominator
        along = min(max(best, 0.0), run_out)
        return (p_in[0] + along * ux, p_in[1] + along * uy), min(t_lo + along / speed_in, t_hi)
    return p_in, t_lo


REST_RUN_OUT = 0.03
"""The farthest, m, a ball is taken to have rolled on past its last sample before it
came to rest (a tracker that samples moving balls sees it move farther: the real file's
sends a ball after a step of 14.6–24 mm, docs/auto-referee.md, "The camera measured")."""

SLOWED_COVER = 3.0
"""How many times as long as the faster of its two motions needs to cover the chord a
gap may last with the ball moving throughout: a ball slowing evenly to rest covers a
distance in twice the time its speed at the start needs (``2d/v``), and the third
leaves room for the noise of the two fitted speeds."""


def along_across(q: Vector, p: Vector, ux: float, uy: float) -> tuple[float, float]:
    """The offset ``q - p`` along the unit vector ``u`` and (unsigned) across it."""
    dx, dy = q[0] - p[0], q[1] - p[1]
    return dx * ux + dy * uy, abs(dx * -uy + dy * ux)


def _leave_from(q: Vector, fit: Fit, t_lo: float, t_hi: float) -> tuple[float, float]:
    """When the motion ``fit`` (extrapolated backwards) left the rest point ``q``, and
    how far from ``q`` its path passes."""
    vx, vy = fit.speed_vector(t_hi)
    speed = hypot(vx, vy)
    p = fit.point(t_hi)
    if speed < laws.REST_SPEED:
        return t_lo, hypot(p[0] - q[0], p[1] - q[1])
    ux, uy = vx / speed, vy / speed
    along, across = along_across(p, q, ux, uy)
    top = laws.MAX_FREE_ACCELERATION
    accel = min(max(2.0 * fit.c[4] * ux + 2.0 * fit.c[5] * uy, -top), top)
    tau = _time_to_cover(along, speed, accel, backwards=True)
    te = min(max(t_hi - tau, t_lo), t_hi)
    return te, across


def _arrive_at(q: Vector, p: Vector, v: Vector, t_lo: float, t_hi: float) -> tuple[float, float]:
    """When a ball at ``p`` moving at ``v`` (and then rolling to a stop) reaches ``q``,
    and how far from its line ``q`` lies."""
    speed = hypot(*v)
    if speed < laws.REST_SPEED:
        return t_lo, hypot(q[0] - p[0], q[1] - p[1])
    along, across = along_across(q, p, v[0] / speed, v[1] / speed)
    tau = _time_to_cover(along, speed, -laws.ROLL_DECELERATION, backwards=False)
    return min(max(t_lo + tau, t_lo), t_hi), across


def _time_to_cover(distance: float, speed: float, accel: float, *, backwards: bool) -> float:
    """Time for a ball at ``speed`` with acceleration ``accel`` along its motion to
    cover ``distance`` (forwards), or to have covered it (backwards in time)."""
    if distance <= 0.0:
        return 0.0
    # forwards: distance = speed τ + accel τ²/2; backwards: distance = speed τ - accel τ²/2
    a = accel if not backwards else -accel
    if abs(a) < 1e-9:
        return distance / speed
    disc = speed * speed + 2.0 * a * distance
    if disc <= 0.0:
        return speed / -a if a < 0 else distance / speed
    return (-speed + sqrt(disc)) / a


def _meet(p_in: Vector, v_in: Vector, t_lo: float, p_out: Vector, v_out: Vector,
          t_hi: float) -> tuple[float, Vector, float]:
    """The time in ``[t_lo, t_hi]`` at which the straight extrapolations of the motion
    before and after come closest; the mean point there and their distance."""
    cx = p_in[0] - v_in[0] * t_lo - p_out[0] + v_out[0] * t_hi
    cy = p_in[1] - v_in[1] * t_lo - p_out[1] + v_out[1] * t_hi
    wx, wy = v_in[0] - v_out[0], v_in[1] - v_out[1]
    ww = wx * wx + wy * wy
    te = -(cx * wx + cy * wy) / ww if ww > 1e-12 else 0.5 * (t_lo + t_hi)
    te = min(max(te, t_lo), t_hi)
    ax, ay = p_in[0] + v_in[0] * (te - t_lo), p_in[1] + v_in[1] * (te - t_lo)
    bx, by = p_out[0] + v_out[0] * (te - t_hi), p_out[1] + v_out[1] * (te - t_hi)
    return te, (0.5 * (ax + bx), 0.5 * (ay + by)), hypot(ax - bx, ay - by)
