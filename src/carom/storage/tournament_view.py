"""A tournament as the pages and the API read it: its settings and state, participants,
groups, games (each with its match's snapshot) and what follows (standings, bracket,
ranking, champion, the tables), made from its log's state, the players' names and the
games' matches. A value: made per read, never changed.

A game is shown the way its match lists its players (a match is made with the game's
order; a game of a tournament made before revision 0005 may list them the other way).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from carom.competition import Game, Line
from carom.competition.day import PLAYING, DayGame, DayState, GameKey, Result, TableView, group_name
from carom.competition.day import rank as day_rank
from carom.competition.day import schedule as day_schedule
from carom.competition.day.games import derived
from carom.competition.day.settings import Settings
from carom.competition.knockout import Bracket, bracket
from carom.storage.book import Snapshot
from carom.storage.store import MAX_ID

STATES = ("entry", "running", "finished")


@dataclass(frozen=True, slots=True)
class Participant:
    player_id: int
    name: str
    club: str | None
    seed: int | None
    target: int | None
    group_no: int | None
    stage: int = 1
    """The stage he was entered into (a later one: a seeded player who enters late)."""
    withdrawn: bool = False
    late: bool = False


@dataclass(frozen=True, slots=True)
class TournamentGame:
    id: str
    """The game's key (``1.A.2.0``, ``2.K1.3.0``)."""
    stage: str
    """``group``, ``ko`` (the main bracket) or ``placement`` (a game for lower places)."""
    group_no: int
    round: int
    slot: int
    order_no: int
    players: tuple[int | None, int | None]
    table_no: int | None
    match_id: int | None
    status: str = "waiting"
    """waiting, playing, tie-break or done."""
    snapshot: Snapshot | None = None
    token: str | None = None
    key: GameKey | None = None
    outcome: Result | None = None
    """The result the tournament keeps (from the match, a paper scoresheet, a walkover or a
    correction), in the order of :attr:`players`."""
    source: str | None = None
    """Where :attr:`outcome` comes from: match, paper, walkover or correction."""
    confirmed: bool = False
    counts: bool = True
    """Its result counts in the standings (not annulled by a withdrawal)."""

    @property
    def winner(self) -> int | None:
        """The winner's player id, once there is one."""
        if self.outcome is None or self.outcome.winner is None:
            return None
        return self.players[self.outcome.winner]

    @property
    def walkover(self) -> bool:
        return self.outcome is not None and self.outcome.walkover

    @property
    def score(self) -> tuple[int, int] | None:
        """Points as they stand: the kept result's, else the match's so far."""
        if self.outcome is not None:
            return self.outcome.points
        return None if self.snapshot is None else self.snapshot.state.points_total

    @property
    def innings(self) -> tuple[int, int] | None:
        if self.outcome is not None:
            return self.outcome.innings
        return None if self.snapshot is None else self.snapshot.state.innings_total

    def result(self) -> Game | None:
        """The finished game for the standings (``None``: no result, or annulled)."""
        a, b = self.players
        if self.outcome is None or not self.counts or a is None or b is None:
            return None
        return self.outcome.game((a, b))


def flipped(result: Result) -> Result:
    """The same result seen from the other side."""
    def swap(pair: tuple[int, int]) -> tuple[int, int]:
        return pair[1], pair[0]
    series = None if result.series is None else (result.series[1], result.series[0])
    return Result(swap(result.points), swap(result.innings), swap(result.high_run),
                  None if result.winner is None else 1 - result.winner, result.walkover, series)


