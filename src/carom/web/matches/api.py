"""The JSON API: what a tablet, a camera or a script speaks. Documented at ``/docs``.

``POST /api/matches/{id}/records`` is the one way a record gets in: it names the
record it follows, carries the referee token, and is answered 201 with the ruling,
409 with the match as it is now, or 4xx with the reason. The token is checked, and
the match looked up, before the body is read. Never a changed match with an error,
never a 500 for bad input.

An account's requests carry the session cookie and its anti-forgery token in the
``X-CSRF-Token`` header (``GET /api/session`` gives it after ``POST /login``). Each route
asks for what the account's role must allow (:mod:`carom.storage.roles`): creating
matches, new tablet links and reopening need an organiser or a tournament director;
entering and confirming a match, its referee (the account it is given to) or one of them.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Body, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, WithJsonSchema

from carom.core.errors import RecordError
from carom.core.inputs import decode, parse_json
from carom.notation.reader import parse_header
from carom.notation.rulings_json import replay_json, ruling_json
from carom.notation.writer import header_json
from carom.rules.disciplines import DISCIPLINES
from carom.storage.accounts import UnknownAccount
from carom.storage.book import BrokenMatch, LiveMatch, Snapshot, WrongToken
from carom.storage.errors import StaleSequence
from carom.storage.events import Actor, Confirmed, NotFinished, NotInDoubt
from carom.storage.players import AmbiguousName, SamePlayer
from carom.storage.roles import Account, Permission
from carom.web.matches.record_schema import HEADER_SCHEMA, RECORD_SCHEMA
from carom.web.shared import auth
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import (
    account_of,
    api_organiser,
    checked_account,
    csrf_ok,
    problem,
    services,
    session_of,
)
from carom.web.shared.forms import FormError, check_names
from carom.web.tables.devices import device_token, referee_token
from carom.web.tournaments.api import game_over

router = APIRouter(prefix="/api", tags=["matches"])

HeaderBody = Annotated[dict[str, Any], WithJsonSchema(HEADER_SCHEMA)]
DEFAULT_TABLE = "large"
"""The table of a match created without one, unless its discipline fixes it (K1)."""


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
        "confirmed": snap.confirmation.confirmed,
        "timeouts": list(s.timeouts), "timeout_taken": s.timeout_taken, "shootout": s.shootout,
    }


def account_json(account: Account | None) -> dict[str, Any] | None:
    return None if account is None else {"id": account.id, "name": account.name, "role": account.role.value}


def match_json(snap: Snapshot) -> dict[str, Any]:
    """A match as the API shows it: the header, the players' ids, the sequence number,
    the live state, the replay object of ``carom replay --json``, the events (each with
    its account), the referee's account it is given to, and the latest stroke in doubt
    that the referee has not upheld (docs/format.md, "A stroke in doubt")."""
    in_doubt = snap.in_doubt
    return {"id": snap.match_id, "seq": snap.seq, "header": header_json(snap.header),
            "players": None if snap.players is None else list(snap.players),
            "state": state_json(snap), "replay": replay_json(snap.state, snap.rulings),
            "events": [{"kind": e.kind.value, "by": e.actor.value, "account": account_json(e.account),
                        "seq": e.seq, "at": None if e.at is None else e.at.isoformat()}
                       for e in snap.events],
            "referee": account_json(snap.referee), "problem": snap.problem,
            "in_doubt": None if in_doubt is None else {"line": in_doubt[0], "doubt": in_doubt[1]}}


def refereed(request: Request, live: LiveMatch, token: str | None) -> str | Response:
    """The match's referee token, when the request carries it (the tablet link) or comes
    from an account that may referee the match (with its anti-forgery token); else the
    refusal (401 without either, 403 otherwise)."""
    if token is not None:
        try:
            live.check_token(token)
        except WrongToken as error:
            return problem(403, str(error))
        return token
    session = session_of(request)
    if session is None:
        return problem(401, f"missing referee token ({auth.TOKEN_HEADER}) or login")
    if not session.account.may_referee(None if live.referee is None else live.referee.id):
        return problem(403, f"match {live.id} is not given to the account {session.account.name}")
    if not csrf_ok(request):
        return problem(403, f"the {auth.CSRF_HEADER} header must carry the session's anti-forgery "
                            "token (GET /api/session)")
    return live.token


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
        raise RecordError("after: expected the whole number of the record this one follows, "
                          f"got {after!r:.80}")
    if not isinstance(record, dict):
        raise RecordError(f"record: expected a carom/1 record object, got {json.dumps(record)[:80]}")
    return after, record


def _no_constant(name: str) -> None:
    raise RecordError(f"{name} is not a number JSON allows")


@router.post(
    "/matches/{match_id}/records", status_code=201, summary="Append a record (referee)",
    responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem},
               409: {"description": "stale (the body shows the match as it is) or confirmed"},
               413: {"model": Problem}, 422: {"model": Problem}},
    openapi_extra={
        "requestBody": {"required": True, "content": {"application/json": {"schema": ENTRY_SCHEMA}}},
        "parameters": [{"name": "X-Referee-Token", "in": "header", "required": False,
                        "schema": {"type": "string"}, "description": "the match's referee token"}],
    },
)
async def append_record(request: Request, match_id: int) -> Response:
    """Append one record after record ``after`` (the first route of the application:
    it is the one every stroke takes): 201 with its ruling, 409 with the match
    as it is when ``after`` is not the last record, 4xx with the reason otherwise.

    The body is read here rather than by a model, and only once the match and its
    token are known, so that a refusal reads like the refusals of ``carom replay``
    (the field, then the reason or the rule) and costs nothing for a stranger.
    """
    svc = services(request)
    given = request.headers.get(auth.TOKEN_HEADER)
    cached = svc.book.cached(match_id)
    live = cached if cached is not None else await run_in_threadpool(svc.book.live, match_id)
    token = given if given else refereed(request, live, None)
    if isinstance(token, Response):
        if device_token(request) is None:
            return token
        token = None  # a tablet paired with the match's table stands in (checked below)
    try:
        token = await referee_token(request, live, token)
        after, record = read_entry(await request.body())
        done = await svc.book.append_async(match_id, after, record, token, strict=True,
                                           by=account_of(request))
    except WrongToken as error:
        return problem(403, str(error))
    except StaleSequence as stale:
        fresh = await run_in_threadpool(svc.book.snapshot, match_id)
        return problem(409, str(stale), seq=fresh.seq, match=match_json(fresh))
    except Confirmed as error:
        return problem(409, str(error), seq=live.snapshot.seq)
    except (RecordError, BrokenMatch) as error:
        return problem(422, str(error))
    svc.hub.publish(match_id, done.snapshot.version)
    await game_over(request, match_id, done.snapshot.state.finished)
    return JSONResponse({
        "seq": done.seq, "line": done.seq + 1,
        "ruling": None if done.ruling is None else ruling_json(done.ruling),
        "state": state_json(done.snapshot),
    }, status_code=201)


@router.get("/session", summary="The session's account and its anti-forgery token")
def session(request: Request) -> dict[str, Any]:
    """``account`` (id, name, role) and ``csrf`` after ``POST /login``; ``organiser``: whether
    the account runs the day (an organiser or a tournament director)."""
    found = session_of(request)
    return {"account": account_json(None if found is None else found.account),
            "organiser": found is not None and found.account.may(Permission.RUN),
            "csrf": None if found is None else found.csrf}


@router.get("/matches", summary="List the matches")
def list_matches(request: Request) -> list[dict[str, Any]]:
    return [{"id": s.match_id, "seq": s.seq, "header": header_json(s.header),
             "players": None if s.players is None else list(s.players),
             "score": list(s.state.score), "finished": s.state.finished, "winner": s.state.winner,
             "confirmed": s.confirmation.confirmed}
            for s in services(request).book.snapshots()]


@router.get("/players", summary="The players: every identity matches refer to")
def list_players(request: Request) -> list[dict[str, Any]]:
    return [{"id": p.id, "name": p.name} for p in services(request).book.store.players()]


def with_table(header: dict[str, Any]) -> dict[str, Any]:
    """The header with its table: the discipline's only one, else the large table."""
    if header.get("table") is not None:
        return header
    spec = DISCIPLINES.get(str(header.get("discipline")))
    fixed = spec is not None and len(spec.tables) == 1
    return {**header, "table": spec.tables[0] if spec is not None and fixed else DEFAULT_TABLE}


