"""The leagues' public pages and the organiser's: the seasons (and the form that makes one
from its three sheets), a season's divisions with their tables, meetings and moves, a
division, a team with its players' averages, a meeting with its games live (each game's
board on the board's live channel, the meeting's part fetched again every few seconds),
and the organiser's page that issues the captains' links."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from carom.core.errors import CaromError, InputError, UnknownName
from carom.core.inputs import is_digits
from carom.league import FORMATS, decode_sheet
from carom.notation.words import N_
from carom.storage.errors import StorageError
from carom.storage.leagues import StoredSeason, UnknownSeason
from carom.web.leagues.api import captain_of
from carom.web.leagues.common import (
    check_sheet_names,
    hall_tables,
    leagues,
    meeting_tables,
    meeting_view,
    refusal_text,
    season_view,
    table_rows,
)
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import error_page, is_organiser, organiser_form, render, services, to_login, words

router = APIRouter(include_in_schema=False)
SHEETS = ("divisions", "teams", "fixtures")
MAX_SHEET = 60 * 1024
"""A sheet's file: the form's body limit (64 KiB) less the form around it."""


def _missing(request: Request, error: Exception) -> Response:
    t = words(request)
    if not isinstance(error, UnknownSeason):
        return error_page(request, 404, t.gettext("There is no such division."))
    messages = {"season": N_("There is no season %(number)s."), "team": N_("There is no team %(number)s."),
                "meeting": N_("There is no meeting %(number)s.")}
    return error_page(request, 404, t.gettext(messages[error.what], number=error.number))


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


# --- the seasons ----------------------------------------------------------------------


def _list(request: Request, status: int = 200, **extra: Any) -> Response:
    return render(request, "leagues.html", status, seasons=leagues(request).seasons(), formats=FORMATS,
                  **extra)


@router.get("/leagues", response_class=HTMLResponse)
async def list_page(request: Request) -> Response:
    return await run_in_threadpool(_list, request)


@router.post("/leagues", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    """The organiser's form: league, season and the three sheets, pasted or as files (in
    UTF-8, Windows-1250 or Windows-1252, :func:`carom.league.decode_sheet`)."""
    form = await organiser_form(request, "/leagues")
    if isinstance(form, Response):
        return form
    fields = {k: str(form.get(k, "") or "") for k in ("league", "season", *SHEETS)}
    try:
        for sheet in SHEETS:
            upload = form.get(f"{sheet}_file")
            if isinstance(upload, UploadFile) and upload.filename:
                data = await upload.read(MAX_SHEET + 1)
                if len(data) > MAX_SHEET:
                    t = words(request)
                    raise InputError(t.gettext("%(sheet)s: the file is larger than %(limit)s bytes",
                                               sheet=sheet, limit=MAX_SHEET))
                fields[sheet] = decode_sheet(data, str(form.get("encoding", "utf-8") or "utf-8"))
        check_sheet_names(fields["teams"])
        season_id = await run_in_threadpool(leagues(request).create_season, fields["league"],
                                            fields["season"], fields["divisions"], fields["teams"],
                                            fields["fixtures"])
    except (CaromError, StorageError) as error:
        message = refusal_text(words(request), error)
        return await run_in_threadpool(lambda: _list(request, 422, error=message, form=fields))
    return RedirectResponse(f"/leagues/{season_id}", status_code=303)


def _season_page(request: Request, season_id: int, template: str, **extra: Any) -> Response:
    try:
        s = leagues(request).read(season_id)
    except UnknownSeason as error:
        return _missing(request, error)
    return render(request, template, **season_view(s), **extra)


@router.get("/leagues/{season_id}", response_class=HTMLResponse)
async def season_page(request: Request, season_id: int) -> Response:
    return await run_in_threadpool(_season_page, request, season_id, "league_season.html")


@router.get("/leagues/{season_id}/divisions/{division}", response_class=HTMLResponse)
async def division_page(request: Request, season_id: int, division: str) -> Response:
    def page() -> Response:
        try:
            s = leagues(request).read(season_id)
            s.season.division(division)
        except (UnknownSeason, UnknownName) as error:
            return _missing(request, error)
        view = season_view(s)
        chosen = next(d for d in view["divisions"] if d["division"].id == division)
        return render(request, "league_division.html", season=s, d=chosen)

    return await run_in_threadpool(page)


def team_players(s: StoredSeason, team: int) -> list[dict[str, Any]]:
    """The team's players (its roster, then anyone who stood in for it) with their
    figures in the season's finished meetings."""
    lines = s.player_lines()
    played_for = {p for f in s.fixtures for x in s.lineups if x.fixture == f.id and x.team == team
                  for p in x.players if s.result(f) is not None}
    roster = list(s.season.roster(team))
    players = roster + sorted(p for p in played_for if p not in roster)
    return [{"player": p, "name": s.players.get(p, "?"), "substitute": p not in roster,
             "lines": [x for x in lines if x.player == p]} for p in players]


