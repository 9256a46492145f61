"""The referee: a pure function from the table before a stroke and what happened
during it to the ruling (RULES.md C, O3, F, Z, 1C1, 3C1).

No clock, no randomness, no I/O: ``judge(context, stroke)`` sees only its arguments.
The order of events is their list order; ``t`` is never consulted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from carom.core.balls import BALLS, Ball, cue_ball_problem, object_balls
from carom.core.checks import as_ball, as_flag, as_sequence, as_whole, refuse, shown
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.position import Position, touching
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.rules import zones as zone_rules
from carom.rules.catalog import in_rulebook_order
from carom.rules.disciplines import Discipline
from carom.rules.validity import check_position, check_record, discipline_and_table


class StrokeContext(NamedTuple):
    """What the referee knows before a stroke. (Named tuples here: the referee builds
    these for every stroke, and a tuple is built several times faster.)"""

    discipline: Discipline
    table: TableSpec
    cue_ball: Ball
    """The striker's own ball (O1)."""
    opening: bool
    """The opening stroke of the match or of a set (O3)."""
    position: Position | None
    """Where the balls lie; ``None`` when no source recorded it."""
    zone_counts: tuple[int, ...]
    """One count per zone of ``discipline.zones(table)`` (Z2–Z4)."""

    @classmethod
    def of(cls, discipline: Discipline | str, table: TableSpec | str | None = None, *,
           cue_ball: Ball = Ball.WHITE, opening: bool = False, position: Position | None = None,
           zone_counts: tuple[int, ...] | None = None) -> StrokeContext:
        """The context of a stroke, every part named, with the defaults of a stroke that
        begins an inning: white is the striker's ball, not an opening stroke (O3), no
        carom counted in any zone yet (Z2). The discipline and the table are given as
        values or by name; the table defaults to the discipline's first one."""
        rules, spec = discipline_and_table(discipline, table)
        if zone_counts is None:
            zone_counts = (0,) * len(rules.zone_set(spec).zones)
        return cls(rules, spec, cue_ball, opening, position, zone_counts)


class Contacts(NamedTuple):
    """Ball 1's contacts in list order (C1): ball 2, ball 3 and the cushions before ball 3."""

    ball2: Ball | None
    ball3: Ball | None
    cushions_before_ball3: int
    cushions: int
    first: Event | None
    """Ball 1's first event (F9)."""
    jumped: tuple[Ball, ...]
    """The balls that jumped, each once, in order (F2)."""


class Verdict(NamedTuple):
    """The referee's ruling on one stroke."""

    points: int
    fouls: tuple[str, ...]
    """Rule ids that made it a fault (F2–F13, Z7, O3); empty for a carom or a miss."""
    cites: tuple[str, ...]
    """Every rule that decided the ruling, in rulebook order."""
    contacts: Contacts
    jumped: tuple[Ball, ...]
    """The balls that jumped: named by ``jump`` events, or for a called F2 without one,
    :func:`called_jump`."""
    zone_counts: tuple[int, ...]
    """The zone counts for the next stroke of the same inning (Z2–Z4)."""
    zones_known: bool


def read_contacts(ball1: Ball, events: tuple[Event, ...]) -> Contacts:
    """Ball 2 is the first ball ball 1 touches, ball 3 the first other one; a ball hit
    twice changes nothing, and a kiss between the object balls is no contact of
    ball 1 (C1). Cushions are ball 1's cushion contacts before ball 3 (1C1, 3C1)."""
    ball2 = ball3 = None
    first: Event | None = None
    cushions = before = 0
    jumped: tuple[Ball, ...] = ()
    for event in events:
        kind = type(event)
        if type(event) is BallContact:
            if event.ball is ball1:
                other = event.other
            elif event.other is ball1:
                other = event.ball
            else:
                continue
            if first is None:
                first = event
            if ball2 is None:
                ball2 = other
            elif ball3 is None and other is not ball2:
                ball3 = other
                before = cushions
            continue
        if kind is Jump and event.ball not in jumped:
            jumped += (event.ball,)
        if event.ball is ball1:
            if first is None:
                first = event
            if kind is CushionContact:
                cushions += 1
    return Contacts(ball2, ball3, before if ball3 is not None else cushions, cushions, first, jumped)


def judge_stroke(stroke: Stroke, discipline: Discipline | str = "three-cushion",
                 table: TableSpec | str | None = None, *, cue_ball: Ball | str | None = None,
                 opening: bool = False, position: Position | Mapping[Any, Any] | None = None,
                 zone_counts: Sequence[int] | None = None) -> Verdict:
    """Judge one stroke on its own (``carom.judge``), in the context
    :meth:`StrokeContext.of` builds; the striker played his own ball (no F13) unless
    ``cue_ball`` names another.

    Every argument is checked first, as the reader checks a line: the stroke on the
    table (its positions on the surface and apart, its exits zones of the discipline),
    the discipline played on the table (K1), the cue ball white or yellow (O1), the
    position on the table, one zone count per zone, each from 0 to the limit (Z2). A
    refusal is an :class:`~carom.core.errors.InvalidValue` naming the argument."""
    if type(stroke) is not Stroke:
        refuse(f"expected a Stroke, got {shown(stroke)}", "stroke")
    rules, spec = discipline_and_table(discipline, table)
    check_record(stroke, rules, spec)
    ball = stroke.ball if cue_ball is None else as_ball(cue_ball, "cue_ball")
    problem = cue_ball_problem(ball)
    if problem is not None:
        refuse(problem + ("; name the striker's ball" if cue_ball is None else ""), "cue_ball")
    as_flag(opening, "opening")
    if position is not None:
        position = check_position(position, spec, (), "position")
    context = StrokeContext.of(rules, spec, cue_ball=ball, opening=opening, position=position,
                               zone_counts=None if zone_counts is None else _counts(zone_counts, rules, spec))
    return judge(context, stroke)


