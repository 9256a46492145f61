"""Tournaments on the match book: every change a record of the tournament's log.

A tournament is the fold of its log (:mod:`carom.competition.day`, the rules) stored by
:mod:`carom.storage.daylog` (rows and transactions). Every game is an ordinary match
(:mod:`carom.storage.book`) made when the game is called to a table, with the
tournament's settings as its ``carom/1`` header and the two registered players as its
players; its result is taken into the log when the match finishes. Each method here is
one request of the organiser (the account that makes it is ``actor``) or of the
schedule, and one transaction: it reads the log, makes its records, checks them by the
rules and appends them, or refuses (:class:`TournamentError` naming the field and the
rule) and changes nothing.

:meth:`Tournaments.advance` appends what the schedule does by itself (results of
finished matches, the next stage fed, waiting games called to free tables with their
matches). The web calls it through :meth:`Tournaments.game_over` as soon as the record
that finishes a game's match (or its confirmation) is stored, and every read calls it
too (it writes only when something is due).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC, datetime
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, insert, select

from carom.competition.day import (
    DONE,
    PLAYING,
    GameKey,
    MatchView,
    Record,
    Refused,
    Result,
    apply,
    derived,
    due,
)
from carom.competition.day import records as r
from carom.competition.day.seeding import late_target, ranking_seeds, seed_order, targets
from carom.competition.day.settings import (
    CLOCK_FIELDS,
    MAX_LIMIT,
    MAX_PLAYERS,
    MODES,
    NAME_LENGTH,
    Settings,
    Stage,
)
from carom.competition.day.state import DayState
from carom.core.errors import RecordError
from carom.core.table import TABLES
from carom.notation.reader import parse_header
from carom.notation.writer import format_header
from carom.rules.disciplines import DISCIPLINES
from carom.storage import schema
from carom.storage.book import MatchBook, Snapshot
from carom.storage.daylog import DayLog, Logged, TournamentError, UnknownTournament
from carom.storage.players import UnknownPlayer, name_key
from carom.storage.store import MAX_ID, SqlStore
from carom.storage.tournament_rows import average_of, form_number, player_averages, ranking_rows, results_rows
from carom.storage.tournament_view import (
    Participant,
    Tournament,
    TournamentGame,
    first_groups,
    flipped,
    game_view,
    participants,
    state_name,
)

__all__ = [
    "CLOCK_FIELDS", "MODES", "Participant", "Settings", "Stage", "Tournament", "TournamentError",
    "TournamentGame", "Tournaments", "UnknownTournament", "average_of", "check_settings", "form_number",
    "game_header", "player_averages", "ranking_rows", "results_rows",
]
ORGANISER = "organiser"
"""The actor of a change made with the organiser's password (before named accounts)."""
Entry = tuple[int | None, str | None, dict[str, str], int | None, int | None, int]


def check_settings(settings: Settings) -> None:
    """:class:`TournamentError` naming the first field that is not right: the
    competition's own checks, then the games' header (discipline, table, shot clock)."""
    try:
        settings.check()
    except Refused as error:
        raise TournamentError.of(error) from None
    spec = DISCIPLINES.get(settings.discipline)
    if spec is None:
        raise TournamentError(f"discipline: unknown {settings.discipline!r:.40} "
                              f"(known: {', '.join(DISCIPLINES)})")
    if settings.table not in TABLES:
        raise TournamentError(f"table: unknown {settings.table!r:.40} (known: {', '.join(TABLES)})")
    if settings.table not in spec.tables:
        raise TournamentError(f"table: {settings.discipline} is played on the {spec.tables[0]} table, "
                              f"not {settings.table} (K1)")
    if settings.clock is not None:
        try:  # the format's own checks of a clock (T1, T2)
            parse_header(json.dumps(game_header(settings, ("A", "B"))))
        except RecordError as error:
            raise TournamentError(str(error)) from None


def game_header(settings: Settings, names: tuple[str, str], targets: tuple[int, int] | None = None,
                knockout: bool = False) -> dict[str, Any]:
    """A game's ``carom/1`` header; a handicap game's ``points`` is one target per player.
    A knock-out game without sets must have a winner: ``"tiebreak": "penalties"``."""
    header: dict[str, Any] = {
        "format": "carom/1", "discipline": settings.discipline, "table": settings.table,
        "players": list(names), "points": list(targets) if targets is not None else settings.points,
        "innings": settings.innings,
        "sets": None if settings.sets_to_win is None else {"to_win": settings.sets_to_win},
        "equalizing_inning": settings.equalizing_inning}
    if knockout and settings.sets_to_win is None:
        header["tiebreak"] = settings.tiebreak
    if settings.clock is not None:
        header["clock"] = dict(settings.clock)
    return header


