"""Cushions a ball contact's momentum implies: a hitter caught between a ball and a cushion.

Two balls that touch exchange momentum and keep its sum (equal masses; the cloth's
friction acts over tenths of a second, not during the impact). When a hitter runs
into a cushion and a ball lying near it within a few hundredths of a second, the
tracker often shows neither bounce: the samples around the two events are lost or
biased (the balls' blobs merge), and the hitter's motion after them may still run
towards the cushion, so no turn away from it is seen. What is seen is the motion of
the two balls before and after: the hitter's velocity before, and the sum of the
hitter's and the struck ball's after. If the sum's component along a cushion's
normal has turned from the cushion to the table, something pushed the pair off that
cushion. When the struck ball lay away from the cushion and met no cushion itself,
that was the hitter: before the ball if, running on as it came, it reached the cushion
by the time of the contact; after it if the contact turned it towards the cushion
(its velocity less what the struck ball took); never otherwise.

The change is weighed against the tracker-error model's noise of the velocities and
against what rolling does to them soon after the impact (a struck ball slows to 5/7
of its speed as it starts to roll, a hitter with topspin follows on), which grows
with the speed; a heavy tail stands for the rest (a third event in the same gap).
"""

from __future__ import annotations

from math import exp, hypot, pi, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track.contacts.cushion_contacts import CushionHit
from carom.track.contacts.departure import Departure
from carom.track.contacts.hits import BallHit
from carom.track.reconstruct.ballmotion import BallMotion, Join
from carom.track.reconstruct.geometry import CushionLine

HITTER_REACH = 0.04
"""How far from a cushion's line, m, a hitter's centre at a ball contact may be for the
cushion to have taken part (a join's reconstructed point is known to centimetres)."""

STRUCK_CLEAR = 0.03
"""A struck ball lying nearer a cushion's line than this, m, may have met that cushion
itself: the pair's momentum does not say which ball did."""

STRUCK_CUSHION_CHANCE = 0.1
"""A cushion hit of the struck ball at least this likely, found from its contact with the
hitter to :data:`STRUCK_CUSHION_SOON` after its first sample in motion, may have taken
the pair's impulse instead."""

STRUCK_CUSHION_SOON = 0.05
"""See :data:`STRUCK_CUSHION_CHANCE`, s."""

ROLLING_CHANGE = 0.04
"""How much, per m/s of the hitter's speed, rolling changes the pair's velocities
measured soon after an impact (one standard deviation, m/s per m/s), on top of a
floor of as much in m/s."""

TAIL_SHARE = 0.05
"""The share of ball contacts whose measured momentum change has another cause (a
second contact or cushion in the same gap between samples)."""

TAIL_SCALE = 0.5
"""Scale of that tail, m/s."""

APPROACHING = 0.05
"""A hitter's velocity into a cushion, m/s, below which it is taken to run along it."""

EVEN_ORDER = 0.005
"""Time, s, set between the cushion and the ball contact in the record (their order is
what matters; the gap between them is not seen)."""

NEGLIGIBLE = 0.01
"""A cushion less likely than this is not reported."""


def momentum_cushions(hits: list[BallHit], departures: list[Departure], motions: dict[Ball, BallMotion],
                      cushions: list[CushionHit], lines: tuple[CushionLine, ...]) -> list[CushionHit]:
    """The cushion contacts of hitters that the momentum of their ball contacts implies
    and that no cushion hit already found in the same gap between samples explains;
    ``cushions``: those found, each kept once (a likelier reading replaces one)."""
    found = list(cushions)
    for hit in hits:
        pair = _struck_pair(hit, departures, motions)
        if pair is None:
            continue
        dep, join = pair
        if _struck_met_cushion(found, hit, dep):
            continue  # the struck ball met a cushion itself: which ball did is not told
        for line in lines:
            implied = _implied(hit, dep, join, line)
            if implied is None:
                continue
            same = [k for k, c in enumerate(found) if c.ball is hit.mover and c.cushion is line.cushion
                    and c.t_lo < join.t_hi and join.t_lo < c.t_hi]
            if not same:
                found.append(implied)
            elif all(found[k].probability < implied.probability for k in same):
                k = max(same, key=lambda k: found[k].probability)
                found[k] = found[k].with_probability(implied.probability)
    found.sort(key=lambda h: h.t)
    return found


