"""The organiser's desk as pages: ``/tournaments/{id}/desk``, for the accounts that run the
day (an organiser or a tournament director). Plain forms, each posted to
``/tournaments/{id}/desk/{action}`` with the session's anti-forgery token and answered by a
redirect back to the desk (it says what was done), or by the desk again with the refusal
(its field and rule, in the page's language); nothing is changed then. The decisions are
those of the JSON API (:mod:`carom.web.tournaments.desk`); the audit view lists the
tournament's log: who, when, what, why.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData, UploadFile

from carom.competition.day import derived, group_name
from carom.competition.day import records as r
from carom.competition.day.schedule import start_of
from carom.core.spreadsheet import CHARSETS, SpreadsheetError, decode
from carom.notation.words import N_
from carom.storage.errors import StorageError
from carom.storage.players import UnknownPlayer
from carom.storage.ranking_list import read_ranking
from carom.storage.tournaments import Tournament, TournamentError, UnknownTournament
from carom.web.shared.deps import account_form, allowed, error_page, render, services, words
from carom.web.shared.forms import FormError, say
from carom.web.tournaments.api import tournaments
from carom.web.tournaments.audit import WHAT, audit_rows
from carom.web.tournaments.desk import ACTIONS, Body
from carom.web.tournaments.desk_api import MAX_RANKING
from carom.web.tournaments.sheet import table_name

router = APIRouter(include_in_schema=False)
SIDES = ("0", "1")
DONE: dict[str, type[r.Record]] = {
    "enter": r.Entered, "withdraw": r.Withdrew, "walkover": r.Walkover, "result": r.ResultEntered,
    "correct": r.ResultCorrected, "unlock": r.GameUnlocked, "call": r.GameCalled, "move": r.GameMoved,
    "swap": r.GamesSwapped, "postpone": r.GamePostponed, "schedule": r.GameScheduled,
    "round": r.RoundScheduled, "seeding": r.SeedingSet, "ranking": r.SeedingSet}
"""What the desk says it has done after each decision (the audit view's words)."""


def _pair(form: FormData, key: str) -> list[int] | None:
    """Two whole numbers, one a player (``points_0``, ``points_1``); ``None`` when both are empty."""
    given = [str(form.get(f"{key}_{side}", "") or "").strip() for side in SIDES]
    if not any(given):
        return None
    if not all(v.isascii() and v.isdigit() and len(v) < 7 for v in given):
        raise TournamentError(f"{key}: expected two whole numbers (one a player)", key)
    return [int(v) for v in given]


def _series(form: FormData) -> list[list[int]] | None:
    """Each player's series inning by inning, typed with spaces or commas (``0 3 1``)."""
    given = [str(form.get(f"series_{side}", "") or "").replace(",", " ").split() for side in SIDES]
    if not any(given):
        return None
    if not all(len(v) <= 1000 and all(x.isascii() and x.isdigit() and len(x) < 5 for x in v) for v in given):
        raise TournamentError("series: expected whole numbers, one an inning", "series")
    return [[int(x) for x in v] for v in given]


def _local_time(value: str) -> str | None:
    """A form's ``datetime-local`` (the hall's clock, this server's time zone) with its offset."""
    if not value:
        return None
    try:
        return datetime.fromisoformat(value).astimezone().isoformat()
    except ValueError:
        return value  # refused by the desk, naming the field


def form_body(action: str, form: FormData) -> dict[str, Any]:
    """The desk's request made of a form's fields (:mod:`carom.web.tournaments.desk`)."""
    fields = {k: v for k, v in form.items() if k != "csrf" and isinstance(v, str)}
    if action == "seeding":
        return {"seeds": [{"player": k.removeprefix("seed_"), "seed": v or "0"}
                          for k, v in fields.items() if k.startswith("seed_")][:256]}
    body: dict[str, Any] = {k: v for k, v in fields.items()
                            if not k.startswith(("points_", "innings_", "high_run_", "series_"))}
    if action in ("result", "correct"):
        series = _series(form)
        if series is not None:
            body["series"] = series
        for key in ("points", "innings", "high_run"):
            pair = _pair(form, key)
            if pair is not None:
                body[key] = pair
        body["winner"] = int(body["winner"]) if body.get("winner") in SIDES else None
    if action == "walkover" and body.get("winner") in SIDES:
        body["winner"] = int(body["winner"])
    if "start" in body:
        body["start"] = _local_time(body["start"])
    return body


def _view(t: Tournament, app: Any) -> dict[str, Any]:
    """What the desk shows of the tournament: its players, its games with their start times,
    its tables (by the hall's names when it plays on the hall's tables)."""
    names = t.names()
    by_key = derived(t.day).by_key
    games = []
    for g in t.games:
        day = by_key.get(g.key) if g.key is not None else None
        start = start_of(t.day, day) if day is not None and g.status == "waiting" else None
        games.append({"game": g, "names": [names.get(p, "?") if p else "—" for p in g.players],
                      "known": all(g.players), "start": start})
    groups = {n: group_name(n) for n in range(1, max((g.group_no for g in t.games), default=0) + 1)}
    tables = {n: table_name(app, t.id, n) for n in range(1, t.settings.tables + 1)}
    return {"t": t, "names": names, "games": games, "tables": tables,
            "stages": range(1, len(t.day.stages) + 1), "groups": groups}


def _desk(request: Request, tournament_id: int, status: int = 200, **extra: Any) -> Response:
    try:
        t = tournaments(request).read(tournament_id)
        logged = tournaments(request).audit(tournament_id)
    except UnknownTournament:
        return _unknown(request, tournament_id)
    lang = words(request)
    done = DONE.get(request.query_params.get("done", ""))
    said = lang.gettext("Recorded: %(what)s.", what=lang.gettext(WHAT[done])) if done else None
    response = render(request, "tournament_desk.html", status, v=_view(t, request.app),
                      audit=audit_rows(logged, t, lang), charsets=CHARSETS, done=said, **extra)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/tournaments/{tournament_id}/desk", response_class=HTMLResponse)
async def desk(request: Request, tournament_id: int) -> Response:
    refused = allowed(request, f"/tournaments/{tournament_id}/desk")
    if refused is not None:
        return refused
    return await run_in_threadpool(_desk, request, tournament_id)


def _unknown(request: Request, tournament_id: int) -> Response:
    return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                           number=tournament_id))


