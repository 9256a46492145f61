"""Changes to matches, seen by every process that serves the same database: PostgreSQL's
``LISTEN``/``NOTIFY``.

Every write that changes a match (a record, a confirmation, a new referee token, a new
match) notifies the channel :data:`CHANNEL` in the same transaction, with the writing
process's *origin* and the match's id: PostgreSQL delivers it only once the write is
committed, and never a notification of a write that was rolled back. Each server process
listens on a connection of its own (:class:`ChangeListener`) and is told of the other
processes' changes, so that its boards follow a record written through another process.

A record's notification carries the record itself (its sequence number and line) when it
fits in a notification: a process that holds the match's replay takes it from there, with
no query (on a match day every record is one, and reading each back made the processes
queue on their database connections).

SQLite has no such channel and is served by one process; its writes notify nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

from carom.core.inputs import is_digits

CHANNEL = "carom_changes"
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")
MAX_PAYLOAD = 7900
"""Bytes a notification may carry (PostgreSQL's limit is 8000): a longer record's
notification names its match only."""


@dataclass(frozen=True, slots=True)
class Change:
    """A change another process made to a match."""

    match_id: int
    record: tuple[int, str] | None = None
    """The record it appended, its sequence number and line, when the change was one and
    its line fitted in the notification."""


def notify(connection: Connection, origin: str, match_id: int) -> None:
    """Tell the other processes, once this transaction commits, that match ``match_id`` changed."""
    if connection.dialect.name == "postgresql":
        connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": payload(origin, match_id)})


def payload(origin: str, match_id: int, record: tuple[int, str] | None = None) -> str:
    """What a notification of a change to ``match_id`` says: by appending ``record`` (its
    sequence number and line), when it is given and fits."""
    said = f"{origin} {match_id}"
    if record is not None:
        with_record = f"{said} {record[0]} {record[1]}"
        if len(with_record.encode()) <= MAX_PAYLOAD:
            return with_record
    return said


def heard(payload: str, origin: str) -> Change | None:
    """The change a notification tells of; ``None`` for this ``origin``'s own, or a
    payload that is not one."""
    parts = payload.split(" ", 3)
    if len(parts) not in (2, 4) or parts[0] == origin or not is_digits(parts[1]):
        return None
    if len(parts) == 2:
        return Change(int(parts[1]))
    return Change(int(parts[1]), (int(parts[2]), parts[3])) if is_digits(parts[2]) else None


class ChangeListener:
    """A thread that listens on a connection of its own and calls ``changed(change)``
    for each change another origin made; after the connection was lost and found again,
    ``changed(None)``: something may have changed meanwhile, unheard."""

    def __init__(self, url: str, origin: str, changed: Callable[[Change | None], None]) -> None:
        self.dsn = make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        self.origin, self.changed = origin, changed
        self.listening = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="carom-changes", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        heard_before = False
        while not self._stop.is_set():
            try:
                with psycopg.connect(self.dsn, autocommit=True) as connection:
                    connection.execute(f"LISTEN {CHANNEL}")
                    self.listening.set()
                    if heard_before:
                        self.changed(None)
                    heard_before = True
                    while not self._stop.is_set():
                        for note in connection.notifies(timeout=1.0):
                            self._heard(note.payload)
            except psycopg.Error:
                self.listening.clear()
                self._stop.wait(1.0)  # the database went away: listen again when it is back

    def _heard(self, payload: str) -> None:
        change = heard(payload, self.origin)
        if change is not None:
            self.changed(change)
