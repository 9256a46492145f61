"""The organiser's tables (``/tables``): the hall's tables in order with what each plays
now and next; add, reorder and retire a table; pair a table's tablet (a one-time code as
a link and a QR code) and revoke a paired device; put a one-off match on a table or take
it off; choose the tables each tournament plays on. Every form carries the session's
anti-forgery token; a refused change names its field and rule and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import segno
from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from carom.competition.tables import Device, OnTable, Table
from carom.core.table import TABLES
from carom.notation.words import N_
from carom.storage.errors import StorageError
from carom.web.shared.addresses import device_url
from carom.web.shared.deps import allowed, organiser_form, render, services, words
from carom.web.shared.forms import FormError, say
from carom.web.shared.i18n import PageWords
from carom.web.tables.screens import table_path
from carom.web.tables.service import actor, games
from carom.web.tables.views import clock_time, game_text
from carom.web.tournaments.api import tournaments

router = APIRouter(include_in_schema=False)
BACK = "/tables"
MAX_CHOICES = 200
"""One-off matches offered to put on a table (the newest that are not over)."""


@dataclass
class Row:
    """A table on the organiser's list."""

    table: Table
    base: str
    now: str
    next: str
    devices: list[Device]
    on_it: list[tuple[int, str]]
    """The one-off matches on the table that are not done: number and players."""


def now_text(on: OnTable, t: PageWords) -> str:
    """The game on a table and how far it is: under way, to be confirmed, not begun."""
    if on.now is None:
        return ""
    progress = on.progress
    where = (t.gettext("not begun") if progress is None or not progress.started
             else t.gettext("finished, to be confirmed") if progress.finished else t.gettext("under way"))
    return t.gettext("%(game)s (%(where)s)", game=game_text(on.now, t), where=where)


def _rows(request: Request) -> list[Row]:
    t = words(request)
    tables = games(request)
    state = tables.hall.state()
    rows = []
    for table in state.in_order():
        on = tables.now(table, state)
        shown = [g for g in (on.now, on.next)
                 if g is not None and g.tournament is None and g.match is not None]
        rows.append(Row(table, table_path(table), now_text(on, t), game_text(on.next, t) if on.next else "",
                        state.paired(table.id), [(g.match or 0, game_text(g, t)) for g in shown]))
    return rows


def _choices(request: Request) -> list[tuple[int, str]]:
    """The matches that may be put on a table: not over, no tournament's game, on no table."""
    svc = services(request)
    state = games(request).hall.state()
    t = words(request)
    out = []
    for snap in svc.book.snapshots():
        if snap.state.finished or state.placement(snap.match_id) is not None:
            continue
        if tournaments(request).tournament_of(snap.match_id) is not None:
            continue
        out.append((snap.match_id, t.gettext("%(first)s – %(second)s", first=snap.header.players[0],
                                             second=snap.header.players[1])))
        if len(out) >= MAX_CHOICES:
            break
    return out


def _tournaments(request: Request) -> list[tuple[int, str, int, str]]:
    """Every tournament: its number, name, number of tables and the hall's tables it plays on."""
    state = games(request).hall.state()
    out = []
    for tid, name, _mode, _state, _players in tournaments(request).list():
        count = tournaments(request).read(tid, advance=False).settings.tables
        chosen = ", ".join(t.name if t is not None else "?" for t in state.tournament_tables(tid))
        out.append((tid, name, count, chosen))
    return out


def _page(request: Request, status: int = 200, **extra: Any) -> Response:
    return render(request, "tables.html", status, rows=_rows(request), sizes=list(TABLES),
                  choices=_choices(request), tournaments=_tournaments(request), **extra)


@router.get("/tables", response_class=HTMLResponse)
async def tables_page(request: Request) -> Response:
    if (refused := allowed(request, BACK)) is not None:
        return refused
    return await run_in_threadpool(_page, request)


async def _change(request: Request, form: FormData | Response, change: Any) -> Response:
    """Run ``change`` (a refusal is shown on the page, in its language), tell the tables'
    pages, and go back to the list."""
    if isinstance(form, Response):
        return form
    try:
        await run_in_threadpool(change, form)
    except (StorageError, FormError) as error:
        return await _refused(request, error)
    services(request).hub.tables_changed()
    return RedirectResponse(BACK, status_code=303)