@router.post("/matches", status_code=201, summary="Create a match (organiser)",
             responses={401: {"model": Problem}, 403: {"model": Problem}, 422: {"model": Problem}})
async def create_match(request: Request, header: Annotated[HeaderBody, Body()]) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    try:
        parsed = parse_header(json.dumps({"format": "carom/1", **with_table(header)}))
        if parsed.extra:
            fields = ", ".join(map(repr, sorted(parsed.extra)))[:80]
            raise RecordError(f"header: {fields} is no field of a header")
        check_names(parsed)
        token = auth.new_token()
        match_id = await run_in_threadpool(lambda: services(request).book.create(parsed, token,
                                                                                 by=account_of(request)))
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return problem(422, str(error))
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


@router.post("/matches/{match_id}/referee-token", summary="A new tablet link (organiser)",
             responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem}})
async def new_referee_token(request: Request, match_id: int) -> Response:
    """A new referee token for the match: the old one, and its tablet link, stop working."""
    if (refused := api_organiser(request)) is not None:
        return refused
    svc = services(request)
    token = auth.new_token()
    await run_in_threadpool(svc.book.new_token, match_id, token, checked_account(request))
    svc.hub.publish(match_id, svc.book.snapshot(match_id).version)
    url, _ = tablet_url(request, svc.tablet_host, match_id, token)
    return JSONResponse({"id": match_id, "referee_token": token, "tablet": url})


