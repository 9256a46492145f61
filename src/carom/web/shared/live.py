"""The live channel: what the audience board, the tablets and the hall monitor are sent
as a match moves on, over server-sent events or a WebSocket.

It is the hottest path of a match day (every record goes out to every board), so it
is a small ASGI handler of its own in front of the application rather than a route
behind its middleware. Each channel is a *feed* (:class:`Feed`) chosen by the address:

- ``/m/{id}/events?view=board``: the board's HTML (event ``board``); ``?view=seq`` only
  the match's version (event ``seq``: the record number and the number of events,
  ``"12.1"``), which tells a tablet that another tablet or the organiser moved the match
  on. Each event's ``id`` is the record number.
- ``/hall/events``: the hall monitor's cards (:mod:`carom.web.hall.pages`).

The same address answers two ways. A ``GET`` is a stream of server-sent events; a
WebSocket handshake gets the same events as text messages, one JSON object each
(``{"event": "board", "id": 12, "data": "<section …>"}``). The pages use the WebSocket
(``static/live.js``): a browser keeps at most six HTTP/1.1 connections to a server, and
ten boards open in one browser would hold them all with their streams, while its
WebSockets are not counted among them. Programs may use either.

Every channel is admitted under the caps of :mod:`carom.web.shared.streams` first.
"""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import parse_qs

from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import UnknownMatch
from carom.web.shared import i18n
from carom.web.shared.hub import Hub
from carom.web.shared.streams import RETRY_SECONDS, Full, StreamGate

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

MATCH_PATH = re.compile(r"/m/(\d{1,9})/events")
KEEPALIVE = 15.0
HEADERS = [(b"content-type", b"text/event-stream; charset=utf-8"), (b"cache-control", b"no-store"),
           (b"x-accel-buffering", b"no")]
TRY_AGAIN = 1013
"""The WebSocket close code of a channel refused for now ("try again later")."""

Event = tuple[str, int, str]
"""An event: its name, its id, its data."""


class Feed(Protocol):
    """What one live channel sends: everything at first, then what changes."""

    async def first(self) -> list[Event]: ...

    async def next(self, timeout: float) -> list[Event]:
        """The events of the next change, or none after ``timeout`` seconds of silence."""
        ...

    def close(self) -> None: ...


class Refused(Exception):
    """A channel that cannot be opened as asked: its status and the reason."""

    def __init__(self, status: int, reason: str) -> None:
        super().__init__(reason)
        self.status = status


FeedMaker = Callable[[re.Match[str], dict[str, list[str]], str], Awaitable[Feed]]
"""Opens the feed of an address (its path's match, its query, the page's language), or
raises :class:`Refused`."""


@functools.lru_cache(maxsize=1024)
def event(name: str, seq: int, data: str) -> bytes:
    """One server-sent event; every line of ``data`` gets its ``data:`` prefix (made once
    for all the channels that send it: the data of one update is one string for all)."""
    body = "".join(f"data: {line}\n" for line in data.splitlines() or [""])
    return f"event: {name}\nid: {seq}\n{body}\n".encode()


@functools.lru_cache(maxsize=1024)
def message(name: str, seq: int, data: str) -> str:
    """One event as a WebSocket text message (made once, as :func:`event`)."""
    return json.dumps({"event": name, "id": seq, "data": data}, ensure_ascii=False)


@dataclass(eq=False)
class MatchFeed:
    """A match's board or version (``view``), in a language."""

    book: MatchBook
    hub: Hub
    board: Callable[[Snapshot, str], str]
    match_id: int
    view: str
    lang: str
    _last: str = ""
    _queue: asyncio.Queue[str] | None = None

    async def first(self) -> list[Event]:
        self._queue = self.hub.subscribe(self.match_id)
        try:
            return self._events(await snapshot(self.book, self.match_id))
        except UnknownMatch as error:
            self.close()
            raise Refused(404, i18n.PageWords(self.lang).error(error)) from None

    async def next(self, timeout: float) -> list[Event]:
        assert self._queue is not None
        try:
            async with asyncio.timeout(timeout):
                await self._queue.get()
        except TimeoutError:
            return []
        return self._events(await snapshot(self.book, self.match_id))

    def close(self) -> None:
        if self._queue is not None:
            self.hub.unsubscribe(self.match_id, self._queue)
            self._queue = None

    def _events(self, current: Snapshot) -> list[Event]:
        if current.version == self._last:
            return []
        self._last = current.version
        data = current.version if self.view == "seq" else self.board(current, self.lang)
        return [(self.view, current.seq, data)]


async def snapshot(book: MatchBook, match_id: int) -> Snapshot:
    live = book.cached(match_id)
    return live.snapshot if live is not None else await asyncio.to_thread(book.snapshot, match_id)


def match_feeds(book: MatchBook, hub: Hub, board: Callable[[Snapshot, str], str]) -> FeedMaker:
    """The feed maker of ``/m/{id}/events``."""

    async def make(path: re.Match[str], query: dict[str, list[str]], lang: str) -> Feed:
        view = "seq" if query.get("view", ["board"])[0] == "seq" else "board"
        return MatchFeed(book, hub, board, int(path.group(1)), view, lang)

    return make


