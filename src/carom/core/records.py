"""The records of a ``carom/1`` match file (FORMAT.md), as values.

A record says what happened; it never says what the rules make of it. Fields a
reader does not know travel in ``extra`` so that writing what was read gives the
same record back.

Records are values: frozen, equal when their contents are equal, and hashable. A
record built from plain ``dict`` and ``list`` values (positions, paths, ``extra``)
keeps frozen copies of them (:mod:`carom.core.frozen`). A record checks what it is
given, as the reader checks a line: names of balls, whole numbers, fault codes, finite
numbers, an ``extra`` that is JSON and holds none of the record's own fields. What needs
the match's table and discipline (a position on the surface, a zone's name) is checked
where a record meets its header (``carom.rules.validity``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar

from carom.core.balls import Ball
from carom.core.checks import (
    as_ball,
    as_code,
    as_count,
    as_flag,
    as_member,
    as_number,
    as_player,
    as_sequence,
    as_whole,
    plainly_samples,
    refuse,
    shown,
)
from carom.core.errors import InvalidValue
from carom.core.events import EVENT_TYPES, Event
from carom.core.frozen import EMPTY, FrozenMap, freeze
from carom.core.inputs import json_problem
from carom.core.position import Position
from carom.core.table import Point, known_table

FORMAT = "carom/1"

Extra = Mapping[str, Any]
"""The fields of a line that a reader does not know, frozen (:func:`~carom.core.frozen.freeze`)."""
Path = tuple[tuple[float, float, float], ...]
"""Samples ``(t, x, y)`` of one ball's centre."""

CALLABLE_FOULS: tuple[str, ...] = (*(f"F{n}" for n in range(2, 14)), "Z7", "O3")
"""The faults a referee may give in a record (FORMAT.md): F2–F13, Z7, O3."""

STROKE_FOULS: tuple[str, ...] = tuple(f"F{n}" for n in range(2, 14))
"""The faults a ``stroke`` record's ``fouls`` may call (FORMAT.md): F2–F13."""


def _set(record: object, field: str, value: object) -> None:
    """Keep the checked form of a field (a frozen dataclass's own way of doing it)."""
    if getattr(record, field) is not value:
        object.__setattr__(record, field, value)


def checked_extra(extra: Any, known: frozenset[str]) -> Extra:
    """``extra`` frozen, when it is a JSON object within the reader's limits that holds
    none of the record's own fields (``known``): writing it could not change the record."""
    if type(extra) in (FrozenMap, dict) and not extra:  # most records: nothing the reader does not know
        return EMPTY
    if not isinstance(extra, Mapping):
        refuse(f"expected an object of fields, got {shown(extra)}", "extra")
    clash = sorted(k for k in extra if k in known)
    if clash:
        refuse(f"{', '.join(map(shown, clash))} is a field of the record itself, not an extra one", "extra")
    problem = json_problem(extra)
    if problem is not None:
        refuse(problem, "extra")
    return extra if type(extra) is FrozenMap else freeze(extra)


class _FrozenExtra:
    """What every record does once built: check its ``extra`` and keep a frozen copy."""

    __slots__ = ()

    KEYS: ClassVar[frozenset[str]] = frozenset(("type",))
    """The fields of the record's line (FORMAT.md); any other is an extra one."""

    def __post_init__(self) -> None:
        _set(self, "extra", checked_extra(getattr(self, "extra"), self.KEYS))  # noqa: B009


class RecordType(StrEnum):
    LAG = "lag"
    OPENER = "opener"
    STROKE = "stroke"
    CALL = "call"
    INNING = "inning"
    RESPOT = "respot"
    UNDO = "undo"
    TIMEOUT = "timeout"
    EXPIRED = "expired"
    PENALTY = "penalty"


class CallResult(StrEnum):
    CAROM = "carom"
    MISS = "miss"
    FOUL = "foul"


TIEBREAKS = ("penalties",)
"""How a match that must have a winner breaks a draw (docs/format.md, "Tie-break")."""


@dataclass(frozen=True, slots=True)
class Clock:
    """The shot clock of the header (docs/clock.md): seconds per stroke, the warning
    (seconds left), time-outs per player and game (or set), and the seconds each adds.
    The defaults are the UMB's three-cushion values (rules T1, T2)."""

    stroke: int = 30
    warning: int = 10
    timeouts: int = 3
    timeout: int = 30

    def __post_init__(self) -> None:
        for field, low in (("stroke", 1), ("warning", 0), ("timeouts", 0), ("timeout", 1)):
            as_whole(getattr(self, field), field, low)
        if self.warning >= self.stroke:
            refuse(f"{self.warning} s left is not within a stroke of {self.stroke} s (T1)", "warning")


