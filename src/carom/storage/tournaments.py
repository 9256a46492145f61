"""Tournaments on the match book: settings, participants, groups, games, standings.

Every game of a tournament is an ordinary match (:mod:`carom.storage.book`) created
when its table is free, with the tournament's settings as its ``carom/1`` header and
the two registered players as its players; its result is the match's, as ``carom
replay`` judges it. What is stored here is only what the organiser decided (settings,
entries, seeds, targets) and what the schedule made (groups, games, tables); standings
and the bracket are computed from the games' matches each time
(:mod:`carom.competition`).

A game is *waiting* (no match yet), *playing* (its match goes on), *tie-break* (a
knock-out game whose match finished level: it keeps its table until the match has a
winner) or *done*. :meth:`Tournaments.advance` starts waiting games on free tables,
makes the knock-out games whose players are known, and finishes the tournament. The web
calls it through :meth:`Tournaments.game_over` as soon as the record that finishes a
game's match (or its confirmation) is stored, so the next game starts when its table is
free; every read of a tournament calls it too (idempotent), which also catches a match
finished by any other way.
"""

from __future__ import annotations

import json
import secrets
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, func, insert, select, update

from carom.competition import (
    Game,
    Line,
    Pairing,
    bracket,
    dispatch,
    plan,
    round_robin,
    snake_groups,
    standings,
)
from carom.competition.groups import by_average
from carom.competition.handicap import handicap_target
from carom.competition.knockout import Bracket
from carom.competition.qualify import knockout_size, qualifiers
from carom.core.errors import RecordError
from carom.core.inputs import is_digits
from carom.core.table import TABLES
from carom.notation.reader import parse_header
from carom.rules.disciplines import DISCIPLINES
from carom.storage import schema
from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import StorageError
from carom.storage.players import UnknownPlayer, name_key
from carom.storage.store import MAX_ID, SqlStore

MODES = ("round_robin", "knockout", "groups_knockout")
TIEBREAKS = ("penalties",)
CLOCK_FIELDS = ("stroke", "warning", "timeouts", "timeout")
SEEDINGS = ("average", "hand")
MAX_PLAYERS = 256
MAX_TABLES = 64
NAME_LENGTH = 200


class TournamentError(StorageError):
    """A request the tournament cannot take (the message names the field)."""


class UnknownTournament(StorageError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"tournament: no tournament {tournament_id}")
        self.tournament_id = tournament_id


