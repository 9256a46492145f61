"""Ball–ball contacts: changes of motion that only a contact explains.

Three kinds of evidence, from the strongest:

* **struck**: a ball at rest starts to move (or is found moved). Only a ball can do
  that; the hitter is the ball whose path reaches ``2R`` from the resting centre, on
  the side opposite to where the struck ball leaves (it leaves along the line of
  centres, up to a few degrees of throw), at the time the struck ball's first samples
  say it left.
* **turned**: a moving ball changes velocity where no cushion explains it: the ball
  within ``2R`` of it then, on the side its change of velocity points away from, hit it
  (an impulse between balls acts along the line of centres).
* **touch**: the centres came closer than ``2R`` with nothing else to show for it; the
  probability of a contact is that of the true distance being below ``2R``.

Each contact carries the probability that it happened, from the measurement noise.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from math import acos, exp, hypot, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.core.table import TableSpec
from carom.track import physics
from carom.track.approach import closest_approaches
from carom.track.cushions import CushionHit, normal_cdf
from carom.track.departure import Departure
from carom.track.motion import Join
from carom.track.numeric import clip, diff, linspace, runs
from carom.track.paths import BallPath
from carom.track.samples import FloatArray

REACH = 0.02
"""How far beyond ``2R``, m, two paths are examined for a contact."""

NO_HITTER_LIKELIHOOD = exp(-0.5 * 4.0 ** 2)
"""Likelihood that a resting ball was set moving by nothing the tracker saw (a hitter
four standard deviations off is as likely as this): only a ball moves a ball."""

SETTLE = 0.05
"""How long after a collision, s, a change of either ball's motion is taken as part of it."""

SIGNIFICANT = 3.0
"""A join is a change of velocity when it exceeds free motion by this many standard
deviations."""


@dataclass(frozen=True, slots=True)
class BallHit:
    """Two balls touched (or, with a low ``probability``, may have)."""

    mover: Ball
    """The moving ball (the hitter when the other was at rest)."""
    other: Ball
    t: float
    t_sd: float
    probability: float
    kind: str
    """``struck``, ``turned`` or ``touch`` (see the module)."""
    clearance: float
    """Measured distance of the centres at the contact minus ``2R``, m."""
    group: object | None = None
    """Candidates of one group exclude each other: the hitters of one struck ball."""


def ball_hits(paths: dict[Ball, BallPath], departures: list[Departure], cushions: list[CushionHit],
              table: TableSpec) -> list[BallHit]:
    """Every ball–ball contact of a stroke (candidates included), in time order.

    ``departures``: the resting balls set moving (not the cue ball's strike);
    ``cushions``: the cushion contacts, which explain some changes of velocity."""
    diameter = 2.0 * table.ball_radius
    hits: list[BallHit] = []
    for dep in sorted(departures, key=lambda d: d.join.t):
        ball = _ball_of(dep, paths)
        if dep.join.kind == "restart":
            dep = _rested_where_it_hit(dep, ball, paths[ball], hits)
        hits.extend(_struck(dep, paths[ball], paths, diameter))
    for ball, path in paths.items():
        for join in path.joins:
            if join.kind not in ("turn", "stop") or join.significance <= SIGNIFICANT:
                continue
            if _explained(ball, join, cushions, hits):
                continue
            hits.extend(_turned(ball, join, paths, diameter))
    balls = list(paths)
    for i, a in enumerate(balls):
        for b in balls[i + 1:]:
            path_a, path_b = paths[a], paths[b]
            if _boxes_apart(path_a, path_b) >= diameter + REACH:
                continue
            for approach in closest_approaches(path_a.times_points(), path_b.times_points(),
                                               diameter + REACH, still_a=path_a.still, still_b=path_b.still):
                if any({h.mover, h.other} == {a, b} and approach.t_from - 0.05 <= h.t <= approach.t_to + 0.05
                       for h in hits):
                    continue
                hit = _touch(paths[a], paths[b], approach.t, approach.distance, diameter)
                if hit is not None:
                    hits.append(hit)
    hits.sort(key=lambda h: h.t)
    return hits


def _boxes_apart(a: BallPath, b: BallPath) -> float:
    """How far apart the rectangles around two whole paths lie: the balls' centres were
    never nearer than this (0 when the rectangles overlap)."""
    ax0, ay0, ax1, ay1 = a.box
    bx0, by0, bx1, by1 = b.box
    return hypot(max(ax0 - bx1, bx0 - ax1, 0.0), max(ay0 - by1, by0 - ay1, 0.0))


