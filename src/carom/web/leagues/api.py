"""The leagues' JSON API: a whole season without a browser.

The organiser makes a season from its three sheets and issues each team's captain link;
a captain (header ``X-Captain-Token``) hands in the team's line-up and signs the meeting
report; everybody reads seasons, tables, meetings and players' figures. A meeting's games
are ordinary matches: their records go to ``POST /api/matches/{id}/records`` with the
game's referee token, which the organiser and the home team's captain read here. A
refusal is 422 with the league rule that forbids it (``rule``, its ``title``), 409 when
the meeting's state does not allow it, and changes nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from carom.core.errors import CaromError, InputError, UnknownName
from carom.core.inputs import decode, parse_json
from carom.league import LeagueError, PlayerLine, write_table
from carom.notation.words import LANGUAGES
from carom.storage.errors import StorageError
from carom.storage.leagues import LeagueConflict, StoredSeason, UnknownSeason, captain_actor
from carom.web.leagues.common import (
    CAPTAIN_HEADER,
    MeetingView,
    check_sheet_names,
    leagues,
    meeting_tables,
    meeting_view,
    now,
    season_view,
)
from carom.web.leagues.reports import meeting_report
from carom.web.shared import work
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import api_organiser, is_organiser, problem, services, words
from carom.web.shared.jobs import PRINT_SECONDS, pooled

router = APIRouter(prefix="/api/leagues", tags=["leagues"])

_P = {"model": None, "description": "the reason, in `detail`; a league rule's id in `rule`"}
REFUSALS: dict[int | str, dict[str, Any]] = {401: _P, 403: _P, 404: _P, 409: _P, 422: _P}
SEASON_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["league", "season", "divisions", "teams", "fixtures"],
    "additionalProperties": False,
    "properties": {"league": {"type": "string", "maxLength": 200},
                   "season": {"type": "string", "maxLength": 64},
                   "divisions": {"type": "string",
                                 "description": "the divisions sheet (CSV, docs/leagues.md)"},
                   "teams": {"type": "string", "description": "the teams sheet (CSV)"},
                   "fixtures": {"type": "string", "description": "the fixtures sheet (CSV)"}}}
LINEUP_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["players"], "additionalProperties": False,
    "properties": {"players": {"type": "array", "items": {"type": "integer"},
                               "description": "the players' ids, the first position first"}}}
_CAPTAIN = [{"name": CAPTAIN_HEADER, "in": "header", "required": False, "schema": {"type": "string"},
             "description": "the team's captain link token"}]


def refused(request: Request, error: Exception) -> Response:
    """A refusal as JSON: its status, its words, its rule."""
    if isinstance(error, UnknownSeason | UnknownName):
        return problem(404, str(error))
    if isinstance(error, LeagueError):
        return problem(422, str(error), rule=error.rule, title=words(request).rule(error.rule))
    return problem(409 if isinstance(error, LeagueConflict) else 422, str(error))


async def _body(request: Request) -> Any:
    """The request's JSON as the match API reads it (:func:`carom.core.inputs.parse_json`:
    UTF-8, nested at most 64 deep, numbers within bounds)."""
    try:
        return parse_json(decode(await request.body()))
    except InputError as error:
        raise InputError(f"body: {error}") from None


def captain_of(request: Request, season_id: int, token: str | None) -> int | None:
    """The team whose captain ``token`` proves (:class:`LeagueConflict` for a wrong one)."""
    if not token:
        return None
    team = leagues(request).captain(season_id, token)
    if team is None:
        raise PermissionError("the captain token is not a link of this season "
                              "(a replaced link no longer works)")
    return team


def season_json(s: StoredSeason) -> dict[str, Any]:
    view = season_view(s)
    return {
        "id": s.id, "league": s.league, "season": s.name,
        "divisions": [{"id": d["division"].id, "name": d["division"].name, "format": d["division"].format,
                       "up": d["division"].up, "down": d["division"].down, "complete": d["complete"],
                       "table": [table_line_json(r["line"], r["name"]) for r in d["table"]],
                       "moves": [{"team": m["move"].team, "name": m["name"], "to": m["move"].target,
                                  "promoted": m["move"].promoted} for m in d["moves"]]}
                      for d in view["divisions"]],
        "teams": [{"id": t.id, "name": t.name, "division": t.division, "number": t.number,
                   "club": next(c.name for c in s.season.clubs if c.id == t.club),
                   "roster": [{"player": p, "name": s.players[p]} for p in s.season.roster(t.id)]}
                  for t in s.season.teams],
        "meetings": [meeting_json(request=None, view=m, s=s, tokens=False)
                     for d in view["divisions"] for m in d["meetings"]]}


def table_line_json(x: Any, name: str) -> dict[str, Any]:
    return {"rank": x.rank, "team": x.team, "name": name, "played": x.played, "won": x.won, "drawn": x.drawn,
            "lost": x.lost, "meeting_points": [x.meeting_points, x.meeting_points_against],
            "game_points": [x.game_points, x.game_points_against],
            "team_average": round(float(x.team_average), 6)}


def player_json(x: PlayerLine, names: dict[int, str]) -> dict[str, Any]:
    return {"player": x.player, "name": names.get(x.player), "discipline": x.discipline, "season": x.season,
            "games": x.games, "won": x.won, "drawn": x.drawn, "lost": x.lost, "points": x.points,
            "innings": x.innings, "general_average": round(float(x.general_average), 6),
            "best_average": round(float(x.best_average), 6), "high_run": x.high_run}


def meeting_json(request: Request | None, view: MeetingView, s: StoredSeason, tokens: bool) -> dict[str, Any]:
    f = view.fixture
    games = []
    for g in view.games:
        game = {k: g[k] for k in ("number", "round", "match", "players", "player_ids", "finished", "table")}
        game |= {"score": list(g["score"]), "innings": list(g["innings"]), "high_run": list(g["high_run"])}
        if tokens and request is not None:
            token = services(request).book.live(g["match"]).token
            game["referee_token"] = token
            game["tablet"] = tablet_url(request, services(request).tablet_host, g["match"], token)[0]
        games.append(game)
    return {"id": f.id, "division": f.division, "round": f.round,
            "start": f.start.isoformat(timespec="minutes"),
            "home": {"id": f.home, "name": view.home}, "away": {"id": f.away, "name": view.away},
            "status": view.status, "handed_in": sorted(view.handed_in),
            "lineups": {str(team): [{"player": p, "name": s.players.get(p)} for p in x.players]
                        for team, x in view.lineups.items()},
            "games": games, "game_points": view.score, "meeting_points": view.meeting_points,
            "signed": sorted(view.signed)}


@router.get("", summary="The seasons of every league")
async def list_seasons(request: Request) -> list[dict[str, Any]]:
    rows = await run_in_threadpool(leagues(request).seasons)
    return [{"id": i, "league": league, "season": name} for i, league, name in rows]


@router.post("", status_code=201, summary="Make a season from its sheets (organiser)", responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": SEASON_SCHEMA}}}})
async def create_season(request: Request) -> Response:
    if (refusal := api_organiser(request)) is not None:
        return refusal
    try:
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != set(SEASON_SCHEMA["properties"]) or not all(
                isinstance(v, str) for v in body.values()):
            raise InputError("body: expected the texts league, season, divisions, teams and fixtures")
        check_sheet_names(body["teams"])
        season_id = await run_in_threadpool(leagues(request).create_season, body["league"], body["season"],
                                            body["divisions"], body["teams"], body["fixtures"])
    except (CaromError, StorageError) as error:
        return refused(request, error)
    return JSONResponse({"id": season_id}, status_code=201)


@router.get("/{season_id}", summary="A season: divisions, tables, teams, meetings", responses={404: _P})
async def get_season(request: Request, season_id: int) -> Response:
    try:
        s = await run_in_threadpool(leagues(request).read, season_id)
    except UnknownSeason as error:
        return refused(request, error)
    return JSONResponse(season_json(s))


@router.get("/{season_id}/divisions/{division}/table.csv", summary="A division's league table as CSV",
            response_class=PlainTextResponse, responses={404: _P})
async def table_csv(request: Request, season_id: int, division: str) -> Response:
    try:
        s = await run_in_threadpool(leagues(request).read, season_id)
        lines = await run_in_threadpool(s.table, division)
    except (UnknownSeason, UnknownName) as error:
        return refused(request, error)
    text = write_table(lines, {t.id: t.name for t in s.season.teams})
    return PlainTextResponse(text, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="table-{season_id}-{_safe(division)}.csv"'})


def _safe(text: str) -> str:
    return "".join(c if c.isascii() and (c.isalnum() or c in "-_") else "-" for c in text)


@router.get("/{season_id}/players", summary="The players' figures over the season's meetings",
            responses={404: _P})
async def season_players(request: Request, season_id: int) -> Response:
    try:
        s = await run_in_threadpool(leagues(request).read, season_id)
    except UnknownSeason as error:
        return refused(request, error)
    return JSONResponse([player_json(x, dict(s.players)) for x in s.player_lines()])


@router.post("/{season_id}/teams/{team_id}/captain-link", status_code=201, responses=REFUSALS,
             summary="Issue a team's captain link (organiser); the team's earlier link stops working")
async def captain_link(request: Request, season_id: int, team_id: int) -> Response:
    if (refusal := api_organiser(request)) is not None:
        return refusal
    try:
        token = await run_in_threadpool(leagues(request).issue_captain_link, season_id, team_id)
    except StorageError as error:
        return refused(request, error)
    url = str(request.url.replace(path=f"/leagues/{season_id}/captain", query=f"t={token}", fragment=""))
    return JSONResponse({"token": token, "url": url}, status_code=201)


async def _meeting(request: Request, fixture_id: int) -> tuple[StoredSeason, int | None]:
    office = leagues(request)
    season_id = await run_in_threadpool(office.season_of, fixture_id)
    s = await run_in_threadpool(office.read, season_id)
    return s, captain_of(request, season_id, request.headers.get(CAPTAIN_HEADER))


@router.get("/meetings/{fixture_id}", summary="A meeting: line-ups as the viewer may see them, games, result",
            responses=REFUSALS, openapi_extra={"parameters": _CAPTAIN})
async def get_meeting(request: Request, fixture_id: int) -> Response:
    try:
        s, team = await _meeting(request, fixture_id)
    except UnknownSeason as error:
        return refused(request, error)
    except PermissionError as error:
        return problem(403, str(error))
    fixture = s.fixture(fixture_id)
    tokens = is_organiser(request) or team == fixture.home
    view = meeting_view(s, fixture, team, await run_in_threadpool(meeting_tables, request, s, fixture_id))
    response = JSONResponse(meeting_json(request, view, s, tokens))
    response.headers["Cache-Control"] = "no-store"
    return response


async def _as_captain(request: Request, fixture_id: int,
                      act: Callable[[StoredSeason, int], Awaitable[Response]]) -> Response:
    """``act`` for the captain the request's token proves (401 without one, 403 for a wrong
    one); a refusal answered with its rule."""
    try:
        s, team = await _meeting(request, fixture_id)
        if team is None:
            return problem(401, f"the {CAPTAIN_HEADER} header must carry the team's captain link token")
        return await act(s, team)
    except PermissionError as error:
        return problem(403, str(error))
    except (CaromError, StorageError) as error:
        return refused(request, error)


@router.post("/meetings/{fixture_id}/lineup", status_code=201, summary="Hand in the team's line-up (captain)",
             responses=REFUSALS, openapi_extra={"parameters": _CAPTAIN, "requestBody": {
                 "required": True, "content": {"application/json": {"schema": LINEUP_SCHEMA}}}})
async def post_lineup(request: Request, fixture_id: int) -> Response:
    async def hand_in(s: StoredSeason, team: int) -> Response:
        body = await _body(request)
        players = body.get("players") if isinstance(body, dict) else None
        if not isinstance(players, list) or not all(isinstance(p, int) and not isinstance(p, bool)
                                                    for p in players) or len(players) > 64:
            raise InputError('body: expected {"players": [player ids, the first position first]}')
        await run_in_threadpool(leagues(request).submit_lineup, fixture_id, team, players, now(),
                                captain_actor(team))
        s = await run_in_threadpool(leagues(request).read, s.id)
        fixture = s.fixture(fixture_id)
        view = meeting_view(s, fixture, team)
        return JSONResponse(meeting_json(request, view, s, team == fixture.home), status_code=201)

    return await _as_captain(request, fixture_id, hand_in)


@router.post("/meetings/{fixture_id}/report", summary="Sign the meeting report (captain)",
             responses=REFUSALS, openapi_extra={"parameters": _CAPTAIN})
async def post_report(request: Request, fixture_id: int) -> Response:
    async def sign(_: StoredSeason, team: int) -> Response:
        signed = await run_in_threadpool(leagues(request).sign_report, fixture_id, team, captain_actor(team))
        return JSONResponse({"signed": sorted(signed)})

    return await _as_captain(request, fixture_id, sign)


@router.get("/meetings/{fixture_id}/report.pdf", summary="The meeting report as PDF", response_class=Response,
            responses={404: _P})
async def report_pdf(request: Request, fixture_id: int, lang: str | None = None) -> Response:
    office = leagues(request)
    try:
        s = await run_in_threadpool(office.read, await run_in_threadpool(office.season_of, fixture_id))
    except UnknownSeason as error:
        return refused(request, error)
    language, fixture = lang if lang in LANGUAGES else words(request).lang, s.fixture(fixture_id)

    async def arguments() -> tuple[Any, ...]:
        title, sections, subtitle = await run_in_threadpool(meeting_report, s, fixture, language)
        return title, sections, language, subtitle

    pdf = await pooled(request, work.meeting_pdf, arguments, PRINT_SECONDS)  # printed apart
    if isinstance(pdf, Response):
        return pdf
    return Response(pdf, media_type="application/pdf", headers={
        "Content-Disposition": f'inline; filename="meeting-{fixture_id}.pdf"'})