@dataclass(frozen=True, slots=True)
class Settings:
    """What the organiser chooses: every game's header, the mode, the tables."""

    name: str
    discipline: str
    table: str
    points: int | None
    innings: int | None
    sets_to_win: int | None = None
    equalizing_inning: bool = True
    mode: str = "round_robin"
    groups: int = 1
    tables: int = 1
    handicap: bool = False
    knockout_size: int | None = None
    seeding: str = "average"
    clock: Mapping[str, int] | None = None
    """The shot clock of every game (the ``carom/1`` header's ``clock``: some of
    ``stroke``, ``warning``, ``timeouts``, ``timeout``, the others their defaults,
    docs/clock.md); ``None``: no clock."""
    tiebreak: str = "penalties"
    """How a drawn knock-out game is decided: the format's penalty shoot-out (P1–P3), the
    one tie-break ``carom/1`` has."""

    def check(self) -> None:
        """:class:`TournamentError` naming the first field that is not right."""
        if not self.name.strip() or len(self.name) > NAME_LENGTH:
            raise TournamentError(f"name: expected 1 to {NAME_LENGTH} characters")
        spec = DISCIPLINES.get(self.discipline)
        if spec is None:
            raise TournamentError(f"discipline: unknown {self.discipline!r:.40} "
                                  f"(known: {', '.join(DISCIPLINES)})")
        if self.table not in TABLES:
            raise TournamentError(f"table: unknown {self.table!r:.40} (known: {', '.join(TABLES)})")
        if self.table not in spec.tables:
            raise TournamentError(f"table: {self.discipline} is played on the {spec.tables[0]} table, "
                                  f"not {self.table} (K1)")
        for name, value in (("points", self.points), ("innings", self.innings), ("sets", self.sets_to_win)):
            if value is not None and not 1 <= value <= 100_000:
                raise TournamentError(f"{name}: expected a whole number from 1 to 100000 or null")
        if self.points is None and self.innings is None:
            raise TournamentError("points, innings: a game needs a limit (E1)")
        if self.handicap and self.points is None:
            raise TournamentError("handicap: a handicap needs a points limit (the distance)")
        if self.mode not in MODES:
            raise TournamentError(f"mode: expected one of {', '.join(MODES)}")
        if self.seeding not in SEEDINGS:
            raise TournamentError(f"seeding: expected one of {', '.join(SEEDINGS)}")
        if not 1 <= self.groups <= 32:
            raise TournamentError("groups: expected 1 to 32")
        if self.mode == "knockout" and self.groups != 1:
            raise TournamentError("groups: a knock-out has no groups (1)")
        if not 1 <= self.tables <= MAX_TABLES:
            raise TournamentError(f"tables: expected 1 to {MAX_TABLES}")
        if self.knockout_size is not None and (self.knockout_size < 2
                                               or self.knockout_size & (self.knockout_size - 1)):
            raise TournamentError("knockout_size: expected a power of two, at least 2")
        if self.tiebreak not in TIEBREAKS:
            raise TournamentError(f"tiebreak: expected one of {', '.join(TIEBREAKS)}")
        if self.clock is not None:
            if not isinstance(self.clock, Mapping) or any(
                    k not in CLOCK_FIELDS or isinstance(v, bool) or not isinstance(v, int)
                    or not 0 <= v <= 3600 for k, v in self.clock.items()):
                raise TournamentError("clock: expected whole seconds (0 to 3600) of stroke, warning, "
                                      "timeouts, timeout")
            try:  # the format's own checks of a clock (T1, T2)
                parse_header(json.dumps(self.header(("A", "B"))))
            except RecordError as error:
                raise TournamentError(str(error)) from None

    def header(self, names: tuple[str, str], targets: tuple[int, int] | None = None,
               knockout: bool = False) -> dict[str, Any]:
        """A game's ``carom/1`` header; a handicap game's ``points`` is one target per player.
        A knock-out game without sets must have a winner: ``"tiebreak": "penalties"``
        (the format's penalty shoot-out breaks a draw)."""
        header: dict[str, Any] = {
            "format": "carom/1", "discipline": self.discipline, "table": self.table,
            "players": list(names), "points": list(targets) if targets is not None else self.points,
            "innings": self.innings,
            "sets": None if self.sets_to_win is None else {"to_win": self.sets_to_win},
            "equalizing_inning": self.equalizing_inning}
        if knockout and self.sets_to_win is None:
            header["tiebreak"] = self.tiebreak
        if self.clock is not None:
            header["clock"] = dict(self.clock)
        return header


@dataclass(frozen=True, slots=True)
class Participant:
    player_id: int
    name: str
    club: str | None
    seed: int | None
    target: int | None
    group_no: int | None


@dataclass(frozen=True, slots=True)
class TournamentGame:
    id: int
    stage: str
    """``group`` or ``ko``."""
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

    @property
    def winner(self) -> int | None:
        """The winner's player id, once the match has one."""
        s = self.snapshot
        if s is None or not s.state.finished or s.state.winner is None:
            return None
        return self.players[s.state.winner]

    def result(self) -> Game | None:
        """The finished game for the standings (a draw has no winner)."""
        s = self.snapshot
        a, b = self.players
        if s is None or not s.state.finished or a is None or b is None:
            return None
        st = s.state
        return Game((a, b), st.points_total, st.innings_total, st.high_run, st.winner)


