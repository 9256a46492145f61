"""Turned: a moving ball's velocity changed where no cushion explains it.

Only a ball can have turned it, and an impulse between balls acts along the line of
centres: the ball that turned it was within ``2R`` then, on the side the change of
velocity points away from, and took the opposite impulse (equal masses): its own
velocity changed by as much along that line. A ball lying still throughout turned
nothing (a resting ball that was set moving is a struck ball,
:mod:`~carom.track.contacts.struck`). Each candidate is weighed on the distance of the
centres, the direction of the change and the other ball's response, each by the
tracker-error model, against a turn the tracker made up (its bias near a passing ball,
samples lost at the wrong moment).
"""

from __future__ import annotations

from math import hypot

import numpy as np

from carom.core.balls import Ball
from carom.track import laws, tracker
from carom.track.contacts.hits import NEGLIGIBLE, BallHit, angle_between, contact_grid, gap_sd, velocity_at
from carom.track.reconstruct.ballmotion import Join
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import FloatArray
from carom.track.tracker import TrackerModel

SETTLE = 0.05
"""How long after a collision, s, a change of either ball's motion is taken as part of it."""


def turned(ball: Ball, join: Join, paths: dict[Ball, BallPath], diameter: float,
           model: TrackerModel) -> list[BallHit]:
    """Which ball turned ``ball`` at ``join``, with the chance of each."""
    path = paths[ball]
    dv = join.dv
    size = float(np.hypot(*dv))
    candidates: list[tuple[float, Ball, float, float]] = []
    for other, other_path in paths.items():
        if other is ball:
            continue
        if not any(other_path.moving_at(t) for t in (join.t_lo, join.t, join.t_hi, join.t_hi + SETTLE)):
            continue  # a ball that lies still throughout takes no momentum: it turned nothing
        found = _closest_in(path, other_path, join.t_lo - 0.01, join.t_hi + 0.01, diameter)
        if found is None:
            continue
        t, distance, away = found
        speed = float(np.hypot(*join.v_in))
        sd_d = gap_sd(path, other_path, t, speed, float(np.hypot(*velocity_at(other_path, t))))
        clearance = distance - diameter
        likelihood = float(model.gap_likelihood(max(clearance, 0.0), sd_d))
        sd_angle = hypot(join.sd_dv / max(size, 1e-6), sd_d / diameter)
        likelihood *= float(model.angle_likelihood(angle_between(dv, away) - laws.SPIN_DEFLECTION, sd_angle))
        likelihood *= _response(join, other_path, t, away, model)
        candidates.append((likelihood, other, t, clearance))
    total = sum(c[0] for c in candidates) + model.unseen_turn
    hits = []
    for likelihood, other, t, clearance in candidates:
        probability = likelihood / total
        if probability < NEGLIGIBLE:
            continue
        mover, moved = (ball, other)
        if float(np.hypot(*velocity_at(paths[other], t))) > float(np.hypot(*join.v_in)):
            mover, moved = other, ball
        hits.append(BallHit(mover, moved, t, max(0.002, 0.25 * (join.t_hi - join.t_lo)), probability,
                            "turned", clearance))
    return hits


def _response(join: Join, other: BallPath, t: float, away: FloatArray, model: TrackerModel) -> float:
    """How well the other ball's change of velocity near ``t`` answers the turn: it took
    the opposite impulse along the line of centres (``away``: unit vector from it to the
    turned ball), so its velocity changed by as much along that line, the other way."""
    pushed = float(join.dv @ away)
    nearby = other.joins_near(t, SETTLE)
    answer, sd = 0.0, tracker.DETECTABLE_SPEED_CHANGE
    for j in nearby:
        if j.kind == "nudge":
            continue
        along = float(j.dv @ -away)
        if abs(along - pushed) < abs(answer - pushed):
            answer, sd = along, hypot(j.sd_dv, tracker.DETECTABLE_SPEED_CHANGE)
    # the turned ball's own change carries some of the curve spin gives it afterwards
    spread = hypot(sd, join.sd_dv, 0.25 * abs(pushed))
    return float(model.response_likelihood((answer - pushed) / spread))


def _closest_in(a: BallPath, b: BallPath, t_from: float, t_to: float,
                diameter: float) -> tuple[float, float, FloatArray] | None:
    """When ``a`` and ``b`` first come within ``diameter`` (or, failing that, closest)
    between ``t_from`` and ``t_to``, both carrying on straight from their samples
    before (they meet on their incoming motions): the time, the distance of the
    centres and the unit vector from ``b`` to ``a`` then."""
    grid = contact_grid(t_from, t_to)
    pa, _ = a.extended(grid, forward=True)
    pb, _ = b.extended(grid, forward=True)
    rel = pa - pb
    dist = np.hypot(rel[:, 0], rel[:, 1])
    inside = dist <= diameter
    k = int(inside.argmax()) if inside.any() else int(dist.argmin())
    if dist[k] <= 0.0:
        return None
    return float(grid[k]), float(dist[k]), rel[k] / dist[k]
