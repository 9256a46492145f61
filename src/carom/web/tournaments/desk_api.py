"""The organiser's desk as JSON: the day's decisions on a tournament
(:mod:`carom.web.tournaments.desk`), and its audit log.

Each decision needs the session of an account that runs the day (an organiser or a
tournament director) and its anti-forgery token (``X-CSRF-Token``), and is recorded in the
tournament's log with that account (``Anna #3``). It answers the tournament as it stands
afterwards (as ``GET /api/tournaments/{id}`` does for the organiser). A refusal is a 422
whose ``detail`` says why in the page's language (``?lang=``, the language cookie or
``Accept-Language``), with the ``field`` it concerns and the tournament day's ``rule``
(D1–D14, docs/tournaments.md); nothing is changed. A late entry is
``POST /api/tournaments/{id}/players`` after the start.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from carom.competition.day import to_json
from carom.core.spreadsheet import CHARSETS, SpreadsheetError, decode
from carom.storage.errors import StorageError
from carom.storage.players import UnknownPlayer
from carom.storage.ranking_list import read_ranking
from carom.storage.register import RegisterError
from carom.storage.roles import Permission
from carom.storage.tournaments import TournamentError
from carom.web.shared.deps import api_organiser, checked_account, problem, services, session_of
from carom.web.shared.forms import FormError
from carom.web.tournaments.api import refusal_of, tournament_json, tournaments
from carom.web.tournaments.desk import ACTIONS, Body

router = APIRouter(prefix="/api/tournaments", tags=["the organiser's desk"])
MAX_RANKING = 60 * 1024
"""A ranking list's CSV: within the server's default body limit (64 KiB), as the register's."""

_P = {"model": None, "description": "the reason, in `detail` (in the page's language), with its `field` "
                                   "and the tournament day's `rule` (D1–D14) where one decides it"}
REFUSALS: dict[int | str, dict[str, Any]] = {401: _P, 403: _P, 404: _P, 422: _P}
_REASON = {"type": "string", "maxLength": 500}
_SHEET = {
    "series": {"type": "array", "items": {"type": "array", "items": {"type": "integer", "minimum": 0}},
               "description": "each player's series, inning by inning (the game's order of players)"},
    "points": {"type": "array", "items": {"type": "integer"}, "description": "or the totals: points of each"},
    "innings": {"type": "array", "items": {"type": "integer"}},
    "high_run": {"type": "array", "items": {"type": "integer"}, "description": "each one's high series"},
    "winner": {"type": ["integer", "null"], "enum": [0, 1, None],
               "description": "a drawn knock-out game decided by penalties: the side that won"}}


def _schema(required: list[str], **properties: Any) -> dict[str, Any]:
    return {"requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": required, "additionalProperties": False, "properties": properties}}}}}


async def _json(request: Request) -> dict[str, Any]:
    raw = await request.body()
    try:
        body = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError) as error:
        raise TournamentError(f"body: not valid JSON ({error})") from None
    if not isinstance(body, dict):
        raise TournamentError("body: expected an object")
    return body


async def decide(request: Request, tournament_id: int, action: str, given: Body) -> Response:
    """Make the desk's ``action`` with the request's body and ``given`` (from the path),
    as the logged-in account; the tournament afterwards, or the refusal."""
    if (refusal := api_organiser(request)) is not None:
        return refusal
    try:
        body = {**await _json(request), **given}
        do = ACTIONS[action]
        actor = checked_account(request).actor
        await run_in_threadpool(do, tournaments(request), tournament_id, body, actor)
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=True))
    except (StorageError, UnknownPlayer, FormError) as error:
        return refusal_of(request, error)
    services(request).hub.tables_changed()  # a table's game or its next one may have changed
    response = JSONResponse(tournament_json(request, t, True))
    response.headers["Cache-Control"] = "no-store"
    return response


@router.post("/{tournament_id}/players/{player}/withdraw", summary="Withdraw a player, or a no-show (D8)",
             responses=REFUSALS, openapi_extra=_schema([], no_show={"type": "boolean", "default": False},
                                                       reason=_REASON))
