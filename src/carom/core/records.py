"""The records of a ``carom/1`` match file (FORMAT.md), as values.

A record says what happened; it never says what the rules make of it. Fields a
reader does not know travel in ``extra`` so that writing what was read gives the
same record back.

Records are values: frozen, equal when their contents are equal, and hashable. A
record built from plain ``dict`` and ``list`` values (positions, paths, ``extra``)
keeps frozen copies of them (:mod:`carom.core.frozen`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from carom.core.balls import Ball
from carom.core.events import Event
from carom.core.frozen import EMPTY, FrozenMap, freeze
from carom.core.position import Position
from carom.core.table import Point

FORMAT = "carom/1"

Extra = Mapping[str, Any]
"""The fields of a line that a reader does not know, frozen (:func:`~carom.core.frozen.freeze`)."""
Path = tuple[tuple[float, float, float], ...]
"""Samples ``(t, x, y)`` of one ball's centre."""


class _FrozenExtra:
    """What every record does once built: keep a frozen copy of its ``extra``."""

    __slots__ = ()

    def __post_init__(self) -> None:
        extra = getattr(self, "extra")  # noqa: B009  (a field of the dataclass below)
        if type(extra) is not FrozenMap:
            object.__setattr__(self, "extra", freeze(extra))


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

    def __post_init__(self) -> None:
        if type(self.players) is not tuple:
            object.__setattr__(self, "players", tuple(self.players))
        if isinstance(self.points, list):
            object.__setattr__(self, "points", tuple(self.points))
        _FrozenExtra.__post_init__(self)


@dataclass(frozen=True, slots=True)
class LagResult:
    """One player's lag ball (rules L2–L6)."""

    top: bool
    red: bool
    y: float
    crossed: bool


@dataclass(frozen=True, slots=True)
class Lag(_FrozenExtra):
    results: tuple[LagResult, LagResult]
    collided: bool
    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Opener(_FrozenExtra):
    player: int
    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Exit:
    """An object ball left ``zone`` during the stroke and stopped inside it again (Z4)."""

    ball: Ball
    zone: str


@dataclass(frozen=True, slots=True)
class Stroke:
    """One stroke with what happened on the table."""

    ball: Ball
    events: tuple[Event, ...]
    start: Position | None = None
    end: Position | None = None
    exits: tuple[Exit, ...] = ()
    fouls: tuple[str, ...] = ()
    paths: Mapping[Ball, Path] | None = None
    extra: Extra = EMPTY

    def __post_init__(self) -> None:
        """Keep frozen copies of what was given as lists and dicts."""
        start, end, paths = self.start, self.end, self.paths
        if start is not None and type(start) is not Position:
            object.__setattr__(self, "start", Position(start))
        if end is not None and type(end) is not Position:
            object.__setattr__(self, "end", Position(end))
        if paths is not None and type(paths) is not FrozenMap:
            object.__setattr__(self, "paths", FrozenMap(
                {ball: tuple(map(tuple, path)) for ball, path in paths.items()}))
        if type(self.events) is not tuple:
            object.__setattr__(self, "events", tuple(self.events))
        if type(self.exits) is not tuple:
            object.__setattr__(self, "exits", tuple(self.exits))
        if type(self.fouls) is not tuple:
            object.__setattr__(self, "fouls", tuple(self.fouls))
        if type(self.extra) is not FrozenMap:
            object.__setattr__(self, "extra", freeze(self.extra))


@dataclass(frozen=True, slots=True)
class Call(_FrozenExtra):
    """A stroke judged by the referee without events."""

    result: CallResult
    rule: str | None = None
    extra: Extra = EMPTY


@dataclass(frozen=True, slots=True)
class Inning(_FrozenExtra):
    """A whole inning: ``points`` caroms, then a miss or the ``foul`` given."""

    points: int
    foul: str | None = None
    extra: Extra = EMPTY


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


Record = Lag | Opener | Stroke | Call | Inning | Respot | Undo | Timeout | Expired | Penalty

__all__ = [
    "FORMAT", "TIEBREAKS", "Ball", "Call", "CallResult", "Clock", "Event", "Exit", "Expired",
    "Extra", "Header", "Inning", "Lag", "LagResult", "Opener", "Path", "Penalty", "Point",
    "Position", "Record", "RecordType", "Respot", "Stroke", "Timeout", "Undo",
]