@dataclass(frozen=True, slots=True)
class Header(_FrozenExtra):
    """Line 1 of a match file: the discipline, the table, the players and the limits."""

    discipline: str
    table: str
    players: tuple[str, str]
    points: int | tuple[int, int] | None
    """One limit for both players, a handicap (each player's own limit, in ``players``
    order), or none."""
    innings: int | None
    sets_to_win: int | None = None
    equalizing_inning: bool = True
    extra: Extra = EMPTY
    tiebreak: str | None = None
    """``"penalties"``: a draw must be broken by a penalty shoot-out (P1); ``None``: a draw stands."""
    clock: Clock | None = None
    """The shot clock and time-outs (T1–T3); ``None``: no clock."""

    KEYS: ClassVar[frozenset[str]] = frozenset((
        "format", "discipline", "table", "players", "points", "innings", "sets", "equalizing_inning",
        "tiebreak", "clock"))

    def __post_init__(self) -> None:
        """The checks of the header's reader (FORMAT.md), but for the discipline's name and
        its tables, which the rules know (``carom.rules.validity.check_header``)."""
        if not isinstance(self.discipline, str) or not self.discipline:
            refuse(f"expected the name of a discipline, got {shown(self.discipline)}", "discipline")
        known_table(self.table)
        players = self.players
        if (not isinstance(players, (list, tuple)) or len(players) != 2
                or not all(isinstance(p, str) and p.strip() for p in players)):
            refuse(f"players: expected two names, got {shown(players)}")
        problem = json_problem(list(players))
        if problem is not None:
            refuse(problem, "players")
        _set(self, "players", tuple(players))
        _set(self, "points", _points(self.points))
        as_whole(self.innings, "innings", 1, nullable=True)
        if self.points is None and self.innings is None:
            refuse("points and innings are both null: a game needs a limit (E1)")
        as_whole(self.sets_to_win, "sets: to_win", 1, nullable=True)
        as_flag(self.equalizing_inning, "equalizing_inning")
        if self.tiebreak is not None:
            if self.tiebreak not in TIEBREAKS:
                refuse(f'expected null or "penalties", got {shown(self.tiebreak)} (P1)', "tiebreak")
            if self.sets_to_win is not None:
                refuse("a match of sets always has a winner: no tie-break (E4, P1)", "tiebreak")
        if self.clock is not None and type(self.clock) is not Clock:
            refuse(f"expected a Clock or null, got {shown(self.clock)}", "clock")
        _FrozenExtra.__post_init__(self)


def _points(value: Any) -> int | tuple[int, int] | None:
    """The points limit: one for both players, ``None``, or a handicap: two, each
    player's own limit in ``players`` order (docs/format.md)."""
    if isinstance(value, (list, tuple)):
        if len(value) != 2:
            refuse(f"a handicap is one limit per player (two), got {shown(value)}", "points")
        return (as_count(value[0], "points[0]", 1), as_count(value[1], "points[1]", 1))
    return as_whole(value, "points", 1, nullable=True)


@dataclass(frozen=True, slots=True)
class LagResult:
    """One player's lag ball (rules L2–L6)."""

    top: bool
    red: bool
    y: float
    crossed: bool

    def __post_init__(self) -> None:
        as_flag(self.top, "top")
        as_flag(self.red, "red")
        _set(self, "y", as_number(self.y, "y"))
        as_flag(self.crossed, "crossed")


@dataclass(frozen=True, slots=True)
class Lag(_FrozenExtra):
    results: tuple[LagResult, LagResult]
    collided: bool
    extra: Extra = EMPTY

    KEYS: ClassVar[frozenset[str]] = frozenset(("type", "results", "collided"))

    def __post_init__(self) -> None:
        results = as_sequence(self.results, "results", "one result per player (two)")
        if len(results) != 2 or not all(type(r) is LagResult for r in results):
            refuse(f"expected one LagResult per player (two), got {shown(results)}", "results")
        _set(self, "results", results)
        as_flag(self.collided, "collided")
        _FrozenExtra.__post_init__(self)


@dataclass(frozen=True, slots=True)
class Opener(_FrozenExtra):
    player: int
    extra: Extra = EMPTY

    KEYS: ClassVar[frozenset[str]] = frozenset(("type", "player"))

    def __post_init__(self) -> None:
        as_player(self.player)
        _FrozenExtra.__post_init__(self)


@dataclass(frozen=True, slots=True)
class Exit:
    """An object ball left ``zone`` during the stroke and stopped inside it again (Z4)."""

    ball: Ball
    zone: str

    def __post_init__(self) -> None:
        _set(self, "ball", as_ball(self.ball))
        if not isinstance(self.zone, str) or not self.zone:
            refuse(f"expected the name of a zone, got {shown(self.zone)}", "zone")


