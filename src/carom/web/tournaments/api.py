"""The tournaments' JSON API: enough to run a whole tournament without a browser.

Create a tournament (organiser), enter players, start it; then list its games with
their tablet links (the organiser sees the links, everybody else the games) and read
its standings. Every game is an ordinary match: its records go to
``POST /api/matches/{id}/records`` with the game's referee token, like any match's.
The record that finishes a game's match starts the next games on its table at once
(:func:`game_over`, called by the records API, the tablet and the confirmations).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from carom.competition import Line
from carom.competition.day import derived
from carom.competition.day.schedule import start_of
from carom.core.spreadsheet import SpreadsheetError, Style, decimals, write_csv
from carom.notation.words import LANGUAGES
from carom.storage.errors import StorageError
from carom.storage.players import UnknownPlayer
from carom.storage.tournaments import (
    Settings,
    Stage,
    Tournament,
    TournamentError,
    TournamentGame,
    Tournaments,
    UnknownTournament,
    ranking_rows,
    results_rows,
)
from carom.web.matches.results import PRINT_SECONDS
from carom.web.shared import auth, work
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import (
    api_organiser,
    checked_account,
    organiser_session,
    problem,
    services,
    words,
)
from carom.web.shared.forms import FormError, check_name, say
from carom.web.shared.jobs import pooled
from carom.web.shared.reports import csv_response

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"])
log = logging.getLogger(__name__)

_P = {"model": None, "description": "the reason, in `detail`"}
REFUSALS: dict[int | str, dict[str, Any]] = {401: _P, 403: _P, 404: _P, 422: _P}


def tournaments(request: Request) -> Tournaments:
    """The application's tournaments (made on first use, on its match book)."""
    return app_tournaments(request.app)


def app_tournaments(app: Any) -> Tournaments:
    """:func:`tournaments` of an application (the live channels have no request)."""
    found: Tournaments | None = getattr(app.state, "tournaments", None)
    if found is None:
        found = Tournaments(app.state.services.book, auth.new_token)
        app.state.tournaments = found
    return found


async def game_over(request: Request, match_id: int, finished: bool) -> None:
    """A record or a confirmation of match ``match_id`` has been stored: when the match is
    ``finished`` and is a tournament's game, its tournament starts its next games now
    (the table is free). The record stays acknowledged whatever happens here: a
    failure is logged, and the next read of the tournament starts the games."""
    if not finished:
        return
    try:
        await run_in_threadpool(tournaments(request).game_over, match_id)
    except Exception:  # the record is stored; a read of the tournament tries again
        log.exception("match %s finished: its tournament's next games did not start", match_id)
    services(request).hub.tables_changed()  # the table's next game may be on it now


async def _body(request: Request) -> Any:
    try:
        return json.loads(await request.body())
    except (ValueError, RecursionError) as error:
        raise TournamentError(f"body: not valid JSON ({error})") from None