async def _refused(request: Request, error: Exception) -> Response:
    """The list again, with the refusal in the page's language: nothing was changed."""
    return await run_in_threadpool(lambda: _page(request, 422, error=say(error, words(request))))


def _number(form: FormData, name: str) -> int:
    value = str(form.get(name, "")).strip()
    if not value.isascii() or not value.isdigit() or len(value) > 9:
        raise FormError(N_("%(field)s: expected a whole number"), field=name)
    return int(value)


@router.post("/tables", response_class=HTMLResponse)
async def add(request: Request) -> Response:
    def change(form: FormData) -> None:
        games(request).hall.register(str(form.get("name", "")).strip(), str(form.get("size", "")),
                                     _number(form, "order"), actor(request))
    return await _change(request, await organiser_form(request, BACK), change)


@router.post("/tables/{name}/order", response_class=HTMLResponse)
async def reorder(request: Request, name: str) -> Response:
    def change(form: FormData) -> None:
        games(request).hall.reorder(name, _number(form, "order"), actor(request))
    return await _change(request, await organiser_form(request, BACK), change)


@router.post("/tables/{name}/retire", response_class=HTMLResponse)
async def retire(request: Request, name: str) -> Response:
    return await _change(request, await organiser_form(request, BACK),
                         lambda form: games(request).hall.retire(name, actor(request)))


@router.post("/tables/{name}/devices/{device}/revoke", response_class=HTMLResponse)
async def revoke(request: Request, name: str, device: int) -> Response:
    return await _change(request, await organiser_form(request, BACK),
                         lambda form: games(request).hall.revoke(name, device, actor(request)))


@router.post("/tables/{name}/matches", response_class=HTMLResponse)
async def put(request: Request, name: str) -> Response:
    return await _change(request, await organiser_form(request, BACK), lambda form: games(request).hall.put(
        name, _number(form, "match"), actor(request), is_game=lambda m: tournaments(request).tournament_of(m)
        is not None))


@router.post("/tables/{name}/matches/{match}/take", response_class=HTMLResponse)
async def take(request: Request, name: str, match: int) -> Response:
    return await _change(request, await organiser_form(request, BACK),
                         lambda form: games(request).hall.take(name, match, actor(request)))


def tournament_tables(request: Request, tid: int, names: list[str]) -> None:
    """A tournament's tables (TD7): as many as it has (:class:`UnknownTournament`)."""
    count = tournaments(request).read(tid, advance=False).settings.tables
    games(request).hall.set_tournament_tables(tid, names, actor(request), tables=count)


@router.post("/tables/tournaments/{tid}", response_class=HTMLResponse)
async def tournament(request: Request, tid: int) -> Response:
    return await _change(request, await organiser_form(request, BACK), lambda form: tournament_tables(
        request, tid, [n.strip() for n in str(form.get("tables", "")).split(",") if n.strip()]))


@router.post("/tables/{name}/pairing", response_class=HTMLResponse)
async def pairing(request: Request, name: str) -> Response:
    """A new one-time pairing code for the table's tablet, shown once: as a link and a QR
    code, with the table's screen link beside it."""
    form = await organiser_form(request, BACK)
    if isinstance(form, Response):
        return form
    hall = games(request).hall
    try:
        code, until = await run_in_threadpool(hall.open_pairing, name, actor(request))
    except StorageError as error:
        return await _refused(request, error)
    t = words(request)
    host = services(request).tablet_host
    base = table_path(name)
    link, local_only = device_url(request, host, base + "/pair", "code=" + quote(code))
    screen, _ = device_url(request, host, base + "/screen")
    shown = {"table": name, "link": link, "until": clock_time(until, t), "local_only": local_only,
             "screen": screen, "qr": _qr(link, t.gettext("Pairing link")), "screen_qr": _qr(screen, t.gettext(
                 "Screen link"))}
    return await run_in_threadpool(lambda: _page(request, pairing=shown))


def _qr(url: str, title: str) -> str:
    return str(segno.make(url, error="m").svg_inline(scale=5, dark="#0d1722", light="#ffffff", border=3,
                                                     title=title, svgclass="qr-code", lineclass=None))