@dataclass(frozen=True, slots=True)
class Tournament:
    id: int
    settings: Settings
    state: str
    participants: tuple[Participant, ...]
    groups: tuple[tuple[int, str], ...]
    games: tuple[TournamentGame, ...]
    averages: Mapping[int, Fraction] = field(default_factory=dict)

    def names(self) -> dict[int, str]:
        return {p.player_id: p.name for p in self.participants}

    def group_members(self, group_no: int) -> list[int]:
        return [p.player_id for p in self.participants if p.group_no == group_no]

    def group_standings(self) -> list[tuple[int, list[Line]]]:
        """Each group's standings over its finished games."""
        out = []
        for number, _name in self.groups:
            results = [r for g in self.games if g.stage == "group" and g.group_no == number
                       if (r := g.result()) is not None]
            out.append((number, standings(self.group_members(number), results)))
        return out

    def seeds(self) -> list[int]:
        """The players by seed (1 the strongest)."""
        return [p.player_id for p in sorted(self.participants, key=lambda p: (p.seed or MAX_ID, p.player_id))]

    def ko_seeds(self) -> list[int] | None:
        """The knock-out field in seed order; ``None`` before it is known (groups go on)."""
        mode = self.settings.mode
        if mode == "knockout":
            return self.seeds()
        if mode != "groups_knockout":
            return None
        group_games = [g for g in self.games if g.stage == "group"]
        if not group_games or any(g.status != "done" for g in group_games):
            return None
        tables = [lines for _, lines in self.group_standings()]
        return qualifiers(tables, self.ko_places())

    def ko_places(self) -> int:
        if self.settings.mode == "knockout":
            return len(self.participants)
        if self.settings.knockout_size is not None:
            return self.settings.knockout_size
        smallest = min((len(self.group_members(n)) for n, _ in self.groups), default=0)
        return knockout_size(len(self.groups), smallest)

    def bracket(self) -> tuple[Bracket, list[int], dict[tuple[int, int], tuple[Any, Any, Any]]] | None:
        """The bracket, its seeds and each game's players and winner, once known."""
        seeds = self.ko_seeds()
        if seeds is None or len(seeds) < 2:
            return None
        b = bracket(len(seeds))
        winners = {(g.round, g.slot): w for g in self.games if g.stage == "ko" if (w := g.winner) is not None}
        return b, seeds, b.resolve(seeds, winners)

    def champion(self) -> int | None:
        if self.settings.mode == "round_robin":
            if self.games and all(g.status == "done" for g in self.games):
                return self.group_standings()[0][1][0].player
            return None
        found = self.bracket()
        if found is None:
            return None
        b, _, resolved = found
        return resolved[b.rounds[-1][0].id][2]

    def ranking(self) -> list[tuple[int, int]]:
        """The final ranking so far as (rank, player): a round robin's standings; after a
        knock-out, the champion, the finalist, then the losers of each round (sharing
        their rank), then those out in the groups by their group standings."""
        if self.settings.mode == "round_robin":
            return [(x.rank, x.player) for x in self.group_standings()[0][1]] if self.groups else []
        found = self.bracket()
        out: list[tuple[int, int]] = []
        placed: set[int] = set()
        if found is not None:
            b, seeds, resolved = found
            rank = 1
            final = resolved[b.rounds[-1][0].id]
            if final[2] is not None:
                out.append((1, final[2]))
                placed.add(final[2])
                rank = 2
            for r in reversed(range(1, len(b.rounds) + 1)):
                losers = sorted((p for gid, (a, c, w) in resolved.items() if gid[0] == r and w is not None
                                 for p in (a, c) if p is not None and p != w),
                                key=lambda p: (seeds.index(p), p))
                for p in losers:
                    out.append((rank, p))
                    placed.add(p)
                rank += len(losers)
        lines = sorted((line for _, group in self.group_standings() for line in group
                        if line.player not in placed),
                       key=lambda x: (x.rank, *(-v for v in x.key()), x.player))
        rank = len(out) + 1
        for line in lines:
            out.append((rank, line.player))
            rank += 1
        return out


def _status(snap: Snapshot | None, stage: str) -> str:
    if snap is None:
        return "waiting"
    if getattr(snap.state, "shootout", False):  # a draw being broken by the match's penalties
        return "tie-break"
    if not snap.state.finished:
        return "playing"
    if stage == "ko" and snap.state.winner is None:
        return "tie-break"
    return "done"


