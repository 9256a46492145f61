"""Database engines: SQLite in a data folder (the default) or any SQLAlchemy URL.

SQLite runs with a write-ahead log and ``synchronous=FULL``: a commit is on disk
before it returns, so a record is durable before the server acknowledges it.
Transactions begin with ``BEGIN`` issued here (not by the driver), so that
savepoints and transactional DDL work as documented by SQLAlchemy.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event

SQLITE_FILE = "carom.sqlite3"


def database_url(data: Path | str, database: str | None = None) -> str:
    """``database`` when given, else the SQLite file in the ``data`` folder (created)."""
    if database:
        return database
    folder = Path(data)
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite+pysqlite:///{(folder / SQLITE_FILE).resolve()}"


def make_engine(url: str) -> Engine:
    """An engine for ``url``, set up for durable appends."""
    if url.startswith("sqlite"):
        engine = create_engine(url, pool_size=8, max_overflow=32,
                               connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_connect)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_size=8, max_overflow=32, pool_pre_ping=True)


class Checkpointer:
    """Copies SQLite's write-ahead log back into the database, once a second, in a
    thread of its own: a passive checkpoint never blocks the writer, so no write waits
    for one (SQLite's automatic checkpoint would run inside a commit every thousand
    pages and hold up every tablet for its duration)."""

    def __init__(self, engine: Engine, every: float = 1.0) -> None:
        self._engine = engine
        self._every = every
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="carom-checkpoint", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self.checkpoint("PASSIVE")

    def checkpoint(self, mode: str) -> None:
        try:
            with self._engine.connect() as connection:
                connection.exec_driver_sql(f"PRAGMA wal_checkpoint({mode})")
        except Exception:  # a checkpoint is housekeeping: the next one tries again
            return

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
        self.checkpoint("TRUNCATE")


def _sqlite_connect(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # we issue BEGIN ourselves (see _sqlite_begin)
    cursor = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON", "busy_timeout=30000",
                   "wal_autocheckpoint=0"):  # the checkpointer does it, off the writer's path
        cursor.execute(f"PRAGMA {pragma}")
    cursor.close()


def _sqlite_begin(connection: Any) -> None:
    connection.exec_driver_sql("BEGIN")