def game_view(day: DayGame, order_no: int, snapshot: Snapshot | None, token: str | None,
              state: DayState) -> TournamentGame:
    key = day.key
    players: tuple[int, int] = day.players
    outcome = day.result
    if snapshot is not None and snapshot.players is not None and snapshot.players == (players[1], players[0]):
        players = snapshot.players
        outcome = None if outcome is None else flipped(outcome)
    status = day.status
    if status == PLAYING and snapshot is not None and (
            getattr(snapshot.state, "shootout", False) or (key.knockout and snapshot.state.finished)):
        status = "tie-break"  # a drawn knock-out match being decided by its shoot-out
    taken = state.taken.get(key)
    stage = "group" if not key.knockout else "ko" if key.bracket == 1 else "placement"
    return TournamentGame(key.text, stage, key.group, key.round, key.slot, order_no, players, day.table,
                          None if day.call is None else day.call.match, status, snapshot, token, key, outcome,
                          day.taken.source if day.taken is not None else None,
                          key in state.confirmed or (taken is not None and taken.source != "match"),
                          day.counts)


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    settings: Settings
    state: str
    participants: tuple[Participant, ...]
    groups: tuple[tuple[int, str], ...]
    """The first groups stage's groups (number, name)."""
    games: tuple[TournamentGame, ...]
    averages: Mapping[int, Fraction] = field(default_factory=dict)
    day: DayState = field(default_factory=DayState)

    def names(self) -> dict[int, str]:
        return {p.player_id: p.name for p in self.participants}

    @property
    def groups_stage(self) -> int | None:
        """The number of the first groups stage (``None``: a knock-out alone)."""
        return next((n for n, s in enumerate(self.day.stages, start=1) if s.kind == "groups"), None)

    def group_members(self, group_no: int) -> list[int]:
        stage = self.groups_stage
        members = self.day.groups.get(stage, ()) if stage is not None else ()
        return list(members[group_no - 1]) if 0 < group_no <= len(members) else []

    def group_standings(self, stage: int | None = None) -> list[tuple[int, list[Line]]]:
        """Each group's standings over its finished games (of the first groups stage)."""
        stage = stage if stage is not None else self.groups_stage
        return [] if stage is None else day_rank.group_standings(self.day, stage)

    def seeds(self) -> list[int]:
        """The players by seed (1 the strongest)."""
        if self.day.started is not None:
            return list(self.day.seeds)
        return [p.player_id for p in sorted(self.participants, key=lambda p: (p.seed or MAX_ID, p.player_id))]

    def knockout_stage(self) -> int | None:
        last = len(self.day.stages)
        return last if last and self.day.stages[-1].kind == "knockout" else None

    def ko_seeds(self) -> list[int] | None:
        """The knock-out field in seed order; ``None`` before it is known."""
        stage = self.knockout_stage()
        if stage is None or stage not in self.day.fields:
            return None
        return list(self.day.fields[stage])

    def bracket(self) -> tuple[Bracket, list[int], dict[tuple[int, int], tuple[Any, Any, Any]]] | None:
        """The main bracket, its seeds and each game's players and winner (``None``: not
        known, or a bye), once the knock-out's field is known."""
        seeds = self.ko_seeds()
        stage = self.knockout_stage()
        if seeds is None or stage is None or len(seeds) < 2:
            return None
        _, resolved = derived(self.day).brackets[stage]

        def known(value: int | None) -> int | None:
            return None if value is None or value < 0 else value

        main = {(k.round, k.slot): (known(g.sides[0]), known(g.sides[1]), known(g.winner))
                for k, g in resolved.items() if k.bracket == 1}
        return bracket(len(seeds)), seeds, main

    def champion(self) -> int | None:
        return day_rank.champion(self.day)

    def ranking(self) -> list[tuple[int, int]]:
        """The final ranking so far as (rank, player)."""
        return day_rank.ranking(self.day)

    def tables(self) -> list[TableView]:
        """What each table plays now and next."""
        return day_schedule.tables(self.day)

    @property
    def withdrawn(self) -> frozenset[int]:
        return frozenset(self.day.withdrawn)


def state_name(state: DayState) -> str:
    if state.started is None:
        return "entry"
    return "finished" if day_rank.finished(state) else "running"


def participants(state: DayState, register: Mapping[int, tuple[str, str | None]]) -> tuple[Participant, ...]:
    """The entrants with their seeds, targets and first-stage groups."""
    seed_of = {p: i for i, p in enumerate(state.seeds, start=1)}
    group_of: dict[int, int] = {}
    for stage in sorted(state.groups):
        for number, members in enumerate(state.groups[stage], start=1):
            for p in members:
                group_of.setdefault(p, number)
    out = []
    for entry in state.entries:
        name, club = register.get(entry.player, (f"#{entry.player}", None))
        seed = seed_of.get(entry.player) if state.started is not None else entry.seed
        target = state.targets.get(entry.player, entry.target) if state.started is not None else entry.target
        out.append(Participant(entry.player, name, club, seed, target, group_of.get(entry.player),
                               entry.stage, entry.player in state.withdrawn, entry.late))
    return tuple(out)


def first_groups(state: DayState) -> tuple[tuple[int, str], ...]:
    stage = next((n for n, s in enumerate(state.stages, start=1) if s.kind == "groups"), None)
    if stage is None:
        return ()
    return tuple((n, group_name(n)) for n in range(1, len(state.groups.get(stage, ())) + 1))

