"""From a detection to a ``carom/1`` stroke record: events in order, start and end
positions, zone exits, jumps."""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import BALLS, Ball, object_balls
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.position import distance
from carom.core.records import Exit, Stroke
from carom.core.table import Point, TableSpec
from carom.rules.disciplines import Discipline
from carom.track import laws
from carom.track.contacts.detection import Detection
from carom.track.contacts.jumps import jump
from carom.track.samples import TrackedStroke

ACCEPT = 0.5
"""An event that happened with this chance or more is in the likelier state of its part
(:mod:`carom.track.judging.explanation`)."""


@dataclass(slots=True)
class Timed:
    """One candidate event with what the confidence needs to know about it."""
    # Not frozen, though never changed once made: the detector makes thousands of these
    # per match, and a frozen dataclass takes several times longer to construct.

    event: Event
    t: float
    t_sd: float
    probability: float
    group: object | None = None
    """Candidates of the same group exclude each other (two hitters of one ball)."""


def candidates(detection: Detection, tracked: TrackedStroke, table: TableSpec) -> list[Timed]:
    """Every candidate event of the stroke, each with its probability."""
    out: list[Timed] = []
    for cushion in detection.cushions:
        out.append(Timed(CushionContact(cushion.ball, cushion.cushion, round(cushion.t, 4)), cushion.t,
                         cushion.t_sd, cushion.probability))
    for hit in detection.balls:
        out.append(Timed(BallContact(hit.mover, hit.other, round(hit.t, 4)), hit.t, hit.t_sd,
                         hit.probability, hit.group))
    out.extend(_chatter(out, tracked.cue))
    end = tracked.duration
    for ball, motion in detection.motions.items():
        found = jump(motion, table, end)
        if found is not None:
            t, chance = found
            out.append(Timed(Jump(ball, round(t, 4)), t, 0.01, chance))
    out.sort(key=lambda c: c.t)
    return out


def _chatter(found: list[Timed], ball1: Ball) -> list[Timed]:
    """Ball 1 caught between a ball and a cushion may meet the cushion again within a few
    hundredths of a second, and no tracker shows it: for each likely contact of ball 1
    with a ball within :data:`~carom.track.laws.CHATTER_WINDOW` of a likely contact with
    a cushion, a second contact with that cushion, with the chance the simulator gives
    it (:data:`~carom.track.laws.CHATTER_CHANCE`), unless the samples show that return
    already."""
    likely = [c for c in found if c.probability >= ACCEPT]
    balls = [c for c in likely if isinstance(c.event, BallContact) and c.event.involves(ball1)]
    out: list[Timed] = []
    for c in likely:
        event = c.event
        if not isinstance(event, CushionContact) or event.ball is not ball1:
            continue
        near = [b for b in balls if abs(b.t - c.t) <= laws.CHATTER_WINDOW]
        if near:
            t = max(c.t, *(b.t for b in near)) + 0.005
            if any(isinstance(o.event, CushionContact) and o.event.ball is ball1
                   and o.event.cushion is event.cushion and c.t < o.t <= t + laws.CHATTER_WINDOW
                   for o in found):
                continue
            again = CushionContact(ball1, event.cushion, round(t, 4))
            out.append(Timed(again, t, c.t_sd, laws.CHATTER_CHANCE))
    return out


def build_stroke(tracked: TrackedStroke, events: list[Event], table: TableSpec,
                 discipline: Discipline, detection: Detection) -> Stroke:
    """The stroke record for ``events`` (in order)."""
    jumped = {e.ball for e in events if isinstance(e, Jump)}
    start = clean_position({b: tracked.balls[b].first for b in BALLS if b in tracked.balls}, table)
    end = clean_position({b: tracked.balls[b].last for b in BALLS if b in tracked.balls and b not in jumped},
                         table)
    exits = zone_exits(tracked.cue, detection, start, end, table, discipline, jumped)
    return Stroke(tracked.cue, tuple(events), start, end, exits, (), None,
                  {"shot": tracked.shot} if tracked.shot is not None else {})


def clean_position(position: dict[Ball, Point], table: TableSpec) -> dict[Ball, Point]:
    """A tracked position made valid for the record: centres moved onto the surface
    (``[R, W-R] x [R, L-R]``) and balls measured overlapping pushed apart to touch."""
    r = table.ball_radius
    out = {b: on_surface(p[0], p[1], table) for b, p in position.items()}
    for _ in range(3):
        moved = False
        balls = list(out)
        for i, a in enumerate(balls):
            for b in balls[i + 1:]:
                d = distance(out[a], out[b])
                if d < 2.0 * r:
                    moved = True
                    out[a], out[b] = _apart(out[a], out[b], d, 2.0 * r, table)
        if not moved:
            break
    return {b: (round(p[0], 5), round(p[1], 5)) for b, p in out.items()}


def _apart(p: Point, q: Point, d: float, want: float, table: TableSpec) -> tuple[Point, Point]:
    if d <= 1e-9:
        ux, uy = 1.0, 0.0
    else:
        ux, uy = (p[0] - q[0]) / d, (p[1] - q[1]) / d
    push = 0.5 * (want - d) + 1e-6
    return (on_surface(p[0] + ux * push, p[1] + uy * push, table),
            on_surface(q[0] - ux * push, q[1] - uy * push, table))


def on_surface(x: float, y: float, table: TableSpec) -> Point:
    """``(x, y)`` moved onto the part of the surface a centre can reach (``[R, W-R] x [R, L-R]``)."""
    r = table.ball_radius
    return (min(max(x, r), table.width - r), min(max(y, r), table.length - r))


def zone_exits(cue: Ball, detection: Detection, start: dict[Ball, Point], end: dict[Ball, Point],
               table: TableSpec, discipline: Discipline, jumped: set[Ball]) -> tuple[Exit, ...]:
    """Object balls that left a zone they started in and stopped inside it again (Z4)."""
    zones = discipline.zones(table)
    if not zones:
        return ()
    exits: list[Exit] = []
    for ball in object_balls(cue):
        if ball in jumped or ball not in detection.motions or ball not in start or ball not in end:
            continue
        points = detection.motions[ball].xy
        for zone in zones:
            if not (zone.contains(start[ball]) and zone.contains(end[ball])):
                continue
            if any(not zone.contains((float(x), float(y))) for x, y in points):
                exits.append(Exit(ball, zone.name))
    return tuple(exits)
