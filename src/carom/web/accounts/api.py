"""The accounts' JSON API (an organiser's session and its ``X-CSRF-Token``): list the
accounts, make one, give one a new password, remove one. Logging in is ``POST /login``
(form fields ``name`` and ``password``), for programs as for browsers."""

from __future__ import annotations

import json
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from carom.storage.accounts import AccountError, UnknownAccount, role_of
from carom.storage.roles import Account, Permission
from carom.web.shared import auth
from carom.web.shared.deps import api_organiser, checked_account, problem, services

router = APIRouter(prefix="/api/accounts", tags=["accounts"])
_P = {"description": "the reason, in `detail`"}
REFUSALS: dict[int | str, dict[str, Any]] = {401: _P, 403: _P, 404: _P, 409: _P, 422: _P}
NEW_ACCOUNT: dict[str, Any] = {
    "type": "object", "required": ["name", "role", "password"], "additionalProperties": False,
    "properties": {"name": {"type": "string", "maxLength": 60},
                   "role": {"type": "string", "enum": ["organiser", "director", "referee"]},
                   "password": {"type": "string", "minLength": auth.MIN_PASSWORD}},
}
NEW_PASSWORD: dict[str, Any] = {
    "type": "object", "required": ["password"], "additionalProperties": False,
    "properties": {"password": {"type": "string", "minLength": auth.MIN_PASSWORD}},
}


def account_row(account: Account, sessions: int) -> dict[str, Any]:
    return {"id": account.id, "name": account.name, "role": account.role.value, "sessions": sessions}


async def _body(request: Request, keys: set[str]) -> dict[str, str]:
    """The request's JSON object of exactly ``keys``, each a string (:class:`AccountError`)."""
    try:
        body = json.loads(await request.body())
    except (ValueError, RecursionError):
        raise AccountError("body: not valid JSON") from None
    if not isinstance(body, dict) or set(body) != keys or not all(isinstance(v, str) for v in body.values()):
        raise AccountError(f"body: expected an object of the texts {', '.join(sorted(keys))}")
    return body


def _password(body: dict[str, str]) -> str:
    password = body["password"]
    if not auth.MIN_PASSWORD <= len(password) <= auth.MAX_PASSWORD:
        raise AccountError(f"password: {auth.MIN_PASSWORD} to {auth.MAX_PASSWORD} characters")
    return password



@router.get("", summary="The accounts (organiser)", responses=REFUSALS)
async def list_accounts(request: Request) -> Response:
    if (refused := api_organiser(request, Permission.ACCOUNTS)) is not None:
        return refused
    accounts = services(request).accounts
    now = time.time()
    rows = await run_in_threadpool(lambda: [account_row(a, accounts.sessions(a.id, now))
                                            for a in accounts.active()])
    return JSONResponse(rows)


@router.post("", status_code=201, summary="Make an account (organiser)", responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": NEW_ACCOUNT}}}})
async def create_account(request: Request) -> Response:
    if (refused := api_organiser(request, Permission.ACCOUNTS)) is not None:
        return refused
    try:
        body = await _body(request, {"name", "role", "password"})
        role = role_of(body["role"])
        stored = await run_in_threadpool(auth.hash_password, _password(body))
        made = await run_in_threadpool(lambda: services(request).accounts.create(
            body["name"], role, stored, by=checked_account(request)))
    except AccountError as error:
        return problem(422, str(error))
    return JSONResponse(account_row(made, 0), status_code=201)


async def _target(request: Request, account_id: int) -> Account | Response:
    """The account a request of an organiser names, or the refusal (401, 403, 404)."""
    if (refused := api_organiser(request, Permission.ACCOUNTS)) is not None:
        return refused
    try:
        return await run_in_threadpool(services(request).accounts.get, account_id)
    except UnknownAccount as error:
        return problem(404, str(error))


@router.post("/{account_id}/password", summary="A new password for an account (organiser)",
             responses=REFUSALS,
             openapi_extra={"requestBody": {"required": True,
                                            "content": {"application/json": {"schema": NEW_PASSWORD}}}})
async def reset_password(request: Request, account_id: int) -> Response:
    """The account's sessions end at once."""
    target = await _target(request, account_id)
    if isinstance(target, Response):
        return target
    try:
        stored = await run_in_threadpool(auth.hash_password, _password(await _body(request, {"password"})))
    except AccountError as error:
        return problem(422, str(error))
    me = checked_account(request)
    await run_in_threadpool(lambda: services(request).accounts.set_password(target, stored, by=me))
    return JSONResponse(account_row(target, 0))


@router.delete("/{account_id}", summary="Remove an account (organiser)", responses=REFUSALS)
async def remove_account(request: Request, account_id: int) -> Response:
    """Its sessions end at once; what it did keeps its name. One's own account and the
    last organiser's are refused (409)."""
    target = await _target(request, account_id)
    if isinstance(target, Response):
        return target
    try:
        me = checked_account(request)
        await run_in_threadpool(lambda: services(request).accounts.remove(target, by=me))
    except AccountError as error:
        return problem(409, str(error))
    return Response(status_code=204)
