"""Who may referee a match: the one check every write of a tablet goes through.

A match's referee token (the per-game tablet link, ``X-Referee-Token``) lets its holder
enter that match's records. A tablet paired with a table of the hall holds a *device
token* instead (the cookie :data:`COOKIE`, or the header :data:`HEADER` for a program):
it stands in for the referee token of the match that is on its table now (TD5, TD8),
and for no other match. A revoked device, or one whose table was retired, holds nothing.
"""

from __future__ import annotations

from fastapi import Request
from fastapi.concurrency import run_in_threadpool

from carom.competition.tables import Device, Table
from carom.storage.book import LiveMatch, WrongToken
from carom.web.tables.service import games

COOKIE = "carom_device"
HEADER = "X-Device-Token"
COOKIE_DAYS = 400
"""How long a paired tablet keeps its token (the longest a browser keeps a cookie)."""


def device_token(request: Request) -> str | None:
    """The device token the request carries: its header, else its cookie."""
    return request.headers.get(HEADER) or request.cookies.get(COOKIE) or None


def device_of(request: Request) -> tuple[Device, Table] | None:
    """The paired device the request comes from, and its table (``None``: no device token,
    or one that is revoked or of a retired table)."""
    hall = games(request).hall
    state = hall.state()
    device = hall.device(device_token(request))
    if device is None or device.table not in state.tables:
        return None
    return device, state.tables[device.table]


def check_referee(request: Request, live: LiveMatch, given: str | None) -> str:
    """The referee token a write to ``live``'s match goes in with, or :class:`WrongToken`:
    ``given`` when it is the match's own; else the match's own when the request comes from
    a tablet paired with the table the match is on now (TD5, TD8). A referee's account
    given a table's devices will be checked here too."""
    try:
        live.check_token(given)
        return str(given)
    except WrongToken as refused:
        if device_token(request) is None:
            raise
        found = device_of(request)
        if found is None:
            raise WrongToken("this device is not paired with a table (or its pairing was revoked)") from None
        _, table = found
        now = games(request).now(table).now
        if now is None or now.match != live.id:
            raise WrongToken(f"match {live.id} is not on table {table.name} now: this tablet enters the "
                             "records of its own table's game only") from refused
        return live.token


async def referee_token(request: Request, live: LiveMatch, given: str | None) -> str:
    """:func:`check_referee` for an event loop: the per-game link is checked at once, a
    device token in a worker thread (it reads the hall)."""
    try:
        live.check_token(given)
        return str(given)
    except WrongToken:
        if device_token(request) is None:
            raise
    return await run_in_threadpool(check_referee, request, live, given)
