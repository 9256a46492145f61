"""Counts that hold across the processes of one ``carom serve``: how many live channels
are open, in all and per client, and how many jobs of the simulation pool each client
has. A count is taken only while it stays under its cap, and given back when done.

:class:`Tally` counts in one process. ``carom serve --workers N`` gives its processes one
:class:`SharedTally` instead: a table of counters in shared memory, one row per process,
each key hashed to a column; a key's count is the sum of its column, and every change is
made under a lock on a file beside the table. A process that dies leaves its row behind:
the process that restarts it clears the row first, so what the dead one held is given
back. Two keys that share a column (one chance in 65,536 for two clients) share their
count: a cap then holds for the two together, never more than it says.
"""

from __future__ import annotations

import fcntl
import hashlib
import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from multiprocessing import resource_tracker, shared_memory
from pathlib import Path

SLOTS = 65_536
"""Counters in a shared table (4 bytes each)."""
ENVIRONMENT = "CAROM_TALLY"
"""The environment variable that names a shared table: ``name:lockfile``."""


class Tally:
    """Counts of this process alone."""

    def __init__(self) -> None:
        self._counts: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, key: str, cap: int) -> bool:
        """Add one to ``key``'s count if it is under ``cap``; whether it was."""
        with self._lock:
            count = self._counts.get(key, 0)
            if count >= cap:
                return False
            self._counts[key] = count + 1
            return True

    def give(self, key: str) -> None:
        """Take one from ``key``'s count (what :meth:`take` added)."""
        with self._lock:
            count = self._counts.get(key, 0) - 1
            if count > 0:
                self._counts[key] = count
            else:
                self._counts.pop(key, None)

    def count(self, key: str) -> int:
        with self._lock:
            return self._counts.get(key, 0)


class SharedTally(Tally):
    """Counts in a table of shared memory that every process of the server opens; this
    process adds to its own ``row``."""

    def __init__(self, name: str, lock_path: str, rows: int, row: int = 0, *, create: bool = False) -> None:
        super().__init__()
        self.name, self.lock_path, self.rows, self.row = name, lock_path, rows, row
        self._memory = shared_memory.SharedMemory(name=name, create=create, size=rows * SLOTS * 4)
        if create:
            self._memory.buf[:] = bytes(rows * SLOTS * 4)
        else:  # Python < 3.13 would remove a table it only opened when this process ends
            resource_tracker.unregister(self._memory._name, "shared_memory")  # type: ignore[attr-defined]
        self._file = os.open(lock_path, os.O_RDWR | os.O_CREAT, 0o600)

    @classmethod
    def made(cls, folder: Path, rows: int) -> SharedTally:
        """A new table for ``rows`` processes about to start (its lock file in ``folder``)."""
        name = f"carom-{os.getpid()}-{os.urandom(4).hex()}"
        return cls(name, str(folder / f".{name}.lock"), rows, create=True)

    @classmethod
    def from_environment(cls) -> SharedTally | None:
        """The table and row named in :data:`ENVIRONMENT`, if this process was given one."""
        value = os.environ.get(ENVIRONMENT)
        if not value:
            return None
        name, rows, row, lock_path = value.split(":", 3)
        return cls(name, lock_path, int(rows), int(row))

    def environment(self, row: int) -> str:
        """The value of :data:`ENVIRONMENT` that opens this table as ``row`` in another process."""
        return f"{self.name}:{self.rows}:{row}:{self.lock_path}"

    def take(self, key: str, cap: int) -> bool:
        column = _column(key)
        with self._locked():
            if self._total(column) >= cap:
                return False
            self._add(self.row, column, 1)
            return True

    def give(self, key: str) -> None:
        column = _column(key)
        with self._locked():
            if self._read(self.row, column) > 0:
                self._add(self.row, column, -1)

    def count(self, key: str) -> int:
        with self._locked():
            return self._total(_column(key))

    def clear(self, row: int) -> None:
        """Give back everything ``row`` holds (its process is gone)."""
        with self._locked():
            start = row * SLOTS * 4
            self._memory.buf[start:start + SLOTS * 4] = bytes(SLOTS * 4)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        with self._lock:
            fcntl.lockf(self._file, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.lockf(self._file, fcntl.LOCK_UN)

    def _total(self, column: int) -> int:
        return sum(self._read(row, column) for row in range(self.rows))

    def _read(self, row: int, column: int) -> int:
        at = (row * SLOTS + column) * 4
        return int.from_bytes(self._memory.buf[at:at + 4], "little")

    def _add(self, row: int, column: int, change: int) -> None:
        at = (row * SLOTS + column) * 4
        self._memory.buf[at:at + 4] = (self._read(row, column) + change).to_bytes(4, "little")

    def close(self, *, remove: bool = False) -> None:
        os.close(self._file)
        self._memory.close()
        if remove:
            self._memory.unlink()
            Path(self.lock_path).unlink(missing_ok=True)


def _column(key: str) -> int:
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=4).digest(), "little") % SLOTS
