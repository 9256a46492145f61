"""Live updates: who is watching which match, told the match's new version (its record
number and events, :attr:`carom.storage.book.Snapshot.version`) on each change.

Subscribers are queues on the server's event loop; a write publishes from the
loop too, so no lock is needed. A slow watcher only ever holds the latest version.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict


class Hub:
    def __init__(self) -> None:
        self._watchers: dict[int, set[asyncio.Queue[str]]] = defaultdict(set)

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

    def watching(self, match_id: int) -> int:
        return len(self._watchers.get(match_id, ()))
