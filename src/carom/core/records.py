"""The records of a ``carom/1`` match file (FORMAT.md), as values.

A record says what happened; it never says what the rules make of it. Fields a
reader does not know travel in ``extra`` so that writing what was read gives the
same record back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from carom.core.balls import Ball
from carom.core.events import Event
from carom.core.position import Position
from carom.core.table import Point

FORMAT = "carom/1"

Extra = Mapping[str, Any]
Path = tuple[tuple[float, float, float], ...]
"""Samples ``(t, x, y)`` of one ball's centre."""


class RecordType(StrEnum):
    LAG = "lag"
    OPENER = "opener"
    STROKE = "stroke"
    CALL = "call"
    INNING = "inning"
    RESPOT = "respot"
    UNDO = "undo"


class CallResult(StrEnum):
    CAROM = "carom"
    MISS = "miss"
    FOUL = "foul"


@dataclass(frozen=True, slots=True)
class Header:
    """Line 1 of a match file: the discipline, the table, the players and the limits."""

    discipline: str
    table: str
    players: tuple[str, str]
    points: int | None
    innings: int | None
    sets_to_win: int | None = None
    equalizing_inning: bool = True
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LagResult:
    """One player's lag ball (rules L2–L6)."""

    top: bool
    red: bool
    y: float
    crossed: bool


@dataclass(frozen=True, slots=True)
class Lag:
    results: tuple[LagResult, LagResult]
    collided: bool
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Opener:
    player: int
    extra: Extra = field(default_factory=dict)


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
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Call:
    """A stroke judged by the referee without events."""

    result: CallResult
    rule: str | None = None
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Inning:
    """A whole inning: ``points`` caroms, then a miss or the ``foul`` given."""

    points: int
    foul: str | None = None
    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Respot:
    """The striker, whose ball is frozen, asks for the re-spot the discipline allows."""

    extra: Extra = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Undo:
    """Withdraws the latest record not already withdrawn."""

    extra: Extra = field(default_factory=dict)


Record = Lag | Opener | Stroke | Call | Inning | Respot | Undo

__all__ = [
    "FORMAT", "Ball", "Call", "CallResult", "Event", "Exit", "Extra", "Header", "Inning",
    "Lag", "LagResult", "Opener", "Path", "Point", "Position", "Record", "RecordType",
    "Respot", "Stroke", "Undo",
]