def _explained(ball: Ball, join: Join, cushions: list[CushionHit], hits: list[BallHit]) -> bool:
    """Is the change of ``ball``'s velocity at ``join`` already accounted for?"""
    lo, hi = join.t_lo - physics.CUSHION_DWELL, join.t_hi + physics.CUSHION_DWELL
    if any(c.ball is ball and c.probability >= 0.5 and c.t_lo <= hi and c.t_hi >= lo for c in cushions):
        return True
    # a struck ball's first samples are taken while the balls still touch or have just
    # parted: a turn found among them belongs to the same collision
    return any(ball in (h.mover, h.other) and h.probability >= 0.5
               and lo - 3.0 * h.t_sd - SETTLE <= h.t <= hi + 3.0 * h.t_sd for h in hits)


def _rested_where_it_hit(dep: Departure, ball: Ball, path: BallPath, hits: list[BallHit]) -> Departure:
    """A ball that hit another and came to rest before it was set moving again lay where
    it hit (a stun shot stops dead): its resting place is taken from that contact."""
    join = dep.join
    prior = [h for h in hits if h.mover is ball and h.kind == "struck" and h.probability >= 0.5
             and join.t_lo - physics.CUSHION_DWELL <= h.t <= join.t]
    if not prior:
        return dep
    hit = max(prior, key=lambda h: h.t)
    where, _ = path.extended(np.array([hit.t]), forward=True)
    rest = where[0]
    first = join.via[0] if join.via else join.after.i0
    chord = path.motion.xy[first] - rest
    length = max(float(np.hypot(*chord)), 1e-9)
    return replace(dep, rest=rest, direction=chord / length)


def _ball_of(dep: Departure, paths: dict[Ball, BallPath]) -> Ball:
    for ball, path in paths.items():
        if any(j is dep.join for j in path.motion.joins):
            return ball
    raise AssertionError("a departure of no ball")  # every departure is of some ball



def _angle(u: FloatArray, w: FloatArray) -> float:
    nu, nw = float(np.hypot(*u)), float(np.hypot(*w))
    if nu == 0.0 or nw == 0.0:
        return 0.0
    return acos(max(-1.0, min(1.0, float(u @ w) / (nu * nw))))


def _struck(dep: Departure, struck: BallPath, paths: dict[Ball, BallPath], diameter: float) -> list[BallHit]:
    """Who set the resting ball of ``dep`` moving, with the probability of each: the
    hitter must be moving, ``2R`` from the resting centre, on the line of centres the
    struck ball left along, at the time the struck ball's samples say it left."""
    motion = struck.motion
    candidates: list[tuple[float, BallPath, float, float]] = []
    for hitter in paths.values():
        if hitter.motion.ball is motion.ball or hitter.still:
            continue  # a ball that never moved hit nothing
        best = _best_contact(dep, hitter, hypot(hitter.motion.sigma, motion.sigma, physics.CONTACT_SHAPE_SD),
                             diameter)
        if best is not None:
            chi2, t_contact, clearance = best
            candidates.append((exp(-0.5 * chi2), hitter, t_contact, clearance))
    total = sum(c[0] for c in candidates) + NO_HITTER_LIKELIHOOD
    hits = []
    for likelihood, hitter, t_contact, clearance in candidates:
        probability = dep.moved * likelihood / total
        if probability < 1e-4:
            continue
        speed = float(np.hypot(*_velocity(hitter, t_contact)))
        t_sd = hypot(0.002, hitter.motion.sigma_at(speed) / max(speed, 0.05))
        hits.append(BallHit(hitter.motion.ball, motion.ball, t_contact, t_sd, probability,
                            "struck", clearance, (motion.ball, dep.join.t_lo, dep.join.t_hi)))
    return hits


CONTACT_GRID = 0.002
"""Time step, s, at which a hitter's path is searched for the moment of a contact."""


SEARCH_REACH = 0.08
"""How close, m beyond ``2R``, a hitter's samples must come to a resting ball for the
moment of the contact to be searched there."""


def _near_times(hitter: BallPath, target: FloatArray, t_from: float, t_to: float,
                reach: float) -> FloatArray | None:
    """A fine time grid over the parts of ``[t_from, t_to]`` in which ``hitter``'s
    samples come within ``reach`` of ``target`` (``None``: they never do)."""
    times, points = hitter.times, hitter.points
    last = times.shape[0] - 1
    # the path's points from the last before t_from to the first after t_to
    first_in = int(np.searchsorted(times, t_from, side="left"))
    last_in = int(np.searchsorted(times, t_to, side="right")) - 1
    if first_in <= last_in:
        lo, hi = max(first_in - 1, 0), min(last_in + 1, last)
    else:
        lo = first_in - 1
        hi = lo + 1
    lo, hi = max(lo, 0), min(max(hi, lo + 1), last)
    seg = points[lo:hi + 1]
    if seg.shape[0] < 2 or _box_distance(seg, target) > reach:
        return None
    # intervals of the path that pass within reach (between samples, not only at them)
    start, step = seg[:-1] - target, diff(seg)
    dd = np.einsum("ij,ij->i", step, step)
    s = clip(-np.einsum("ij,ij->i", start, step) / np.where(dd > 0.0, dd, 1.0), 0.0, 1.0)
    closest = start + s[:, None] * step
    near = np.nonzero(np.hypot(closest[:, 0], closest[:, 1]) <= reach)[0]
    if not near.size:
        return None
    pieces = []
    for first, final in runs(near):
        a = max(float(times[max(lo + first - 1, 0)]), t_from)
        b = min(float(times[min(lo + final + 2, last)]), t_to)
        if b > a:
            count = int(min(max((b - a) / CONTACT_GRID, 2), 2000))
            pieces.append(linspace(a, b, count + 1))
    if not pieces:
        return None
    return np.concatenate(pieces) if len(pieces) > 1 else pieces[0]