@router.post("/matches/{match_id}/confirm", summary="Confirm the result",
             responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem},
                        409: {"model": Problem}},
             openapi_extra={"requestBody": {"required": False, "content": {"application/json": {"schema": {
                 "type": "object", "properties": {"player": {"type": "integer", "enum": [0, 1]}}}}}}})
async def confirm(request: Request, match_id: int) -> Response:
    """A player confirms the finished match's result (with the referee token and
    ``{"player": 0}``), or an account that may referee the match does (its session, no
    body). Confirmed by both players or by an account, the match takes no more records."""
    svc = services(request)
    token = request.headers.get(auth.TOKEN_HEADER)
    live = await run_in_threadpool(svc.book.live, match_id)
    checked = refereed(request, live, token)
    by_device = isinstance(checked, Response) and token is None and device_token(request) is not None
    if by_device:
        try:
            await referee_token(request, live, None)
        except WrongToken as error:
            return problem(403, str(error))
    elif isinstance(checked, Response):
        return checked
    actor = Actor.ACCOUNT
    if token is not None or by_device:
        try:
            player = parse_json(decode(await request.body())).get("player")
        except (ValueError, AttributeError):  # InputError: not JSON, or nested too deep (64)
            player = None
        if player not in (0, 1) or isinstance(player, bool):
            return problem(422, 'body: expected {"player": 0} or {"player": 1}')
        actor = Actor.player(player)
    try:
        snap = await run_in_threadpool(svc.book.confirm, match_id, actor, account_of(request))
    except NotFinished as error:
        return problem(409, str(error))
    svc.hub.publish(match_id, snap.version)
    await game_over(request, match_id, snap.state.finished)
    return JSONResponse(match_json(snap))


@router.post("/matches/{match_id}/reopen", summary="Reopen a confirmed match (organiser)",
             responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem}})
async def reopen(request: Request, match_id: int) -> Response:
    if (refused := api_organiser(request)) is not None:
        return refused
    svc = services(request)
    snap = await run_in_threadpool(svc.book.reopen, match_id, checked_account(request))
    svc.hub.publish(match_id, snap.version)
    return JSONResponse(match_json(snap))


@router.post("/matches/{match_id}/referee", summary="Give the match to a referee's account (organiser)",
             responses={401: {"model": Problem}, 403: {"model": Problem}, 404: {"model": Problem},
                        422: {"model": Problem}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["account"], "additionalProperties": False,
                 "properties": {"account": {"type": ["integer", "null"],
                                            "description": "a referee's account id; null: nobody"}}}}}}})