async def withdraw(request: Request, tournament_id: int, player: int) -> Response:
    """The player's remaining games become walkovers for their opponents; his finished
    games count or are annulled as the tournament's ``withdrawn_games`` setting says
    (``annul`` or ``count``). ``no_show``: he did not come (he has played no game)."""
    return await decide(request, tournament_id, "withdraw", {"player": player})


@router.post("/{tournament_id}/games/{game}/walkover", summary="Give a game by walkover (D9)",
             responses=REFUSALS, openapi_extra=_schema(["winner"], winner={"enum": [0, 1]}, reason=_REASON))
async def walkover(request: Request, tournament_id: int, game: str) -> Response:
    """A game without a result is won by ``winner`` (0 or 1: the side in the game's order)."""
    return await decide(request, tournament_id, "walkover", {"game": game})


@router.post("/{tournament_id}/games/{game}/result", summary="Enter a result from a paper scoresheet (D10)",
             responses=REFUSALS, openapi_extra=_schema([], **_SHEET))
async def paper_result(request: Request, tournament_id: int, game: str) -> Response:
    """``series`` (inning by inning) or ``points``, ``innings`` and ``high_run`` (two each,
    in the game's order of players). It counts as confirmed; its match takes no more records."""
    return await decide(request, tournament_id, "result", {"game": game})


@router.post("/{tournament_id}/games/{game}/correction", summary="Correct a finished game's result (D11)",
             responses=REFUSALS, openapi_extra=_schema(["reason"], reason=_REASON, **_SHEET))
async def correct(request: Request, tournament_id: int, game: str) -> Response:
    """The scoresheet as for ``result``, with the ``reason``; a confirmed game is unlocked first."""
    return await decide(request, tournament_id, "correct", {"game": game})


@router.post("/{tournament_id}/games/{game}/unlock", summary="Unlock a confirmed game (D12)",
             responses=REFUSALS, openapi_extra=_schema(["reason"], reason=_REASON))
async def unlock(request: Request, tournament_id: int, game: str) -> Response:
    return await decide(request, tournament_id, "unlock", {"game": game})


_TABLE = {"type": "integer", "minimum": 1, "description": "the tournament's table number"}


@router.post("/{tournament_id}/games/{game}/call", summary="Call a waiting game to a free table now (D5)",
             responses=REFUSALS, openapi_extra=_schema(["table"], table=_TABLE))
async def call(request: Request, tournament_id: int, game: str) -> Response:
    return await decide(request, tournament_id, "call", {"game": game})


@router.post("/{tournament_id}/games/{game}/move", summary="Move a game to another, free, table (D6)",
             responses=REFUSALS, openapi_extra=_schema(["table"], table=_TABLE))
async def move(request: Request, tournament_id: int, game: str) -> Response:
    return await decide(request, tournament_id, "move", {"game": game})


@router.post("/{tournament_id}/games/{game}/postpone", summary="Send a waiting game to the end (D6)",
             responses=REFUSALS)
async def postpone(request: Request, tournament_id: int, game: str) -> Response:
    return await decide(request, tournament_id, "postpone", {"game": game})


@router.post("/{tournament_id}/swap", summary="Swap two waiting games, or two games' tables (D6)",
             responses=REFUSALS, openapi_extra=_schema(["first", "second"], first={"type": "string"},
                                                       second={"type": "string"}))
async def swap(request: Request, tournament_id: int) -> Response:
    """Two waiting games swap their places in the schedule, or two games on tables their tables."""
    return await decide(request, tournament_id, "swap", {})


_START = {"type": ["string", "null"], "format": "date-time",
          "description": "with its offset from UTC, e.g. 2026-12-05T18:30:00+01:00; null: none"}


@router.post("/{tournament_id}/games/{game}/schedule", summary="A waiting game's table and start time (D7)",
             responses=REFUSALS, openapi_extra=_schema([], table={**_TABLE, "type": ["integer", "null"]},
                                                       start=_START))
