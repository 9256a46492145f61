"""What a new hall channel starts from, read once for the crowd of channels that open
while nothing changes: the matches in play and the hall's tables block in each language.

A thousand hall screens (or a thousand attempts) opening at once each read the matches
and the hall's tables from the database in a thread, all of them competing with the
event loop for the interpreter. Here the first channel reads, and the others opened while
the hub has told of no change, within :data:`FRESH_SECONDS`, start from the same. A change
made in this process (a record, a match put on a table) is heard from the hub and the next
channel reads again; one made by another process of the server is seen at most
:data:`FRESH_SECONDS` later, and a channel already open finds it at its next quiet moment,
as before.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from carom.web.shared.hub import Hub

FRESH_SECONDS = 1.0
T = TypeVar("T")


class HallStart:
    """The matches in play (``read_ids``) and the tables block per language (``block``),
    shared while fresh."""

    def __init__(self, hub: Hub, read_ids: Callable[[], Awaitable[list[int]]],
                 block: Callable[[str], Awaitable[Any]] | None) -> None:
        self.hub, self.read_ids, self.block = hub, read_ids, block
        self._told = -1
        self._read_at = 0.0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._reading: dict[str, asyncio.Future[Any]] = {}

    async def ids(self) -> list[int]:
        ids: list[int] = await self._shared("ids", self.read_ids)
        return list(ids)

    async def tables(self, lang: str) -> Any:
        """The block in ``lang`` (``None``: no block, or no tables)."""
        if self.block is None:
            return None
        block = self.block
        return await self._shared(f"tables:{lang}", lambda: block(lang))

    async def _shared(self, key: str, read: Callable[[], Awaitable[T]]) -> T:
        self._forget_if_stale()
        reading = self._reading.get(key)
        if reading is None:
            reading = asyncio.ensure_future(read())
            self._reading[key] = reading
        try:
            return await asyncio.shield(reading)
        except Exception:
            self._reading.pop(key, None)  # a failed read is not kept
            raise

    def _forget_if_stale(self) -> None:
        """Forget what was read before the hub's last change (it counts them before it
        wakes any watcher), or too long ago, or in another event loop."""
        loop = asyncio.get_running_loop()
        if (loop is self._loop and self._told == self.hub.told
                and _now() - self._read_at < FRESH_SECONDS):
            return
        self._loop, self._told = loop, self.hub.told
        self._reading, self._read_at = {}, _now()


def _now() -> float:
    return time.monotonic()
