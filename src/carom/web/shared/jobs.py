"""A request's work in the simulation pool (:mod:`carom.web.shared.pool`): a place taken
for its client before anything is read, the work run apart from the event loop, the
answer or the refusal (422 naming the field, 429 or 503 with ``Retry-After``), and the
place given back. What is printed (a scoresheet PDF) is kept per version and language,
so that a big match is printed once however many ask for it."""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse, Response

from carom.core.errors import CaromError
from carom.web.shared.deps import answer, client_of, services, until_gone, words
from carom.web.shared.pool import Broken, Busy, Gone, Refused, Task

V = TypeVar("V")
T = TypeVar("T")
PRINTED = 32
"""Printed documents kept (the least recently asked for leave first)."""
PRINT_SECONDS = 60.0
"""A PDF's time bound: the scoresheet of the largest match a server takes prints in a few
seconds on an idle core."""


async def pooled(request: Request, task: Task, arguments: Callable[[], Awaitable[tuple[Any, ...]]],
                 seconds: float, *, as_json: bool = False) -> bytes | Response:
    """``task(*await arguments())`` in the pool: its bytes, or the answer that refuses it
    (``{"detail": …}`` when ``as_json``, as under ``/api/``: a page's script asked)."""
    pool, client = services(request).jobs(), client_of(request)
    try:
        pool.admit(client)
    except Busy as busy:
        if busy.hold:  # it came back too soon: it waits here, costing the server nothing meanwhile
            await asyncio.sleep(busy.hold)
        return _refusal(request, busy.status, _said(request, busy), busy.retry_after, as_json)
    try:
        args = await arguments()
        return await pool.run(client, task, args, seconds, lambda: until_gone(request))
    except Gone as gone:
        return _refusal(request, 503, _said(request, gone), 5, as_json)
    except Broken:
        raise
    except CaromError as error:  # the field is named (JobFailed too)
        return _refusal(request, 422, str(error), None, as_json)
    finally:
        pool.release(client)


class Kept(Generic[V]):
    """Values kept by key, at most ``most`` (the least recently asked for leave first)."""

    def __init__(self, most: int) -> None:
        self.most = most
        self._kept: OrderedDict[Hashable, V] = OrderedDict()

    def get(self, key: Hashable) -> V | None:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
        return kept

    def put(self, key: Hashable, value: V) -> None:
        self._kept[key] = value
        self._kept.move_to_end(key)
        while len(self._kept) > self.most:
            self._kept.popitem(last=False)

    def __len__(self) -> int:
        return len(self._kept)


def on_app(request: Request, name: str, make: Callable[[], T]) -> T:
    """The application's ``name`` (``app.state``), made by ``make`` on first use."""
    found: T | None = getattr(request.app.state, name, None)
    if found is None:
        found = make()
        setattr(request.app.state, name, found)
    return found


class Printed:
    """Documents printed in the pool, kept by what they show (a match's version, a language)."""

    def __init__(self, most: int = PRINTED) -> None:
        self.kept: Kept[bytes] = Kept(most)

    async def get(self, request: Request, key: tuple[Any, ...], task: Task, args: tuple[Any, ...],
                  seconds: float) -> bytes | Response:
        kept = self.kept.get(key)
        if kept is not None:
            return kept

        async def same() -> tuple[Any, ...]:
            return args

        made = await pooled(request, task, same, seconds)
        if isinstance(made, bytes):
            self.kept.put(key, made)
        return made


def printed(request: Request) -> Printed:
    """The application's printed documents (made on first use)."""
    return on_app(request, "printed", Printed)


def _said(request: Request, refused: Refused) -> str:
    """The refusal in the page's language (the JSON API's too: the training table shows it)."""
    return words(request).gettext(refused.message, **refused.values)


def _refusal(request: Request, status: int, message: str, retry_after: int | None,
             as_json: bool = False) -> Response:
    if as_json:
        response: Response = JSONResponse({"detail": message}, status_code=status)
    else:
        response = answer(request, status, message)
    if retry_after is not None:
        response.headers["Retry-After"] = str(retry_after)
    return response