def _counts(given: Any, rules: Discipline, table: TableSpec) -> tuple[int, ...]:
    """Zone counts for ``rules`` on ``table``: one per zone, each from 0 to the limit (Z2)."""
    zones = rules.zones(table)
    counts = as_sequence(given, "zone_counts", "a list of counts")
    if len(counts) != len(zones):
        refuse(f"expected {len(zones)} counts, one per zone of {rules.id} (Z2), got {shown(given)}",
               "zone_counts")
    limit = rules.zone_limit or 0
    for i, count in enumerate(counts):
        as_whole(count, f"zone_counts[{i}]", 0)
        if count > limit:
            refuse(f"{count} caroms in a row, more than the limit of {limit} (Z2)", f"zone_counts[{i}]")
    return counts


def called_jump(stroke: Stroke) -> tuple[Ball, ...]:
    """The balls that jumped when the referee called F2 and no ``jump`` event names one
    (S4, K4, 1C4, 3C6). **Decision** (docs/rules.md): the balls the stroke's ``end`` leaves
    out; if it leaves none out (a ball touched the frame and came back) or there is no
    ``end``, ball 1, the one ball the striker drove himself."""
    if stroke.end is not None:
        missing = tuple(b for b in BALLS if b not in stroke.end)
        if missing:
            return missing
    return (stroke.ball,)


def judge(context: StrokeContext, stroke: Stroke) -> Verdict:
    """Judge ``stroke`` in ``context``.

    A point needs ball 1 to be the striker's ball (F13), to hit balls 2 and 3 (C1)
    with the discipline's cushions before ball 3 (1C1, 3C1), and no fault: a jump
    (F2), a direct hit on the ball it was frozen to (F9), a called fault (F3–F13),
    an opening stroke not onto red first (O3), or a restricted zone that no object
    ball left (Z7). A fault voids the carom of the stroke (F14).
    """
    discipline = context.discipline
    ball1 = stroke.ball
    position = stroke.start if stroke.start is not None else context.position
    contacts = read_contacts(ball1, stroke.events)
    jumped = contacts.jumped or (called_jump(stroke) if "F2" in stroke.fouls else ())
    fouls = list(stroke.fouls)
    cites = ["C1"]

    if ball1 is not context.cue_ball:
        fouls.append("F13")
        if context.opening:
            cites.append("F17")
    if jumped:
        fouls.append("F2")
        cites.append(discipline.jump_rule)
    first = contacts.first
    if position is not None and type(first) is BallContact and ball1 in position:
        partner = first.partner(ball1)
        if partner in position and touching(position[ball1], position[partner], context.table):
            fouls.append("F9")
    if context.opening and contacts.ball2 is not None and contacts.ball2 is not Ball.RED:
        fouls.append("O3")

    carom = contacts.ball3 is not None
    if carom and contacts.cushions_before_ball3 < discipline.cushions:
        carom = False
        assert discipline.cushion_rule is not None
        cites.append(discipline.cushion_rule)

    counts, known = _zones(context, stroke, position, jumped, carom and not fouls, fouls, cites)
    points = 1 if carom and not fouls else 0
    if fouls:
        cites.append("F14")
    elif points:
        cites += ("C2", "C3")
    else:
        cites.append("F1")  # no carom: the inning ends, no fault (a miss)
    return Verdict(
        points,
        in_rulebook_order(tuple(fouls)) if fouls else (),
        in_rulebook_order((*cites, *fouls)),
        contacts,
        jumped,
        counts if points else (0,) * len(counts),
        known,
    )


def _zones(context: StrokeContext, stroke: Stroke, position: Position | None,
           jumped: tuple[Ball, ...], carom: bool, fouls: list[str],
           cites: list[str]) -> tuple[tuple[int, ...], bool]:
    """Z2–Z7 for a carom: add Z7 to ``fouls`` when a restricted zone at its limit
    kept both object balls; return the next counts and whether zones were judged."""
    discipline = context.discipline
    zone_set = discipline.zone_set(context.table)
    zones = zone_set.zones
    if not zones:
        return (), True
    zeros = (0,) * len(zones)
    if position is None or (stroke.end is None and stroke.paths is None and not jumped):
        return zeros, False
    objects = object_balls(stroke.ball)
    if objects[0] not in position or objects[1] not in position:
        return zeros, False
    if not carom:
        return zeros, True
    held = zone_rules.restricted(zone_set, position, objects)
    if not held:
        return zeros, True
    counts = context.zone_counts or zeros
    end, exits, paths = stroke.end, stroke.exits, stroke.paths
    gone = zone_rules.left_zones(zone_set, held, objects, end, exits, paths, jumped)
    assert discipline.zone_limit is not None
    cites += ("Z2", *discipline.zone_rules)
    if zone_rules.zone_fault(counts, discipline.zone_limit, held, gone):
        fouls.append("Z7")
        cites.append("Z3")
        return zeros, True
    if gone:
        cites.append("Z4")
    return zone_rules.counts_after_carom(counts, held, gone), True
