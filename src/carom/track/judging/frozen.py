"""Frozen balls (rule F9): whether ball 1 touched the ball it hit first before the stroke.

A referee's F9 needs two balls touching at the start, which a tracker cannot measure
exactly: their centres are measured with noise and, the balls being close, with the
tracker's bias. The chance that they touch comes from the tracker-error model
(:func:`~carom.track.tracker.frozen_probability`); the record takes the likelier
reading (placing the balls exactly touching, or clearly apart), and the other reading,
when it changes the ruling, is a doubt like any other.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import hypot

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
                   bias_scale: float) -> FrozenReading | None:
    """The two readings of the start when ball 1's first ball contact is with a ball
    measured within reach of the tracker's bias of it (``raw_start``: the measured
    centres; ``sigma``: their noise); ``None`` otherwise."""
    partner = _first_partner(stroke.ball, stroke.events)
    start = stroke.start
    if partner is None or start is None or partner not in raw_start or stroke.ball not in raw_start:
        return None
    (x1, y1), (x2, y2) = raw_start[stroke.ball], raw_start[partner]
    d = hypot(x2 - x1, y2 - y1)
    diameter = 2.0 * table.ball_radius
    if d - diameter > tracker.BIAS_NEAR:
        return None
    p = tracker.frozen_probability(d - diameter, sigma, bias_scale)
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