def channel_refusal(feeds: list[tuple[re.Pattern[str], FeedMaker]], gate: StreamGate
                    ) -> Callable[[Scope, bool], Full | None]:
    """What the HTTP protocol asks of a request before it becomes an ASGI one
    (:func:`carom.web.connections.guarded_protocol`): why the server-sent event stream it
    opens would be refused under the caps now, or ``None`` (not a channel, or admissible).
    ``by_client``: whether the connection's address is the client's (not a reverse proxy's,
    whose forwarded address only the application reads); if not, only the caps of the
    process and of the server are looked at here."""
    patterns = [pattern for pattern, _ in feeds]

    def refusal(scope: Scope, by_client: bool) -> Full | None:
        path = scope.get("path", "")
        if scope.get("method") != "GET" or not any(p.fullmatch(path) for p in patterns):
            return None
        return gate.refusal(_client(scope) if by_client else None)

    return refusal


def _client(scope: Scope) -> str:
    return str((scope.get("client") or ("unknown", 0))[0])


class LiveEvents:
    """Answers the live channels' addresses itself and hands every other request to ``app``."""

    def __init__(self, app: ASGIApp, feeds: list[tuple[re.Pattern[str], FeedMaker]],
                 gate: StreamGate) -> None:
        self.app, self.feeds, self.gate = app, feeds, gate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope["type"]
        if kind == "websocket" or (kind == "http" and scope.get("method") == "GET"):
            path = scope.get("path", "")
            for pattern, make in self.feeds:
                found = pattern.fullmatch(path)
                if found is not None:
                    await self._channel(scope, receive, send, found, make)
                    return
        await self.app(scope, receive, send)

    async def _channel(self, scope: Scope, receive: Receive, send: Send, path: re.Match[str],
                       make: FeedMaker) -> None:
        websocket = scope["type"] == "websocket"
        client = _client(scope)
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope.get("headers", ())}
        lang = i18n.negotiate(_cookie(headers.get("cookie", ""), i18n.COOKIE),
                              headers.get("accept-language"), query.get("lang", [""])[0])
        refused = self.gate.open(client)
        if refused is not None:
            await _refuse(send, websocket, 503, refused.said(lang))
            return
        try:
            try:
                feed = await make(path, query, lang)
                first = await feed.first()
            except Refused as error:
                await _refuse(send, websocket, error.status, str(error))
                return
            try:
                transport = _WebSocket(receive, send) if websocket else _EventStream(receive, send)
                await transport.run(feed, first)
            finally:
                feed.close()
        finally:
            self.gate.close(client)


class _EventStream:
    """Server-sent events over a chunked HTTP response."""

    def __init__(self, receive: Receive, send: Send) -> None:
        self.receive, self.send = receive, send

    async def run(self, feed: Feed, first: list[Event]) -> None:
        await self.send({"type": "http.response.start", "status": 200, "headers": HEADERS})
        await _follow(feed, first, self._send_events, self._gone)

    async def _send_events(self, events: list[Event]) -> None:
        body = b"".join(event(*e) for e in events) if events else b": keep-alive\n\n"
        await self.send({"type": "http.response.body", "body": body, "more_body": True})

    async def _gone(self) -> None:
        while (await self.receive())["type"] != "http.disconnect":
            pass


class _WebSocket:
    """The same events as WebSocket text messages (the connection kept alive by its pings)."""

    def __init__(self, receive: Receive, send: Send) -> None:
        self.receive, self.send = receive, send

    async def run(self, feed: Feed, first: list[Event]) -> None:
        if (await self.receive())["type"] != "websocket.connect":
            return
        await self.send({"type": "websocket.accept"})
        await _follow(feed, first, self._send_events, self._gone)

    async def _send_events(self, events: list[Event]) -> None:
        for e in events:  # a silence sends nothing: the server's pings keep the connection
            await self.send({"type": "websocket.send", "text": message(*e)})

    async def _gone(self) -> None:
        while (await self.receive())["type"] != "websocket.disconnect":
            pass  # what a page sends is not read


async def _follow(feed: Feed, first: list[Event], send_events: Callable[[list[Event]], Awaitable[None]],
                  gone: Callable[[], Awaitable[None]]) -> None:
    """Send ``first``, then every change of ``feed`` (no events: a silence, which an event
    stream fills with a keep-alive), until the client goes away; the hub wakes a match's
    channels a few dozen per turn of the loop (:mod:`carom.web.shared.hub`), so what
    arrives meanwhile is read between them. The client's leaving cancels the waiting (one
    task per channel, not one per change)."""
    me = asyncio.current_task()
    assert me is not None
    following = True

    def left_now(_: object) -> None:
        if following:
            me.cancel()

    left = asyncio.ensure_future(gone())
    left.add_done_callback(left_now)
    try:
        await send_events(first)
        while True:
            events = await feed.next(KEEPALIVE)
            await send_events(events)
    except asyncio.CancelledError:
        if not left.done():
            raise  # cancelled from outside: the server stops
        me.uncancel()  # the client left: the channel ends normally
    except OSError:
        pass  # the watcher went away mid-send
    finally:
        following = False
        left.cancel()


async def _refuse(send: Send, websocket: bool, status: int, reason: str) -> None:
    if websocket:  # closed before the handshake: the browser sees the channel fail, and tries again
        await send({"type": "websocket.close", "code": TRY_AGAIN if status == 503 else 1008,
                    "reason": reason[:120]})
        return
    body = reason.encode()
    headers = [(b"content-type", b"text/plain; charset=utf-8"), (b"content-length", str(len(body)).encode()),
               (b"connection", b"close")]  # a refused channel keeps no connection either
    if status == 503:
        headers.append((b"retry-after", str(RETRY_SECONDS).encode()))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        key, _, value = part.strip().partition("=")
        if key == name:
            return value
    return None
