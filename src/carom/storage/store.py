"""The storage interface and its SQLAlchemy implementation (SQLite, PostgreSQL).

A match is its header line, its referee token, its two players (by id) and its
records, numbered 1, 2, … in the order they were appended. Records are never changed or deleted: a
correction is a new ``undo`` record (FORMAT.md). Every append names the sequence
number it follows, and the primary key (match, seq) refuses a second record after
the same one, whatever process or server wrote the first.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol, TypeVar

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from carom.storage import schema
from carom.storage.changes import CHANNEL, Change, ChangeListener, notify, payload
from carom.storage.engine import Checkpointer, database_url, make_engine
from carom.storage.errors import StaleSequence, StorageError, UnknownMatch
from carom.storage.events import Actor, EventKind, MatchEvent
from carom.storage.migrate import upgrade
from carom.storage.players import AmbiguousName, Player, SamePlayer, UnknownPlayer, name_key
from carom.storage.roles import Account, Role
from carom.storage.writer import Writer

T = TypeVar("T")
MAX_ID = 2**31 - 1
"""The largest id the databases' integer columns hold: a larger one names no match."""

_INSERT_RECORD = insert(schema.records)
_STORED = (insert(schema.records).values(match_id=bindparam("match_id"), seq=bindparam("seq"),
                                         line=bindparam("line"), account_id=bindparam("account_id"))
           .returning(schema.records.c.seq).cte("stored"))
_INSERT_NOTIFIED = select(func.pg_notify(bindparam("channel"), bindparam("payload"))).select_from(_STORED)
"""PostgreSQL: a record stored and the other processes told of it in one round trip."""
_MATCH_EXISTS = select(schema.matches.c.id).where(schema.matches.c.id == bindparam("match_id"))
_LAST_SEQ = (select(func.coalesce(func.max(schema.records.c.seq), 0))
             .where(schema.records.c.match_id == bindparam("match_id")))