def _box_distance(points: FloatArray, target: FloatArray) -> float:
    """How far ``target`` lies from the rectangle around ``points``: a cheap lower bound
    of its distance from the polyline through them (which lies inside the rectangle)."""
    (x0, y0), (x1, y1) = points.min(axis=0).tolist(), points.max(axis=0).tolist()
    x, y = target.tolist()
    return hypot(max(x0 - x, x - x1, 0.0), max(y0 - y, y - y1, 0.0))


def _best_contact(dep: Departure, hitter: BallPath, sd_d: float,
                  diameter: float) -> tuple[float, float, float] | None:
    """The moment along ``hitter``'s path that best explains the departure ``dep``:
    its chi-square (distance from ``2R``, angle beyond throw, time), time and clearance.
    ``None`` if the hitter does not move while the struck ball could have left."""
    join = dep.join
    grid = _near_times(hitter, dep.rest, join.t_lo - physics.CUSHION_DWELL, join.t_hi,
                       diameter + SEARCH_REACH)
    if grid is None:
        return None
    # the path between samples read both ways (carried on from before: row 0, come
    # straight to after: row 1; see BallPath.extended), scored together
    pos, vel = hitter.readings(grid, (True, False))
    moving = np.hypot(vel[..., 0], vel[..., 1]) > physics.REST_SPEED
    line = dep.rest - pos
    dist = np.hypot(line[..., 0], line[..., 1])
    chi2 = ((dist - diameter) / sd_d) ** 2
    cosine = (line @ dep.direction) / np.maximum(dist, 1e-9)
    angle = np.arccos(clip(cosine, -1.0, 1.0))
    sd_angle = hypot(min(dep.angle_sd, 1.0), sd_d / diameter)
    chi2 += (np.maximum(angle - physics.BALL_THROW, 0.0) / sd_angle) ** 2
    if dep.left_at is not None:
        chi2 += ((grid - dep.left_at) / dep.left_sd) ** 2
    # the hitter must be coming towards the struck ball
    chi2 = np.where(moving & (np.einsum("rij,rij->ri", vel, line) > 0.0), chi2, np.inf)
    # the smallest; on a tie the forward reading and the earlier time
    row, k_best = divmod(int(np.argmin(chi2)), grid.shape[0])
    if not np.isfinite(chi2[row, k_best]):
        return None
    return float(chi2[row, k_best]), float(grid[k_best]), float(dist[row, k_best] - diameter)


def _velocity(path: BallPath, t: float) -> FloatArray:
    times, points = path.times, path.points
    k = min(max(int(np.searchsorted(times, t)) - 1, 0), times.shape[0] - 2)
    dt = float(times[k + 1] - times[k])
    if dt <= 0.0:
        return np.zeros(2)
    velocity: FloatArray = (points[k + 1] - points[k]) / dt
    return velocity


def _path_sd(path: BallPath, t: float) -> float:
    """Uncertainty of a ball's reconstructed centre at ``t``: the noise, and half the
    gap of a join that holds more than one event (its path is unknown to that much)."""
    sd = path.motion.sigma
    for join in path.joins_near(t, 0.0):
        if join.kind == "turn":
            sd = hypot(sd, 0.5 * join.gap)
    return sd


