"""The hall's log in the database: the club's tables, their paired devices and the one-off
matches put on them, as records of :mod:`carom.competition.tables` (rows of ``table_log``).

A change reads the log as it stands, makes its records against that state, checks them
by applying them and writes them at the next numbers in one transaction. When another
process wrote first, the primary key (seq) refuses the write and the change is tried
again on the new state: no lock anywhere. The folded state is kept; a read fetches only
newer records.

Secrets never reach the database: a pairing code and a device token are handed out once
and kept as their SHA-256 hashes (the token is 256 random bits, so a hash without a salt
or a slow function is enough: nothing can be guessed from it).
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from sqlalchemy import Connection, insert, select
from sqlalchemy.exc import IntegrityError, OperationalError

from carom.competition.tables import Device, Record, Refused, Table, TablesState, apply, from_json, to_json
from carom.competition.tables import records as r
from carom.core.table import TABLES
from carom.storage import schema
from carom.storage.errors import StorageError, UnknownMatch
from carom.storage.store import SqlStore

RETRIES = 20
PAIRING_MINUTES = 30
"""How long a pairing code stays good (TD4)."""
DEVICE = "device"
"""The actor of a pairing: the device that brought the code (the code names who opened it)."""


class HallError(StorageError):
    """A change the hall cannot take (the message names the field, and the rule)."""

    def __init__(self, message: str, field: str | None = None, rule: str | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.rule = rule

    @classmethod
    def of(cls, refused: Refused) -> HallError:
        return cls(str(refused), refused.field, refused.rule)


@dataclass(frozen=True, slots=True)
class Logged:
    """A stored record with its number."""

    seq: int
    record: Record


def secret_hash(secret: str) -> str:
    """The hash a pairing code or a device token is kept as."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def now() -> datetime:
    return datetime.now(UTC)


