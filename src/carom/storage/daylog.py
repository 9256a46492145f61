"""Tournament logs in the database: read, folded, appended with optimistic concurrency.

A tournament is its log (:mod:`carom.competition.day`): rows of ``tournament_log``, one
record each, numbered 1, 2, … A change reads the log as it stands, builds its records
against that state, checks them by applying them, and writes them at the next numbers,
in one transaction with what they need (new players, the called games' matches). When
another process wrote first, the primary key (tournament, seq) refuses the write, the
transaction is rolled back (its matches with it) and the change is tried again on the
new state: so a tournament's next games are called exactly once however many processes
advance it, without a lock anywhere. Folded states are kept in a small cache (a
tournament's last state, by its number of records): a read fetches only newer records.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, func, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from carom.competition.day import (
    DONE,
    DayState,
    GameKey,
    Record,
    Refused,
    apply,
    derived,
    from_json,
    moved_on,
    to_json,
)
from carom.competition.day import records as r
from carom.storage import schema
from carom.storage.errors import StorageError
from carom.storage.store import MAX_ID, SqlStore

CACHED = 256
RETRIES = 20
Write = Callable[[Connection], list[Record]]
"""The records of a change, made inside its transaction (new players, new matches)."""
Prepare = Callable[[DayState], Write | None]
"""A change read against the tournament as it stands (outside the transaction: it may
read matches); ``None`` when there is nothing to write."""


class TournamentError(StorageError):
    """A request the tournament cannot take (the message names the field, and the rule)."""

    def __init__(self, message: str, field: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule

    @classmethod
    def of(cls, refused: Refused) -> TournamentError:
        return cls(str(refused), refused.field, refused.rule)


class UnknownTournament(StorageError):
    def __init__(self, tournament_id: int) -> None:
        super().__init__(f"tournament: no tournament {tournament_id}")
        self.tournament_id = tournament_id


@dataclass(frozen=True, slots=True)
class Logged:
    """A stored record with its number."""

    seq: int
    record: Record


def fold(state: DayState, records: Sequence[Record]) -> DayState:
    for record in records:
        state = apply(state, record)
    return state


class DayLog:
    """The tournament logs of a store."""

    def __init__(self, store: SqlStore, cached: int = CACHED) -> None:
        self.store = store
        self.engine = store.engine
        self._cached = cached
        self._states: dict[int, DayState] = {}

    # --- reads ---------------------------------------------------------------------------

    def state(self, tournament_id: int) -> DayState:
        """The tournament as its log stands (:class:`UnknownTournament`)."""
        _check_id(tournament_id)
        known = self._states.get(tournament_id, DayState())
        newer = self.records(tournament_id, after=known.seq)
        if not newer and known.seq == 0:
            raise UnknownTournament(tournament_id)
        state = known
        for logged in newer:
            try:
                state = apply(state, logged.record)
            except Refused as error:  # a log another version of the rules wrote
                raise TournamentError(f"tournament {tournament_id}, record {logged.seq}: {error}") from None
        self._keep(tournament_id, state)
        return state

    def records(self, tournament_id: int, after: int = 0) -> list[Logged]:
        """The stored records after number ``after``, in order."""
        log = schema.tournament_log.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(log.seq, log.body).where(
                log.tournament_id == tournament_id, log.seq > after).order_by(log.seq)).all()
        return [Logged(int(row.seq), from_json(json.loads(row.body))) for row in rows]

    def _last_seq(self, tournament_id: int) -> int:
        log = schema.tournament_log.c
        with self.engine.connect() as connection:
            return int(connection.execute(select(func.coalesce(func.max(log.seq), 0)).where(
                log.tournament_id == tournament_id)).scalar_one())

    def ids(self) -> list[int]:
        """Every tournament's id, newest first."""
        t = schema.tournaments.c
        with self.engine.connect() as connection:
            return [int(i) for i in connection.execute(select(t.id).order_by(t.id.desc())).scalars()]

    def game_of(self, match_id: int) -> tuple[int, GameKey] | None:
        """The tournament and game whose match ``match_id`` is, if any."""
        if not 0 < match_id <= MAX_ID:
            return None
        m = schema.tournament_matches.c
        with self.engine.connect() as connection:
            row = connection.execute(select(m.tournament_id, m.game).where(m.match_id == match_id)).first()
        return None if row is None else (int(row.tournament_id), GameKey.parse(row.game))

    def refusal(self, match_id: int) -> str | None:
        """Why a tournament game's finished match takes no more records, ``None`` if it
        does (D14): its result was given by the organiser (a paper result, a walkover, a
        correction), or its table or one of its players has moved on to another game."""
        found = self.game_of(match_id)
        if found is None:
            return None
        tid, key = found
        state = self.state(tid)
        game = derived(state).by_key.get(key)
        if game is None or game.status != DONE:
            return None
        where = f"match {match_id} is game {key} of tournament {tid}"
        if game.taken is None or game.taken.source != "match":
            source = "a walkover" if game.taken is None else {"paper": "a paper scoresheet",
                                                              "walkover": "a walkover"}.get(
                game.taken.source, "a correction")
            return f"{where}, whose result is {source}: the organiser corrects it (D14)"
        why = moved_on(state, game)
        if why is not None:
            return f"{where}, finished, and {why}: the organiser corrects its result instead (D14)"
        return None

    # --- writes ----------------------------------------------------------------------------

    def create(self, created: r.Created) -> int:
        """A new tournament whose log begins with ``created``; its id."""
        try:
            apply(DayState(), created)
        except Refused as error:
            raise TournamentError.of(error) from None

        def job(connection: Connection) -> int:
            tid = int(connection.execute(insert(schema.tournaments).returning(schema.tournaments.c.id))
                      .scalar_one())
            _insert(connection, tid, 1, [created])
            return tid

        return self.store.run(job)

    def change(self, tournament_id: int, prepare: Prepare) -> DayState:
        """Append the records ``prepare`` makes against the tournament as it stands, in one
        transaction; tried again on the new state when another process wrote first."""
        for attempt in range(RETRIES):
            state = self.state(tournament_id)
            try:
                write = prepare(state)
            except Refused as error:
                raise TournamentError.of(error) from None
            if write is None:
                return state

            def job(connection: Connection, state: DayState = state, write: Write = write
                    ) -> tuple[list[Record], DayState]:
                made = write(connection)
                try:
                    after = fold(state, made)
                except Refused as error:
                    raise TournamentError.of(error) from None
                _insert(connection, tournament_id, state.seq + 1, made)
                return made, after

            try:
                _made, after = self.store.run(job)
            except OperationalError:  # SQLite: another process wrote since this one read
                time.sleep(0.01 * attempt)
                continue
            except IntegrityError as error:
                if self._last_seq(tournament_id) == state.seq:  # nobody appended: not a race
                    raise TournamentError(f"tournament {tournament_id}: the change was not stored "
                                          f"({type(error).__name__})") from error
                continue  # another process appended first: again, on the new state
            except Refused as error:
                raise TournamentError.of(error) from None
            self._keep(tournament_id, after)
            return after
        raise TournamentError(f"tournament {tournament_id}: other changes kept coming first; try again")

    def _keep(self, tournament_id: int, state: DayState) -> None:
        known = self._states.get(tournament_id)
        if known is not None and known.seq >= state.seq:
            return
        if len(self._states) >= self._cached:
            self._states.clear()
        self._states[tournament_id] = state


def _insert(connection: Connection, tournament_id: int, first: int, made: Sequence[Record]) -> None:
    if not made:
        return
    rows: list[dict[str, Any]] = [
        {"tournament_id": tournament_id, "seq": seq, "kind": r.kind_of(record), "actor": record.actor,
         "at": record.at, "body": json.dumps(to_json(record), ensure_ascii=False)}
        for seq, record in enumerate(made, start=first)]
    connection.execute(insert(schema.tournament_log), rows)
    calls = [{"match_id": rec.match, "tournament_id": tournament_id, "game": rec.game.text}
             for rec in made if isinstance(rec, r.GameCalled) and rec.match is not None]
    if calls:
        connection.execute(insert(schema.tournament_matches), calls)


def _check_id(tournament_id: int) -> None:
    if not 0 < tournament_id <= MAX_ID:
        raise UnknownTournament(tournament_id)
