"""Live updates: who is watching which match, told the match's new version (its record
number and events, :attr:`carom.storage.book.Snapshot.version`) on each change.

Subscribers are queues on the server's event loop; a write publishes from the
loop too, so no lock is needed. A slow watcher only ever holds the latest version.
A change made by another process of the server (PostgreSQL) reaches this one through
the database's notifications (:func:`follow_changes`).
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from carom.storage.book import MatchBook
from carom.storage.changes import Change


class Changes:
    """What a watcher of every match (the hall monitor) has not seen yet: the ids of
    the matches that changed since it last looked, and a wake-up."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.wake = asyncio.Event()
        self.tables = False
        """The hall's tables may have changed (:meth:`Hub.tables_changed`); whoever
        cares clears it."""

    def add(self, match_id: int) -> None:
        self.ids.add(match_id)
        self.wake.set()

    def take(self) -> set[int]:
        """The ids changed since the last call (and the wake-up cleared)."""
        ids, self.ids = self.ids, set()
        self.wake.clear()
        return ids


class Hub:
    def __init__(self) -> None:
        self._watchers: dict[int, set[asyncio.Queue[str]]] = defaultdict(set)
        self._everything: set[Changes] = set()
        self.told = 0
        """How many changes it was told of (at once, before any watcher is)."""

    def watch_all(self) -> Changes:
        """Be told of every match's changes (one watcher for many matches)."""
        changes = Changes()
        self._everything.add(changes)
        return changes

    def unwatch_all(self, changes: Changes) -> None:
        self._everything.discard(changes)

    def subscribe(self, match_id: int) -> asyncio.Queue[str]:
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self._watchers[match_id].add(queue)
        return queue

    def unsubscribe(self, match_id: int, queue: asyncio.Queue[str]) -> None:
        watchers = self._watchers.get(match_id)
        if watchers is not None:
            watchers.discard(queue)
            if not watchers:
                del self._watchers[match_id]

    def publish(self, match_id: int, version: str) -> None:
        """Tell the match's watchers and every watcher of everything, :data:`WAKE_AT_ONCE`
        of them per turn of the event loop: woken all in one turn, a thousand boards would
        keep the loop from every request that arrived meanwhile."""
        def tell(queue: asyncio.Queue[str]) -> None:
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)

        self.told += 1
        _in_turns([lambda q=q: tell(q) for q in self._watchers.get(match_id, ())]
                  + [lambda c=c: c.add(match_id) for c in self._everything])

    def tables_changed(self) -> None:
        """What is on the hall's tables may have changed (a match put on a table, a
        tournament's game called to one): every watcher of everything is woken and told."""
        self.told += 1
        for changes in self._everything:
            changes.tables = True
            changes.wake.set()

    def watching(self, match_id: int) -> int:
        return len(self._watchers.get(match_id, ()))


WAKE_AT_ONCE = 64
"""Watchers woken in one turn of the event loop (:meth:`Hub.publish`)."""


def _in_turns(calls: list[Callable[[], None]]) -> None:
    """Make ``calls``, :data:`WAKE_AT_ONCE` now and the rest in the loop's next turns."""
    for call in calls[:WAKE_AT_ONCE]:
        call()
    rest = calls[WAKE_AT_ONCE:]
    if rest:
        try:
            asyncio.get_running_loop().call_soon(_in_turns, rest)
        except RuntimeError:  # no loop running (a program of its own): all at once
            for call in rest:
                call()


def follow_changes(book: MatchBook, hub: Hub) -> Any:
    """Publish the changes other processes make to the matches (called on the event loop
    at start): each brings this process's replay of the match up to the database first
    (:meth:`~carom.storage.book.MatchBook.follow`: a record the change carries, without a query).
    After a gap in the notifications, every match in memory is brought up. Returns the
    listener (``None`` on SQLite, which one process serves)."""
    loop = asyncio.get_running_loop()
    running: set[asyncio.Task[None]] = set()

    async def refresh(change: Change) -> None:
        snap = await book.follow(change)
        hub.publish(change.match_id, snap.version if snap is not None else "")

    def start(change: Change) -> None:
        task = loop.create_task(refresh(change))
        running.add(task)
        task.add_done_callback(running.discard)

    def changed(change: Change | None) -> None:  # in the listener's thread
        for one in [change] if change is not None else [Change(i) for i in book.cached_ids()]:
            loop.call_soon_threadsafe(start, one)

    listen = getattr(book.store, "listen", None)
    return listen(changed) if listen is not None else None