SETTINGS_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["name", "discipline"], "additionalProperties": False,
    "properties": {
        "name": {"type": "string", "maxLength": 200},
        "discipline": {"type": "string", "description": "a carom/1 discipline, e.g. three-cushion"},
        "table": {"type": "string", "description": "large, small or half-match (default: large, "
                                                   "or the discipline's only table)"},
        "points": {"type": ["integer", "null"], "minimum": 1, "description": "the distance"},
        "innings": {"type": ["integer", "null"], "minimum": 1},
        "sets": {"type": ["integer", "null"], "minimum": 1, "description": "sets to win (null: no sets)"},
        "equalizing_inning": {"type": "boolean", "default": True},
        "mode": {"enum": ["round_robin", "knockout", "groups_knockout", "stages"], "default": "round_robin"},
        "stages": {"type": "array", "description": "mode stages: the stages in order (groups, the last "
                                                   "may be a knock-out)",
                   "items": {"type": "object", "additionalProperties": False,
                             "properties": {"kind": {"enum": ["groups", "knockout"]},
                                            "groups": {"type": "integer", "minimum": 1, "default": 1},
                                            "places": {"type": ["integer", "null"],
                                                       "description": "how many go on to the next"}}}},
        "third_place": {"type": "boolean", "default": False},
        "placements": {"type": "boolean", "default": False,
                       "description": "every place of the knock-out played out"},
        "withdrawn_games": {"enum": ["annul", "count"], "default": "annul",
                            "description": "a player who withdraws: his finished games annulled or "
                                           "counted (docs/tournaments.md)"},
        "groups": {"type": "integer", "minimum": 1, "default": 1},
        "tables": {"type": "integer", "minimum": 1, "default": 1},
        "handicap": {"type": "boolean", "default": False},
        "knockout_size": {"type": ["integer", "null"], "description": "places in the knock-out "
                                                                       "(a power of two; null: the default)"},
        "seeding": {"enum": ["average", "hand"], "default": "average"},
        "clock": {"description": "every game's shot clock and time-outs (docs/clock.md): null or false "
                                 "(none), true (the UMB three-cushion defaults) or an object of some of "
                                 "stroke, warning, timeouts, timeout (whole seconds / time-outs)",
                  "anyOf": [{"type": ["boolean", "null"]}, {
                      "type": "object", "additionalProperties": False,
                      "properties": {"stroke": {"type": "integer", "minimum": 1, "default": 30},
                                     "warning": {"type": "integer", "minimum": 0, "default": 10},
                                     "timeouts": {"type": "integer", "minimum": 0,
                                                  "description": "3, or 4 from 40 points"},
                                     "timeout": {"type": "integer", "minimum": 1, "default": 30}}}]},
        "tiebreak": {"enum": ["penalties"], "default": "penalties",
                     "description": "how a drawn knock-out game is decided: the penalty shoot-out "
                                    "(P1-P3), the one tie-break of carom/1"},
    },
}

PLAYERS_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["players"], "additionalProperties": False,
    "properties": {"players": {"type": "array", "maxItems": 256, "items": {
        "type": "object", "additionalProperties": False,
        "properties": {"player": {"type": "integer", "description": "a registered player's id"},
                       "name": {"type": "string", "description": "or a name (made a player if new)"},
                       "club": {"type": "string"}, "country": {"type": "string"},
                       "licence": {"type": "string"},
                       "seed": {"type": "integer", "minimum": 1, "description": "seed by hand"},
                       "target": {"type": "integer", "minimum": 1,
                                  "description": "handicap target by hand"}}}}},
}


def settings_from(body: Any) -> Settings:
    """The settings of a create request (:class:`TournamentError` naming the field)."""
    if not isinstance(body, dict):
        raise TournamentError("body: expected an object with the tournament's settings")
    if extra := set(body) - set(SETTINGS_SCHEMA["properties"]):
        raise TournamentError(f"{sorted(extra)[0]!r:.40}: no setting of a tournament")

    def text(key: str, default: str | None = None) -> str:
        value = body.get(key, default)
        if not isinstance(value, str):
            raise TournamentError(f"{key}: expected text")
        return value

    def number(key: str, default: int | None = None, *, nullable: bool = True) -> int | None:
        value = body.get(key, default)
        if value is None and nullable:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise TournamentError(f"{key}: expected a whole number{' or null' if nullable else ''}")
        return value

    def whole(key: str) -> int:
        value = number(key, 1, nullable=False)
        assert value is not None
        return value

    def flag(key: str, default: bool) -> bool:
        value = body.get(key, default)
        if not isinstance(value, bool):
            raise TournamentError(f"{key}: expected true or false")
        return value

    from carom.rules.disciplines import DISCIPLINES

    clock = body.get("clock")
    if clock is True:
        clock = {}
    elif clock is False:
        clock = None
    if clock is not None and not isinstance(clock, dict):
        raise TournamentError("clock: expected null, true or an object")
    discipline = text("discipline")
    spec = DISCIPLINES.get(discipline)
    default_table = spec.tables[0] if spec is not None and len(spec.tables) == 1 else "large"
    return Settings(
        name=text("name"), discipline=discipline, table=text("table", default_table),
        points=number("points"), innings=number("innings"), sets_to_win=number("sets"),
        equalizing_inning=flag("equalizing_inning", True), mode=text("mode", "round_robin"),
        groups=whole("groups"), tables=whole("tables"),
        handicap=flag("handicap", False), knockout_size=number("knockout_size"),
        seeding=text("seeding", "average"), clock=clock, tiebreak=text("tiebreak", "penalties"),
        third_place=flag("third_place", False), placements=flag("placements", False),
        withdrawn_games=text("withdrawn_games", "annul"), stages=_stages(body.get("stages", [])))


