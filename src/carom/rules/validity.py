"""Where a value meets its match: the checks that need the discipline and the table.

A record checks itself when it is built (``carom.core.records``); what it cannot know
alone is checked here, once, for everyone who puts a record into a match: the reader
of ``carom/1`` lines, :meth:`carom.notation.matchfile.Match.of` and ``carom.judge``.
A discipline is known and played on its table (K1); a stroke's positions are complete,
on the table's surface and apart; an exit names a zone of the discipline; a lag ball
lies on the table. Each refusal is an :class:`~carom.core.errors.InvalidValue` naming
the record and the field: ``stroke: start: white and yellow overlap (…)``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from carom.core.balls import BALLS, Ball
from carom.core.checks import refuse, shown, within
from carom.core.errors import InvalidValue
from carom.core.events import Jump
from carom.core.position import Position, position_problems
from carom.core.records import Header, Lag, Record, Stroke
from carom.core.table import TableSpec, as_table
from carom.rules.disciplines import DISCIPLINES, Discipline


def as_discipline(value: Any) -> Discipline:
    """A discipline, given as a :class:`Discipline` or by its name."""
    if isinstance(value, Discipline):
        return value
    found = DISCIPLINES.get(value) if isinstance(value, str) else None
    if found is None:
        refuse(f"discipline: unknown {shown(value)} (known: {', '.join(DISCIPLINES)})")
    return found


def played_on(discipline: Discipline, table: TableSpec) -> None:
    """Refuse a table the discipline is not played on (a balkline game has its own, K1)."""
    if discipline.fixed_table is not None and table.name != discipline.fixed_table:
        refuse(f"table: {discipline.id} is played on the {discipline.fixed_table} table, "
               f"not {table.name} (K1)")


def discipline_and_table(discipline: Any, table: Any = None) -> tuple[Discipline, TableSpec]:
    """The discipline and the table, each given as a value or by name, the table by
    default the discipline's first; refused when the discipline is not played on it."""
    rules = as_discipline(discipline)
    spec = as_table(rules.tables[0] if table is None else table)
    played_on(rules, spec)
    return rules, spec


def check_header(header: Header) -> tuple[Discipline, TableSpec]:
    """The header's discipline and table, known and played together (``header: …``)."""
    with within("header"):
        return discipline_and_table(header.discipline, header.table)


def check_record(record: Record, discipline: Discipline, table: TableSpec) -> None:
    """Refuse a record that cannot happen on ``table`` in ``discipline`` (the reader's
    checks of a line against its header)."""
    if type(record) is Stroke:
        with within("stroke"):
            check_stroke(record, discipline, table)
    elif type(record) is Lag:
        with within("lag"):
            for i, result in enumerate(record.results):
                if not 0.0 <= result.y <= table.length:
                    refuse(f"{result.y:g} is not on the table (0 to {table.length:g} m)", f"results[{i}]: y")


def check_stroke(stroke: Stroke, discipline: Discipline, table: TableSpec) -> None:
    """A stroke on ``table``: a start with every ball, an end with every ball that did not
    jump and none that did (a called F2 may leave balls out), each on the surface and
    apart from the others, exits through zones of ``discipline``."""
    if stroke.start is not None:
        check_position(stroke.start, table, BALLS, "start")
    if stroke.end is not None:
        jumped = [e.ball for e in stroke.events if type(e) is Jump]
        back = [b.value for b in dict.fromkeys(jumped) if b in stroke.end]
        if back:
            refuse(f"{', '.join(back)} jumped and has no end position", "end")
        needed = () if "F2" in stroke.fouls else tuple(b for b in BALLS if b not in jumped)
        check_position(stroke.end, table, needed, "end")
    if stroke.exits:
        names = {zone.name for zone in discipline.zones(table)}
        for i, item in enumerate(stroke.exits):
            if item.zone not in names:
                refuse(f"{shown(item.zone)} is no zone of {discipline.id}", f"exits[{i}]: zone")


def check_position(position: Mapping[Any, Any], table: TableSpec, needed: tuple[Ball, ...],
                   field: str) -> Position:
    """``position`` as a :class:`Position` holding every ball of ``needed``, each on the
    surface of ``table`` and none overlapping another."""
    try:
        checked = position if type(position) is Position else Position(position)
    except InvalidValue as error:
        refuse(str(error), field)
    missing = [b.value for b in needed if b not in checked]
    if missing:
        refuse(f"no position for {', '.join(missing)}", field)
    problems = position_problems(checked, table)
    if problems:
        refuse(problems[0], field)
    return checked
