"""The storage interface and its SQLAlchemy implementation (SQLite, PostgreSQL).

A match is its header line, its referee token and its records, numbered 1, 2, …
in the order they were appended. Records are never changed or deleted: a
correction is a new ``undo`` record (FORMAT.md). Every append names the sequence
number it follows, and the primary key (match, seq) refuses a second record after
the same one, whatever process or server wrote the first.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Future
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Protocol

from sqlalchemy import Connection, Engine, bindparam, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from carom.storage import schema
from carom.storage.engine import Checkpointer, database_url, make_engine
from carom.storage.errors import StaleSequence, UnknownMatch
from carom.storage.migrate import upgrade
from carom.storage.writer import Writer

ORGANISER_KEY = "organiser_password"

_INSERT_RECORD = insert(schema.records)
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


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A line of the list of matches."""

    id: int
    header: str
    records: int
    created: datetime | None = None


class Store(Protocol):
    """What the scoreboard needs from a database, and nothing more."""

    def create_match(self, header: str, token: str, lines: Sequence[str] = ()) -> int:
        """A new match with its header line and referee token (and, for an import,
        its records); returns its id."""
        ...

    def append(self, match_id: int, after: int, line: str) -> int:
        """Append ``line`` after record ``after`` (0: the header) and return its
        sequence number, once it is durable. :class:`StaleSequence` when ``after`` is
        not the last record, :class:`UnknownMatch` when there is no such match."""
        ...

    def append_future(self, match_id: int, after: int, line: str) -> Future[int]:
        """:meth:`append` without waiting (for an event loop): a future of the same."""
        ...

    def read(self, match_id: int) -> StoredMatch:
        """The match with all its records (:class:`UnknownMatch`)."""
        ...

    def matches(self) -> list[MatchInfo]:
        """Every match, newest first, with its number of records."""
        ...

    def organiser_hash(self) -> str | None:
        """The organiser's password hash, ``None`` before it was set."""
        ...

    def set_organiser_hash(self, value: str, *, replace: bool = False) -> bool:
        """Set the password hash; unless ``replace``, only when none is set yet.
        Returns whether it was set."""
        ...

    def close(self) -> None:
        ...


class SqlStore:
    """:class:`Store` on SQLAlchemy: writes go through one group-committing writer."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        upgrade(engine)
        self._writer = Writer(engine)
        self._checkpointer = Checkpointer(engine) if engine.dialect.name == "sqlite" else None
        self._last: dict[int, int] = {}
        """The last sequence number this store wrote, per match: a write that follows it
        needs no query (if another process wrote since, the primary key refuses it)."""

    # --- writes ---------------------------------------------------------------------

    def create_match(self, header: str, token: str, lines: Sequence[str] = ()) -> int:
        def job(connection: Connection) -> int:
            result = connection.execute(
                insert(schema.matches).values(header=header, referee_token=token)
                .returning(schema.matches.c.id)
            )
            match_id = int(result.scalar_one())
            if lines:
                connection.execute(insert(schema.records), [
                    {"match_id": match_id, "seq": seq, "line": line}
                    for seq, line in enumerate(lines, start=1)
                ])
            return match_id

        return self._writer.run(job)

    def append(self, match_id: int, after: int, line: str) -> int:
        return self.append_future(match_id, after, line).result()

    def append_future(self, match_id: int, after: int, line: str) -> Future[int]:
        """:meth:`append` without waiting: the future holds the sequence number once the
        record is durable (or :class:`StaleSequence`, :class:`UnknownMatch`)."""

        def job(connection: Connection) -> int:
            if self._last.get(match_id) != after:  # not known to be the last: ask the database
                current = self._last_seq(connection, match_id)
                if after != current:
                    raise StaleSequence(match_id, after, current)
            try:
                connection.execute(_INSERT_RECORD, {"match_id": match_id, "seq": after + 1, "line": line})
            except IntegrityError as error:  # another process appended after ``after`` first
                self._last.pop(match_id, None)
                raise StaleSequence(match_id, after, after + 1) from error
            self._last[match_id] = after + 1
            return after + 1

        return self._writer.submit(job)

    def set_organiser_hash(self, value: str, *, replace: bool = False) -> bool:
        def job(connection: Connection) -> bool:
            exists = connection.execute(
                select(schema.settings.c.key).where(schema.settings.c.key == ORGANISER_KEY)
            ).first() is not None
            if exists and not replace:
                return False
            if exists:
                connection.execute(update(schema.settings).where(
                    schema.settings.c.key == ORGANISER_KEY).values(value=value))
            else:
                connection.execute(insert(schema.settings).values(key=ORGANISER_KEY, value=value))
            return True

        return self._writer.run(job)

    # --- reads ----------------------------------------------------------------------

    def read(self, match_id: int) -> StoredMatch:
        m, r = schema.matches.c, schema.records.c
        with self.engine.connect() as connection:
            row = connection.execute(
                select(m.header, m.referee_token, m.created_at).where(m.id == match_id)
            ).first()
            if row is None:
                raise UnknownMatch(match_id)
            lines = connection.execute(
                select(r.line).where(r.match_id == match_id).order_by(r.seq)
            ).scalars().all()
        return StoredMatch(match_id, row.header, row.referee_token, tuple(lines), row.created_at)

    def matches(self) -> list[MatchInfo]:
        m, r = schema.matches.c, schema.records.c
        counts = (select(r.match_id, func.count().label("n")).group_by(r.match_id).subquery())
        query = (select(m.id, m.header, m.created_at, func.coalesce(counts.c.n, 0).label("n"))
                 .outerjoin(counts, counts.c.match_id == m.id).order_by(m.id.desc()))
        with self.engine.connect() as connection:
            return [MatchInfo(row.id, row.header, int(row.n), row.created_at)
                    for row in connection.execute(query)]

    def organiser_hash(self) -> str | None:
        s = schema.settings.c
        with self.engine.connect() as connection:
            return connection.execute(select(s.value).where(s.key == ORGANISER_KEY)).scalar()

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


def open_store(data: Path | str = "carom-data", database: str | None = None) -> SqlStore:
    """The store at ``database`` (an SQLAlchemy URL), else SQLite in the ``data`` folder;
    migrated to the current schema."""
    return SqlStore(make_engine(database_url(data, database)))