def player_averages(book: MatchBook, discipline: str | None = None) -> dict[int, dict[str, tuple[int, int]]]:
    """Each player's points and innings per discipline over all their matches (the
    general average is their ratio)."""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for snap in book.snapshots():
        if snap.players is None or (discipline is not None and snap.header.discipline != discipline):
            continue
        for side, player in enumerate(snap.players):
            points, innings = out.setdefault(player, {}).get(snap.header.discipline, (0, 0))
            out[player][snap.header.discipline] = (points + snap.state.points_total[side],
                                                   innings + snap.state.innings_total[side])
    return out


def average_of(points_innings: tuple[int, int] | None) -> Fraction | None:
    if points_innings is None or points_innings[1] == 0:
        return None
    return Fraction(points_innings[0], points_innings[1])


class Tournaments:
    """The tournaments of a store, played on its match book."""

    def __init__(self, book: MatchBook,
                 new_token: Callable[[], str] = lambda: secrets.token_urlsafe(16)) -> None:
        store = book.store
        if not isinstance(store, SqlStore):
            raise TypeError("tournaments need a SqlStore")
        self.book = book
        self.store = store
        self.engine = store.engine
        self._new_token = new_token
        self._locks: dict[int, threading.Lock] = {}
        self._guard = threading.Lock()

    def _lock(self, tournament_id: int) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(tournament_id, threading.Lock())

    # --- the organiser's decisions ----------------------------------------------------

    def create(self, settings: Settings) -> int:
        settings.check()
        values = {"name": settings.name.strip(), "discipline": settings.discipline,
                  "table_size": settings.table, "points": settings.points, "innings": settings.innings,
                  "sets_to_win": settings.sets_to_win, "equalizing_inning": settings.equalizing_inning,
                  "mode": settings.mode, "groups": settings.groups, "tables": settings.tables,
                  "handicap": settings.handicap, "knockout_size": settings.knockout_size,
                  "seeding": settings.seeding, "state": "entry",
                  "clock": None if settings.clock is None else json.dumps(dict(settings.clock),
                                                                          sort_keys=True)}
        return self.store.run(lambda c: int(c.execute(
            insert(schema.tournaments).values(**values).returning(schema.tournaments.c.id)).scalar_one()))

    def add_players(self, tournament_id: int, entries: Sequence[Mapping[str, Any]]) -> list[int]:
        """Enter players: each ``{"player": id}`` (a registered player) or ``{"name": ...}``
        (the player of that name, made when there is none, with ``club``, ``country``,
        ``licence``), optionally with ``seed`` (by hand) and ``target`` (a handicap by
        hand). Returns their ids. Only before the start; all or nothing."""
        if not entries:
            raise TournamentError("players: expected at least one")
        checked = [_entry(i, e) for i, e in enumerate(entries)]

        def job(connection: Connection) -> list[int]:
            row = self._row(connection, tournament_id)
            if row.state != "entry":
                raise TournamentError("players: the tournament has started, no more entries")
            p, t = schema.players.c, schema.participants.c
            ids: list[int] = []
            for i, (player, name, extra, _, _) in enumerate(checked):
                if player is not None:
                    if connection.execute(select(p.id).where(p.id == player)).first() is None:
                        raise UnknownPlayer(player)
                    ids.append(player)
                    continue
                assert name is not None
                found = connection.execute(select(p.id).where(p.name_key == name_key(name))).scalars().all()
                if len(found) > 1:
                    raise TournamentError(f"players[{i}].name: {len(found)} players are called {name}: "
                                          "enter the one meant by id")
                if found:
                    ids.append(int(found[0]))
                else:
                    ids.append(int(connection.execute(insert(schema.players).values(
                        name=name, name_key=name_key(name), **extra).returning(p.id)).scalar_one()))
            entered = set(connection.execute(select(t.player_id).where(t.tournament_id == tournament_id))
                          .scalars())
            if len(set(ids)) != len(ids) or entered & set(ids):
                raise TournamentError("players: a player is entered twice")
            if len(entered) + len(ids) > MAX_PLAYERS:
                raise TournamentError(f"players: at most {MAX_PLAYERS}")
            for player_id, (_, _, _, seed, target) in zip(ids, checked, strict=True):
                connection.execute(insert(schema.participants).values(
                    tournament_id=tournament_id, player_id=player_id, seed=seed, target=target))
            return ids

        return self.store.run(job)

    def start(self, tournament_id: int) -> Tournament:
        """Seed, make the groups and the schedule, and start the first games."""
        with self._lock(tournament_id):
            t = self.read(tournament_id, advance=False)
            if t.state != "entry":
                raise TournamentError("state: the tournament has already started")
            s = t.settings
            n = len(t.participants)
            groups = s.groups if s.mode != "knockout" else 0
            if n < 2:
                raise TournamentError("players: a tournament needs at least two")
            if groups and n < 2 * groups:
                raise TournamentError(f"groups: {groups} groups need at least {2 * groups} players, "
                                      f"there are {n}")
            if s.mode == "groups_knockout":
                smallest = n // groups
                places = s.knockout_size or knockout_size(groups, smallest)
                if places > n:
                    raise TournamentError(f"knockout_size: {places} places, but only {n} players")
            averages = self._averages(t)
            order = self._seeding(t, averages)
            targets = self._targets(t, averages)

            def job(connection: Connection) -> None:
                row = self._row(connection, tournament_id)
                if row.state != "entry":
                    raise TournamentError("state: the tournament has already started")
                pc = schema.participants.c
                for seed, player in enumerate(order, start=1):
                    connection.execute(update(schema.participants).where(
                        pc.tournament_id == tournament_id, pc.player_id == player).values(
                        seed=seed, target=targets.get(player)))
                if groups:
                    games: list[tuple[int, int, int, tuple[int, int]]] = []
                    for number, members in enumerate(snake_groups(order, groups), start=1):
                        connection.execute(insert(schema.tournament_groups).values(
                            tournament_id=tournament_id, number=number, name=_group_name(number)))
                        for player in members:
                            connection.execute(update(schema.participants).where(
                                pc.tournament_id == tournament_id, pc.player_id == player).values(
                                group_no=number))
                        for r, pairs in enumerate(round_robin(members), start=1):
                            games.extend((number, r, i, pair) for i, pair in enumerate(pairs))
                    ordered = [g for slot in plan([Pairing((gr, r, i), pair) for gr, r, i, pair in
                                                   sorted(games, key=lambda x: (x[1], x[0], x[2]))], s.tables)
                               for g in slot]
                    for order_no, pairing in enumerate(ordered, start=1):
                        gr, r, i = pairing.key  # type: ignore[misc]
                        connection.execute(insert(schema.games).values(
                            tournament_id=tournament_id, stage="group", group_no=gr, round=r, slot=i,
                            order_no=order_no, player0_id=pairing.players[0], player1_id=pairing.players[1]))
                connection.execute(update(schema.tournaments).where(schema.tournaments.c.id == tournament_id)
                                   .values(state="running"))

            self.store.run(job)
        return self.advance(tournament_id)

    def _averages(self, t: Tournament) -> dict[int, Fraction]:
        found = player_averages(self.book, t.settings.discipline)
        out = {}
        for p in t.participants:
            avg = average_of(found.get(p.player_id, {}).get(t.settings.discipline))
            if avg is not None:
                out[p.player_id] = avg
        return out

    @staticmethod
    def _seeding(t: Tournament, averages: Mapping[int, Fraction]) -> list[int]:
        """Seed order: by hand (players without a seed after those with one, by average),
        or by average (strongest first, then id)."""
        players = [p.player_id for p in t.participants]
        strength = by_average(players, averages)
        if t.settings.seeding == "hand":
            hand = {p.player_id: p.seed for p in t.participants if p.seed is not None}
            return sorted(players, key=lambda p: (hand.get(p, MAX_ID), strength.index(p)))
        return strength

    @staticmethod
    def _targets(t: Tournament, averages: Mapping[int, Fraction]) -> dict[int, int]:
        if not t.settings.handicap or t.settings.points is None:
            return {}
        reference = max(averages.values(), default=None)
        out = {}
        for p in t.participants:
            out[p.player_id] = p.target if p.target is not None else handicap_target(
                averages.get(p.player_id), reference, t.settings.points)
        return out

    # --- the day's play -----------------------------------------------------------------

    def advance(self, tournament_id: int) -> Tournament:
        """Make the knock-out games now known, start waiting games on free tables, and
        finish the tournament when every game is done. Returns it as it is then."""
        with self._lock(tournament_id):
            t = self.read(tournament_id, advance=False)
            if t.state != "running":
                return t
            if self._make_ko_games(t):
                t = self.read(tournament_id, advance=False)
            started = self._start_games(t)
            if started:
                t = self.read(tournament_id, advance=False)
            if t.games and all(g.status == "done" for g in t.games) and t.champion() is not None:
                self.store.run(lambda c: c.execute(update(schema.tournaments).where(
                    schema.tournaments.c.id == tournament_id).values(state="finished")))
                t = self.read(tournament_id, advance=False)
            return t

    def tournament_of(self, match_id: int) -> int | None:
        """The tournament whose game ``match_id`` is, if any."""
        gc = schema.games.c
        with self.engine.connect() as connection:
            found = connection.execute(select(gc.tournament_id).where(gc.match_id == match_id)).scalar()
        return None if found is None else int(found)

    def game_over(self, match_id: int) -> Tournament | None:
        """A game's match has just finished (or its result was confirmed): its table is
        free, so :meth:`advance` its tournament now (the next games start, the knock-out
        goes on), not when somebody next reads it. ``None`` for a match of no tournament."""
        tournament_id = self.tournament_of(match_id)
        return None if tournament_id is None else self.advance(tournament_id)

    def _make_ko_games(self, t: Tournament) -> bool:
        found = t.bracket()
        if found is None:
            return False
        b, _, resolved = found
        have = {(g.round, g.slot) for g in t.games if g.stage == "ko"}
        new = []
        for game in b.games():
            a, c, _ = resolved[game.id]
            if game.is_bye or game.id in have or a is None or c is None:
                continue
            new.append((game.round, game.index, a, c))
        if not new:
            return False
        last = max((g.order_no for g in t.games), default=0)

        def job(connection: Connection) -> None:
            for k, (r, i, a, c) in enumerate(new, start=1):
                connection.execute(insert(schema.games).values(
                    tournament_id=t.id, stage="ko", group_no=0, round=r, slot=i, order_no=last + k,
                    player0_id=a, player1_id=c))

        self.store.run(job)
        return True

    def _start_games(self, t: Tournament) -> int:
        busy_tables = {g.table_no for g in t.games if g.status in ("playing", "tie-break")}
        free = [n for n in range(1, t.settings.tables + 1) if n not in busy_tables]
        if not free:
            return 0
        playing = {p for g in t.games if g.status in ("playing", "tie-break") for p in g.players
                   if p is not None}
        done = sorted((g for g in t.games if g.status == "done"), key=lambda g: g.match_id or 0)
        resting = {p for g in done[-len(free):] for p in g.players if p is not None}
        waiting = [Pairing(g.id, (g.players[0], g.players[1]))
                   for g in sorted(t.games, key=lambda g: g.order_no)
                   if g.status == "waiting" and g.players[0] is not None and g.players[1] is not None]
        names = t.names()
        targets = {p.player_id: p.target for p in t.participants}
        started = 0
        for table_no, pairing in dispatch(waiting, playing, free, resting):
            a, b = pairing.players
            handicap = None
            if t.settings.handicap:
                ta, tb = targets.get(a), targets.get(b)
                handicap = (ta or t.settings.points or 1, tb or t.settings.points or 1)
            knockout = next(g.stage == "ko" for g in t.games if g.id == pairing.key)
            header = json.dumps(t.settings.header((names[a], names[b]), handicap, knockout),
                                ensure_ascii=False)
            token = self._new_token()
            try:
                match_id = self.book.create(header, token, player_ids=(a, b))
            except RecordError as error:
                raise TournamentError(f"game {pairing.key}: its match cannot be made: {error}") from None
            game_id = pairing.key

            def job(connection: Connection, game_id: Any = game_id, match_id: int = match_id,
                    table_no: int = table_no) -> int:
                gc = schema.games.c
                return int(connection.execute(update(schema.games).where(
                    gc.id == game_id, gc.match_id.is_(None)).values(match_id=match_id, table_no=table_no)
                ).rowcount)

            started += self.store.run(job)
        return started

    # --- reads --------------------------------------------------------------------------

    @staticmethod
    def _row(connection: Connection, tournament_id: int) -> Any:
        if not 0 < tournament_id <= MAX_ID:
            raise UnknownTournament(tournament_id)
        row = connection.execute(select(schema.tournaments)
                                 .where(schema.tournaments.c.id == tournament_id)).first()
        if row is None:
            raise UnknownTournament(tournament_id)
        return row

    def read(self, tournament_id: int, *, advance: bool = True, tokens: bool = False) -> Tournament:
        """The tournament as it stands (after :meth:`advance` unless told otherwise);
        ``tokens``: with each started game's referee token (for the organiser)."""
        if advance:
            self.advance(tournament_id)
        with self.engine.connect() as connection:
            row = self._row(connection, tournament_id)
            p, pc, gc = schema.players.c, schema.participants.c, schema.games.c
            participants = tuple(
                Participant(r.player_id, r.name, r.club, r.seed, r.target, r.group_no)
                for r in connection.execute(
                    select(pc.player_id, p.name, p.club, pc.seed, pc.target, pc.group_no)
                    .join(schema.players, p.id == pc.player_id)
                    .where(pc.tournament_id == tournament_id).order_by(pc.id)))
            groups = tuple((r.number, r.name) for r in connection.execute(
                select(schema.tournament_groups.c.number, schema.tournament_groups.c.name)
                .where(schema.tournament_groups.c.tournament_id == tournament_id)
                .order_by(schema.tournament_groups.c.number)))
            rows = connection.execute(select(schema.games).where(gc.tournament_id == tournament_id)
                                      .order_by(gc.order_no, gc.id)).all()
        games = []
        for r in rows:
            snap = self.book.snapshot(r.match_id) if r.match_id is not None else None
            token = self.book.live(r.match_id).token if tokens and r.match_id is not None else None
            games.append(TournamentGame(r.id, r.stage, r.group_no or 0, r.round, r.slot, r.order_no,
                                        (r.player0_id, r.player1_id), r.table_no, r.match_id,
                                        _status(snap, r.stage), snap, token))
        settings = Settings(row.name, row.discipline, row.table_size, row.points, row.innings,
                            row.sets_to_win, bool(row.equalizing_inning), row.mode, row.groups,
                            row.tables, bool(row.handicap), row.knockout_size, row.seeding,
                            None if row.clock is None else json.loads(row.clock))
        return Tournament(row.id, settings, row.state, participants, groups, tuple(games))

    def list(self) -> list[tuple[int, str, str, str, int]]:
        """Every tournament, newest first: id, name, mode, state, number of players."""
        t, pc = schema.tournaments.c, schema.participants.c
        counts = select(pc.tournament_id, func.count().label("n")).group_by(pc.tournament_id).subquery()
        with self.engine.connect() as connection:
            return [(r.id, r.name, r.mode, r.state, int(r.n or 0)) for r in connection.execute(
                select(t.id, t.name, t.mode, t.state, counts.c.n)
                .outerjoin(counts, counts.c.tournament_id == t.id).order_by(t.id.desc()))]


