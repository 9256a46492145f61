"""Ball–ball contacts: every kind of evidence that two balls touched, weighed together.

Three kinds of evidence, from the strongest:

* **struck** (:mod:`~carom.track.contacts.struck`): a ball at rest starts to move (or is
  found moved). Only a ball can do that; the hitter is the ball that best explains the
  departure (where it was, the direction the struck ball left in, when it left);
* **turned** (:mod:`~carom.track.contacts.turned`): a moving ball changes velocity where no
  cushion explains it, and a moving ball near it takes the opposite impulse;
* **touch** (:mod:`~carom.track.contacts.touch`): the centres came close with nothing to
  show for it; a contact only if it was too thin to show.

Each contact carries the probability that it happened, weighed by the tracker-error
model (:mod:`carom.track.tracker`). A ball that stays at rest was not touched, however
close a centre passed, unless the pass was too slow to move it visibly.
"""

from __future__ import annotations

from math import hypot

from carom.core.balls import Ball
from carom.core.table import TableSpec
from carom.track import laws
from carom.track.contacts.cushion_contacts import CushionHit
from carom.track.contacts.departure import Departure, ball_of
from carom.track.contacts.hits import BallHit
from carom.track.contacts.struck import struck
from carom.track.contacts.touch import touch
from carom.track.contacts.turned import SETTLE, turned
from carom.track.reconstruct.approach import closest_approaches
from carom.track.reconstruct.ballmotion import Join
from carom.track.reconstruct.trajectory import BallPath
from carom.track.tracker import DEFAULT_MODEL, TrackerModel

__all__ = ["SETTLE", "BallHit", "ball_hits"]

TOUCH_REACH = 0.02
"""How far beyond ``2R``, m, two paths are examined for a contact that changed nothing."""

SIGNIFICANT = 3.0
"""A join is a change of velocity when it exceeds free motion by this many standard
deviations."""


def ball_hits(paths: dict[Ball, BallPath], departures: list[Departure], cushions: list[CushionHit],
              table: TableSpec, model: TrackerModel = DEFAULT_MODEL) -> list[BallHit]:
    """Every ball–ball contact of a stroke (candidates included), in time order.

    ``departures``: the resting balls set moving (not the cue ball's strike);
    ``cushions``: the cushion contacts, which explain some changes of velocity."""
    diameter = 2.0 * table.ball_radius
    hits: list[BallHit] = []
    motions = {ball: path.motion for ball, path in paths.items()}
    for dep in sorted(departures, key=lambda d: d.join.t):
        hits.extend(struck(dep, paths[ball_of(dep, motions)], paths, diameter, model))
    for ball, path in paths.items():
        for join in path.joins:
            if join.kind not in ("turn", "stop") or join.significance <= SIGNIFICANT:
                continue
            if _explained(ball, join, cushions, hits):
                continue
            hits.extend(turned(ball, join, paths, diameter, model))
    balls = list(paths)
    for i, a in enumerate(balls):
        for b in balls[i + 1:]:
            path_a, path_b = paths[a], paths[b]
            if _boxes_apart(path_a, path_b) >= diameter + TOUCH_REACH:
                continue
            for approach in closest_approaches(path_a.times_points(), path_b.times_points(),
                                               diameter + TOUCH_REACH, still_a=path_a.still,
                                               still_b=path_b.still):
                if any({h.mover, h.other} == {a, b} and approach.t_from - 0.05 <= h.t <= approach.t_to + 0.05
                       for h in hits):
                    continue
                hit = touch(paths[a], paths[b], approach.t, approach.distance, diameter, model,
                            approach.t_from)
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
    lo, hi = join.t_lo - laws.CUSHION_DWELL, join.t_hi + laws.CUSHION_DWELL
    if any(c.ball is ball and c.probability >= 0.5 and c.t_lo <= hi and c.t_hi >= lo for c in cushions):
        return True
    # a struck ball's first samples are taken while the balls still touch or have just
    # parted: a turn found among them belongs to the same collision
    return any(ball in (h.mover, h.other) and h.probability >= 0.5
               and lo - 3.0 * h.t_sd - SETTLE <= h.t <= hi + 3.0 * h.t_sd for h in hits)

