"""The captain's page: the link the organiser issued (``?t=``, a token per team and
season, like a tablet link) shows the team's meetings; for each, the line-up form until
the team's line-up is in (the other side's stays hidden until both are in), then the
meeting's games, and the button that signs the meeting report once every game is
finished. Every form carries the token back: it is the captain's proof."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from carom.core.errors import CaromError
from carom.core.inputs import is_digits
from carom.storage.errors import StorageError
from carom.storage.leagues import StoredSeason, UnknownSeason, captain_actor
from carom.web.leagues.common import CAPTAIN_FIELD, leagues, meeting_view, now, refusal_text
from carom.web.shared.deps import error_page, render, words

router = APIRouter(include_in_schema=False)


def eligible(s: StoredSeason, team: int) -> list[tuple[int, str, str]]:
    """Who may play for ``team``: its roster, then the players of its club's lower teams
    the format lets stand in (LG3): (player, name, their team)."""
    mine = s.season.team(team)
    fmt = s.season.format_of(team)
    out = [(p, s.players[p], mine.name) for p in s.season.roster(team)]
    for other in s.season.teams:
        if other.club == mine.club and 0 < other.number - mine.number <= fmt.substitutes.lower_teams:
            out += [(p, s.players[p], other.name) for p in s.season.roster(other.id)]
    return out


def _page(request: Request, season_id: int, token: str, status: int = 200, **extra: Any) -> Response:
    office = leagues(request)
    try:
        s = office.read(season_id)
    except UnknownSeason:
        return error_page(request, 404, words(request).gettext("There is no season %(number)s.",
                                                               number=season_id))
    team = office.captain(season_id, token)
    if team is None:
        return error_page(request, 403, words(request).gettext(
            "This captain link is not one of this season's (a link replaced by a new one no longer works)."))
    meetings = [meeting_view(s, f, team) for f in s.fixtures if team in (f.home, f.away)]
    response = render(request, "league_captain.html", status, season=s, team=s.season.team(team),
                      meetings=meetings, eligible=eligible(s, team), captain=token,
                      positions=s.season.format_of(team).positions, **extra)
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/leagues/{season_id}/captain", response_class=HTMLResponse)
async def captain_page(request: Request, season_id: int, t: str = "") -> Response:
    return await run_in_threadpool(_page, request, season_id, t)


async def _form(request: Request) -> tuple[FormData, str, int]:
    form = await request.form()
    token = str(form.get(CAPTAIN_FIELD, "") or "")
    raw = str(form.get("fixture", "") or "")
    return form, token, int(raw) if is_digits(raw) and len(raw) < 10 else 0


def _back(season_id: int, token: str, fixture: int) -> Response:
    return RedirectResponse(f"/leagues/{season_id}/captain?t={quote(token)}#meeting-{fixture}",
                            status_code=303)


async def _as_captain(request: Request, season_id: int,
                      act: Callable[[FormData, int, int], object]) -> Response:
    """``act(form, team, meeting)`` for the captain the form's token proves, in a thread; back
    to the captain's page, or the page again with the refusal and its rule."""
    form, token, fixture = await _form(request)
    office = leagues(request)
    team = await run_in_threadpool(office.captain, season_id, token)
    if team is None:
        return await run_in_threadpool(_page, request, season_id, token)
    try:
        if await run_in_threadpool(office.season_of, fixture) != season_id:
            raise UnknownSeason("meeting", fixture)
        await run_in_threadpool(act, form, team, fixture)
    except (CaromError, StorageError) as error:
        message = refusal_text(words(request), error)
        return await run_in_threadpool(lambda: _page(request, season_id, token, 422, error=message,
                                                     error_meeting=fixture))
    return _back(season_id, token, fixture)


@router.post("/leagues/{season_id}/captain/lineup", response_class=HTMLResponse)
async def hand_in(request: Request, season_id: int) -> Response:
    def act(form: FormData, team: int, fixture: int) -> None:
        players = []
        for position in range(1, 65):
            value = form.get(f"position{position}")
            if value is None:
                break
            text = value if isinstance(value, str) else ""
            players.append(int(text) if is_digits(text) and len(text) < 10 else 0)
        leagues(request).submit_lineup(fixture, team, players, now(), captain_actor(team))

    return await _as_captain(request, season_id, act)


@router.post("/leagues/{season_id}/captain/report", response_class=HTMLResponse)
async def sign(request: Request, season_id: int) -> Response:
    def act(_: FormData, team: int, fixture: int) -> None:
        leagues(request).sign_report(fixture, team, captain_actor(team))

    return await _as_captain(request, season_id, act)
