"""Everything the public constructors accept can be written, read back equal and judged.

Random arguments, many of them wrong (unknown balls, NaN, text for numbers, off-table
points, fault codes of no rule, extra fields that clash with a record's own), go through
the public constructors (``Header``, ``Stroke``, the events, ``Position``, ``Call``,
``Inning``, ``Opener``, ``Exit``) and then ``Match.of`` and ``carom.judge``. What any of
them refuses is a ``CaromError``; what all of them accept is written as a ``carom/1``
file, read back equal (records, rulings, where the match stands), and every stroke in it
is judged without an exception."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, TypeVar

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import carom
from carom.core.balls import Ball
from carom.core.errors import CaromError, RecordError
from carom.core.events import BallContact, CushionContact, Jump
from carom.core.records import Call, Exit, Header, Inning, Opener, Record, Respot, Stroke, Undo
from carom.core.table import TABLES
from carom.notation.matchfile import Match, lines_of, read_match
from carom.notation.reader import parse_record
from carom.notation.writer import format_record
from carom.rules.disciplines import DISCIPLINES

T = TypeVar("T")

NAMES = st.sampled_from(["white", "yellow", "red", Ball.WHITE, Ball.YELLOW, Ball.RED])
BALLS = st.one_of(NAMES, NAMES, st.sampled_from(["blue", 1, None]))
CUSHIONS = st.sampled_from(["top", "bottom", "left", "right", carom.Cushion.TOP, "diagonal", None])
TIMES = st.one_of(st.none(), st.floats(0.0, 30.0), st.none(),
                  st.sampled_from([math.nan, math.inf, "soon", -1, 10**30]))
COORDINATES = st.one_of(st.floats(0.0, 2.9, allow_nan=False), st.integers(0, 2),
                        st.sampled_from([math.nan, -math.inf, "0.5", None, 10**20]))
ON_A_TABLE = st.tuples(st.floats(0.04, 1.0), st.floats(0.04, 2.0))
"""A centre on every registered table's surface (the small one is 1.05 m × 2.10 m)."""
POSITIONS = st.one_of(
    st.none(), st.dictionaries(BALLS, st.one_of(ON_A_TABLE, st.tuples(COORDINATES, COORDINATES),
                                                st.lists(COORDINATES, max_size=3)), max_size=3),
    st.fixed_dictionaries({"white": ON_A_TABLE, "yellow": ON_A_TABLE, "red": ON_A_TABLE}),
    st.fixed_dictionaries({"white": ON_A_TABLE, "yellow": ON_A_TABLE, "red": ON_A_TABLE}),
)
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(-(10**20), 10**20), st.floats(),
                              st.text(max_size=4)),
                    lambda inner: st.one_of(st.lists(inner, max_size=2), st.dictionaries(st.text(max_size=3),
                                                                                          inner, max_size=2)),
                    max_leaves=4)
EXTRAS = st.one_of(st.just({}), st.just({}), st.dictionaries(
    st.sampled_from(["note", "by", "type", "ball", "format", "ü"]), JSON, max_size=2))
FOULS = st.one_of(st.just([]), st.just([]),
                  st.lists(st.sampled_from(["F2", "F4", "F9", "F13", "Z7", "F99", 7]), max_size=2))
ZONES = st.sampled_from(["field-11", "anchor-left-1", "corner-bl", "nowhere", ""])


def attempt(build: Callable[[], T]) -> T | None:
    """What ``build`` makes, or ``None`` when it refuses with a ``CaromError`` (any other
    exception fails the test)."""
    try:
        return build()
    except CaromError:
        return None


def event_of(args: tuple[str, Any, Any, Any]) -> Any:
    kind, a, b, t = args
    if kind == "ball":
        return attempt(lambda: BallContact(a, b, t))
    if kind == "cushion":
        return attempt(lambda: CushionContact(a, b, t))
    return attempt(lambda: Jump(a, t)) if kind == "jump" else a  # now and then no event at all


EVENTS = st.lists(st.tuples(st.sampled_from(["ball", "ball", "cushion", "cushion", "jump", "junk"]), BALLS,
                            st.one_of(BALLS, CUSHIONS), TIMES).map(event_of), max_size=8)


def stroke_of(args: dict[str, Any]) -> Stroke | None:
    events = [e for e in args["events"] if e is not None]
    exits = [x for x in (attempt(lambda b=b, z=z: Exit(b, z)) for b, z in args["exits"]) if x is not None]
    return attempt(lambda: Stroke(args["ball"], events, args["start"], args["end"], exits, args["fouls"],
                                  extra=args["extra"]))