def _stages(given: Any) -> tuple[Stage, ...]:
    """The stages of mode ``stages`` (:class:`TournamentError` naming the one not right)."""
    if not isinstance(given, list) or len(given) > 8:
        raise TournamentError("stages: expected a list of at most 8 stages")
    out = []
    for number, stage in enumerate(given, start=1):
        if not isinstance(stage, dict) or set(stage) - {"kind", "groups", "places"}:
            raise TournamentError(f'stages[{number}]: expected {{"kind", "groups", "places"}}')
        values = [stage.get("groups", 1), stage.get("places")]
        if not isinstance(stage.get("kind", "groups"), str) or any(
                v is not None and (isinstance(v, bool) or not isinstance(v, int)) for v in values):
            raise TournamentError(f"stages[{number}]: expected a kind and whole numbers")
        out.append(Stage(stage.get("kind", "groups"), values[0], values[1]))
    return tuple(out)


def _num(value: Fraction) -> float:
    return round(float(value), 6)


def line_json(line: Line, names: dict[int, str]) -> dict[str, Any]:
    return {"rank": line.rank, "player": line.player, "name": names.get(line.player),
            "played": line.played, "won": line.won, "drawn": line.drawn, "lost": line.lost,
            "match_points": line.match_points, "points": line.points, "innings": line.innings,
            "general_average": _num(line.general_average), "best_average": _num(line.best_average),
            "high_run": line.high_run}


def game_json(request: Request, game: TournamentGame, t: Tournament, links: bool) -> dict[str, Any]:
    names = t.names()
    snap = game.snapshot
    out: dict[str, Any] = {
        "id": game.id, "stage": game.stage, "group": dict(t.groups).get(game.group_no),
        "round": game.round, "slot": game.slot, "order": game.order_no,
        "players": list(game.players), "names": [names.get(p) if p else None for p in game.players],
        "table": game.table_no, "match": game.match_id, "status": game.status,
        "score": None if game.score is None else list(game.score),
        "innings": None if game.innings is None else list(game.innings),
        "penalties": list(snap.state.penalty_score) if snap is not None and snap.state.penalties else None,
        "winner": game.winner, "start": _start(t, game),
    }
    if links and game.match_id is not None and game.token is not None:
        url, _ = tablet_url(request, services(request).tablet_host, game.match_id, game.token)
        out["tablet"] = url
        out["referee_token"] = game.token
    return out


def _start(t: Tournament, game: TournamentGame) -> str | None:
    """A waiting game's start time, the organiser's (its own, or its round's), if any (D7)."""
    day = derived(t.day).by_key.get(game.key) if game.key is not None and game.status == "waiting" else None
    when = None if day is None else start_of(t.day, day)
    return None if when is None else when.isoformat()


def tournament_json(request: Request, t: Tournament, links: bool) -> dict[str, Any]:
    s = t.settings
    names = t.names()
    return {
        "id": t.id, "name": s.name, "state": t.state,
        "settings": {"discipline": s.discipline, "table": s.table, "points": s.points, "innings": s.innings,
                     "sets": s.sets_to_win, "equalizing_inning": s.equalizing_inning, "mode": s.mode,
                     "groups": s.groups, "tables": s.tables, "handicap": s.handicap,
                     "knockout_size": s.knockout_size, "seeding": s.seeding,
                     "clock": None if s.clock is None else dict(s.clock), "tiebreak": s.tiebreak,
                     "third_place": s.third_place, "placements": s.placements,
                     "withdrawn_games": s.withdrawn_games,
                     "stages": [{"kind": x.kind, "groups": x.groups, "places": x.places} for x in s.stages]},
        "participants": [{"player": p.player_id, "name": p.name, "club": p.club, "seed": p.seed,
                          "target": p.target, "group": dict(t.groups).get(p.group_no or 0)}
                         for p in t.participants],
        "groups": [{"number": n, "name": name, "players": [{"player": p, "name": names[p]}
                                                          for p in t.group_members(n)]}
                   for n, name in t.groups],
        "games": [game_json(request, g, t, links) for g in t.games],
        "champion": t.champion(),
    }