@dataclass(frozen=True, slots=True)
class StoredMatch:
    """A match as stored: the header line, the referee token, the record lines."""

    id: int
    header: str
    token: str
    lines: tuple[str, ...]
    """Record ``seq`` is ``lines[seq - 1]``."""
    created: datetime | None = None
    players: tuple[int, int] | None = None
    """The players' ids (``None``: stored without players)."""
    events: tuple[MatchEvent, ...] = ()
    referee: Account | None = None
    """The referee's account the match is given to."""


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A line of the list of matches."""

    id: int
    header: str
    records: int
    created: datetime | None = None
    players: tuple[int, int] | None = None


class Store(Protocol):
    """What the scoreboard needs from a database, and nothing more."""

    def create_match(self, header: str, token: str, lines: Sequence[str] = (),
                     players: tuple[str, str] | None = None,
                     player_ids: tuple[int, int] | None = None, by: Account | None = None,
                     within: Connection | None = None) -> int:
        """A new match with its header line and referee token (and, for an import,
        its records); returns its id. ``players``: the two names, each made the player
        of that name (:mod:`carom.storage.players`); :class:`SamePlayer` when they are one,
        :class:`AmbiguousName` when a name is several players'. ``player_ids``: the two
        players by id instead (a register's players), :class:`UnknownPlayer` if one is not.
        ``by``: the account that creates it (its imported records are that account's too).
        ``within``: a write transaction of :meth:`SqlStore.run` to make it in (a league
        meeting's games are made with its line-up, all or nothing)."""
        ...

    def set_token(self, match_id: int, token: str) -> None:
        """Replace the match's referee token: the old tablet link stops working."""
        ...

    def add_event(self, match_id: int, kind: EventKind, actor: Actor, seq: int,
                  account: Account | None = None, detail: str | None = None) -> MatchEvent:
        """Append an event to the match's history (:mod:`carom.storage.events`), done by
        ``account``."""
        ...

    def give(self, match_id: int, referee: Account | None) -> None:
        """Give the match to a referee's account (``None``: to nobody)."""
        ...

    def players(self) -> list[Player]:
        """Every player, by name."""
        ...

    def append(self, match_id: int, after: int, line: str, account: int | None = None) -> int:
        """Append ``line`` after record ``after`` (0: the header) and return its
        sequence number, once it is durable. :class:`StaleSequence` when ``after`` is
        not the last record, :class:`UnknownMatch` when there is no such match.
        ``account``: the id of the account that entered it (``None``: the tablet link alone)."""
        ...

    def append_future(self, match_id: int, after: int, line: str,
                      account: int | None = None) -> Future[int]:
        """:meth:`append` without waiting (for an event loop): a future of the same."""
        ...

    def read(self, match_id: int) -> StoredMatch:
        """The match with all its records (:class:`UnknownMatch`)."""
        ...

    def read_after(self, match_id: int, seq: int) -> StoredMatch:
        """The match with its records after ``seq`` only."""
        ...

    def matches(self) -> list[MatchInfo]:
        """Every match, newest first, with its number of records."""
        ...

    def setting(self, key: str) -> str | None:
        ...

    def count_up(self, key: str) -> int:
        """Add one to a counting setting (0 when unset) and return the new count."""
        ...

    def close(self) -> None:
        ...


class SqlStore:
    """:class:`Store` on SQLAlchemy: writes go through one group-committing writer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.origin = secrets.token_hex(6)
        """This store's name in the change notifications (:mod:`carom.storage.changes`)."""
        upgrade(engine)
        self._writer = Writer(engine)
        self._checkpointer = Checkpointer(engine) if engine.dialect.name == "sqlite" else None
        self._last: dict[int, int] = {}
        """The last sequence number this store wrote, per match: a write that follows it
        needs no query (if another process wrote since, the primary key refuses it)."""

    # --- writes ---------------------------------------------------------------------

    def run(self, job: Callable[[Connection], T]) -> T:
        """Run ``job`` in a write transaction of the single writer (other tables than the
        records': tournaments, the register); its result once committed."""
        return self._writer.run(job)

    def create_match(self, header: str, token: str, lines: Sequence[str] = (),
                     players: tuple[str, str] | None = None,
                     player_ids: tuple[int, int] | None = None, by: Account | None = None,
                     within: Connection | None = None) -> int:
        if player_ids is not None and player_ids[0] == player_ids[1]:
            raise SamePlayer(f"player {player_ids[0]}")
        if players is not None and name_key(players[0]) == name_key(players[1]):
            raise SamePlayer(players[0])

        def job(connection: Connection) -> int:
            ids: tuple[int | None, int | None] = (None, None)
            if player_ids is not None:
                ids = self._known_players(connection, player_ids)
            elif players is not None:
                ids = self._player_ids(connection, players)
            result = connection.execute(
                insert(schema.matches).values(header=header, referee_token=token,
                                              player0_id=ids[0], player1_id=ids[1],
                                              created_by=None if by is None else by.id)
                .returning(schema.matches.c.id)
            )
            match_id = int(result.scalar_one())
            if lines:
                author = None if by is None else by.id
                connection.execute(insert(schema.records), [
                    {"match_id": match_id, "seq": seq, "line": line, "account_id": author}
                    for seq, line in enumerate(lines, start=1)
                ])
            notify(connection, self.origin, match_id)
            return match_id

        return job(within) if within is not None else self._writer.run(job)

    @staticmethod
    def _player_ids(connection: Connection, names: tuple[str, str]) -> tuple[int, int]:
        """The players of these names, made where there is none; refuses before it writes."""
        p = schema.players.c
        found: list[int | None] = []
        for name in names:
            ids = connection.execute(select(p.id).where(p.name_key == name_key(name))).scalars().all()
            if len(ids) > 1:
                raise AmbiguousName(name, len(ids))
            found.append(ids[0] if ids else None)
        made = [known if known is not None else connection.execute(
            insert(schema.players).values(name=name, name_key=name_key(name)).returning(p.id)).scalar_one()
            for known, name in zip(found, names, strict=True)]
        return int(made[0]), int(made[1])

    @staticmethod
    def _known_players(connection: Connection, ids: tuple[int, int]) -> tuple[int, int]:
        p = schema.players.c
        for player_id in ids:
            if not 0 < player_id <= MAX_ID or connection.execute(
                    select(p.id).where(p.id == player_id)).first() is None:
                raise UnknownPlayer(player_id)
        return ids

    def set_token(self, match_id: int, token: str) -> None:
        _check_id(match_id)

        def job(connection: Connection) -> None:
            done = connection.execute(update(schema.matches).where(schema.matches.c.id == match_id)
                                      .values(referee_token=token))
            if done.rowcount != 1:
                raise UnknownMatch(match_id)
            notify(connection, self.origin, match_id)

        self._writer.run(job)

    def add_event(self, match_id: int, kind: EventKind, actor: Actor, seq: int,
                  account: Account | None = None, detail: str | None = None) -> MatchEvent:
        _check_id(match_id)
        if actor is Actor.ACCOUNT and account is None:
            raise StorageError("an account's event names its account")
        e = schema.match_events.c

        def job(connection: Connection) -> MatchEvent:
            if connection.execute(_MATCH_EXISTS, {"match_id": match_id}).first() is None:
                raise UnknownMatch(match_id)
            at = connection.execute(insert(schema.match_events).values(
                match_id=match_id, kind=kind.value, actor=actor.value, seq=seq, detail=detail,
                account_id=None if account is None else account.id).returning(e.created_at)
            ).scalar_one()
            notify(connection, self.origin, match_id)
            return MatchEvent(kind, actor, seq, at, account, detail)

        return self._writer.run(job)

    def give(self, match_id: int, referee: Account | None) -> None:
        _check_id(match_id)

        def job(connection: Connection) -> None:
            done = connection.execute(update(schema.matches).where(schema.matches.c.id == match_id)
                                      .values(referee_account_id=None if referee is None else referee.id))
            if done.rowcount != 1:
                raise UnknownMatch(match_id)

        self._writer.run(job)

    def append(self, match_id: int, after: int, line: str, account: int | None = None) -> int:
        return self.append_future(match_id, after, line, account).result()

    def append_future(self, match_id: int, after: int, line: str,
                      account: int | None = None) -> Future[int]:
        """:meth:`append` without waiting: the future holds the sequence number once the
        record is durable (or :class:`StaleSequence`, :class:`UnknownMatch`)."""

        _check_id(match_id)

        def job(connection: Connection) -> int:
            if self._last.get(match_id) != after:  # not known to be the last: ask the database
                current = self._last_seq(connection, match_id)
                if after != current:
                    raise StaleSequence(match_id, after, current)
            values = {"match_id": match_id, "seq": after + 1, "line": line, "account_id": account}
            try:
                if connection.dialect.name == "postgresql":
                    said = payload(self.origin, match_id, (after + 1, line))
                    connection.execute(_INSERT_NOTIFIED, {**values, "channel": CHANNEL, "payload": said})
                else:
                    connection.execute(_INSERT_RECORD, values)
            except IntegrityError as error:  # another process appended after ``after`` first
                self._last.pop(match_id, None)
                raise StaleSequence(match_id, after, after + 1) from error
            self._last[match_id] = after + 1
            return after + 1

        return self._writer.submit(job)

    def count_up(self, key: str) -> int:
        s = schema.settings.c

        def job(connection: Connection) -> int:
            current = connection.execute(select(s.value).where(s.key == key)).scalar()
            count = int(current or 0) + 1
            if current is None:
                connection.execute(insert(schema.settings).values(key=key, value=str(count)))
            else:
                connection.execute(update(schema.settings).where(s.key == key).values(value=str(count)))
            return count

        return self._writer.run(job)

    # --- reads ----------------------------------------------------------------------

    def read(self, match_id: int) -> StoredMatch:
        return self.read_after(match_id, 0)

    def read_after(self, match_id: int, seq: int) -> StoredMatch:
        """The match with only its records after ``seq`` (``lines[0]`` is record
        ``seq + 1``), its token and all its events: what another process wrote since."""
        _check_id(match_id)
        m, r, e, a = schema.matches.c, schema.records.c, schema.match_events.c, schema.accounts.c
        with self.engine.connect() as connection:
            row = connection.execute(
                select(m.header, m.referee_token, m.created_at, m.player0_id, m.player1_id,
                       a.id, a.name, a.role)
                .outerjoin_from(schema.matches, schema.accounts, a.id == m.referee_account_id)
                .where(m.id == match_id)
            ).first()
            if row is None:
                raise UnknownMatch(match_id)
            lines = connection.execute(
                select(r.line).where(r.match_id == match_id, r.seq > seq).order_by(r.seq)
            ).scalars().all()
            events = tuple(MatchEvent(EventKind(x.kind), Actor(x.actor), x.seq, x.created_at,
                                      _account(x.id, x.name, x.role), x.detail)
                           for x in connection.execute(
                               select(e.kind, e.actor, e.seq, e.created_at, e.detail, a.id, a.name, a.role)
                               .outerjoin_from(schema.match_events, schema.accounts, a.id == e.account_id)
                               .where(e.match_id == match_id).order_by(e.id)))
        return StoredMatch(match_id, row.header, row.referee_token, tuple(lines), row.created_at,
                           _pair(row.player0_id, row.player1_id), events,
                           _account(row.id, row.name, row.role))

    def listen(self, changed: Callable[[Change | None], None]) -> ChangeListener | None:
        """Be told of the matches other processes change (PostgreSQL; ``None`` on SQLite,
        which one process serves): ``changed(change)``, ``changed(None)`` after a gap."""
        if self.engine.dialect.name != "postgresql":
            return None
        listener = ChangeListener(self.engine.url.render_as_string(hide_password=False), self.origin, changed)
        listener.start()
        return listener

    def matches(self) -> list[MatchInfo]:
        m, r = schema.matches.c, schema.records.c
        counts = (select(r.match_id, func.count().label("n")).group_by(r.match_id).subquery())
        query = (select(m.id, m.header, m.created_at, m.player0_id, m.player1_id,
                        func.coalesce(counts.c.n, 0).label("n"))
                 .outerjoin(counts, counts.c.match_id == m.id).order_by(m.id.desc()))
        with self.engine.connect() as connection:
            return [MatchInfo(row.id, row.header, int(row.n), row.created_at,
                              _pair(row.player0_id, row.player1_id))
                    for row in connection.execute(query)]

    def players(self) -> list[Player]:
        p = schema.players.c
        with self.engine.connect() as connection:
            return [Player(row.id, row.name, row.created_at)
                    for row in connection.execute(select(p.id, p.name, p.created_at).order_by(p.name, p.id))]

    def setting(self, key: str) -> str | None:
        s = schema.settings.c
        with self.engine.connect() as connection:
            return connection.execute(select(s.value).where(s.key == key)).scalar()

    def close(self) -> None:
        self._writer.close()
        if self._checkpointer is not None:
            self._checkpointer.close()
        self.engine.dispose()

    @staticmethod
    def _last_seq(connection: Connection, match_id: int) -> int:
        if connection.execute(_MATCH_EXISTS, {"match_id": match_id}).first() is None:
            raise UnknownMatch(match_id)
        return int(connection.execute(_LAST_SEQ, {"match_id": match_id}).scalar_one())


def _check_id(match_id: int) -> None:
    """Ids the databases cannot hold name no match (not an overflow error)."""
    if not 0 < match_id <= MAX_ID:
        raise UnknownMatch(match_id)


def _account(account_id: int | None, name: str | None, role: str | None) -> Account | None:
    if account_id is None or name is None or role is None:
        return None
    return Account(account_id, name, Role(role))


def _pair(first: int | None, second: int | None) -> tuple[int, int] | None:
    return None if first is None or second is None else (int(first), int(second))


def open_store(data: Path | str = "carom-data", database: str | None = None) -> SqlStore:
    """The store at ``database`` (an SQLAlchemy URL), else SQLite in the ``data`` folder;
    migrated to the current schema."""
    return SqlStore(make_engine(database_url(data, database)))
