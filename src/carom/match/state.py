"""The state of a match between two records, and the ruling of one record."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from carom.core.balls import Ball, cue_ball
from carom.core.position import Position
from carom.core.records import Clock, Header
from carom.core.table import TableSpec, table
from carom.rules.disciplines import Discipline, discipline


@dataclass(frozen=True, slots=True)
class MatchRules:
    """The header's settings, resolved: what kind of match this is."""

    discipline: Discipline
    table: TableSpec
    points: int | tuple[int, int] | None
    """The header's points: one limit, each player's own (a handicap), or none."""
    innings: int | None
    sets_to_win: int | None
    equalizing_inning: bool
    tiebreak: str | None = None
    """``"penalties"``: a draw is broken by a penalty shoot-out (P1)."""
    clock: Clock | None = None
    """The shot clock and time-outs (T1–T3)."""

    def limit(self, player: int) -> int | None:
        """``player``'s points limit in a game or set (his own in a handicap)."""
        points = self.points
        return points[player] if isinstance(points, tuple) else points

    @property
    def handicap(self) -> bool:
        """Each player has his own points limit."""
        return isinstance(self.points, tuple)

    @classmethod
    def of(cls, header: Header) -> MatchRules:
        return cls(discipline(header.discipline), table(header.table), header.points,
                   header.innings, header.sets_to_win, header.equalizing_inning, header.tiebreak,
                   header.clock)


class Termination(StrEnum):
    """How a game or a set ended; ``rule`` is the rule that ended it (RULES.md E)."""

    POINTS_LIMIT = "points-limit"
    """A player reached the points limit, and no equalizing inning follows (E1)."""
    INNINGS_LIMIT = "innings-limit"
    """The innings limit was played out, without an equalizing inning (E1, E2)."""
    EQUALIZING_INNING = "equalizing-inning"
    """The second player's equalizing inning was played, and one player leads (E3)."""
    DRAW = "draw"
    """The game's last inning was played and the players are level (E3, Decision)."""
    SET_WON = "set-won"
    """A player reached the set's points limit (E4)."""
    SET_WON_AT_INNINGS_LIMIT = "set-won-at-innings-limit"
    """The set's innings were played out and one player leads (E5, Decision)."""
    SET_LEVEL = "set-level"
    """The set's innings were played out level: neither wins it (E5, Decision)."""

    @property
    def rule(self) -> str:
        """The rule id that ended the game or set."""
        return _TERMINATION_RULES[self]


_TERMINATION_RULES = {
    Termination.POINTS_LIMIT: "E1", Termination.INNINGS_LIMIT: "E1",
    Termination.EQUALIZING_INNING: "E3", Termination.DRAW: "E3", Termination.SET_WON: "E4",
    Termination.SET_WON_AT_INNINGS_LIMIT: "E5", Termination.SET_LEVEL: "E5",
}


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game, or a finished set (E1–E5)."""

    set_no: int
    opener: int
    points: tuple[int, int]
    innings: tuple[int, int]
    winner: int | None
    """``None``: a draw (a game), or a set won by neither (E5 decision)."""
    termination: Termination

    @property
    def rule(self) -> str:
        """The rule that ended it (``termination.rule``)."""
        return self.termination.rule


class MatchState(NamedTuple):
    """Everything the rules need between two records. Immutable; see ``engine.apply``.

    A named tuple rather than a frozen dataclass: the engine derives a new state for
    every record, and ``_replace`` is several times faster than ``dataclasses.replace``.
    """

    rules: MatchRules
    lag_failures: tuple[int, int] = (0, 0)
    lag_winner: int | None = None
    lag_pending: bool = False
    """A lag was played and must be repeated (L3, L5, L6)."""
    opener: int | None = None
    """The match opener, who plays white (O1)."""
    set_no: int = 1
    set_opener: int = 0
    striker: int = 0
    score: tuple[int, int] = (0, 0)
    """Points in the current game or set."""
    innings: tuple[int, int] = (0, 0)
    """Innings begun in the current game or set."""
    series: int = 0
    in_inning: bool = False
    last_inning: bool = False
    """The second player's last inning of the game or set is under way or next (E2, E3, E5)."""
    opening: bool = False
    """The next stroke is the opening stroke of the match or of a set (O3)."""
    position: Position | None = None
    zone_counts: tuple[int, ...] = ()
    points_total: tuple[int, int] = (0, 0)
    innings_total: tuple[int, int] = (0, 0)
    high_run: tuple[int, int] = (0, 0)
    sets_won: tuple[int, int] = (0, 0)
    games: tuple[GameResult, ...] = ()
    finished: bool = False
    winner: int | None = None
    timeouts: tuple[int, int] = (0, 0)
    """Time-outs each player took in the current game or set (T2)."""
    timeouts_total: tuple[int, int] = (0, 0)
    """Time-outs each player took in the whole match."""
    timeout_taken: bool = False
    """The striker took a time-out for the coming stroke (one a stroke, T2)."""
    shootout: bool = False
    """The game ended level and a penalty shoot-out decides the match (P1)."""
    penalties: tuple[tuple[int, bool], ...] = ()
    """The shoot-out's strokes in order: (player, carom) (P2, P3)."""

    @property
    def started(self) -> bool:
        return self.opener is not None

    @property
    def penalty_score(self) -> tuple[int, int]:
        """Each player's caroms in the penalty shoot-out (P3)."""
        return (sum(carom for p, carom in self.penalties if p == 0),
                sum(carom for p, carom in self.penalties if p == 1))

    def ball_of(self, player: int) -> Ball:
        """The ball ``player`` plays (O1); the match must have an opener."""
        assert self.opener is not None
        return cue_ball(player, self.opener)

    @property
    def striker_ball(self) -> Ball:
        return self.ball_of(self.striker)


_INDEX = {name: i for i, name in enumerate(MatchState._fields)}


def evolve(state: MatchState, changes: Mapping[str, Any]) -> MatchState:
    """A new state with ``changes`` applied: one tuple built however many fields change
    (the engine gathers a record's changes first, then builds the next state once)."""
    values = list(state)
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return MatchState._make(values)


def initial_state(header: Header) -> MatchState:
    rules = MatchRules.of(header)
    zeros = tuple(0 for _ in rules.discipline.zones(rules.table))
    return MatchState(rules=rules, zone_counts=zeros)


class Ruling(NamedTuple):
    """What the rules make of one ``stroke``, ``call``, ``inning`` or ``respot`` record."""

    line: int
    player: int
    points: int
    fouls: tuple[str, ...]
    next: int | None
    spot: Position | None
    cites: tuple[str, ...] = ()
    """Every rule that decided this ruling, in rulebook order."""
    set_no: int = 1
    inning: int = 0
    """The player's inning number in the game or set (0 for a re-spot before an inning)."""
    ends_inning: bool = False
