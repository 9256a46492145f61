"""Changes to matches, seen by every process that serves the same database: PostgreSQL's
``LISTEN``/``NOTIFY``.

Every write that changes a match (a record, a confirmation, a new referee token, a new
match) notifies the channel :data:`CHANNEL` in the same transaction, with the writing
process's *origin* and the match's id: PostgreSQL delivers it only once the write is
committed, and never a notification of a write that was rolled back. Each server process
listens on a connection of its own (:class:`ChangeListener`) and is told of the other
processes' changes, so that its boards follow a record written through another process.

SQLite has no such channel and is served by one process; its writes notify nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from sqlalchemy import Connection, text
from sqlalchemy.engine import make_url

CHANNEL = "carom_changes"
_NOTIFY = text("SELECT pg_notify(:channel, :payload)")


def notify(connection: Connection, origin: str, match_id: int) -> None:
    """Tell the other processes, once this transaction commits, that match ``match_id`` changed."""
    if connection.dialect.name == "postgresql":
        connection.execute(_NOTIFY, {"channel": CHANNEL, "payload": f"{origin} {match_id}"})


class ChangeListener:
    """A thread that listens on a connection of its own and calls ``changed(match_id)``
    for each change another origin made; after the connection was lost and found again,
    ``changed(None)``: something may have changed meanwhile, unheard."""

    def __init__(self, url: str, origin: str, changed: Callable[[int | None], None]) -> None:
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
        origin, _, match = payload.partition(" ")
        if origin != self.origin and match.isascii() and match.isdigit():
            self.changed(int(match))
