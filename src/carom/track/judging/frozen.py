"""Frozen balls (rule F9): whether ball 1 touched the ball it hit first before the stroke.

A referee's F9 needs two balls touching at the start, which a tracker cannot measure
exactly: their centres are measured with noise and, the balls being close, with the
tracker's bias. The chance that they touch comes from the tracker-error model
(:func:`~carom.track.tracker.frozen_probability`); the record takes the likelier
reading (placing the balls exactly touching, or clearly apart), and the other reading,
when it changes the ruling, is a doubt like any other.

The bias moves the two centres along the line between them, so it leaves the
*direction* of that line alone, and the direction the hit ball leaves in is evidence
too (:func:`departure_evidence`): a ball frozen to ball 1 is pushed along the line of
centres measured before the stroke (up to the throw), while a ball lying a gap ``g``
away is met only after ball 1 travelled, and unless the hit is full it leaves along a
line turned from the first one: its departure passes the measured line by ``e =
2R sin α`` at ball 1's side, up to a few times ``g``.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, hypot, pi, sqrt

from carom.core.balls import Ball
from carom.core.events import BallContact, Event
from carom.core.records import Stroke
from carom.core.table import Point, TableSpec
from carom.track import tracker

APART = 0.002
"""How far beyond ``2R``, m, two balls judged not frozen are placed: clearly beyond the
referee's tolerance for touching."""


@dataclass(frozen=True, slots=True)
class FrozenReading:
    """Ball 1 and the ball it hit first, measured close together before the stroke."""

    ball1: Ball
    partner: Ball
    probability: float
    """The chance that they touched."""
    frozen: Stroke
    apart: Stroke

    @property
    def likely(self) -> Stroke:
        return self.frozen if self.probability >= 0.5 else self.apart

    @property
    def other(self) -> Stroke:
        return self.apart if self.probability >= 0.5 else self.frozen

    @property
    def other_chance(self) -> float:
        return min(self.probability, 1.0 - self.probability)

    def describe(self) -> str:
        state = "not frozen" if self.probability >= 0.5 else "frozen"
        return f"{self.ball1} and {self.partner} {state} before the stroke"


def frozen_reading(stroke: Stroke, raw_start: dict[Ball, Point], sigma: float, table: TableSpec,
                   bias_scale: float, leaving: dict[Ball, tuple[float, float]] | None = None,
                   ) -> FrozenReading | None:
    """The two readings of the start when ball 1's first ball contact is with a ball
    measured within reach of the tracker's bias of it (``raw_start``: the measured
    centres; ``sigma``: their noise; ``leaving``: the direction each ball set moving
    first left its rest in, a unit vector); ``None`` otherwise."""
    partner = _first_partner(stroke.ball, stroke.events)
    start = stroke.start
    if partner is None or start is None or partner not in raw_start or stroke.ball not in raw_start:
        return None
    (x1, y1), (x2, y2) = raw_start[stroke.ball], raw_start[partner]
    d = hypot(x2 - x1, y2 - y1)
    diameter = 2.0 * table.ball_radius
    if d - diameter > tracker.FROZEN_SPREAD:
        # as far as the bias on two touching centres reaches (each up to a couple of
        # centimetres along their line), and as far as the reading apart spreads
        return None
    p = tracker.frozen_probability(d - diameter, sigma, bias_scale)
    if leaving is not None and partner in leaving and d > 1e-9:
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        nx, ny = leaving[partner]
        if ux * nx + uy * ny > 0.0:  # it left away from ball 1, as a hit ball does
            ratio = departure_evidence(diameter * (ux * ny - uy * nx), sigma, diameter)
            odds = p / max(1.0 - p, 1e-12) * ratio
            p = odds / (1.0 + odds)
    return FrozenReading(stroke.ball, partner, p, _placed(stroke, partner, diameter, table),
                         _placed(stroke, partner, diameter + APART, table))


def _first_partner(ball1: Ball, events: tuple[Event, ...]) -> Ball | None:
    for event in events:
        if isinstance(event, BallContact) and event.involves(ball1):
            return event.partner(ball1)
    return None


def _placed(stroke: Stroke, partner: Ball, distance: float, table: TableSpec) -> Stroke:
    """``stroke`` with ``partner``'s start moved along the line of centres to
    ``distance`` from ball 1 (kept on the surface)."""
    assert stroke.start is not None
    start = dict(stroke.start)
    (x1, y1), (x2, y2) = start[stroke.ball], start[partner]
    d = hypot(x2 - x1, y2 - y1)
    ux, uy = ((x2 - x1) / d, (y2 - y1) / d) if d > 1e-9 else (1.0, 0.0)
    r = table.ball_radius
    x = min(max(x1 + ux * distance, r), table.width - r)
    y = min(max(y1 + uy * distance, r), table.length - r)
    start[partner] = (round(x, 6), round(y, 6))
    return Stroke(stroke.ball, stroke.events, start, stroke.end, stroke.exits, stroke.fouls, stroke.paths,
                  stroke.extra)


THROW_SD = 0.05
"""Standard deviation, radians (about 3°), of the angle between the line of centres and
the direction a pushed ball leaves in (collision-induced throw; at most about 7°,
:data:`~carom.track.laws.BALL_THROW`)."""

_GAPS = tuple(tracker.FROZEN_SPREAD * (k + 0.5) / 40 for k in range(40))
_CUTS = tuple(-1.0 + 2.0 * (k + 0.5) / 60 for k in range(60))


def departure_evidence(offset: float, sigma: float, diameter: float) -> float:
    """How much likelier the measured sideways ``offset`` (m: ``2R sin α``, ``α`` the
    angle between the line of centres measured before the stroke and the direction the
    hit ball left in) is if the balls touched than if they lay apart.

    Touching: the offset is the throw and the noise of the line's direction (each
    centre's noise ``sigma`` across it), Gaussian about 0. Apart: the gap lies
    anywhere up to :data:`~carom.track.tracker.FROZEN_SPREAD`, evenly (as
    :func:`~carom.track.tracker.frozen_probability` has it), and ball 1 was sent at the
    ball with any fraction of ball, full to thin, evenly; ball 1 travels ``λ`` to the
    contact (``λ = D cos θ − √(4R² − D² sin² θ)`` for centres ``D`` apart, the strike
    ``θ`` off the line), and the ball leaves offset by ``λ sin θ``. Both readings carry
    the same Gaussian error. The gap's own evidence (the measured distance) is weighed
    apart, by :func:`~carom.track.tracker.frozen_probability`; weighing the two as
    independent leaves out that a wide gap turns the line more, which only makes the
    ratio more cautious."""
    sd = hypot(diameter * THROW_SD, sqrt(2.0) * max(sigma, tracker.REST_NOISE))
    e = abs(offset)
    touching = _normal(e, sd)
    r2 = diameter * diameter  # (2R)²
    apart = 0.0
    count = 0
    for g in _GAPS:
        dist = diameter + g
        for c in _CUTS:
            # the fraction of ball c sends ball 1 at sin θ = c · 2R / D off the line
            st = c * diameter / dist
            ct = sqrt(max(1.0 - st * st, 0.0))
            lam = dist * ct - sqrt(max(r2 - dist * dist * st * st, 0.0))
            apart += 0.5 * (_normal(e - lam * st, sd) + _normal(e + lam * st, sd))
            count += 1
    apart /= count
    return touching / max(apart, 1e-300)


def _normal(x: float, sd: float) -> float:
    return exp(-0.5 * (x / sd) ** 2) / (sqrt(2.0 * pi) * sd)
