"""The hall's JSON API: its tables, what each plays now and next, and the organiser's
changes; a program pairs as a table's tablet with a pairing code and then writes its
table's games with ``X-Device-Token`` (``POST /api/matches/{id}/records``, as a tablet).

Reading is open to anyone (a screen shows as much); a change needs the session of an
account that runs the day (an organiser or a tournament director) and its anti-forgery
token, and is recorded with that account. A refusal names its field and rule (TD1-TD8).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from carom.competition.tables import Game, OnTable, Progress
from carom.storage.errors import StorageError
from carom.storage.hall import HallError
from carom.web.shared.deps import api_organiser, is_organiser, problem, services
from carom.web.tables.pages import tournament_tables
from carom.web.tables.screens import table_path
from carom.web.tables.service import actor, games
from carom.web.tournaments.api import tournaments

router = APIRouter(prefix="/api", tags=["tables"])
_P = {"model": None, "description": "the reason, in `detail`"}
REFUSALS: dict[int | str, dict[str, Any]] = {401: _P, 403: _P, 404: _P, 422: _P}


def _moment(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def game_json(game: Game | None, progress: Progress | None = None) -> dict[str, Any] | None:
    if game is None:
        return None
    out: dict[str, Any] = {"players": list(game.players), "match": game.match, "since": _moment(game.since),
                           "start": _moment(game.start), "tournament": game.tournament, "game": game.game}
    if progress is not None:
        out.update(started=progress.started, finished=progress.finished, confirmed=progress.confirmed)
    return out


def table_json(on: OnTable, devices: list[dict[str, Any]] | None) -> dict[str, Any]:
    base = table_path(on.table)
    out = {"name": on.table.name, "size": on.table.size, "order": on.table.order,
           "tablet": base + "/tablet", "screen": base + "/screen",
           "now": game_json(on.now, on.progress), "next": game_json(on.next)}
    if devices is not None:
        out["devices"] = devices
    return out


def _tables(request: Request, name: str | None) -> list[dict[str, Any]]:
    tables = games(request)
    state = tables.hall.state()
    chosen = [tables.hall.table(name)] if name is not None else state.in_order()
    organiser = is_organiser(request)
    return [table_json(tables.now(table, state), [
        {"id": d.id, "paired": d.paired.isoformat(), "by": d.by} for d in state.paired(table.id)]
        if organiser else None) for table in chosen]


def _refused(error: StorageError) -> JSONResponse:
    unknown = isinstance(error, HallError) and error.rule == "TD2" and error.field in ("table", "name")
    return problem(404 if unknown else 422, str(error))


async def _body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except (ValueError, RecursionError) as error:
        raise HallError(f"body: not valid JSON ({error})") from None
    if not isinstance(body, dict):
        raise HallError("body: expected an object")
    return body


async def _organiser_change(request: Request, change: Callable[[dict[str, Any]], Any],
                            status: int = 200) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    try:
        body = await _body(request)
        done = await run_in_threadpool(change, body)
    except StorageError as error:
        return _refused(error)
    services(request).hub.tables_changed()
    return JSONResponse(done if done is not None else {"ok": True}, status_code=status)


@router.get("/tables", summary="The hall's tables, each with its game now and next", responses=REFUSALS)
async def list_tables(request: Request) -> Response:
    return JSONResponse(await run_in_threadpool(_tables, request, None))


@router.get("/tables/{name}", summary="One table: its game now and next", responses=REFUSALS)
async def one_table(request: Request, name: str) -> Response:
    try:
        return JSONResponse((await run_in_threadpool(_tables, request, name))[0])
    except StorageError as error:
        return _refused(error)


def _text(body: dict[str, Any], field: str) -> str:
    value = body.get(field)
    if not isinstance(value, str):
        raise HallError(f"{field}: expected text")
    return value


def _whole(body: dict[str, Any], field: str) -> int:
    value = body.get(field)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HallError(f"{field}: expected a whole number")
    return value


@router.post("/tables", status_code=201, summary="Register a table (organiser)", responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["name", "size", "order"], "properties": {
                     "name": {"type": "string", "maxLength": 40}, "size": {"type": "string"},
                     "order": {"type": "integer", "minimum": 1, "maximum": 999}}}}}}})
async def register(request: Request) -> Response:
    def change(body: dict[str, Any]) -> dict[str, Any]:
        table = games(request).hall.register(_text(body, "name"), _text(body, "size"), _whole(body, "order"),
                                             actor(request))
        base = table_path(table)
        return {"name": table.name, "tablet": base + "/tablet", "screen": base + "/screen"}
    return await _organiser_change(request, change, 201)


@router.post("/tables/{name}/order", summary="Give a table another place in the hall (organiser)",
             responses=REFUSALS)
async def reorder(request: Request, name: str) -> Response:
    return await _organiser_change(request, lambda body: games(request).hall.reorder(
        name, _whole(body, "order"), actor(request)))


@router.post("/tables/{name}/retire", summary="Retire a table: its devices stop (organiser)",
             responses=REFUSALS)
async def retire(request: Request, name: str) -> Response:
    return await _organiser_change(request, lambda body: games(request).hall.retire(name, actor(request)))


@router.post("/tables/{name}/pairing", status_code=201,
             summary="A one-time pairing code for the table's tablet (organiser)", responses=REFUSALS)
async def pairing(request: Request, name: str) -> Response:
    def change(body: dict[str, Any]) -> dict[str, Any]:
        code, until = games(request).hall.open_pairing(name, actor(request))
        return {"code": code, "until": until.isoformat(), "pair": table_path(name) + "/pair?code=" + code}
    return await _organiser_change(request, change, 201)


@router.post("/tables/{name}/pair", status_code=201, summary="Pair as the table's tablet with a pairing code",
             responses=REFUSALS)
async def pair(request: Request, name: str) -> Response:
    """``{"code": …}`` from the organiser: the answer's ``token`` is the device token, given
    once; send it as ``X-Device-Token`` to enter the table's games."""
    try:
        body = await _body(request)
        device, token = await run_in_threadpool(games(request).hall.pair, name, _text(body, "code"))
    except StorageError as error:
        return _refused(error)
    services(request).hub.tables_changed()
    return JSONResponse({"device": device.id, "token": token}, status_code=201)