def standings_json(t: Tournament) -> dict[str, Any]:
    names = t.names()
    bracket = t.bracket()
    rounds: list[dict[str, Any]] = []
    if bracket is not None:
        b, _seeds, resolved = bracket
        by_place = {(g.round, g.slot): g for g in t.games if g.stage == "ko"}
        for r, games in enumerate(b.rounds, start=1):
            rounds.append({"round": r, "name": b.round_name(r), "games": [
                {"slot": g.index, "bye": g.is_bye,
                 "players": [resolved[g.id][0], resolved[g.id][1]],
                 "names": [names.get(p) if p else None for p in resolved[g.id][:2]],
                 "winner": resolved[g.id][2],
                 "game": by_place[g.id].id if g.id in by_place else None} for g in games]})
    return {
        "id": t.id, "state": t.state,
        "groups": [{"number": n, "name": dict(t.groups)[n], "standings": [line_json(x, names) for x in lines]}
                   for n, lines in t.group_standings()],
        "knockout": rounds,
        "ranking": [{"rank": rank, "player": p, "name": names.get(p)} for rank, p in t.ranking()],
        "champion": t.champion(),
        "order": "match points, general average (GD), best single average (BED), high run (HS), "
                 "direct game",
    }


DECIMAL_COLUMNS = ("average_a", "average_b", "general_average", "best_average")
"""The exports' columns of averages (written with the style's decimal mark)."""


def refusal_of(request: Request, error: Exception) -> Response:
    """A refusal: 404 for no such tournament, else 422 with its field and rule."""
    t = words(request)
    if isinstance(error, UnknownTournament):
        return problem(404, t.error(error))
    if isinstance(error, TournamentError):
        return problem(422, t.error(error), field=error.field, rule=error.rule)
    return problem(422, say(error, t))


def _refusal(error: Exception) -> Response:
    if isinstance(error, UnknownTournament):
        return problem(404, str(error))
    return problem(422, str(error))


@router.get("", summary="The tournaments")
async def list_tournaments(request: Request) -> list[dict[str, Any]]:
    rows = await run_in_threadpool(tournaments(request).list)
    return [{"id": i, "name": name, "mode": mode, "state": state, "players": n}
            for i, name, mode, state, n in rows]


@router.post("", status_code=201, summary="Create a tournament (organiser)", responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": SETTINGS_SCHEMA}}}})
async def create_tournament(request: Request) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    try:
        settings = settings_from(await _body(request))
        tid = await run_in_threadpool(tournaments(request).create, settings, checked_account(request).actor)
    except StorageError as error:
        return _refusal(error)
    return JSONResponse({"id": tid, "url": f"/tournaments/{tid}"}, status_code=201)


@router.post("/{tournament_id}/players", status_code=201, summary="Enter players (organiser)",
             responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": PLAYERS_SCHEMA}}}})
async def add_players(request: Request, tournament_id: int) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    try:
        body = await _body(request)
        if not isinstance(body, dict) or set(body) != {"players"} or not isinstance(body["players"], list):
            raise TournamentError('body: expected {"players": [{"player": id} or {"name": "..."}, ...]}')
        for number, entry in enumerate(body["players"]):
            if isinstance(entry, dict) and isinstance(entry.get("name"), str):
                check_name(entry["name"].strip(), f"players[{number}].name")
        ids = await run_in_threadpool(tournaments(request).add_players, tournament_id, body["players"],
                                      checked_account(request).actor)
    except (UnknownPlayer, FormError) as error:
        return problem(422, str(error))
    except StorageError as error:  # a late entry's refusal names its field and rule (D1, D2)
        return refusal_of(request, error)
    return JSONResponse({"players": ids}, status_code=201)


@router.post("/{tournament_id}/start", summary="Start: groups, schedule, first games (organiser)",
             responses=REFUSALS)
async def start(request: Request, tournament_id: int) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    try:
        await run_in_threadpool(tournaments(request).start, tournament_id, checked_account(request).actor)
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=True))
    except StorageError as error:
        return _refusal(error)
    services(request).hub.tables_changed()  # its first games are called to the hall's tables
    return _private(JSONResponse(tournament_json(request, t, True)))


def _private(response: Response) -> Response:
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/{tournament_id}", summary="A tournament: settings, players, groups, games",
            responses={404: _P})
