"""Live updates: who is watching which match, told the match's new version (its record
number and events, :attr:`carom.storage.book.Snapshot.version`) on each change.

Subscribers are queues on the server's event loop; a write publishes from the
loop too, so no lock is needed. A slow watcher only ever holds the latest version.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Changes:
    """What a watcher of every match (the hall monitor) has not seen yet: the ids of
    the matches that changed since it last looked, and a wake-up."""

    def __init__(self) -> None:
        self.ids: set[int] = set()
        self.wake = asyncio.Event()

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
        for queue in self._watchers.get(match_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(version)
        for changes in self._everything:
            changes.add(match_id)

    def watching(self, match_id: int) -> int:
        return len(self._watchers.get(match_id, ()))