async def schedule(request: Request, tournament_id: int, game: str) -> Response:
    return await decide(request, tournament_id, "schedule", {"game": game})


@router.post("/{tournament_id}/rounds/schedule", summary="A round's start time (D7)", responses=REFUSALS,
             openapi_extra=_schema(["stage", "round", "start"], stage={"type": "integer", "minimum": 1},
                                   round={"type": "integer", "minimum": 1},
                                   group={"type": ["integer", "null"],
                                          "description": "one group (1 is A); null: the whole stage"},
                                   start=_START))
async def schedule_round(request: Request, tournament_id: int) -> Response:
    return await decide(request, tournament_id, "round", {})


@router.post("/{tournament_id}/seeding", summary="Seed by hand, before the start (D3)", responses=REFUSALS,
             openapi_extra=_schema(["seeds"], seeds={"type": "array", "items": {
                 "type": "object", "required": ["player", "seed"], "additionalProperties": False,
                 "properties": {"player": {"type": "integer"},
                                "seed": {"type": "integer", "minimum": 0, "description": "0: no seed"}}}}))
async def seeding(request: Request, tournament_id: int) -> Response:
    """The seeds given here replace the players' seeds named; from then on the tournament is
    seeded by hand, players without a seed after those with one."""
    return await decide(request, tournament_id, "seeding", {})


_CSV = {"type": "string", "description": "a header row naming rank and name, licence or id; , or ;"}


@router.post("/{tournament_id}/seeding/ranking",
             summary="Seed from a ranking list (CSV) before the start (D3)",
             responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True, "content": {"text/csv": {"schema": _CSV}}}})
async def seed_from_ranking(request: Request, tournament_id: int, charset: str = "utf-8") -> Response:
    """The body is the list's CSV in ``charset`` (``utf-8`` with or without its byte order
    mark, ``windows-1250`` or ``windows-1252``: said, never guessed). The entrants on the list
    are seeded in its order, the others after them; the rows the register does not know are
    answered in ``unknown`` (line, what the row said)."""
    if (refusal := api_organiser(request)) is not None:
        return refusal
    data = await request.body()
    try:
        if len(data) > MAX_RANKING:
            raise SpreadsheetError(f"file: at most {MAX_RANKING} bytes")
        if charset not in CHARSETS:
            raise SpreadsheetError(f"charset: expected one of {', '.join(CHARSETS)}, got {charset!r:.30}")
        store = tournaments(request).store
        ranking = await run_in_threadpool(read_ranking, store, decode(data, charset))
        await run_in_threadpool(tournaments(request).seed_from_ranking, tournament_id, ranking.players,
                                checked_account(request).actor)
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=True))
    except (StorageError, RegisterError, SpreadsheetError) as error:
        return refusal_of(request, error)
    response = JSONResponse({**tournament_json(request, t, True),
                             "unknown": [{"line": line, "row": row} for line, row in ranking.unknown]})
    response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/{tournament_id}/audit", summary="The tournament's log: who, when, what", responses=REFUSALS)
async def audit(request: Request, tournament_id: int) -> Response:
    """Every record of the tournament's log in order: its number (``seq``), its kind
    (``type``), the account that made it (``actor``; ``schedule`` for what the schedule did by
    itself), its time (``at``) and its fields (``reason`` of a correction, an unlock, a
    withdrawal, a walkover)."""
    session = session_of(request)
    if session is None:
        return problem(401, "login needed (POST /login with name and password)")
    if not session.account.may(Permission.RUN):
        return problem(403, f"the account {session.account.name} ({session.account.role}) may not do this")
    try:
        logged = await run_in_threadpool(tournaments(request).audit, tournament_id)
    except StorageError as error:
        return refusal_of(request, error)
    response = JSONResponse([{"seq": x.seq, **to_json(x.record)} for x in logged])
    response.headers["Cache-Control"] = "no-store"
    return response
