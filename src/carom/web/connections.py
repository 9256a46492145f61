"""Connections before they are requests: a deadline for the request's line and headers,
a cap on the connections one server process keeps, and file descriptors in reserve.

The ASGI application only sees a request once its headers are in. Before that, a
client that opens connections and sends nothing, or a header a byte at a time, holds a
file descriptor each; with the process's descriptors gone the database cannot be opened
and every other request fails. So the server speaks HTTP through :func:`guarded_protocol`
(uvicorn's own protocol, with two checks added):

- a connection beyond :attr:`Limits.connections` is closed as soon as it is accepted;
- a request whose line and headers are not in within :attr:`Limits.header_seconds` of its
  first byte (or of the connection, for the first request) is closed;
- the bodies of the requests in progress, all connections together, cost at most
  :attr:`Limits.body_memory` MiB (:class:`BodyBudget`, charged :func:`body_cost`): a body
  that would pass it is answered 503 with ``Retry-After`` and its connection closed. The
  route limits bound one body; many bodies held just under them at once, each waiting in
  the HTTP server's buffer before its route reads it, had no bound but the number of
  connections. A route that writes its body to a file as it arrives gives each piece back
  once written (:data:`SPILLED`): the budget counts what is held in memory;
- a live channel's server-sent event stream that the caps refuse
  (:mod:`carom.web.shared.streams`) is answered 503 here, as soon as its headers are in,
  and its connection closed: a crowd of such attempts costs the event loop no ASGI task,
  no middleware and no answer built by the application.

:func:`descriptors` raises the process's soft limit of open files to its hard limit and
says how many connections fit with :data:`RESERVE` kept back.
"""

from __future__ import annotations

import asyncio
import json
import resource
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from carom.web.shared.deps import REFUSALS, language
from carom.web.shared.i18n import PageWords
from carom.web.shared.limits import Limits
from carom.web.shared.streams import RETRY_SECONDS as CHANNEL_RETRY
from carom.web.shared.streams import Full

MIB = 1024 * 1024
RETRY_SECONDS = 5
"""What a request refused for the bodies' memory is told to wait."""
SPILLED = "carom.body_spilled"
"""The scope's key of a callable ``spilled(size)``: a route that writes its body to a file
gives back the bytes it wrote, which no longer count against the bodies' memory."""

RESERVE = 256
"""File descriptors a server process keeps for what is not a client: the database's
connections (up to 40 in the pool), the writer's, the change listener's, the database
files, the logs, the pipes to the simulation workers."""


def descriptors() -> int:
    """Raise the soft limit of open files to the hard limit; the connections that fit
    with :data:`RESERVE` kept back."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 65_536)
    if wanted > soft:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (ValueError, OSError):
            pass
    return max(16, soft - RESERVE)


BODY_START = 48 * 1024
"""What a request whose body has begun costs beside the body's bytes (measured, see
:func:`body_cost`)."""


def _has_body(scope: dict[str, Any]) -> bool:
    """Whether a request's headers announce a body (a length above 0, or chunks)."""
    for name, value in scope.get("headers", ()):
        if name == b"transfer-encoding" or (name == b"content-length" and value.strip(b" 0")):
            return True
    return False


def body_cost(size: int, first: bool) -> int:
    """What ``size`` more bytes of a body in progress cost the process (``first``: with
    the request around them, :data:`BODY_START`, taken when its headers announce a body,
    before the application is started on it).

    Measured on fresh servers with benchmarks/web_bodies.py's bodies held one byte short
    of their end (a third to ``/login`` just under 64 KiB, the others to the simulator
    just under 16 KiB), the bodies' budget out of the way: 254 held grew the process by
    27.8 MiB, 750 by 64.5 MiB, some 88 KiB each for 37.5 KiB of body on average (most
    likely copies: a body grows by concatenation in the HTTP server's buffer, and a route
    reads it into its own). A fixed part rather than a factor: a factor of two would
    refuse the 16 MiB import the budget must let through, and big bodies were not
    measured this way."""
    return size + (BODY_START if first else 0)


class BodyBudget:
    """What the request bodies one process holds cost (:func:`body_cost`): taken as they
    arrive, given back when the request is answered or its connection ends (the event
    loop's thread only)."""

    def __init__(self, total: int) -> None:
        self.total = total
        self.held = 0

    def take(self, size: int) -> bool:
        if self.held + size > self.total:
            return False
        self.held += size
        return True

    def give_back(self, size: int) -> None:
        self.held -= size


