"""Request bodies as they arrive: counted and timed, whatever their framing.

The guard (:mod:`carom.web.shared.guard`) hands the application a ``receive`` that
counts the bytes the server actually received (``Content-Length`` or chunked, in any
spelling of ``Transfer-Encoding``) and refuses at the route's limit, the moment the
limit is passed: nothing is read ahead, so a route that checks the session or the
referee token first refuses a stranger before any of the body is in memory. A client
that pauses inside a body longer than ``idle`` seconds, or takes longer than ``whole``
seconds over it, is refused too (408), and its connection closed.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]


class Refusal(Exception):
    """Raised inside ``receive`` when a body is refused; the guard answers it (413 or
    408) in place of whatever the application answers, and closes the connection."""

    def __init__(self, status: int, why: str, values: dict[str, Any]) -> None:
        super().__init__(f"{status} {why}")
        self.status, self.why, self.values = status, why, values


def counted(receive: Receive, limit: int, idle: float, whole: float) -> tuple[Receive, list[Refusal]]:
    """``receive`` counted against ``limit`` bytes and timed; the list gets the refusal
    (if any) so that the guard can answer it even when the application caught it."""
    refused: list[Refusal] = []
    state = {"received": 0, "done": False, "deadline": 0.0}

    async def receive_counted() -> Message:
        if state["done"] or refused:  # the body is in (or refused): only the disconnect is left
            return await receive()
        loop = asyncio.get_running_loop()
        if not state["deadline"]:
            state["deadline"] = loop.time() + whole
        try:
            async with asyncio.timeout(max(0.0, min(idle, state["deadline"] - loop.time()))):
                message = await receive()
        except TimeoutError:
            refused.append(Refusal(408, "slow", {"seconds": int(min(idle, whole))}))
            raise refused[-1] from None
        if message["type"] != "http.request":
            state["done"] = True
            return message
        state["received"] += len(message.get("body", b""))
        if state["received"] > limit:
            refused.append(Refusal(413, "too_large", {"limit": limit}))
            raise refused[-1]
        state["done"] = not message.get("more_body", False)
        return message

    return receive_counted, refused