def form_number(raw: str, key: str, default: int | None = None) -> int | None:
    """A form's whole number (empty: ``default``)."""
    raw = raw.strip()
    if not raw:
        return default
    if not is_digits(raw) or len(raw) > 6:
        raise TournamentError(f"{key}: expected a whole number")
    return int(raw)


def _group_name(number: int) -> str:
    """A, B, ..., Z, then 27, 28, ..."""
    return chr(ord("A") + number - 1) if number <= 26 else str(number)


def _entry(i: int, entry: Mapping[str, Any]) -> tuple[int | None, str | None, dict[str, str], int | None,
                                                         int | None]:
    """One entry checked: (player id, name, register fields, seed, target)."""
    where = f"players[{i}]"
    if not isinstance(entry, Mapping):
        raise TournamentError(f'{where}: expected {{"player": id}} or {{"name": "..."}}')
    known = {"player", "name", "club", "country", "licence", "seed", "target"}
    if extra := set(entry) - known:
        raise TournamentError(f"{where}: unknown field {sorted(extra)[0]!r:.40}")
    player, name = entry.get("player"), entry.get("name")
    if (player is None) == (name is None):
        raise TournamentError(f'{where}: give "player" (an id) or "name", one of them')
    if player is not None and (isinstance(player, bool) or not isinstance(player, int)
                               or not 0 < player <= MAX_ID):
        raise TournamentError(f"{where}.player: expected a player's id")
    if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH):
        raise TournamentError(f"{where}.name: expected 1 to {NAME_LENGTH} characters")
    register: dict[str, str] = {}
    for key, limit in (("club", NAME_LENGTH), ("country", 64), ("licence", 64)):
        value = entry.get(key)
        if value is None or value == "":
            continue
        if not isinstance(value, str) or len(value) > limit:
            raise TournamentError(f"{where}.{key}: expected text of at most {limit} characters")
        register[key] = value.strip()
    numbers: list[int | None] = []
    for key in ("seed", "target"):
        value = entry.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                  or not 1 <= value <= 100_000):
            raise TournamentError(f"{where}.{key}: expected a whole number from 1 to 100000")
        numbers.append(value)
    return player, None if name is None else " ".join(name.split()), register, numbers[0], numbers[1]