@router.get("/leagues/{season_id}/teams/{team_id}", response_class=HTMLResponse)
async def team_page(request: Request, season_id: int, team_id: int) -> Response:
    def page() -> Response:
        try:
            s = leagues(request).read(season_id)
            team = s.season.team(team_id)
        except (UnknownSeason, UnknownName):
            return _missing(request, UnknownSeason("team", team_id))
        meetings = [meeting_view(s, f, None) for f in s.fixtures if team_id in (f.home, f.away)]
        club = next(c.name for c in s.season.clubs if c.id == team.club)
        return render(request, "league_team.html", season=s, team=team, club=club,
                      players=team_players(s, team_id), meetings=meetings,
                      table=table_rows(s, s.table(team.division)))

    return await run_in_threadpool(page)


# --- a meeting --------------------------------------------------------------------------


def meeting_response(request: Request, fixture_id: int, token: str | None, status: int = 200,
                     template: str = "league_meeting.html", **extra: Any) -> Response:
    """The meeting page (or its live part) as the viewer may see it: the organiser and the
    home team's captain (the home club runs the tables) also get each game's tablet link
    and the form that puts the games on the hall's tables."""
    office = leagues(request)
    try:
        season_id = office.season_of(fixture_id)
        s = office.read(season_id)
        team = captain_of(request, season_id, token)
    except UnknownSeason as error:
        return _missing(request, error)
    except PermissionError:
        return error_page(request, 403, words(request).gettext(
            "This captain link is not one of this season's (a link replaced by a new one no longer works)."))
    fixture = s.fixture(fixture_id)
    view = meeting_view(s, fixture, team, meeting_tables(request, s, fixture_id))
    links: dict[int, str] = {}
    if is_organiser(request) or team == fixture.home:
        for g in view.games:
            token_of = services(request).book.live(g["match"]).token
            links[g["match"]] = tablet_url(request, services(request).tablet_host, g["match"], token_of)[0]
    free = [g for g in view.games if not g["finished"] and g["table"] is None]
    response = render(request, template, status, season=s, m=view, links=links, captain=token or "",
                      division=s.season.division(fixture.division),
                      hall_tables=hall_tables(request) if links and free else [], **extra)
    return _private(response) if links or token else response


@router.get("/leagues/meetings/{fixture_id}", response_class=HTMLResponse)
async def meeting_page(request: Request, fixture_id: int, t: str = "") -> Response:
    return await run_in_threadpool(meeting_response, request, fixture_id, t or None)


@router.get("/leagues/meetings/{fixture_id}/live", response_class=HTMLResponse)
async def meeting_live(request: Request, fixture_id: int, t: str = "") -> Response:
    """The meeting's live part: line-ups, games and result (fetched every few seconds)."""
    return await run_in_threadpool(meeting_response, request, fixture_id, t or None, 200,
                                   "_league_meeting_live.html")


# --- the organiser's page of a season ------------------------------------------------------


def _organiser_page(request: Request, season_id: int, status: int = 200, **extra: Any) -> Response:
    try:
        s = leagues(request).read(season_id)
    except UnknownSeason as error:
        return _missing(request, error)
    return _private(render(request, "league_organiser.html", status, season=s, **extra))


@router.get("/leagues/{season_id}/organiser", response_class=HTMLResponse)
async def organiser_page(request: Request, season_id: int) -> Response:
    if not is_organiser(request):
        return to_login(request, f"/leagues/{season_id}/organiser")
    return await run_in_threadpool(_organiser_page, request, season_id)


@router.post("/leagues/{season_id}/captain-links", response_class=HTMLResponse)
async def issue_link(request: Request, season_id: int) -> Response:
    form = await organiser_form(request, f"/leagues/{season_id}/organiser")
    if isinstance(form, Response):
        return form
    raw = str(form.get("team", "") or "")
    team = int(raw) if is_digits(raw) and len(raw) < 10 else 0
    try:
        token = await run_in_threadpool(leagues(request).issue_captain_link, season_id, team)
    except StorageError as error:
        message = refusal_text(words(request), error)
        return await run_in_threadpool(lambda: _organiser_page(request, season_id, 422, error=message))
    url = str(request.url.replace(path=f"/leagues/{season_id}/captain", query=f"t={token}", fragment=""))
    return await run_in_threadpool(lambda: _organiser_page(request, season_id, issued=(team, url)))