WHOLE = st.fixed_dictionaries({"white": ON_A_TABLE, "yellow": ON_A_TABLE, "red": ON_A_TABLE})
STROKES = st.one_of(
    st.fixed_dictionaries({"ball": BALLS, "events": EVENTS, "start": POSITIONS, "end": POSITIONS,
                           "exits": st.lists(st.tuples(BALLS, ZONES), max_size=2), "fouls": FOULS,
                           "extra": EXTRAS}),
    *[st.fixed_dictionaries({"ball": NAMES, "events": EVENTS, "start": st.one_of(st.none(), WHOLE),
                             "end": st.one_of(st.none(), WHOLE), "exits": st.just([]), "fouls": st.just([]),
                             "extra": st.just({})})] * 3,
).map(stroke_of)
RECORDS = st.one_of(
    STROKES,
    st.builds(lambda p, x: attempt(lambda: Opener(p, x)), st.sampled_from([0, 1, 2, True, "0"]), EXTRAS),
    st.builds(lambda r, rule: attempt(lambda: Call(r, rule)),
              st.sampled_from(["carom", "miss", "foul", "point", carom.Ball.RED]),
              st.sampled_from([None, "F4", "Z7", "O3", "F1", 3])),
    st.builds(lambda p, f: attempt(lambda: Inning(p, f)), st.one_of(st.integers(-1, 30), st.just("3")),
              st.sampled_from([None, "F2", "X9"])),
    st.just(Undo()), st.just(Respot()),
)
HEADERS = st.one_of(
    st.builds(lambda *args: attempt(lambda: Header(*args[:7], extra=args[7], tiebreak=args[8])),
              st.sampled_from([*DISCIPLINES, "snooker"]), st.sampled_from([*TABLES, "huge"]),
              st.sampled_from([("Anna", "Boris"), ("Anna",), ("", "Boris"), ("Eve\x1b[2J", "Bob")]),
              st.sampled_from([None, 1, 3, 25, 0, (3, 5), "10"]), st.sampled_from([None, 2, 10, 0]),
              st.sampled_from([None, 1, 2, 0]), st.sampled_from([True, False, "yes"]), EXTRAS,
              st.sampled_from([None, "penalties", "coin"])),
    *[st.builds(lambda d, t, p, i: attempt(lambda: Header(d, t, ("Anna", "Boris"), p, i)),
                st.sampled_from(["three-cushion", "one-cushion", "straight-rail", "balkline-47/2"]),
                st.sampled_from(["large", "small"]), st.sampled_from([1, 3, 25, (2, 4)]),
                st.sampled_from([None, 2, 10]))] * 3,
)
PLAYED = st.sampled_from([(d.id, t) for d in DISCIPLINES.values() for t in d.tables])
"""Every discipline with each table it is played on."""


def accepted(header: Header, records: list[Record | None]) -> Match | None:
    """The match of the records ``Match.of`` accepts one by one after ``header`` (``None``
    when it refuses the header itself)."""
    try:
        match = Match.of(header, [])
    except RecordError:
        return None
    kept: list[Record] = []
    for record in records:
        if record is None:
            continue
        try:
            match = Match.of(header, [*kept, record])
        except RecordError:
            continue
        kept.append(record)
    return match


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(HEADERS, st.lists(RECORDS, max_size=12))
def test_every_match_the_constructors_accept_is_written_read_back_equal_and_judged(
        header: Header | None, records: list[Record | None]) -> None:
    assume(header is not None)
    assert header is not None
    match = accepted(header, records)
    assume(match is not None)
    assert match is not None
    again = read_match(lines_of(match.text()))
    assert again == match
    assert again.state == match.state and again.rulings == match.rulings
    for _, record in match.records:
        if isinstance(record, Stroke):
            carom.judge(record, header.discipline, header.table, cue_ball=Ball.WHITE)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(STROKES, PLAYED)
def test_every_stroke_judge_accepts_is_written_and_read_back_equal(stroke: Stroke | None,
                                                                   played: tuple[str, str]) -> None:
    assume(stroke is not None)
    assert stroke is not None
    discipline, table = played
    verdict = attempt(lambda: carom.judge(stroke, discipline, table, cue_ball="white"))
    assume(verdict is not None)
    header = Header(discipline, table, ("A", "B"), 10, None)
    assert parse_record(format_record(stroke), header) == stroke
