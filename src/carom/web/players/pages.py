"""The players: their statistics across matches, and the player register with its CSV
import and export (the file's encoding and separator as the organiser says them; the
export plain, or as Excel in Slovak and German opens it)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import UploadFile

from carom.core.spreadsheet import CHARSETS, SEPARATORS, SpreadsheetError, Style
from carom.match.stats import player_stats
from carom.notation.words import N_
from carom.storage.accounts import Action
from carom.storage.book import Snapshot
from carom.storage.players import name_key
from carom.storage.register import RegisterError, export_csv, import_rows, read_file, register
from carom.storage.tournaments import player_averages
from carom.web.shared.deps import account_of, error_page, organiser_form, render, services, words
from carom.web.shared.forms import FormError, check_name, say
from carom.web.shared.reports import csv_response
from carom.web.tournaments.api import tournaments

router = APIRouter(include_in_schema=False)
MAX_REGISTER = 60 * 1024
"""A register file: the default body limit (64 KiB) less the form around it."""


@dataclass
class Line:
    """One player's record in one discipline."""

    player: str
    """The player's id (``name:…`` for a match stored without players)."""
    name: str
    discipline: str
    played: int = 0
    won: int = 0
    points: int = 0
    innings: int = 0
    best: Fraction = Fraction(0)
    high_run: int = 0

    @property
    def general(self) -> Fraction:
        return Fraction(self.points, self.innings) if self.innings else Fraction(0)


def statistics(snaps: list[Snapshot], names: dict[int, str] | None = None) -> dict[str, list[Line]]:
    """Per discipline, per player (by identity, not by name), over the finished
    matches: general average (total points ÷ total innings), best game average, high
    run, matches won. ``names``: the players' names by id (else the headers')."""
    lines: dict[tuple[str, str], Line] = {}
    for snap in snaps:
        if not snap.state.finished:
            continue
        d = snap.header.discipline
        for p, stats in enumerate(player_stats(snap.state)):
            name = snap.header.players[p]
            who = f"{snap.players[p]}" if snap.players else f"name:{name_key(name)}"
            shown = (names or {}).get(snap.players[p], name) if snap.players else name
            line = lines.setdefault((d, who), Line(who, shown, d))
            line.played += 1
            line.won += snap.state.winner == p and not snap.state.penalties  # a shoot-out: a draw (P1)
            line.points += stats.points
            line.innings += stats.innings
            line.best = max(line.best, stats.best_game_average)
            line.high_run = max(line.high_run, stats.high_run)
    out: dict[str, list[Line]] = {}
    for (d, _), line in sorted(lines.items()):
        out.setdefault(d, []).append(line)
    for group in out.values():
        group.sort(key=lambda x: (-x.general, x.name, x.player))
    return out


@router.get("/players", response_class=HTMLResponse)
def players(request: Request) -> Response:
    svc = services(request)
    names = {p.id: p.name for p in svc.book.store.players()}
    return render(request, "players.html", groups=statistics(svc.book.snapshots(), names))


def _register(request: Request, status: int = 200, **extra: Any) -> Response:
    book = services(request).book
    store = tournaments(request).store
    players = register(store, player_averages(book), words(request).lang)
    disciplines = sorted({d for p in players for d, (_, inn) in p.averages.items() if inn})
    return render(request, "register.html", status, players=players, disciplines=disciplines,
                  charsets=CHARSETS, separators=SEPARATORS, **extra)


@router.get("/players/register", response_class=HTMLResponse)
async def register_page(request: Request) -> Response:
    return await run_in_threadpool(_register, request)


@router.get("/players/register.csv")
async def register_csv(request: Request, sep: str | None = None, decimal: str | None = None) -> Response:
    """The register as CSV: ``sep`` ``,`` (default) or ``;``, ``decimal`` ``point``
    (default) or ``comma`` (Excel in Slovak and German: ``?sep=;&decimal=comma``)."""
    try:
        style = Style.named(sep, decimal)
    except SpreadsheetError as error:
        return error_page(request, 422, words(request).error(error))

    def make() -> bytes:
        players = register(tournaments(request).store, player_averages(services(request).book),
                           words(request).lang)
        return export_csv(players, style)

    return csv_response(await run_in_threadpool(make), "players.csv")


@router.post("/players/register/import", response_class=HTMLResponse)
async def register_import(request: Request) -> Response:
    form = await organiser_form(request, "/players/register")
    if isinstance(form, Response):
        return form
    upload = form.get("file")
    t = words(request)
    if not isinstance(upload, UploadFile):
        message = t.gettext("Choose a file.")
        return await run_in_threadpool(lambda: _register(request, 422, import_error=message))
    data = await upload.read(MAX_REGISTER + 1)
    charset = str(form.get("charset", "utf-8") or "utf-8")
    separator = str(form.get("separator", "") or "") or None
    try:
        rows = read_file(data, MAX_REGISTER, charset, separator)
        for row in rows:
            check_name(row["name"], (N_("line %(line)s, name"), {"line": row["line"]}))
        made, changed = await run_in_threadpool(import_rows, tournaments(request).store, rows)
        await run_in_threadpool(services(request).accounts.log, account_of(request), Action.REGISTER,
                                f"{made} {changed}")
    except (RegisterError, SpreadsheetError, FormError) as error:
        message = say(error, t)
        return await run_in_threadpool(lambda: _register(request, 422, import_error=message))
    return await run_in_threadpool(lambda: _register(request, imported=(made, changed)))
