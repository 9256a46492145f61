"""A meeting's games on the hall's tables (:mod:`carom.storage.leagues.on_tables`): the
organiser, or the home team's captain (the home club runs the tables), chooses the tables
on the meeting page or through ``POST /api/leagues/meetings/{id}/tables``; the games go on
them round by round, and each table's paired tablet and screen take them up in turn."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from carom.core.errors import CaromError
from carom.storage.errors import StorageError
from carom.storage.hall import HallError
from carom.storage.leagues import StoredGame, UnknownSeason, captain_actor
from carom.storage.leagues.on_tables import put_meeting
from carom.web.leagues.api import _CAPTAIN, REFUSALS, _body, captain_of, refused
from carom.web.leagues.common import CAPTAIN_FIELD, CAPTAIN_HEADER, leagues, refusal_text
from carom.web.leagues.pages import meeting_response
from carom.web.shared.deps import (
    allowed,
    api_organiser,
    csrf_ok,
    error_page,
    problem,
    refuse,
    services,
    words,
)
from carom.web.tables.service import actor, hall

router = APIRouter()
TABLES_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["tables"], "additionalProperties": False,
    "properties": {"tables": {"type": "array", "items": {"type": "string"},
                              "description": "the hall's tables the games go on, in turn"}}}
NOT_HOME = "only the organiser and the home team's captain put the meeting's games on tables"


def _home_captain(request: Request, fixture_id: int, token: str) -> int | None:
    """The home team when ``token`` is its captain's, else ``None`` (:class:`PermissionError`
    for a token of no team of the season)."""
    office = leagues(request)
    season_id = office.season_of(fixture_id)
    team = captain_of(request, season_id, token)
    return team if team == office.read(season_id).fixture(fixture_id).home else None


def _games_json(chosen: list[tuple[StoredGame, str]]) -> dict[str, Any]:
    return {"games": [{"number": g.number, "round": g.round, "match": g.match_id, "table": name}
                      for g, name in chosen]}


@router.post("/api/leagues/meetings/{fixture_id}/tables", tags=["leagues"], responses=REFUSALS,
             summary="Put the meeting's games on the hall's tables (organiser or home captain)",
             openapi_extra={"parameters": _CAPTAIN, "requestBody": {
                 "required": True, "content": {"application/json": {"schema": TABLES_SCHEMA}}}})
async def post_tables(request: Request, fixture_id: int) -> Response:
    token = request.headers.get(CAPTAIN_HEADER)
    try:
        if token:
            team = await run_in_threadpool(_home_captain, request, fixture_id, token)
            if team is None:
                return problem(403, NOT_HOME)
            by = captain_actor(team)
        else:
            if (refusal := api_organiser(request)) is not None:
                return refusal
            by = actor(request)
        body = await _body(request)
        names = body.get("tables") if isinstance(body, dict) and set(body) == {"tables"} else None
        chosen = await run_in_threadpool(put_meeting, leagues(request), hall(request), fixture_id,
                                         names, by)
    except PermissionError as error:
        return problem(403, str(error))
    except HallError as error:
        return problem(404 if error.rule == "TD2" else 422, str(error), rule=error.rule)
    except (CaromError, StorageError) as error:
        return refused(request, error)
    services(request).hub.tables_changed()
    return JSONResponse(_games_json(chosen))


@router.post("/leagues/meetings/{fixture_id}/tables", response_class=HTMLResponse, include_in_schema=False)
async def form_tables(request: Request, fixture_id: int) -> Response:
    """The meeting page's form: the tables ticked, in the hall's order."""
    form = await request.form()
    token = str(form.get(CAPTAIN_FIELD, "") or "")
    back = f"/leagues/meetings/{fixture_id}"
    try:
        if token:
            team = await run_in_threadpool(_home_captain, request, fixture_id, token)
            if team is None:
                return error_page(request, 403, words(request).gettext(
                    "Only the organiser and the home team's captain put the meeting's games on tables."))
            by = captain_actor(team)
        else:
            if (refusal := allowed(request, back)) is not None:
                return refusal
            if not csrf_ok(request, form):
                return refuse(request, 403, "forged", {})
            by = actor(request)
        names = [n for n in form.getlist("table") if isinstance(n, str)]
        await run_in_threadpool(put_meeting, leagues(request), hall(request), fixture_id, names, by)
        services(request).hub.tables_changed()
    except PermissionError:
        return error_page(request, 403, words(request).gettext(
            "This captain link is not one of this season's (a link replaced by a new one no longer works)."))
    except UnknownSeason:
        return error_page(request, 404, words(request).gettext("There is no meeting %(number)s.",
                                                               number=fixture_id))
    except (CaromError, StorageError) as error:
        message = refusal_text(words(request), error)
        return await run_in_threadpool(meeting_response, request, fixture_id, token or None, 422,
                                       tables_error=message)
    return RedirectResponse(back + (f"?t={quote(token)}" if token else "") + "#games", status_code=303)