MAX_REASONS = 16
"""The most reasons a stroke's doubt may give (the auto-referee gives a few, likeliest first)."""
MAX_REASON_CHARACTERS = 500
"""The longest reason, in characters."""


@dataclass(frozen=True, slots=True)
class Doubt:
    """Why the source of a stroke (a camera, the auto-referee) doubts what it recorded, for
    the referee to uphold or overrule: carom's addition to a ``stroke`` record
    (docs/format.md, "A stroke in doubt"). Information only: no ruling reads it.

    Each reason is ``{"what": English words}``, with ``"said"`` beside it when the words are
    kept as a phrase of the catalogues and its values (:mod:`carom.notation.said`), so that a
    page can say them in its own language."""

    confidence: float | None
    """The source's probability that its ruling is right, 0 to 1 (``None``: not given)."""
    reasons: tuple[Mapping[str, Any], ...] = ()

    def __post_init__(self) -> None:
        if self.confidence is not None:
            confidence = as_number(self.confidence, "doubt.confidence")
            if not 0.0 <= confidence <= 1.0:
                refuse(f"expected a probability from 0 to 1, got {shown(confidence)}", "doubt.confidence")
            _set(self, "confidence", confidence)
        reasons = as_sequence(self.reasons, "doubt.reasons", "a list of reasons")
        if len(reasons) > MAX_REASONS:
            refuse(f"{len(reasons)} reasons, more than the {MAX_REASONS} a doubt may give", "doubt.reasons")
        _set(self, "reasons", tuple(_reason(r, f"doubt.reasons[{i}]") for i, r in enumerate(reasons)))


def _reason(given: Any, where: str) -> Mapping[str, Any]:
    """One reason of a :class:`Doubt`, checked and frozen."""
    if not isinstance(given, Mapping):
        refuse(f'expected {{"what": words}}, got {shown(given)}', where)
    what = given.get("what")
    if not isinstance(what, str) or not what.strip():
        refuse(f"expected the reason in words, got {shown(what)}", f"{where}.what")
    if len(what) > MAX_REASON_CHARACTERS:
        refuse(f"{len(what)} characters, more than {MAX_REASON_CHARACTERS}", f"{where}.what")
    unknown = sorted(k for k in given if k not in ("what", "said"))
    if unknown:
        refuse(f"no field {', '.join(map(shown, unknown))} (what, said)", where)
    said = given.get("said")
    if said is not None and not isinstance(said, Mapping):
        refuse(f"expected a phrase and its values, got {shown(said)}", f"{where}.said")
    problem = json_problem(given)
    if problem is not None:
        refuse(problem, where)
    frozen: Mapping[str, Any] = freeze(given)
    return frozen


@dataclass(frozen=True, slots=True)
class Stroke(_FrozenExtra):
    """One stroke with what happened on the table."""

    ball: Ball
    events: tuple[Event, ...]
    start: Position | None = None
    end: Position | None = None
    exits: tuple[Exit, ...] = ()
    fouls: tuple[str, ...] = ()
    paths: Mapping[Ball, Path] | None = None
    extra: Extra = EMPTY
    doubt: Doubt | None = None
    """Why the stroke's source doubts it, when it does (information only)."""

    KEYS: ClassVar[frozenset[str]] = frozenset(
        ("type", "ball", "start", "events", "end", "exits", "fouls", "paths", "doubt"))

    def __post_init__(self) -> None:
        """Check what was given, and keep frozen copies of what came as lists and dicts."""
        if type(self.ball) is not Ball:
            _set(self, "ball", as_ball(self.ball))
        events = self.events if type(self.events) is tuple else as_sequence(
            self.events, "events", "a list of contacts and jumps")
        if not _EVENTS.issuperset(map(type, events)):
            for i, event in enumerate(events):
                if type(event) not in EVENT_TYPES:
                    refuse(f"expected a BallContact, CushionContact or Jump, got {shown(event)}",
                           f"events[{i}]")
        _set(self, "events", events)
        for field in ("start", "end"):
            position = getattr(self, field)
            if position is not None and type(position) is not Position:
                try:
                    _set(self, field, Position(position))
                except InvalidValue as error:
                    refuse(str(error), field)
        if self.exits != ():
            exits = as_sequence(self.exits, "exits", "a list of exits")
            for i, item in enumerate(exits):
                if type(item) is not Exit:
                    refuse(f"expected an Exit, got {shown(item)}", f"exits[{i}]")
            _set(self, "exits", exits)
        if self.fouls != ():
            fouls = as_sequence(self.fouls, "fouls", "a list of fault codes")
            _set(self, "fouls", tuple(as_code(f, f"fouls[{i}]", STROKE_FOULS) for i, f in enumerate(fouls)))
        if self.paths is not None and type(self.paths) is not FrozenMap:
            _set(self, "paths", _paths(self.paths))
        if self.doubt is not None and type(self.doubt) is not Doubt:
            refuse(f"expected a Doubt, got {shown(self.doubt)}", "doubt")
        _FrozenExtra.__post_init__(self)