def _struck_pair(hit: BallHit, departures: list[Departure],
                 motions: dict[Ball, BallMotion]) -> tuple[Departure, Join] | None:
    """For a likely contact that set a resting ball moving, the struck ball's departure
    (from its rest, straight, no cushion before its first moving sample) and the hitter's
    join holding the contact; ``None`` for any other contact, or where either is missing."""
    if hit.kind != "struck" or hit.probability < 0.5 or not isinstance(hit.group, tuple):
        return None
    struck_ball, t_lo, t_hi = hit.group
    dep = next((d for d in departures if d.join.t_lo == t_lo and d.join.t_hi == t_hi
                and d.join.kind == "start" and d.bounce is None
                and any(j is d.join for j in motions[struck_ball].joins)), None)
    join = _join_at(motions[hit.mover], hit.t)
    return None if dep is None or join is None else (dep, join)


def _struck_met_cushion(cushions: list[CushionHit], hit: BallHit, dep: Departure) -> bool:
    """Whether the ball ``hit`` struck may have met a cushion itself before its departure
    was measured (a hit of it at least :data:`STRUCK_CUSHION_CHANCE` likely, up to
    :data:`STRUCK_CUSHION_SOON` after its first sample in motion)."""
    return any(c.ball is hit.other and c.probability > STRUCK_CUSHION_CHANCE
               and hit.t - STRUCK_CUSHION_SOON <= c.t <= dep.join.t_hi + STRUCK_CUSHION_SOON
               for c in cushions)


def _join_at(motion: BallMotion, t: float) -> Join | None:
    """The hitter's join holding the contact at ``t`` (a turn: moving before and after)."""
    for join in motion.joins:
        if join.kind == "turn" and join.t_lo - EVEN_ORDER <= t <= join.t_hi + EVEN_ORDER:
            return join
    return None


def _implied(hit: BallHit, dep: Departure, join: Join, line: CushionLine) -> CushionHit | None:
    """The hitter's contact with ``line``'s cushion that the pair's momentum implies, with
    its probability, or ``None``."""
    if line.depth(join.point) > HITTER_REACH or line.depth(dep.rest) < STRUCK_CLEAR:
        return None
    n = line.normal
    into = float(n @ join.v_in)
    change = float(n @ join.v_out) + float(n @ dep.join.v_out) - into
    if change <= 0.0:
        return None
    speed = float(hypot(*join.v_in.tolist()))
    sd = hypot(2.0 * join.sd_dv, ROLLING_CHANGE * (1.0 + speed))
    still = (1.0 - TAIL_SHARE) * exp(-0.5 * (change / sd) ** 2) / (sqrt(2.0 * pi) * sd)
    still += TAIL_SHARE * exp(-change / TAIL_SCALE) / (2.0 * TAIL_SCALE)
    # a cushion reverses up to the whole normal velocity, and a ball contact near it
    # adds the struck ball's share: any change up to twice the speed, evenly
    bounced = 1.0 / (2.0 * speed + 0.5)
    probability = bounced / (bounced + still)
    if probability < NEGLIGIBLE:
        return None
    first = _cushion_first(hit.t, join, line, into)
    if not first and into - float(n @ dep.join.v_out) >= 0.0:
        return None  # after the ball, the hitter ran away from the cushion: it cannot have met it
    t = hit.t - EVEN_ORDER if first else hit.t + EVEN_ORDER
    return CushionHit(hit.mover, line.cushion, t, join.t_lo, join.t_hi, 0.0, join.sd_dv, probability,
                      hit.t_sd)


def _cushion_first(t_contact: float, join: Join, line: CushionLine, into: float) -> bool:
    """Whether the hitter met the cushion before the ball it touched at ``t_contact``:
    running on as it came, it reached the cushion's line by then."""
    if into >= -APPROACHING:
        return False
    reach = join.t_lo + line.depth(np.asarray(join.before.tail.point(join.t_lo))) / -into
    return reach <= t_contact