def refusal_bytes(scope: dict[str, Any], budget: BodyBudget) -> bytes:
    """The whole answer to a body refused for the bodies' memory, in the request's language:
    JSON under ``/api/``, plain text elsewhere (no page: nothing here may wait for the
    database)."""
    message = PageWords(language(Request(scope))).gettext(REFUSALS["bodies"], mib=budget.total // MIB)
    if str(scope.get("path", "")).startswith("/api/"):
        return unavailable(json.dumps({"detail": message}).encode(), b"application/json")
    return unavailable(message.encode())


def unavailable(body: bytes, kind: bytes = b"text/plain; charset=utf-8", retry: int = RETRY_SECONDS) -> bytes:
    """A whole 503 answer with ``Retry-After``, its connection closed after it."""
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: " + kind
            + f"\r\ncontent-length: {len(body)}\r\nretry-after: {retry}\r\n".encode()
            + b"connection: close\r\nx-content-type-options: nosniff\r\n\r\n" + body)


ChannelRefusal = Callable[[dict[str, Any], bool], "Full | None"]
"""Why a request's live channel would be refused now (:func:`carom.web.shared.live.channel_refusal`)."""


def guarded_protocol(limits: Limits, channels: ChannelRefusal | None = None,
                     behind_proxy: bool = False) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with the header deadline, the connection cap and the bodies'
    memory of ``limits``, and the live channels' caps (``channels``; ``behind_proxy``: the
    connections' addresses are a reverse proxy's, so a client's own cap is left to the
    application, which reads the forwarded one)."""
    most = min(limits.connections, descriptors())
    budget = BodyBudget(limits.body_memory * MIB)

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _refused = False
        _held = 0
        """What this connection's request in progress holds of the budget."""
        _over = False

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            if len(self.connections) >= most:
                self._refused = True
                transport.abort()
                return
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            self._give_back()
            if not self._refused:
                super().connection_lost(exc)

        def on_body(self, body: bytes) -> None:
            if self._over:
                return
            cost = body_cost(len(body), first=False)  # the request's own part was taken at its headers
            if not budget.take(cost):
                self._refuse_body()
                return
            self._held += cost
            super().on_body(body)

        def on_response_complete(self) -> None:
            self._give_back()
            super().on_response_complete()

        def _give_back(self) -> None:
            budget.give_back(self._held)
            self._held = 0

        def _refuse_body(self) -> None:
            """Answer 503 (unless an answer has begun), close, give the bytes back."""
            self._over = True
            self._give_back()
            if self.cycle is not None and not self.cycle.response_started:
                self.transport.write(refusal_bytes(dict(self.scope), budget))
            self.transport.close()  # the application's receive then says the client left

        def _start_asgi_task(self, cycle: Any, app: Any) -> None:
            """Start the application on a request, unless a cap refuses it first: a live
            channel over the streams' caps, or a request with a body whose own part
            (:func:`body_cost`) does not fit the bodies' budget, taken here before the
            request's task, scope and middleware exist."""
            full = channels(cycle.scope, not behind_proxy) if channels is not None else None
            if full is not None:
                said = full.said(language(Request(dict(cycle.scope))))
                self._answer_at_once(cycle, unavailable(said.encode(), retry=CHANNEL_RETRY))
            elif _has_body(cycle.scope) and not self._take(body_cost(0, first=True)):
                self._answer_at_once(cycle, refusal_bytes(dict(cycle.scope), budget))
            else:
                super()._start_asgi_task(cycle, app)

        def _take(self, cost: int) -> bool:
            if not budget.take(cost):
                return False
            self._held += cost
            return True

        def _answer_at_once(self, cycle: Any, answer: bytes) -> None:
            """Answer without the application, close, and read nothing more."""
            self._over = True
            cycle.response_started = cycle.response_complete = True
            self.transport.write(answer)
            self.transport.close()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()
            self.scope[SPILLED] = self._spilled  # type: ignore[literal-required]

        def _spilled(self, size: int) -> None:
            given = min(size, self._held)
            budget.give_back(given)
            self._held -= given

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(limits.header_seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _too_slow(self) -> None:
            self._deadline = None
            if self.transport is not None and not self.transport.is_closing():
                self.transport.close()

    return GuardedHttp
