"""The guard in front of every request: who may send a change, how large it may be, and
the headers that keep the pages from being framed, sniffed or made to run other code.

- **Origin.** A request that changes something (``POST``, ``PUT``, ``PATCH``,
  ``DELETE``) from a browser names the page it came from (``Origin``, else
  ``Referer``); it must be one of this server's own pages, or it is refused with 403
  before it is read: a page of another site, or of another port of the same machine,
  cannot make a logged-in organiser's browser create or change a match. (Programs
  send neither header and are judged by their tokens alone.)
- **Size.** Each route takes bodies up to its own limit (a record, a header, a form,
  an imported file); a larger one is refused with 413: by its ``Content-Length`` before
  it is read, else as soon as the bytes received pass the limit, whatever the framing
  (:mod:`carom.web.shared.bodies`). Nothing is read ahead of the route, so a route that
  checks a session or a token first refuses a stranger before reading the body. A
  client that stalls inside a body is answered 408 and its connection closed.
- **Headers.** A Content-Security-Policy that the pages satisfy (scripts and styles
  from this server only, htmx configured not to evaluate code or inject styles),
  ``X-Content-Type-Options: nosniff``, no framing, no referrer to other sites, and
  ``Cache-Control: no-store`` on pages that carry a token (the tablet, the organiser's).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from starlette.requests import Request

from carom.core.inputs import is_digits
from carom.web.shared.bodies import Refusal, counted
from carom.web.shared.limits import Limits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]
Refuse = Callable[[Request, int, str, dict[str, Any]], Any]

KIB = 1024
LIMITS: tuple[tuple[re.Pattern[str], int], ...] = (
    (re.compile(r"/api/matches/[^/]+/records"), 256 * KIB),
    (re.compile(r"/organiser/import"), 17 * KIB * KIB),
    (re.compile(r"/api/(simulate|solve)"), 16 * KIB),
    (re.compile(r"/review"), 17 * KIB * KIB),
    (re.compile(r"/review/video"), 513 * KIB * KIB),
)
"""Body limits by route: a record may carry a tracked stroke's paths; an import is a
whole match file (16 MiB, with room for the form around it), a tracked recording to review
likewise; a video to review 512 MiB (written to a file as it arrives); a simulation spec
or a position for the training table is a few hundred bytes.
Everything else: a form."""
DEFAULT_LIMIT = 64 * KIB
DRAINED = KIB * KIB
"""A body declared over its route's limit but at most this long is read and thrown away
before the 413: a server that answers and closes with bytes still arriving resets the
connection, and a proxy in front then answers 502 instead of passing the 413 on."""
UNSAFE = frozenset(("POST", "PUT", "PATCH", "DELETE"))
PRIVATE = re.compile(r"/m/[^/]+/tablet.*|/organiser.*|/review.*|/setup|/login|/api/session|/accounts?(/.*)?"
                     r"|/api/accounts.*|/referee.*"
                     r"|/tables.*"
                     r"|/leagues/[^/]+/(captain.*|organiser)|/api/leagues/[^/]+/teams/[^/]+/captain-link"
                     r"|/leagues/meetings/[^/]+/tables|/api/leagues/meetings/[^/]+/(lineup|report|tables)")
"""Pages that carry a token or a password form: never kept by a cache. (Every page's
``Referrer-Policy: same-origin`` keeps a link's token from other sites.)"""


def limit_for(path: str) -> int:
    for pattern, limit in LIMITS:
        if pattern.fullmatch(path):
            return limit
    return DEFAULT_LIMIT


def style_hash(css: str) -> str:
    """A CSP source for one inline ``<style>`` element's text."""
    return "'sha256-" + base64.b64encode(hashlib.sha256(css.encode()).digest()).decode() + "'"


def content_security_policy(inline_styles: tuple[str, ...] = ()) -> str:
    """What the pages may load: everything from this server, nothing inline except the
    given ``<style>`` texts (the table drawings carry one), no plugins, no framing."""
    styles = " ".join(("'self'", *(style_hash(css) for css in inline_styles)))
    return ("default-src 'self'; script-src 'self'; style-src " + styles + "; img-src 'self' data:; "
            "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
            "frame-ancestors 'none'")


class Guard:
    """Checks origin and size of every request and adds the security headers."""

    def __init__(self, app: ASGIApp, refuse: Refuse, policy: str, limits: Limits | None = None) -> None:
        self.app, self.refuse, self.policy = app, refuse, policy
        self.limits = limits or Limits()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope.get("path", "")
        send = self._with_headers(send, path)
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
        if scope.get("method") in UNSAFE:
            foreign = foreign_origin(headers, scope)
            if foreign is not None:
                own = f"{request_scheme(scope)}://{own_host(headers, scope)}"
                await self._refuse(scope, send, 403, "origin", {"origin": foreign[:100], "own": own[:100]})
                return
        limit = limit_for(path)
        length = headers.get("content-length", "")
        if length and (not is_digits(length) or int(length) > limit):
            if is_digits(length) and int(length) <= DRAINED:
                await _drained(receive, self.limits.body_idle_seconds)
            await self._refuse(scope, send, 413, "too_large", {"limit": limit})
            return
        receive, refused = counted(receive, limit, self.limits.body_idle_seconds, self.limits.body_seconds)
        answered = False

        async def send_or_refuse(message: Message) -> None:
            nonlocal answered
            if not refused:
                answered = answered or message["type"] == "http.response.start"
                await send(message)
            elif not answered:  # the application's answer to a refused body is not sent
                answered = True
                await self._refuse(scope, send, refused[0].status, refused[0].why, refused[0].values)

        with contextlib.suppress(Refusal):  # answered below, or by send_or_refuse
            await self.app(scope, receive, send_or_refuse)
        if refused and not answered:
            await self._refuse(scope, send, refused[0].status, refused[0].why, refused[0].values)

    def _with_headers(self, send: Send, path: str) -> Send:
        policy = self.policy
        private = PRIVATE.fullmatch(path) is not None

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", ()))
                names = {name.lower() for name, _ in headers}
                headers += [(b"content-security-policy", policy.encode()),
                            (b"x-content-type-options", b"nosniff"), (b"x-frame-options", b"DENY"),
                            (b"referrer-policy", b"same-origin")]
                if private and b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message["headers"] = headers
            await send(message)

        return send_with_headers

    async def _refuse(self, scope: Scope, send: Send, status: int, why: str, values: dict[str, Any]) -> None:
        response = self.refuse(Request(scope), status, why, values)
        response.headers["connection"] = "close"  # the body is not read: no keep-alive after it
        await response(scope, _nothing, send)


def own_host(headers: dict[str, str], scope: Scope) -> str:
    """This server as the request addressed it (``Host``), else as it listens."""
    host = headers.get("host")
    if host:
        return host.lower()
    server = scope.get("server") or ("", None)
    return f"{server[0]}:{server[1]}" if server[1] else str(server[0])


def foreign_origin(headers: dict[str, str], scope: Scope) -> str | None:
    """The other site a browser request came from, or ``None`` when it came from one of
    this server's pages (or from a program, which names no page). A page is this
    server's when its scheme, host and port are the request's: ``https://club`` is
    another origin to ``http://club`` (a page served without TLS could be anyone's)."""
    source = headers.get("origin") or headers.get("referer")
    if source is None:
        return None
    parts = urlsplit(source)
    scheme = request_scheme(scope)
    if parts.scheme != scheme:  # also "null" (a sandboxed or privacy-stripped page): no web page
        return source
    came = _place(parts.netloc, DEFAULT_PORTS[scheme])
    return None if came is not None and came == _place(own_host(headers, scope), DEFAULT_PORTS[scheme]) \
        else source


DEFAULT_PORTS = {"http": 80, "https": 443}


def over_https(request: Request) -> bool:
    """Whether the request reached this server over TLS: directly, or through a reverse
    proxy named with ``carom serve --proxy`` that says so (``X-Forwarded-Proto: https``).
    A session cookie set in answer to it gets ``Secure``."""
    return request_scheme(request.scope) == "https"


def request_scheme(scope: Scope) -> str:
    """``http`` or ``https``: how the request reached this server (behind a reverse proxy
    configured with ``carom serve --proxy``, as the proxy says it reached the proxy)."""
    return "https" if scope.get("scheme") in ("https", "wss") else "http"


def _place(netloc: str, default: int) -> tuple[str, int | None] | None:
    """``host[:port]`` as (host, port), the scheme's default port left out; ``None`` if
    unreadable."""
    try:
        parts = urlsplit("//" + netloc)
        port = parts.port
    except ValueError:
        return None
    return (parts.hostname or "", None if port == default else port)


async def _drained(receive: Receive, idle: float) -> None:
    """Read a body to its end and throw it away (each piece within ``idle`` seconds)."""
    with contextlib.suppress(TimeoutError):
        while True:
            async with asyncio.timeout(idle):
                message = await receive()
            if message["type"] != "http.request" or not message.get("more_body", False):
                return


async def _nothing() -> Message:
    return {"type": "http.disconnect"}
