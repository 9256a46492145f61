"""Each table's fixed pages: its tablet (paired once) and its audience screen, and pairing.

- ``GET /tables/{name}/tablet``: the tablet of the match on the table now (the ordinary
  panel: its buttons write with the device token, :mod:`carom.web.tables.devices`), or
  "Next: A – B, 14:30" between games. A device that is not paired with this table (no
  token, a revoked one, another table's) gets a page that says so, and writes nothing.
- ``GET /tables/{name}/tablet/now``: the same without the page around it (the tablet's
  script fetches it when the table moves on).
- ``GET /tables/{name}/screen``: the audience board of the match now, or what is next;
  public, read-only (it shows what every board shows), no link on it.
- ``/tables/{name}/events``: the live channel of both (:mod:`carom.web.tables.feed`, answered
  by :class:`carom.web.shared.live.LiveEvents`).
- ``GET /tables/{name}/pair?code=…``: the page a pairing link opens; its button
  (``POST``) pairs the device: the code is used once, the device gets its token (a
  cookie) and goes to the table's tablet.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from carom.competition.tables import OnTable, Table
from carom.notation.words import LANGUAGES
from carom.storage.book import Snapshot
from carom.storage.hall import HallError
from carom.web.shared.deps import error_page, render, services, words
from carom.web.shared.views import match_view
from carom.web.tables.devices import COOKIE, COOKIE_DAYS, device_of
from carom.web.tables.service import games
from carom.web.tables.views import coming, next_line

router = APIRouter(include_in_schema=False)


def table_path(table: Table | str) -> str:
    """The table's address (its name, as a URL writes it)."""
    return "/tables/" + quote(table if isinstance(table, str) else table.name, safe="")


def _now(request: Request, name: str) -> tuple[OnTable, Snapshot | None]:
    """The table's games now and next, and the match now (:class:`HallError`: no such table)."""
    tables = games(request)
    on = tables.now(tables.hall.table(name))
    snap = tables.book.snapshot(on.now.match) if on.now is not None and on.now.match is not None else None
    return on, snap


def _unknown(request: Request, name: str) -> Response:
    return error_page(request, 404, words(request).gettext("There is no table %(name)s in the hall.",
                                                           name=name[:40]))


def _not_paired(request: Request, name: str) -> Response:
    return render(request, "table_unpaired.html", status=403, table=name)


def _tablet_context(request: Request, on: OnTable, snap: Snapshot | None) -> dict[str, Any]:
    t = words(request)
    if snap is None:
        return {"table": on.table, "coming": coming(on, t), "view": None, "after": ""}
    return {"table": on.table, "coming": None, "view": match_view(snap, t, tablet=True),
            "after": next_line(on, t)}


def _paired(request: Request, name: str) -> Table | None:
    """The table this request's device is paired with, when it is ``name``."""
    found = device_of(request)
    table = games(request).hall.state().table(name)
    if found is None or table is None or found[1].id != table.id:
        return None
    return table


async def _paired_now(request: Request, name: str) -> tuple[OnTable, Snapshot | None] | Response:
    """The table's games now and next for its paired tablet, else the page that says why not."""
    try:
        on, snap = await run_in_threadpool(_now, request, name)
    except HallError:
        return _unknown(request, name)
    if await run_in_threadpool(_paired, request, name) is None:
        return _not_paired(request, name)
    return on, snap


@router.get("/tables/{name}/tablet", response_class=HTMLResponse)
async def tablet(request: Request, name: str) -> Response:
    found = await _paired_now(request, name)
    if isinstance(found, Response):
        return found
    on, snap = found
    return render(request, "table_tablet.html", base=table_path(on.table), languages_asked=_asked(request),
                  **_tablet_context(request, on, snap))


@router.get("/tables/{name}/tablet/now", response_class=HTMLResponse)
async def tablet_now(request: Request, name: str) -> Response:
    found = await _paired_now(request, name)
    if isinstance(found, Response):
        return found
    return render(request, "_table_tablet_now.html", **_tablet_context(request, *found))


@router.get("/tables/{name}/screen", response_class=HTMLResponse)
async def screen(request: Request, name: str) -> Response:
    try:
        on, snap = await run_in_threadpool(_now, request, name)
    except HallError:
        return _unknown(request, name)
    t = words(request)
    shown = snap if snap is not None and on.started else None
    return render(request, "table_screen.html", table=on.table, base=table_path(on.table),
                  view=None if shown is None else match_view(shown, t), after=next_line(on, t),
                  coming=coming(on, t), languages_asked=_asked(request))


def _asked(request: Request) -> str:
    """``&lang=xx`` when the page's address chose its language (a screen nobody clicks)."""
    asked = request.query_params.get("lang")
    return f"&lang={asked}" if asked in LANGUAGES else ""


@router.get("/tables/{name}/pair", response_class=HTMLResponse)
async def pair_page(request: Request, name: str, code: str = "") -> Response:
    table = games(request).hall.state().table(name)
    if table is None:
        return _unknown(request, name)
    return render(request, "table_pair.html", table=table, code=code[:200], base=table_path(table))


@router.post("/tables/{name}/pair", response_class=HTMLResponse)
async def pair(request: Request, name: str) -> Response:
    """The device pairs with the code (TD4, TD5): it gets the table's device token as a
    cookie, and goes to the table's tablet."""
    form = await request.form()
    code = str(form.get("code", ""))
    try:
        _device, token = await run_in_threadpool(games(request).hall.pair, name, code)
    except HallError as error:
        table = games(request).hall.state().table(name)
        if table is None:
            return _unknown(request, name)
        return render(request, "table_pair.html", status=403, table=table, code="", base=table_path(table),
                      error=words(request).error(error))
    services(request).hub.tables_changed()
    response = RedirectResponse(table_path(name) + "/tablet", status_code=303)
    response.set_cookie(COOKIE, token, max_age=COOKIE_DAYS * 24 * 3600, httponly=True, samesite="strict",
                        secure=request.url.scheme == "https")
    return response