class Hall:
    """The hall's log of a store."""

    def __init__(self, store: SqlStore, clock: Callable[[], datetime] = now) -> None:
        self.store = store
        self.clock = clock
        """The time of each record (the tests move it on)."""
        self.engine = store.engine
        self._state = TablesState()
        self._lock = threading.Lock()

    # --- reads -------------------------------------------------------------------------

    def state(self) -> TablesState:
        """The hall as its log stands (the records since the last read fetched and applied)."""
        with self._lock:
            known = self._state
        state = known
        for logged in self.records(after=known.seq):
            try:
                state = apply(state, logged.record)
            except Refused as error:  # a log another version of the rules wrote
                raise HallError(f"the hall's record {logged.seq}: {error}") from None
        self._keep(state)
        return state

    def records(self, after: int = 0) -> list[Logged]:
        """The stored records after number ``after``, in order."""
        log = schema.table_log.c
        with self.engine.connect() as connection:
            rows = connection.execute(select(log.seq, log.body).where(log.seq > after)
                                      .order_by(log.seq)).all()
        return [Logged(int(row.seq), from_json(json.loads(row.body))) for row in rows]

    def table(self, name: str) -> Table:
        """The table in the hall of this name (:class:`HallError`, TD2)."""
        found = self.state().table(name)
        if found is None:
            raise HallError(f"table: no table {name[:40]!r} in the hall (TD2)", "table", "TD2")
        return found

    def device(self, token: str | None) -> Device | None:
        """The device that holds ``token`` now (``None``: no such token, or revoked)."""
        if not token or len(token) > 200:
            return None
        return self.state().device(secret_hash(token))

    # --- changes -----------------------------------------------------------------------

    def change(self, make: Callable[[TablesState], list[Record]]) -> TablesState:
        """Append the records ``make`` makes against the hall as it stands, in one
        transaction; made again on the new state when another process wrote first."""
        for attempt in range(RETRIES):
            state = self.state()
            try:
                made = make(state)
                after = state
                for record in made:
                    after = apply(after, record)
            except Refused as error:
                raise HallError.of(error) from None
            try:
                self.store.run(_inserting(state.seq + 1, made))
            except OperationalError:  # SQLite: another process held the write lock
                time.sleep(0.01 * attempt)
                continue
            except IntegrityError:  # another process appended first: again, on the new state
                continue
            self._keep(after)
            return after
        raise HallError("the hall: other changes kept coming first; try again")

    def register(self, name: str, size: str, order: int, actor: str) -> Table:
        """A new table in the hall (TD1); its size one of the core's tables."""
        if size not in TABLES:
            raise HallError(f"size: expected one of {', '.join(TABLES)} (TD1)", "size", "TD1")
        state = self.change(lambda s: [r.Registered(actor=actor, at=self.clock(), name=name, size=size,
                                                    order=order)])
        return max(state.tables.values(), key=lambda t: t.id)

    def reorder(self, name: str, order: int, actor: str) -> None:
        self.change(lambda s: [r.Reordered(actor=actor, at=self.clock(), name=name, order=order)])

    def retire(self, name: str, actor: str) -> None:
        """The table leaves the hall: its devices stop, its one-off matches leave it (TD3)."""
        self.change(lambda s: [r.Retired(actor=actor, at=self.clock(), name=name)])

    def open_pairing(self, name: str, actor: str, minutes: int = PAIRING_MINUTES) -> tuple[str, datetime]:
        """A new one-time pairing code for the table's tablet (TD4), and until when it is
        good. The code itself is given here once; the log keeps its hash."""
        code = secrets.token_urlsafe(12)
        at = self.clock()
        until = at + timedelta(minutes=minutes)
        self.change(lambda s: [r.PairingOpened(actor=actor, at=at, table=name, code=secret_hash(code),
                                               until=until)])
        return code, until

    def pair(self, name: str, code: str) -> tuple[Device, str]:
        """A device pairs with a code (TD4, TD5): the device and its token, given here once."""
        if not code or len(code) > 200:
            raise HallError("code: expected the pairing code the organiser's page gives (TD4)", "code", "TD4")
        token = secrets.token_urlsafe(32)
        state = self.change(lambda s: [r.Paired(actor=DEVICE, at=self.clock(), table=name,
                                                code=secret_hash(code), token=secret_hash(token))])
        device = state.device(secret_hash(token))
        assert device is not None
        return device, token

    def revoke(self, name: str, device: int, actor: str) -> None:
        self.change(lambda s: [r.Revoked(actor=actor, at=self.clock(), table=name, device=device)])

    def put(self, name: str, match: int, actor: str, *,
            is_game: Callable[[int], bool] = lambda _: False) -> None:
        """A one-off match on the table, after the ones there (TD6). ``is_game`` says whether a
        match is a tournament's game: those come to tables by the tournament's calls."""
        self._known_match(match)
        if is_game(match):
            raise HallError(f"match: match {match} is a tournament's game: the tournament calls it to "
                            "its tables (TD6)", "match", "TD6")
        self.put_all([(name, match)], actor)

    def put_all(self, placed: Sequence[tuple[str, int]], actor: str) -> None:
        """One-off matches on tables (each a table's name and a match), in this order, in one
        change of the hall: all of them, or none (TD6)."""
        for _, match in placed:
            self._known_match(match)
        self.change(lambda s: [r.MatchPut(actor=actor, at=self.clock(), table=name, match=match)
                               for name, match in placed])

    def take(self, name: str, match: int, actor: str) -> None:
        self.change(lambda s: [r.MatchTaken(actor=actor, at=self.clock(), table=name, match=match)])

    def set_tournament_tables(self, tournament: int, names: Sequence[str], actor: str,
                              tables: int | None = None) -> None:
        """The tables a tournament plays on, its table 1 first (TD7). ``tables``: how many the
        tournament has; the list must name that many."""
        if tables is not None and names and len(names) != tables:
            raise HallError(f"tables: the tournament plays on {tables} tables; name {tables}, not "
                            f"{len(names)} (TD7)", "tables", "TD7")
        self.change(lambda s: [r.TournamentTables(actor=actor, at=self.clock(), tournament=tournament,
                                                  tables=tuple(names))])

    def _known_match(self, match: int) -> None:
        if isinstance(match, bool) or not isinstance(match, int) or not 0 < match <= 2**31 - 1:
            raise UnknownMatch(match if isinstance(match, int) else 0)
        m = schema.matches.c
        with self.engine.connect() as connection:
            if connection.execute(select(m.id).where(m.id == match)).first() is None:
                raise UnknownMatch(match)

    def _keep(self, state: TablesState) -> None:
        with self._lock:
            if state.seq > self._state.seq:
                self._state = state


def _inserting(first: int, made: Sequence[Record]) -> Callable[[Connection], None]:
    """The job that writes ``made`` at numbers ``first``, ``first + 1``, …"""
    return lambda connection: _insert(connection, first, made)


def _insert(connection: Connection, first: int, made: Sequence[Record]) -> None:
    if made:
        connection.execute(insert(schema.table_log), [
            {"seq": seq, "kind": r.kind_of(record), "actor": record.actor[:200], "at": record.at,
             "body": json.dumps(to_json(record), ensure_ascii=False)}
            for seq, record in enumerate(made, start=first)])