def _now() -> datetime:
    return datetime.now(UTC)


class Tournaments:
    """The tournaments of a store, played on its match book."""

    def __init__(self, book: MatchBook,
                 new_token: Callable[[], str] = lambda: secrets.token_urlsafe(16)) -> None:
        store = book.store
        if not isinstance(store, SqlStore) or book.days is None:
            raise TypeError("tournaments need a SqlStore")
        self.book = book
        self.store = store
        self.engine = store.engine
        self.days: DayLog = book.days
        self._new_token = new_token

    # --- the organiser's decisions before the start ---------------------------------------

    def create(self, settings: Settings, actor: str = ORGANISER) -> int:
        check_settings(settings)
        named = Settings(**{**_fields(settings), "name": settings.name.strip()})
        return self.days.create(r.Created(actor=actor, at=_now(), settings=named))

    def add_players(self, tournament_id: int, entries: Sequence[Mapping[str, Any]],
                    actor: str = ORGANISER) -> list[int]:
        """Enter players: each ``{"player": id}`` (a registered player) or ``{"name": ...}``
        (the player of that name, made when there is none, with ``club``, ``country``,
        ``licence``), optionally with ``seed`` (by hand), ``target`` (a handicap by hand)
        and ``stage`` (a later stage: a seeded player who enters late). Returns their ids.
        All or nothing. After the start each is a late entry (D2): scheduled, or refused."""
        if not entries:
            raise TournamentError("players: expected at least one")
        if len(entries) > MAX_PLAYERS:
            raise TournamentError(f"players: at most {MAX_PLAYERS}", "players", "D1")
        checked = [_entry(i, e) for i, e in enumerate(entries)]
        entered: list[int] = []

        def prepare(state: DayState) -> Callable[[Connection], list[Record]]:
            averages = self._averages(state) if state.started is not None and state.settings is not None \
                and state.settings.handicap else {}

            def write(connection: Connection) -> list[Record]:
                ids = _player_ids(connection, checked)
                if len(set(ids)) != len(ids) or any(state.entry(p) is not None for p in ids):
                    raise TournamentError("players: a player is entered twice", "players", "D1")
                at = _now()
                made: list[Record] = []
                for player, (_, _, _, seed, target, stage) in zip(ids, checked, strict=True):
                    if state.started is not None and target is None:
                        target = late_target(state, player, averages)
                    made.append(r.Entered(actor=actor, at=at, player=player, stage=stage, seed=seed,
                                          target=target))
                entered[:] = ids
                return made

            return write

        state = self.days.change(tournament_id, prepare)
        if state.started is not None:
            self.advance(tournament_id)
        return list(entered)

    def set_seeding(self, tournament_id: int, seeds: Iterable[tuple[int, int]], actor: str = ORGANISER,
                    source: str = "hand") -> Tournament:
        """Seeds by hand, (player, seed) pairs (seed 0: none), before the start (D3)."""
        pairs = tuple((int(p), int(s)) for p, s in seeds)
        self._change(tournament_id, lambda state: [r.SeedingSet(actor=actor, at=_now(), seeds=pairs,
                                                               source=source[:200])])
        return self.read(tournament_id, advance=False)

    def seed_from_ranking(self, tournament_id: int, ranked: Sequence[int], actor: str = ORGANISER,
                          source: str = "ranking list") -> Tournament:
        """Seeds from a ranking list (player ids, best first): the entrants on it seeded in
        its order, the others after them (D3). The list's file is read by
        :func:`carom.storage.ranking_list.read_ranking`."""
        self._change(tournament_id, lambda state: [r.SeedingSet(
            actor=actor, at=_now(), seeds=ranking_seeds(state, ranked), source=source[:200])])
        return self.read(tournament_id, advance=False)

    def start(self, tournament_id: int, actor: str = ORGANISER) -> Tournament:
        """Seed (by the averages as they stand, or by hand), draw the first stage, and call
        the first games to the tables."""
        def prepare(state: DayState) -> Callable[[Connection], list[Record]]:
            if state.started is not None:
                raise Refused("state", "the tournament has already started", "D4")
            if len(state.entries) < 2:
                raise Refused("players", "a tournament needs at least two", "D4")
            averages = self._averages(state)
            record = r.Started(actor=actor, at=_now(), seeds=seed_order(state, averages),
                               targets=targets(state, averages))
            return lambda connection: [record]

        self.days.change(tournament_id, prepare)
        return self.read(tournament_id, tokens=False)

    def _averages(self, state: DayState) -> dict[int, Fraction]:
        """Every player's general average in the tournament's discipline, over all his matches."""
        assert state.settings is not None
        discipline = state.settings.discipline
        found = {p: average_of(by.get(discipline))
                 for p, by in player_averages(self.book, discipline).items()}
        return {p: a for p, a in found.items() if a is not None}

    # --- the day --------------------------------------------------------------------------

    def withdraw(self, tournament_id: int, player: int, actor: str = ORGANISER, *, no_show: bool = False,
                 reason: str = "") -> Tournament:
        """A player withdraws (or did not come): his remaining games become walkovers; his
        finished ones count or are annulled as the tournament's setting says (D8)."""
        return self._act(tournament_id, r.Withdrew(actor=actor, at=_now(), player=player, no_show=no_show,
                                                   reason=reason[:r.REASON_LENGTH]))

    def walkover(self, tournament_id: int, game: str, winner: int, actor: str = ORGANISER,
                 reason: str = "") -> Tournament:
        """Give a game without a result to one of its players (``winner``: 0 or 1) (D9)."""
        return self._act(tournament_id, r.Walkover(actor=actor, at=_now(), game=_key(game), winner=winner,
                                                   reason=reason[:r.REASON_LENGTH]))

    def enter_result(self, tournament_id: int, game: str, actor: str = ORGANISER, **sheet: Any) -> Tournament:
        """A result from a paper scoresheet (D10): ``series`` (each player's series, inning by
        inning) or ``points``, ``innings`` and ``high_run`` (two each); ``winner`` (0 or 1)
        only for a drawn knock-out game decided by penalties. It counts as confirmed."""
        return self._act(tournament_id, r.ResultEntered(actor=actor, at=_now(), game=_key(game),
                                                        result=_sheet(sheet)))

    def correct(self, tournament_id: int, game: str, reason: str, actor: str = ORGANISER,
                **sheet: Any) -> Tournament:
        """Correct a finished game's result, with the reason (D11); a confirmed game must be
        unlocked first (D12). The scoresheet as for :meth:`enter_result`."""
        return self._act(tournament_id, r.ResultCorrected(actor=actor, at=_now(), game=_key(game),
                                                          result=_sheet(sheet), reason=reason))

    def unlock(self, tournament_id: int, game: str, reason: str, actor: str = ORGANISER) -> Tournament:
        """Unlock a confirmed game so that it can be corrected, with the reason (D12)."""
        return self._act(tournament_id, r.GameUnlocked(actor=actor, at=_now(), game=_key(game),
                                                       reason=reason))

    def call(self, tournament_id: int, game: str, table: int, actor: str = ORGANISER) -> Tournament:
        """Call a waiting game to a free table now, with its match (D5)."""
        key = _key(game)

        def prepare(state: DayState) -> Callable[[Connection], list[Record]]:
            record = r.GameCalled(actor=actor, at=_now(), game=key, table=table)
            return lambda connection: self._with_matches(connection, state, [record])

        self.days.change(tournament_id, prepare)
        return self.read(tournament_id)

    def schedule(self, tournament_id: int, game: str, actor: str = ORGANISER, *, table: int | None = None,
                 start: datetime | None = None) -> Tournament:
        """Give a waiting game its table and/or start time (``None``: none) (D7)."""
        return self._act(tournament_id, r.GameScheduled(actor=actor, at=_now(), game=_key(game), table=table,
                                                        start=start))

    def schedule_round(self, tournament_id: int, stage: int, round_no: int, start: datetime | None,
                       actor: str = ORGANISER, group: int | None = None) -> Tournament:
        """Give every game of a round (of one group, or of the whole stage) a start time (D7)."""
        return self._act(tournament_id, r.RoundScheduled(actor=actor, at=_now(), stage=stage, round=round_no,
                                                         group=group, start=start))

    def move(self, tournament_id: int, game: str, table: int, actor: str = ORGANISER) -> Tournament:
        """Move a game on a table to another, free, table (D6)."""
        return self._act(tournament_id, r.GameMoved(actor=actor, at=_now(), game=_key(game), table=table))

    def swap(self, tournament_id: int, first: str, second: str, actor: str = ORGANISER) -> Tournament:
        """Swap two waiting games' places in the schedule, or two playing games' tables (D6)."""
        return self._act(tournament_id, r.GamesSwapped(actor=actor, at=_now(), first=_key(first),
                                                       second=_key(second)))

    def postpone(self, tournament_id: int, game: str, actor: str = ORGANISER) -> Tournament:
        """Send a waiting game to the end of the schedule (D6)."""
        return self._act(tournament_id, r.GamePostponed(actor=actor, at=_now(), game=_key(game)))

    def audit(self, tournament_id: int) -> list[Logged]:
        """Every record of the tournament's log, in order: who, when, what."""
        self.days.state(tournament_id)
        return self.days.records(tournament_id)

    def _act(self, tournament_id: int, record: Record) -> Tournament:
        self._change(tournament_id, lambda state: [record])
        return self.read(tournament_id)

    def _change(self, tournament_id: int, make: Callable[[DayState], list[Record]]) -> DayState:
        def prepare(state: DayState) -> Callable[[Connection], list[Record]]:
            made = make(state)
            return lambda connection: made
        return self.days.change(tournament_id, prepare)

    # --- the schedule ---------------------------------------------------------------------

    def advance(self, tournament_id: int) -> DayState:
        """Append what the schedule does by itself now (:func:`~carom.competition.day.due`):
        results of finished matches, the next stage fed, waiting games called to free tables
        with their matches. Exactly once, however many processes do it at the same time."""
        def prepare(state: DayState) -> Callable[[Connection], list[Record]] | None:
            records = due(state, self._matches(state), _now())
            if not records:
                return None
            return lambda connection: self._with_matches(connection, state, records)

        return self.days.change(tournament_id, prepare)

    def _matches(self, state: DayState) -> dict[GameKey, MatchView]:
        """What the schedule needs of each called game's match, seen in the game's order."""
        out = {}
        for game in derived(state).games:
            call = state.calls.get(game.key)
            if call is None or call.match is None or game.status not in (PLAYING, DONE):
                continue
            if game.status == DONE and (game.taken is None or game.taken.source != "match"):
                continue
            snap = self.book.snapshot(call.match)
            result = None
            if snap.state.finished and snap.problem is None:
                result = Result(snap.state.points_total, snap.state.innings_total, snap.state.high_run,
                                snap.state.winner)
                if snap.players is not None and snap.players == (game.players[1], game.players[0]):
                    result = flipped(result)
            out[game.key] = MatchView(result is not None, result, snap.confirmation.confirmed)
        return out

    def _with_matches(self, connection: Connection, state: DayState, records: list[Record]) -> list[Record]:
        """The records with a new match for every called game that has none (in this
        transaction: if the records are refused, or another process wrote first, no match stays)."""
        settings = state.settings
        assert settings is not None
        out: list[Record] = []
        current = state
        for record in records:
            if isinstance(record, r.GameCalled) and record.match is None:
                game = derived(current).by_key.get(record.game)
                if game is None:
                    raise Refused("game", f"no game {record.game}")
                record = r.GameCalled(actor=record.actor, at=record.at, game=record.game, table=record.table,
                                      match=self._new_match(connection, current, game.players, game.key))
            current = apply(current, record)
            out.append(record)
        return out

    def _new_match(self, connection: Connection, state: DayState, players: tuple[int, int],
                   key: GameKey) -> int:
        settings = state.settings
        assert settings is not None
        p = schema.players.c
        found = connection.execute(select(p.id, p.name).where(p.id.in_(players)))
        names = {int(row.id): row.name for row in found}
        handicap = None
        if settings.handicap:
            default = settings.points or 1
            handicap = (state.targets.get(players[0], default), state.targets.get(players[1], default))
        header = game_header(settings, (names[players[0]], names[players[1]]), handicap, key.knockout)
        try:
            line = format_header(parse_header(json.dumps(header, ensure_ascii=False)))
        except RecordError as error:
            raise TournamentError(f"game {key}: its match cannot be made: {error}") from None
        m = schema.matches.c
        return int(connection.execute(insert(schema.matches).values(
            header=line, referee_token=self._new_token(), player0_id=players[0], player1_id=players[1])
            .returning(m.id)).scalar_one())

    def tournament_of(self, match_id: int) -> int | None:
        """The tournament whose game ``match_id`` is, if any."""
        found = self.days.game_of(match_id)
        return None if found is None else found[0]

    def game_over(self, match_id: int) -> Tournament | None:
        """A game's match has just finished (or its result was confirmed): :meth:`advance`
        its tournament now. ``None`` for a match of no tournament."""
        tournament_id = self.tournament_of(match_id)
        if tournament_id is None:
            return None
        self.advance(tournament_id)
        return self.read(tournament_id, advance=False)

    # --- reads ------------------------------------------------------------------------------

    def read(self, tournament_id: int, *, advance: bool = True, tokens: bool = False) -> Tournament:
        """The tournament as it stands (after :meth:`advance` unless told otherwise);
        ``tokens``: with each called game's referee token (for the organiser)."""
        state = self.advance(tournament_id) if advance else self.days.state(tournament_id)
        assert state.settings is not None
        register = self._register(state.players())
        games = []
        for order_no, game in enumerate(derived(state).games, start=1):
            call = state.calls.get(game.key)
            snap: Snapshot | None = None
            token = None
            if call is not None and call.match is not None:
                snap = self.book.snapshot(call.match)
                token = self.book.live(call.match).token if tokens else None
            games.append(game_view(game, order_no, snap, token, state))
        return Tournament(tournament_id, state.settings, state_name(state), participants(state, register),
                          first_groups(state), tuple(games), day=state)

    def player_names(self, ids: Iterable[int]) -> dict[int, str]:
        """The register's names of these players."""
        return {pid: name for pid, (name, _club) in self._register(ids).items()}

    def _register(self, ids: Iterable[int]) -> dict[int, tuple[str, str | None]]:
        wanted = list(ids)
        if not wanted:
            return {}
        p = schema.players.c
        with self.engine.connect() as connection:
            return {int(row.id): (row.name, row.club) for row in connection.execute(
                select(p.id, p.name, p.club).where(p.id.in_(wanted)))}

    def list(self) -> list[tuple[int, str, str, str, int]]:
        """Every tournament, newest first: id, name, mode, state, number of players."""
        out = []
        for tid in self.days.ids():
            state = self.days.state(tid)
            assert state.settings is not None
            out.append((tid, state.settings.name, state.settings.mode, state_name(state), len(state.entries)))
        return out


