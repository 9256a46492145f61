"""Frozen balls (rule F9): whether ball 1 touched the ball it hit first before the stroke.

A referee's F9 needs two balls touching at the start, which a tracker cannot measure
exactly: their centres are measured with noise and, the balls being close, with the
tracker's bias. The chance that they touch comes from the tracker-error model
(:func:`~carom.track.tracker.frozen_probability`); the record takes the likelier
reading (placing the balls exactly touching, or clearly apart), and the other reading,
when it changes the ruling, is a doubt like any other. The bias moves the two centres
along the line between them and leaves its direction alone, so the direction the hit
ball leaves in and ball 1's own first motion are evidence too (:func:`start_evidence`).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, hypot, pi, sqrt

from carom.core.balls import Ball
from carom.core.events import BallContact, Event
from carom.core.records import Stroke
from carom.core.table import Point, TableSpec
from carom.notation.said import Said
from carom.track import laws, tracker
from carom.track.judging.record import on_surface

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

    def describe(self, frozen: bool) -> Said:
        """The reading of the start in words: ball 1 frozen to its partner, or not."""
        if frozen:
            return Said("%(ball)s and %(other)s frozen before the stroke", ball=self.ball1,
                        other=self.partner)
        return Said("%(ball)s and %(other)s not frozen before the stroke", ball=self.ball1,
                    other=self.partner)


def frozen_reading(stroke: Stroke, raw_start: dict[Ball, Point], sigma: float, table: TableSpec,
                   bias_scale: float, leaving: dict[Ball, tuple[float, float]] | None = None,
                   first_line: tuple[Point, Point] | None = None,
                   camera: tracker.CameraBias | None = None) -> FrozenReading | None:
    """The two readings of the start when ball 1's first ball contact is with a ball
    measured within reach of the tracker's bias of it (``raw_start``: the measured
    centres; ``sigma``: their noise; ``leaving``: the direction each ball set moving
    first left its rest in, a unit vector; ``first_line``: ball 1's first motion after
    the strike, a point on it and its unit direction; ``camera``: the camera's bias, when
    measured over the recording); ``None`` otherwise."""
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
    p = tracker.frozen_probability(d - diameter, sigma, bias_scale, camera)
    if d > 1e-9:
        ux, uy = (x2 - x1) / d, (y2 - y1) / d
        offset: float | None = None
        if leaving is not None and partner in leaving:
            nx, ny = leaving[partner]
            if ux * nx + uy * ny > 0.0:  # it left away from ball 1, as a hit ball does
                offset = diameter * (ux * ny - uy * nx)
        line: tuple[float, float, float] | None = None
        if first_line is not None:
            # where ball 1 stood if the two touched: its measured centre moved back by
            # half the measured gap (the bias pushes both centres, equally, along the line)
            half = 0.5 * (d - diameter)
            fx, fy = x1 + ux * half, y1 + uy * half
            (px, py), (qx, qy) = first_line
            if hypot(fx - px, fy - py) <= FIRST_LINE_REACH:
                line = (qx * (fy - py) - qy * (fx - px), qx * ux + qy * uy, ux * qy - uy * qx)
        if offset is not None or line is not None:
            p = start_evidence(offset, line, sigma, diameter, d - diameter, bias_scale, camera)
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
    x, y = on_surface(x1 + ux * distance, y1 + uy * distance, table)
    start[partner] = (round(x, 6), round(y, 6))
    return Stroke(stroke.ball, stroke.events, start, stroke.end, stroke.exits, stroke.fouls, stroke.paths,
                  stroke.extra)


_GAPS = tuple(tracker.FROZEN_SPREAD * (k + 0.5) / 40 for k in range(40))
_CUTS = tuple(-1.0 + 2.0 * (k + 0.5) / 60 for k in range(60))


FIRST_LINE_REACH = 0.15
"""Ball 1's first motion is taken as evidence of where it stood only when its first clean
piece begins within this distance, m, of that place (farther, it may have met a cushion
or a ball in between)."""

BIAS_ASYMMETRY = 0.3
"""How unequal, as a fraction of the measured gap, the tracker's bias on two touching
balls may be: the model takes it equal and opposite on both centres (each ball shades
the other alike), up to this."""

LINE_TAIL = 0.05
"""The share of first motions that do not start from ball 1's place for a reason the
readings do not hold (an event before the first sample, a glitch): spread evenly over
:data:`LINE_TAIL_SPREAD` either way."""

LINE_TAIL_SPREAD = FIRST_LINE_REACH
"""Half-width, m, of the even spread of :data:`LINE_TAIL`: as far as a first motion taken as
evidence may begin from ball 1's place (:data:`FIRST_LINE_REACH`), and so pass beside it. A
first motion neither reading explains (ball 1 met a cushion before its first clean piece)
then leaves the gap to decide, where a narrower spread left the ratio of two far Gaussian
tails, sure of either reading."""


def start_evidence(offset: float | None, line: tuple[float, float, float] | None, sigma: float,
                   diameter: float, gap: float, bias_scale: float,
                   camera: tracker.CameraBias | None = None) -> float:
    """The chance that the two balls touched, from their measured ``gap`` beyond ``2R``
    and the way they left, weighed together: ``offset`` the hit ball's direction, as the
    sideways distance ``2R sin α`` by which its departure passes the measured line of
    centres (``α`` the angle between them; touching, it is the throw and the noise of the
    line's direction), and ``line`` = ``(r, q·u, u×q)``, ball 1's first
    motion: ``q`` its direction, ``u`` the measured line of centres, ``r`` how far the
    line of its first motion passes beside the place ball 1 stood if the balls touched
    (its measured centre moved toward the other by half the measured ``gap``, undoing
    the tracker's bias, which moves both centres along their line).

    Touching, ball 1 pushed the other from where it stood, so its first motion starts
    there: ``r`` is noise. Apart by ``g`` (the measured gap is ``g`` plus the bias, so
    the place above is ``g/2`` short of ball 1's true centre along ``u``), ball 1 ran
    ``λ`` along a strike ``θ`` off the line before the contact; its first motion is the
    run itself (it passes ball 1's true centre: ``r = −(u×q) g/2``) or, when the tracker
    sent no sample before the contact, the motion after it, which passes the contact
    point (``r = −(q·u) λ sin θ − (u×q)(g/2 − λ cos θ)``), either equally. The gap and
    the fraction of ball are spread evenly (the gap up to
    :data:`~carom.track.tracker.FROZEN_SPREAD`, the strike from full to thin), and the three
    pieces of evidence are weighed together, for one gap and one fraction of ball make
    them all: a measured gap of 3 cm is the tracker's bias whether the balls touched or
    lay a millimetre apart, and the way they left tells the gap, not the bias. With the
    ``camera``'s bias measured over the recording, the measured gap is weighed by
    :func:`~carom.track.tracker.gap_density`, and tells the gap too."""
    s = max(sigma, tracker.REST_NOISE)
    sd_off = hypot(diameter * laws.THROW_SD, sqrt(2.0) * s)
    touching = tracker.gap_density(gap, 0.0, sigma, bias_scale, camera)
    r = qu = k = 0.0
    sd_r = 1.0
    if offset is not None:
        touching *= _tailed(offset, sd_off, OFFSET_TAIL, diameter)
    if line is not None:
        r, qu, k = line
        sd_r = sqrt(2.0 * s * s + (s * k) ** 2 + tracker.CONTACT_SHAPE_SD ** 2
                    + (BIAS_ASYMMETRY * 0.5 * abs(gap) * k) ** 2)
        touching *= _tailed(r, sd_r, LINE_TAIL, LINE_TAIL_SPREAD)
    apart = 0.0
    count = 0
    r2 = diameter * diameter
    for g in _GAPS:
        dist = diameter + g
        pre = _tailed(r + k * 0.5 * g, sd_r, LINE_TAIL, LINE_TAIL_SPREAD) if line is not None else 1.0
        measured = tracker.gap_density(gap, g, sigma, bias_scale, camera)
        for c in _CUTS:
            st = c * diameter / dist
            ct = sqrt(max(1.0 - st * st, 0.0))
            lam = dist * ct - sqrt(max(r2 - dist * dist * st * st, 0.0))
            term = 1.0
            if offset is not None:
                term *= _tailed(offset + lam * st, sd_off, OFFSET_TAIL, diameter)
            if line is not None:
                miss = r - (-qu * lam * st - k * (0.5 * g - lam * ct))
                post = _tailed(miss, sd_r, LINE_TAIL, LINE_TAIL_SPREAD)
                term *= 0.5 * (pre + post)
            apart += measured * term
            count += 1
    apart /= count
    return touching / max(touching + apart, 1e-300)


OFFSET_TAIL = 0.05
"""The share of hit balls whose first motion does not leave along the line of centres for
a reason the readings do not hold (a cushion met before its first sample, a glitch):
spread evenly over every offset a contact can give (``±2R``)."""


def _tailed(x: float, sd: float, share: float, half_width: float) -> float:
    """The density of a miss ``x`` (a hit ball's departure beside the line of centres, ball
    1's first motion beside its place): Gaussian of ``sd``, with ``share`` spread evenly over
    ``±half_width`` (:data:`OFFSET_TAIL` over ``±2R``, :data:`LINE_TAIL` over
    :data:`LINE_TAIL_SPREAD`)."""
    tail = 1.0 / (2.0 * half_width) if abs(x) <= half_width else 0.0
    return (1.0 - share) * (exp(-0.5 * (x / sd) ** 2) / (sqrt(2.0 * pi) * sd)) + share * tail
