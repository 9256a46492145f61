"""The tournament as its log has made it so far: a value, changed only by
:func:`~carom.competition.day.apply.apply`, which returns a new one.

It keeps what the records said (entries, the seeding, each stage's groups or field,
calls to tables, results, confirmations, withdrawals, the organiser's changes to the
schedule); what follows from them (the games and who plays them, their state,
standings, the bracket, the tables) is derived (:mod:`~carom.competition.day.games`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from carom.competition.day.keys import GameKey
from carom.competition.day.result import Result
from carom.competition.day.settings import Settings, Stage


@dataclass(frozen=True, slots=True)
class Entry:
    player: int
    stage: int
    seed: int | None
    target: int | None
    late: bool = False


@dataclass(frozen=True, slots=True)
class Call:
    """Where a called game is played (its table, after any move), its match, since when."""

    table: int
    match: int | None
    at: datetime


@dataclass(frozen=True, slots=True)
class Plan:
    """The organiser's table and start time for a waiting game."""

    table: int | None
    start: datetime | None


@dataclass(frozen=True, slots=True)
class Withdrawal:
    no_show: bool
    at: datetime
    finished: frozenset[GameKey]
    """His games that had a result when he withdrew (the ones that may count)."""
    seq: int = 0
    """The number of records before it (which of two withdrawals came first)."""


@dataclass(frozen=True, slots=True)
class Taken:
    """A game's result and where it came from: ``match``, ``paper``, ``walkover`` or
    ``correction``."""

    result: Result
    source: str
    at: datetime


@dataclass(frozen=True, slots=True)
class DayState:
    settings: Settings | None = None
    entries: tuple[Entry, ...] = ()
    hand_seeding: bool = False
    """A seeding edited by hand or taken from a ranking list (D3)."""
    started: datetime | None = None
    seeds: tuple[int, ...] = ()
    """Every entrant in seed order (late entrants after the others)."""
    targets: Mapping[int, int] = field(default_factory=dict)
    groups: Mapping[int, tuple[tuple[int, ...], ...]] = field(default_factory=dict)
    """A groups stage's groups (members in draw order, late entrants last), once it begins."""
    fields: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Each begun stage's field in seed order."""
    group_order: tuple[GameKey, ...] = ()
    """The group games in the order the schedule plans them (made when a stage begins,
    again after a late entry)."""
    calls: Mapping[GameKey, Call] = field(default_factory=dict)
    taken: Mapping[GameKey, Taken] = field(default_factory=dict)
    confirmed: frozenset[GameKey] = frozenset()
    unlocked: frozenset[GameKey] = frozenset()
    """Games the organiser unlocked: their matches' confirmations are not taken again."""
    withdrawn: Mapping[int, Withdrawal] = field(default_factory=dict)
    moves: tuple[tuple[GameKey, GameKey | None], ...] = ()
    """The schedule's changes in order: (game, None) postponed, (a, b) swapped."""
    plans: Mapping[GameKey, Plan] = field(default_factory=dict)
    round_starts: Mapping[tuple[int, int, int], datetime] = field(default_factory=dict)
    """(stage, group or 0 for all, round): the round's start time."""
    finished_order: tuple[GameKey, ...] = ()
    """Games in the order their results were taken (who has just played)."""
    seq: int = 0
    """How many records made it."""

    @property
    def stages(self) -> tuple[Stage, ...]:
        return () if self.settings is None else self.settings.plan()

    def entry(self, player: int) -> Entry | None:
        return next((e for e in self.entries if e.player == player), None)

    def players(self) -> list[int]:
        return [e.player for e in self.entries]