def _fields(settings: Settings) -> dict[str, Any]:
    return {name: getattr(settings, name) for name in Settings.__dataclass_fields__}


def _key(text: str) -> GameKey:
    try:
        return GameKey.parse(text)
    except ValueError as error:
        raise TournamentError(str(error), "game") from None


def _sheet(sheet: Mapping[str, Any]) -> Result:
    """A paper scoresheet's result: innings by innings, or totals (:class:`TournamentError`)."""
    known = {"series", "points", "innings", "high_run", "winner"}
    if extra := set(sheet) - known:
        raise TournamentError(f"{sorted(extra)[0]!r:.40}: no field of a scoresheet")
    winner = sheet.get("winner")
    if winner is not None and (isinstance(winner, bool) or winner not in (0, 1)):
        raise TournamentError("winner: expected 0 or 1 (the side) or null", "winner")
    try:
        if sheet.get("series") is not None:
            if any(sheet.get(k) is not None for k in ("points", "innings", "high_run")):
                raise Refused("series", "give the series inning by inning, or the totals, not both")
            return Result.from_series(sheet["series"], winner)
        values = [sheet.get(k) for k in ("points", "innings", "high_run")]
        for name, value in zip(("points", "innings", "high_run"), values, strict=True):
            if not isinstance(value, list | tuple) or len(value) != 2:
                raise Refused(name, "expected two whole numbers (one a player)")
        return Result.totals(tuple(values[0]), tuple(values[1]), tuple(values[2]), winner)  # type: ignore[arg-type]
    except Refused as error:
        raise TournamentError.of(error) from None


def _entry(i: int, entry: Mapping[str, Any]) -> Entry:
    """One entry checked: (player id, name, register fields, seed, target, stage)."""
    where = f"players[{i}]"
    if not isinstance(entry, Mapping):
        raise TournamentError(f'{where}: expected {{"player": id}} or {{"name": "..."}}')
    known = {"player", "name", "club", "country", "licence", "seed", "target", "stage"}
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
                                  or not 1 <= value <= MAX_LIMIT):
            raise TournamentError(f"{where}.{key}: expected a whole number from 1 to {MAX_LIMIT}")
        numbers.append(value)
    stage = entry.get("stage", 1)
    if isinstance(stage, bool) or not isinstance(stage, int) or not 1 <= stage <= 8:
        raise TournamentError(f"{where}.stage: expected a stage's number")
    return (player, None if name is None else " ".join(name.split()), register, numbers[0], numbers[1], stage)


def _player_ids(connection: Connection, checked: Sequence[Entry]) -> list[int]:
    """The entries' players: by id, or by name (made when nobody has it)."""
    p = schema.players.c
    ids: list[int] = []
    for i, (player, name, extra, *_rest) in enumerate(checked):
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
    return ids
