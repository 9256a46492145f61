"""A consistent copy of the scoreboard's database while it serves (``carom backup``).

- **SQLite**: SQLite's online backup API copies the database page by page into a new
  file, as one consistent state, while the server goes on writing (the write-ahead log
  included). Restore: stop the server, put the copy in the data folder as
  ``carom.sqlite3`` (removing ``carom.sqlite3-wal`` and ``-shm`` beside it), start it.
- **PostgreSQL**: ``pg_dump`` in its custom format (one consistent snapshot, taken in a
  transaction of its own). Restore: ``pg_restore --clean --if-exists --no-owner -d URL FILE``
  into the database, the server stopped.
"""

from __future__ import annotations

import shutil
import sqlite3
import subprocess
from pathlib import Path

from sqlalchemy.engine import make_url

from carom.storage.engine import SQLITE_FILE
from carom.storage.errors import StorageError


class BackupError(StorageError):
    """A copy that could not be made; the message says why (nothing is left half written)."""


def backup(target: Path, data: Path | None = None, database: str | None = None) -> Path:
    """Copy the database (``database``, else SQLite in ``data``) to ``target``."""
    part = target.with_name(f".{target.name}.part")
    try:
        if database:
            _pg_dump(database, part)
        else:
            _sqlite_copy(Path(data or "carom-data") / SQLITE_FILE, part)
        part.replace(target)
    finally:
        part.unlink(missing_ok=True)
    return target


def _sqlite_copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"{source}: no database there")
    with sqlite3.connect(f"file:{source}?mode=ro", uri=True) as origin, sqlite3.connect(target) as copy:
        origin.backup(copy)


def _pg_dump(url: str, target: Path) -> None:
    program = shutil.which("pg_dump")
    if program is None:
        raise BackupError("pg_dump is not installed (apt-get install postgresql-client)")
    dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
    done = subprocess.run([program, "--format=custom", "--no-owner", f"--file={target}", dsn],
                          capture_output=True, text=True, timeout=3600)
    if done.returncode != 0:
        raise BackupError(f"pg_dump failed: {done.stderr.strip()[-300:]}")