@router.post("/tables/{name}/devices/{device}/revoke", summary="Revoke a paired device (organiser)",
             responses=REFUSALS)
async def revoke(request: Request, name: str, device: int) -> Response:
    return await _organiser_change(request, lambda body: games(request).hall.revoke(
        name, device, actor(request)))


@router.post("/tables/{name}/matches", summary="Put a one-off match on the table (organiser)",
             responses=REFUSALS)
async def put(request: Request, name: str) -> Response:
    return await _organiser_change(request, lambda body: games(request).hall.put(
        name, _whole(body, "match"), actor(request),
        is_game=lambda m: tournaments(request).tournament_of(m) is not None))


@router.post("/tables/{name}/matches/{match}/take", summary="Take a one-off match off the table (organiser)",
             responses=REFUSALS)
async def take(request: Request, name: str, match: int) -> Response:
    return await _organiser_change(request, lambda body: games(request).hall.take(
        name, match, actor(request)))


@router.get("/tournaments/{tid}/tables", summary="The hall's tables a tournament plays on",
            responses=REFUSALS)
async def get_tournament_tables(request: Request, tid: int) -> Response:
    state = await run_in_threadpool(games(request).hall.state)
    names = [t.name if t else None for t in state.tournament_tables(tid)]
    return JSONResponse({"tournament": tid, "tables": names})


@router.post("/tournaments/{tid}/tables", summary="Choose the tables a tournament plays on (organiser)",
             responses=REFUSALS)
async def set_tournament_tables(request: Request, tid: int) -> Response:
    """``{"tables": ["3", "1", "2"]}``: its table 1 is the hall's table 3, and so on (TD7)."""
    def change(body: dict[str, Any]) -> None:
        names = body.get("tables")
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
            raise HallError("tables: expected a list of the hall's table names")
        tournament_tables(request, tid, names)
    return await _organiser_change(request, change)
