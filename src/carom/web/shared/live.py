"""The live channel: server-sent events for the audience board and the tablets.

It is the hottest path of a match day (every record goes out to every board), so it
is a small ASGI handler of its own in front of the application rather than a route
behind its middleware. ``GET /m/{id}/events?view=board`` streams the board's HTML
(event ``board``); ``?view=seq`` streams only the match's version (event ``seq``: the
record number and the number of events, ``"12.1"``), which tells a tablet that another
tablet or the organiser moved the match on. Each event's ``id`` is the record number.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import parse_qs

from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import UnknownMatch
from carom.web.shared import i18n
from carom.web.shared.hub import Hub

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

PATH = re.compile(r"/m/(\d{1,9})/events")
KEEPALIVE = 15.0
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]


def event(name: str, seq: int, data: str) -> bytes:
    """One server-sent event; every line of ``data`` gets its ``data:`` prefix."""
    body = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {name}\nid: {seq}\n{body}\n".encode()


class LiveEvents:
    """Answers ``/m/{id}/events`` itself and hands every other request to ``app``."""

    def __init__(self, app: ASGIApp, book: MatchBook, hub: Hub,
                 board: Callable[[Snapshot, str], str]) -> None:
        self.app, self.book, self.hub, self.board = app, book, hub, board

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = PATH.fullmatch(scope.get("path", "")) if scope["type"] == "http" else None
        if match is None or scope.get("method") != "GET":
            await self.app(scope, receive, send)
            return
        await self.stream(scope, receive, send, int(match.group(1)))

    async def snapshot(self, match_id: int) -> Snapshot:
        live = self.book.cached(match_id)
        return live.snapshot if live is not None else await asyncio.to_thread(self.book.snapshot, match_id)

    async def stream(self, scope: Scope, receive: Receive, send: Send, match_id: int) -> None:
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        view = "seq" if query.get("view", ["board"])[0] == "seq" else "board"
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
        lang = i18n.negotiate(_cookie(headers.get("cookie", ""), i18n.COOKIE), headers.get("accept-language"),
                              query.get("lang", [""])[0])
        queue = self.hub.subscribe(match_id)
        try:
            current = await self.snapshot(match_id)
        except UnknownMatch as error:
            self.hub.unsubscribe(match_id, queue)
            await _plain(send, 404, str(error))
            return
        closed = asyncio.Event()

        async def watch() -> None:
            while (await receive())["type"] != "http.disconnect":
                pass
            closed.set()
            if queue.full():
                queue.get_nowait()
            queue.put_nowait("")

        watcher = asyncio.create_task(watch())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
            last = ""
            while not closed.is_set():
                if current.version != last:
                    last = current.version
                    data = current.version if view == "seq" else self.board(current, lang)
                    await send({"type": "http.response.body", "body": event(view, current.seq, data),
                                "more_body": True})
                try:
                    async with asyncio.timeout(KEEPALIVE):
                        await queue.get()
                except TimeoutError:
                    await send({"type": "http.response.body", "body": b": keep-alive\n\n", "more_body": True})
                current = await self.snapshot(match_id)
        except OSError:
            pass  # the watcher went away mid-send
        finally:
            self.hub.unsubscribe(match_id, queue)
            watcher.cancel()


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None


async def _plain(send: Send, status: int, text: str) -> None:
    body = text.encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