async def get_tournament(request: Request, tournament_id: int) -> Response:
    links = organiser_session(request) is not None
    try:
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=links))
    except StorageError as error:
        return _refusal(error)
    response = JSONResponse(tournament_json(request, t, links))
    return _private(response) if links else response


@router.get("/{tournament_id}/games", summary="The games, with their tablet links for the organiser",
            responses={404: _P})
async def list_games(request: Request, tournament_id: int) -> Response:
    """The games in schedule order: waiting, playing (with its table), tie-break (a
    drawn knock-out game waiting for its winner) or done. The organiser's session sees
    each started game's tablet link and referee token."""
    links = organiser_session(request) is not None
    try:
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=links))
    except StorageError as error:
        return _refusal(error)
    response = JSONResponse([game_json(request, g, t, links) for g in t.games])
    return _private(response) if links else response


@router.get("/{tournament_id}/standings", summary="Standings, bracket and ranking", responses={404: _P})
async def get_standings(request: Request, tournament_id: int) -> Response:
    try:
        t = await run_in_threadpool(tournaments(request).read, tournament_id)
    except StorageError as error:
        return _refusal(error)
    return JSONResponse(standings_json(t))


@router.get("/{tournament_id}/results.csv", summary="The final ranking as CSV",
            response_class=PlainTextResponse, responses={404: _P, 422: _P})
async def results_csv(request: Request, tournament_id: int, sep: str | None = None,
                      decimal: str | None = None) -> Response:
    """One row per player in ranking order with their totals over all their games of the
    tournament: match points, points, innings, GD, BED, HS. ``sep`` (``,`` or ``;``) and
    ``decimal`` (``point`` or ``comma``): ``?sep=;&decimal=comma`` for Excel in Slovak and
    German."""
    try:
        style = Style.named(sep, decimal)
        t = await run_in_threadpool(tournaments(request).read, tournament_id)
    except (StorageError, SpreadsheetError) as error:
        return _refusal(error)
    return _csv(ranking_rows(t), f"tournament-{t.id}-results.csv", style)


@router.get("/{tournament_id}/games.csv", summary="The games as CSV", response_class=PlainTextResponse,
            responses={404: _P, 422: _P})
async def games_csv(request: Request, tournament_id: int, sep: str | None = None,
                    decimal: str | None = None) -> Response:
    """One row per game in schedule order: players, points, innings, high runs,
    averages, winner, status (``sep`` and ``decimal`` as for ``results.csv``)."""
    try:
        style = Style.named(sep, decimal)
        t = await run_in_threadpool(tournaments(request).read, tournament_id)
    except (StorageError, SpreadsheetError) as error:
        return _refusal(error)
    return _csv(results_rows(t), f"tournament-{t.id}-games.csv", style)


PDF = {200: {"content": {"application/pdf": {}}, "description": "the results, to print"}, 404: _P}


async def results_pdf_response(request: Request, tournament_id: int, lang: str | None) -> Response:
    """The results PDF (:class:`UnknownTournament` for no such tournament)."""
    t = await run_in_threadpool(tournaments(request).read, tournament_id)
    chosen = lang if lang in LANGUAGES else words(request).lang

    async def arguments() -> tuple[Any, ...]:
        return t, chosen

    data = await pooled(request, work.results_pdf, arguments, PRINT_SECONDS)  # printed apart
    if isinstance(data, Response):
        return data
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": f'inline; filename="tournament-{t.id}-results.pdf"'})


@router.get("/{tournament_id}/results.pdf", summary="The results as PDF", response_class=Response,
            responses=PDF)  # type: ignore[arg-type]
async def get_results_pdf(request: Request, tournament_id: int, lang: str | None = None) -> Response:
    """The final ranking (the standings so far while the tournament runs) with match
    points, GD, BED and HS, each group's standings, and the games with their scores,
    as an A4 PDF in ``lang`` (en, sk, de; default: the page's language)."""
    try:
        return await results_pdf_response(request, tournament_id, lang)
    except StorageError as error:
        return _refusal(error)


def _csv(rows: Iterable[list[str]], filename: str, style: Style) -> Response:
    """The rows as a CSV file (:func:`carom.core.spreadsheet.write_csv`), its averages
    with the style's decimal mark."""
    return csv_response(write_csv(decimals(rows, DECIMAL_COLUMNS), style), filename)