def _done(tournament_id: int, action: str) -> Response:
    return RedirectResponse(f"/tournaments/{tournament_id}/desk?done={action}#desk-done", status_code=303)


@router.post("/tournaments/{tournament_id}/desk/ranking", response_class=HTMLResponse)
async def ranking(request: Request, tournament_id: int) -> Response:
    """The seeding from a ranking list's CSV, in the encoding the organiser says (D3)."""
    sent = await account_form(request, f"/tournaments/{tournament_id}/desk")
    if isinstance(sent, Response):
        return sent
    form, account = sent
    upload = form.get("file")
    try:
        if not isinstance(upload, UploadFile):
            raise FormError(N_("file: choose the ranking list's file"))
        data = await upload.read(MAX_RANKING + 1)
        if len(data) > MAX_RANKING:
            raise FormError(N_("file: at most %(most)s bytes"), most=MAX_RANKING)
        text = decode(data, str(form.get("charset", "utf-8") or "utf-8"))
        found = await run_in_threadpool(read_ranking, tournaments(request).store, text)
        await run_in_threadpool(tournaments(request).seed_from_ranking, tournament_id, found.players,
                                account.actor, f"ranking list {upload.filename or ''}".strip())
    except UnknownTournament:
        return _unknown(request, tournament_id)
    except (StorageError, SpreadsheetError, FormError) as error:
        message = say(error, words(request))
        return await run_in_threadpool(lambda: _desk(request, tournament_id, 422, error=message))
    if found.unknown:
        left = "; ".join(f"{line}: {row}" for line, row in found.unknown[:20])
        return await run_in_threadpool(lambda: _desk(request, tournament_id, left_aside=left))
    return _done(tournament_id, "ranking")


@router.post("/tournaments/{tournament_id}/desk/{action}", response_class=HTMLResponse)
async def act(request: Request, tournament_id: int, action: str) -> Response:
    """One decision of the desk (:data:`carom.web.tournaments.desk.ACTIONS`)."""
    sent = await account_form(request, f"/tournaments/{tournament_id}/desk")
    if isinstance(sent, Response):
        return sent
    form, account = sent
    do = ACTIONS.get(action)
    if do is None:
        return error_page(request, 404, words(request).gettext("There is no such decision of the desk."))
    try:
        body: Body = form_body(action, form)
        await run_in_threadpool(do, tournaments(request), tournament_id, body, account.actor)
    except UnknownTournament:
        return _unknown(request, tournament_id)
    except (StorageError, UnknownPlayer, FormError) as error:
        message = say(error, words(request))
        return await run_in_threadpool(lambda: _desk(request, tournament_id, 422, error=message))
    services(request).hub.tables_changed()  # a table's game or its next one may have changed
    return _done(tournament_id, action)
