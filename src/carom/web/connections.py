"""Connections before they are requests: a deadline for the request's line and headers,
a cap on the connections one server process keeps, and file descriptors in reserve.

The ASGI application only sees a request once its headers are in. Before that, a
client that opens connections and sends nothing, or a header a byte at a time, holds a
file descriptor each; with the process's descriptors gone the database cannot be opened
and every other request fails. So the server speaks HTTP through :func:`guarded_protocol`
(uvicorn's own protocol, with two checks added):

- a connection beyond :attr:`Limits.connections` is closed as soon as it is accepted;
- a request whose line and headers are not in within :attr:`Limits.header_seconds` of its
  first byte (or of the connection, for the first request) is closed.

:func:`descriptors` raises the process's soft limit of open files to its hard limit and
says how many connections fit with :data:`RESERVE` kept back.
"""

from __future__ import annotations

import asyncio
import resource
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from carom.web.shared.limits import Limits

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


def guarded_protocol(limits: Limits) -> type[HttpToolsProtocol]:
    """uvicorn's HTTP protocol with the header deadline and the connection cap of ``limits``."""
    most = min(limits.connections, descriptors())

    class GuardedHttp(HttpToolsProtocol):
        _deadline: asyncio.TimerHandle | None = None
        _refused = False

        def connection_made(self, transport: Any) -> None:  # type: ignore[override]
            if len(self.connections) >= most:
                self._refused = True
                transport.abort()
                return
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            if not self._refused:
                super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

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