async def give(request: Request, match_id: int) -> Response:
    """The referee's account the match is given to: it may then enter and confirm it
    without the tablet link. In the match's events, with the account that gave it."""
    if (refused := api_organiser(request)) is not None:
        return refused
    svc = services(request)
    try:
        body = parse_json(decode(await request.body()))
    except ValueError:  # InputError: not JSON, a key twice, nested too deep
        body = None
    chosen = body.get("account") if isinstance(body, dict) and set(body) == {"account"} else False
    if chosen is not None and (isinstance(chosen, bool) or not isinstance(chosen, int)):
        return problem(422, 'body: expected {"account": a referee\'s account id, or null}')
    live = await run_in_threadpool(svc.book.live, match_id)
    try:
        referee = await run_in_threadpool(svc.accounts.referee, chosen)
    except UnknownAccount:
        return problem(422, f"account: {chosen} is no referee's account")
    snap = await run_in_threadpool(svc.book.give, live.id, referee, checked_account(request))
    svc.hub.publish(match_id, snap.version)
    return JSONResponse(match_json(snap))


async def _refereed_field(request: Request, match_id: int, name: str) -> Any:
    """Field ``name`` of the JSON body (``None`` when the body has none), once the request
    carries the match's referee token (or a paired tablet's stands in); the 403 if not."""
    live = await run_in_threadpool(services(request).book.live, match_id)
    try:
        await referee_token(request, live, request.headers.get(auth.TOKEN_HEADER, ""))
    except WrongToken as error:
        return problem(403, str(error))
    try:
        return json.loads(await request.body()).get(name)
    except (ValueError, AttributeError, RecursionError):
        return None


@router.post("/matches/{match_id}/uphold", summary="Uphold the stroke in doubt (referee)",
             responses={403: {"model": Problem}, 404: {"model": Problem}, 409: {"model": Problem},
                        422: {"model": Problem}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["line"], "properties": {"line": {"type": "integer"}}}}}}})
async def uphold(request: Request, match_id: int) -> Response:
    """With the referee token and ``{"line": N}``: the referee upholds the stroke on line
    ``N``, the latest standing one, which its source doubted (``in_doubt`` of the match).
    Kept as a match event, the record unchanged; 409 when that stroke is not the one in
    doubt (upheld already, undone, followed by another) or the match is confirmed."""
    line = await _refereed_field(request, match_id, "line")
    if isinstance(line, Response):
        return line
    if isinstance(line, bool) or not isinstance(line, int):
        return problem(422, 'body: expected {"line": N}, the line of the stroke in doubt')
    svc = services(request)
    try:
        snap = await run_in_threadpool(svc.book.uphold, match_id, line, Actor.REFEREE, account_of(request))
    except (NotInDoubt, Confirmed) as error:
        return problem(409, str(error))
    svc.hub.publish(match_id, snap.version)
    return JSONResponse(match_json(snap))


@router.post("/matches/{match_id}/clock", summary="Pause or resume the shot clock (referee)",
             responses={403: {"model": Problem}, 404: {"model": Problem}, 422: {"model": Problem}},
             openapi_extra={"requestBody": {"required": True, "content": {"application/json": {"schema": {
                 "type": "object", "required": ["paused"], "properties": {"paused": {"type": "boolean"}}}}}}})
async def pause_clock(request: Request, match_id: int) -> Response:
    """With the referee token and ``{"paused": true}`` (or ``false``): the shot clock of the
    stroke under way stops (or goes on) on every tablet and board of the match
    (docs/clock.md). The pause is a match event, not a record: it judges nothing."""
    paused = await _refereed_field(request, match_id, "paused")
    if isinstance(paused, Response):
        return paused
    if not isinstance(paused, bool):
        return problem(422, 'body: expected {"paused": true} or {"paused": false}')
    svc = services(request)
    snap = await run_in_threadpool(svc.book.pause_clock, match_id, paused, Actor.REFEREE,
                                   account_of(request))
    svc.hub.publish(match_id, snap.version)
    return JSONResponse(match_json(snap))


