"""The JSON API: what a tablet, a camera or a script speaks. Documented at ``/docs``.

``POST /api/matches/{id}/records`` is the one way a record gets in: it names the
record it follows, carries the referee token, and is answered 201 with the ruling,
409 with the match as it is now, or 4xx with the reason. Never a changed match
with an error, never a 500 for bad input.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, WithJsonSchema

from carom.core.errors import RecordError
from carom.notation.reader import parse_header
from carom.notation.rulings_json import replay_json, ruling_json
from carom.notation.writer import header_json
from carom.storage.book import BrokenMatch, Snapshot, WrongToken
from carom.storage.errors import StaleSequence
from carom.web import auth
from carom.web.deps import is_organiser, services
from carom.web.record_schema import HEADER_SCHEMA, RECORD_SCHEMA

router = APIRouter(prefix="/api", tags=["matches"])

HeaderBody = Annotated[dict[str, Any], WithJsonSchema(HEADER_SCHEMA)]


class Problem(BaseModel):
    detail: str


def state_json(snap: Snapshot) -> dict[str, Any]:
    """Where the match stands: who plays, the score of the game or set, the flags."""
    s = snap.state
    return {
        "started": s.started, "lag_winner": s.lag_winner, "lag_pending": s.lag_pending,
        "opener": s.opener, "striker": s.striker, "score": list(s.score),
        "innings": list(s.innings), "series": s.series, "in_inning": s.in_inning,
        "equalizing": s.last_inning, "opening": s.opening, "set_no": s.set_no,
        "sets_won": list(s.sets_won), "finished": s.finished, "winner": s.winner,
    }


def match_json(snap: Snapshot) -> dict[str, Any]:
    """A match as the API shows it: the header, the sequence number, the live state
    and the replay object of ``carom replay --json``."""
    return {"id": snap.match_id, "seq": snap.seq, "header": header_json(snap.header),
            "state": state_json(snap), "replay": replay_json(snap.state, snap.rulings),
            "problem": snap.problem}


def _problem(status: int, detail: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"detail": detail, **extra}, status_code=status)


@router.get("/matches", summary="List the matches")
def list_matches(request: Request) -> list[dict[str, Any]]:
    return [{"id": s.match_id, "seq": s.seq, "header": header_json(s.header),
             "score": list(s.state.score), "finished": s.state.finished, "winner": s.state.winner}
            for s in services(request).book.snapshots()]


@router.post("/matches", status_code=201, summary="Create a match (organiser)",
             responses={401: {"model": Problem}, 422: {"model": Problem}})
async def create_match(request: Request, header: Annotated[HeaderBody, Body()]) -> Response:
    if not is_organiser(request):
        return _problem(401, "organiser login needed (POST /login)")
    try:
        parsed = parse_header(json.dumps({"format": "carom/1", **header}))
    except RecordError as error:
        return _problem(422, str(error))
    token = auth.new_token()
    match_id = await run_in_threadpool(services(request).book.create, parsed, token)
    return JSONResponse({"id": match_id, "referee_token": token,
                         "tablet": f"/m/{match_id}/tablet?t={token}"}, status_code=201)


@router.get("/matches/{match_id}", summary="A match: header, state, rulings",
            responses={404: {"model": Problem}})
def get_match(request: Request, match_id: int) -> dict[str, Any]:
    return match_json(services(request).book.snapshot(match_id))


@router.get("/matches/{match_id}/file", summary="The match as a carom/1 file",
            response_class=PlainTextResponse, responses={404: {"model": Problem}})
def get_file(request: Request, match_id: int) -> Response:
    return PlainTextResponse(services(request).book.snapshot(match_id).text,
                             media_type="application/x-ndjson; charset=utf-8")


ENTRY_SCHEMA: dict[str, Any] = {
    "type": "object", "required": ["after", "record"], "additionalProperties": False,
    "properties": {
        "after": {"type": "integer", "minimum": 0, "maximum": 2**31 - 1,
                  "description": "the sequence number of the record this one follows (0: the header)"},
        "record": RECORD_SCHEMA,
    },
}


def read_entry(body: bytes) -> tuple[int, dict[str, Any]]:
    """``{"after": N, "record": {...}}``, or a :class:`RecordError` naming the field."""
    try:
        entry = json.loads(body, parse_constant=_no_constant)
    except (ValueError, RecursionError) as error:
        raise RecordError(f"body: not valid JSON ({error})") from None
    if not isinstance(entry, dict):
        raise RecordError('body: expected {"after": N, "record": {...}}')
    after, record = entry.get("after"), entry.get("record")
    if isinstance(after, bool) or not isinstance(after, int) or not 0 <= after < 2**31:
        raise RecordError(f"after: expected the whole number of the record this one follows, got {after!r}")
    if not isinstance(record, dict):
        raise RecordError(f"record: expected a carom/1 record object, got {json.dumps(record)[:80]}")
    return after, record


def _no_constant(name: str) -> None:
    raise RecordError(f"{name} is not a number JSON allows")


@router.post(
    "/matches/{match_id}/records", status_code=201, summary="Append a record (referee)",
    responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem},
               409: {"description": "stale: the match moved on; the body shows it as it is"},
               422: {"model": Problem}},
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": ENTRY_SCHEMA}}},
        "parameters": [{"name": "X-Referee-Token", "in": "header", "required": False,
                        "schema": {"type": "string"}, "description": "the match's referee token"}],
    },
)
async def append_record(request: Request, match_id: int) -> Response:
    """Append one record after record ``after``: 201 with its ruling, 409 with the match
    as it is when ``after`` is not the last record, 4xx with the reason otherwise.

    The body is read here rather than by a model, so that a refusal reads like the
    refusals of ``carom replay``: the field, then the reason or the rule.
    """
    svc = services(request)
    token = request.headers.get(auth.TOKEN_HEADER)
    try:
        after, record = read_entry(await request.body())
        done = await svc.book.append_async(match_id, after, record, token)
    except WrongToken as error:
        return _problem(401 if not token else 403, str(error))
    except StaleSequence as stale:
        fresh = await run_in_threadpool(svc.book.snapshot, match_id)
        return _problem(409, str(stale), seq=fresh.seq, match=match_json(fresh))
    except (RecordError, BrokenMatch) as error:
        return _problem(422, str(error))
    svc.hub.publish(match_id, done.seq)
    return JSONResponse({
        "seq": done.seq, "line": done.seq + 1,
        "ruling": None if done.ruling is None else ruling_json(done.ruling),
        "state": state_json(done.snapshot),
    }, status_code=201)