def results_rows(t: Tournament) -> Iterable[list[str]]:
    """The tournament's games as rows for a results CSV (a header row first)."""
    names = t.names()
    yield ["game", "stage", "group", "round", "table", "match", "player_a", "player_b", "points_a",
           "points_b", "innings_a", "innings_b", "high_run_a", "high_run_b", "average_a", "average_b",
           "winner", "status"]
    group_names = dict(t.groups)
    for g in t.games:
        a, b = g.players
        s = g.snapshot.state if g.snapshot is not None else None
        pts = s.points_total if s is not None else ("", "")
        inn = s.innings_total if s is not None else ("", "")
        hs = s.high_run if s is not None else ("", "")
        avg = [f"{pts[i] / inn[i]:.3f}" if s is not None and inn[i] else "" for i in (0, 1)]  # type: ignore[arg-type]
        winner = g.winner
        yield [str(g.id), g.stage, group_names.get(g.group_no, ""), str(g.round), str(g.table_no or ""),
               str(g.match_id or ""), names.get(a, "") if a else "", names.get(b, "") if b else "",
               str(pts[0]), str(pts[1]), str(inn[0]), str(inn[1]), str(hs[0]), str(hs[1]), avg[0], avg[1],
               names.get(winner, "") if winner else ("draw" if g.status == "done" else ""), g.status]


def ranking_rows(t: Tournament) -> Iterable[list[str]]:
    """The final ranking (so far) as rows for a CSV, with each player's totals over all
    their games of the tournament (a header row first)."""
    names = t.names()
    clubs = {p.player_id: p.club or "" for p in t.participants}
    results = [r for g in t.games if (r := g.result()) is not None]
    totals = {line.player: line for line in standings(names, results)}
    yield ["rank", "player", "name", "club", "games", "won", "drawn", "lost", "match_points", "points",
           "innings", "general_average", "best_average", "high_run"]
    for rank, player in t.ranking():
        x = totals[player]
        yield [str(rank), str(player), names[player], clubs[player], str(x.played), str(x.won),
               str(x.drawn), str(x.lost), str(x.match_points), str(x.points), str(x.innings),
               f"{float(x.general_average):.3f}", f"{float(x.best_average):.3f}", str(x.high_run)]