_EVENTS = frozenset(EVENT_TYPES)


def _paths(given: Any) -> FrozenMap[Ball, Path]:
    """Each ball's samples ``(t, x, y)``, checked; floats all, as the reader reads them."""
    if not isinstance(given, Mapping):
        refuse(f"expected an object of ball paths, got {shown(given)}", "paths")
    paths: dict[Ball, Path] = {}
    for key, samples in given.items():
        ball = as_ball(key, "paths")
        if plainly_samples(samples, 3):
            paths[ball] = samples
            continue
        where = f"paths: {ball}"
        if isinstance(samples, (str, bytes, Mapping)) or not isinstance(samples, (list, tuple)):
            refuse(f"expected a list of [t, x, y], got {shown(samples)}", where)
        rows = []
        for j, sample in enumerate(samples):
            if isinstance(sample, (str, bytes)) or not isinstance(sample, (list, tuple)) or len(sample) != 3:
                refuse(f"expected [t, x, y], got {shown(sample)}", f"{where}[{j}]")
            t, x, y = (as_number(v, where) for v in sample)
            rows.append((t, x, y))
        paths[ball] = tuple(rows)
    return FrozenMap(paths)


@dataclass(frozen=True, slots=True)
class Call(_FrozenExtra):
    """A stroke judged by the referee without events."""

    result: CallResult
    rule: str | None = None
    extra: Extra = EMPTY

    KEYS: ClassVar[frozenset[str]] = frozenset(("type", "result", "rule"))

    def __post_init__(self) -> None:
        result = as_member(self.result, "result", CallResult, "carom, miss or foul")
        _set(self, "result", result)
        if result is CallResult.FOUL:
            as_code(self.rule, "rule", CALLABLE_FOULS)
        elif self.rule is not None:
            refuse(f"a {result.value} names no rule", "rule")
        _FrozenExtra.__post_init__(self)


@dataclass(frozen=True, slots=True)
class Inning(_FrozenExtra):
    """A whole inning: ``points`` caroms, then a miss or the ``foul`` given."""

    points: int
    foul: str | None = None
    extra: Extra = EMPTY

    KEYS: ClassVar[frozenset[str]] = frozenset(("type", "points", "foul"))

    def __post_init__(self) -> None:
        as_whole(self.points, "points", 0)
        if self.foul is not None:
            as_code(self.foul, "foul", CALLABLE_FOULS)
        _FrozenExtra.__post_init__(self)


@dataclass(frozen=True, slots=True)
class Respot(_FrozenExtra):
    """The striker, whose ball is frozen, asks for the re-spot the discipline allows."""

    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Undo(_FrozenExtra):
    """Withdraws the latest record not already withdrawn."""

    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Timeout(_FrozenExtra):
    """The striker takes a time-out: his stroke's time is extended (T2)."""

    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Expired(_FrozenExtra):
    """The striker's time ran out with no time-out left: a foul (T3)."""

    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Penalty(_FrozenExtra):
    """One stroke of a penalty shoot-out from the starting position (P2): ``player``
    shot, and made a carom or not."""

    player: int
    carom: bool
    extra: Extra = EMPTY

    KEYS: ClassVar[frozenset[str]] = frozenset(("type", "player", "result"))

    def __post_init__(self) -> None:
        as_player(self.player)
        as_flag(self.carom, "carom")
        _FrozenExtra.__post_init__(self)


Record = Lag | Opener | Stroke | Call | Inning | Respot | Undo | Timeout | Expired | Penalty

RECORD_TYPES = (Lag, Opener, Stroke, Call, Inning, Respot, Undo, Timeout, Expired, Penalty)

__all__ = [
    "CALLABLE_FOULS",
    "FORMAT",
    "RECORD_TYPES",
    "STROKE_FOULS",
    "TIEBREAKS",
    "Ball",
    "Call",
    "CallResult",
    "Clock",
    "Event",
    "Exit",
    "Expired",
    "Extra",
    "Header",
    "Inning",
    "Lag",
    "LagResult",
    "Opener",
    "Path",
    "Penalty",
    "Point",
    "Position",
    "Record",
    "RecordType",
    "Respot",
    "Stroke",
    "Timeout",
    "Undo",
]