def _turned(ball: Ball, join: Join, paths: dict[Ball, BallPath], diameter: float) -> list[BallHit]:
    """Which ball turned ``ball`` at ``join`` (no cushion did): the one within ``2R``
    of it then, on the side its change of velocity points away from."""
    turned = paths[ball]
    dv = join.dv
    size = float(np.hypot(*dv))
    candidates: list[tuple[float, Ball, float, float]] = []
    for other, path in paths.items():
        if other is ball:
            continue
        if not any(path.moving_at(t) for t in (join.t_lo, join.t, join.t_hi, join.t_hi + SETTLE)):
            continue  # a ball that lies still throughout takes no momentum: it turned nothing
        found = _closest_in(turned, path, join.t_lo - 0.01, join.t_hi + 0.01, diameter)
        if found is None:
            continue
        t, distance, away = found
        sd_d = hypot(_path_sd(turned, t), _path_sd(path, t), physics.CONTACT_SHAPE_SD)
        clearance = distance - diameter
        chi2 = (max(clearance, 0.0) / sd_d) ** 2
        allow = physics.SPIN_DEFLECTION
        sd_angle = hypot(join.sd_dv / max(size, 1e-6), sd_d / diameter)
        chi2 += (max(_angle(dv, away) - allow, 0.0) / sd_angle) ** 2
        candidates.append((exp(-0.5 * chi2), other, t, clearance))
    total = sum(c[0] for c in candidates) + NO_HITTER_LIKELIHOOD
    hits = []
    for likelihood, other, t, clearance in candidates:
        probability = likelihood / total
        if probability < 1e-4:
            continue
        mover, moved = (ball, other)
        if float(np.hypot(*_velocity(paths[other], t))) > float(np.hypot(*join.v_in)):
            mover, moved = other, ball
        hits.append(BallHit(mover, moved, t, max(0.002, 0.25 * (join.t_hi - join.t_lo)), probability,
                            "turned", clearance))
    return hits


def _closest_in(a: BallPath, b: BallPath, t_from: float, t_to: float,
                diameter: float) -> tuple[float, float, FloatArray] | None:
    """When ``a`` and ``b`` first come within ``diameter`` (or, failing that, closest)
    between ``t_from`` and ``t_to``, both carrying on straight from their samples
    before (they meet on their incoming motions): the time, the distance of the
    centres and the unit vector from ``b`` to ``a`` then."""
    count = int(min(max((t_to - t_from) / CONTACT_GRID, 2), 2000))
    grid = linspace(t_from, t_to, count + 1)
    pa, _ = a.extended(grid, forward=True)
    pb, _ = b.extended(grid, forward=True)
    rel = pa - pb
    dist = np.hypot(rel[:, 0], rel[:, 1])
    inside = dist <= diameter
    k = int(np.argmax(inside)) if inside.any() else int(np.argmin(dist))
    if dist[k] <= 0.0:
        return None
    return float(grid[k]), float(dist[k]), rel[k] / dist[k]


def _touch(pa: BallPath, pb: BallPath, t: float, distance: float, diameter: float) -> BallHit | None:
    """A close approach that changed neither ball's velocity: a contact only if the
    true distance fell below ``2R`` (and, for a ball at rest, so little that it stayed)."""
    moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
    if not (moving_a or moving_b):
        return None
    speed_a = float(np.hypot(*_velocity(pa, t))) if moving_a else 0.0
    speed_b = float(np.hypot(*_velocity(pb, t))) if moving_b else 0.0
    sd_d = hypot(pa.motion.sigma_at(speed_a), pb.motion.sigma_at(speed_b), physics.CONTACT_SHAPE_SD)
    mover, other = (pa, pb) if speed_a >= speed_b else (pb, pa)
    clearance = distance - diameter
    relative = float(np.hypot(*(_velocity(pa, t) - _velocity(pb, t))))
    if moving_a and moving_b:
        detectable = physics.DETECTABLE_SPEED_CHANGE
    else:
        # a resting ball given speed v rolls about 5.8 v² metres (stun: slides, then rolls)
        detectable = sqrt(physics.DETECTABLE_NUDGE / 5.8)
    probability = _thin_touch(clearance, sd_d, relative, detectable, diameter)
    if probability < 1e-4:
        return None
    speed = max(speed_a, speed_b, 0.05)
    return BallHit(mover.motion.ball, other.motion.ball, t, hypot(0.002, sd_d / speed), probability,
                   "touch", clearance)


def _thin_touch(clearance: float, sd: float, speed: float, detectable: float, diameter: float) -> float:
    """Probability of a contact that changed nothing visible. At the closest approach
    the relative velocity ``speed`` is across the line of centres; a true overlap ``δ``
    of the straight paths means the balls met with a normal speed of about
    ``speed * sqrt(δ / R)``, and each ball's velocity changed by that much. Nothing
    changed by ``detectable`` or more, so a contact needs ``δ < ε = R (detectable /
    speed)²``: the probability is that of the true clearance lying in ``[-ε, 0]``,
    given that it is not below ``-ε``."""
    radius = 0.5 * diameter
    ratio = min(1.0, detectable / max(speed, 1e-3))
    eps = radius * ratio * ratio
    below = normal_cdf((-eps - clearance) / sd)
    within = normal_cdf(-clearance / sd) - below
    return max(within, 0.0) / max(1.0 - below, 1e-12)
