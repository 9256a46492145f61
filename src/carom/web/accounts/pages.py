"""Who may change things: the first organiser's account (made at the first start), logging
in and out, one's own password, and the organiser's list of accounts (create, reset,
remove) with the log of those changes.

Every form carries the session's anti-forgery token (:mod:`carom.web.shared.auth`); a form
without it is refused with 403 and changes nothing.
"""

from __future__ import annotations

import hmac
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from carom.notation.words import N_
from carom.storage.accounts import (
    MAX_NAME,
    AccountError,
    Action,
    Change,
    UnknownAccount,
    role_of,
    wait_seconds,
)
from carom.storage.roles import Account, Permission, Role
from carom.web.shared import auth
from carom.web.shared.deps import (
    account_form,
    account_of,
    allowed,
    csrf_ok,
    refuse,
    render,
    services,
    session_of,
    to_login,
    words,
)
from carom.web.shared.guard import over_https
from carom.web.shared.i18n import PageWords

router = APIRouter(include_in_schema=False)
FIRST_NAME = "organiser"
"""The name the setup form offers for the first account."""


def home(account: Account) -> str:
    """Where an account starts: the organiser's pages, or a referee's matches."""
    return "/organiser" if account.may(Permission.RUN) else "/referee"


def _safe_next(target: str, account: Account) -> str:
    ok = target.startswith("/") and not target.startswith("//") and "\\" not in target
    return target if ok else home(account)


def password_problem(password: str, again: str, t: PageWords) -> str | None:
    """Why a new password (typed twice) is not taken, or ``None``."""
    if len(password) < auth.MIN_PASSWORD:
        return t.gettext("Use at least %(count)s characters.", count=auth.MIN_PASSWORD)
    if password != again:
        return t.gettext("The passwords differ.")
    return None


def _fields(form: FormData, *keys: str) -> dict[str, str]:
    return {k: str(form.get(k, "") or "")[:auth.MAX_PASSWORD] for k in keys}


# --- the first start ------------------------------------------------------------------


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request, code: str = "") -> Response:
    if services(request).accounts.exist():
        return RedirectResponse("/login", status_code=303)
    return render(request, "setup.html", form={"code": code[:64], "name": FIRST_NAME})


@router.post("/setup", response_class=HTMLResponse)
async def setup(request: Request) -> Response:
    """The first organiser's account, made with the code ``carom serve`` printed."""
    svc = services(request)
    t = words(request)
    fields = _fields(await request.form(), "code", "name", "password", "again")
    shown = {k: fields[k] for k in ("code", "name")}
    taken = t.gettext("The first account is already made: log in.")
    if await run_in_threadpool(svc.accounts.exist):
        return render(request, "setup.html", 409, error=taken)
    code = fields["code"].strip().encode()
    if not svc.setup_code or not hmac.compare_digest(code, svc.setup_code.encode()):
        return render(request, "setup.html", 403, form=fields, error=t.gettext(  # kept: nothing to type again
            "Wrong setup code: use the code carom serve printed at its start."))
    problem = password_problem(fields["password"], fields["again"], t)
    if problem:
        return render(request, "setup.html", 422, form=shown, error=problem)
    stored = await run_in_threadpool(auth.hash_password, fields["password"])
    try:
        account = await run_in_threadpool(lambda: svc.accounts.create(
            fields["name"], Role.ORGANISER, stored, by=None, first=True))
    except AccountError as error:
        first = "first account" in str(error)
        return render(request, "setup.html", 409 if first else 422, form=shown,
                      error=taken if first else t.error(error))
    return await logged_in(request, account, "/organiser")


# --- logging in and out ---------------------------------------------------------------


async def logged_in(request: Request, account: Account, target: str) -> Response:
    """A new session for ``account`` (its cookie ``Secure`` over https), and on to ``target``."""
    token, key, csrf = auth.new_session()
    now = time.time()
    await run_in_threadpool(services(request).accounts.open_session, account, key, csrf,
                            now + auth.SESSION_SECONDS, now)
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(auth.COOKIE, token, max_age=auth.SESSION_SECONDS, httponly=True, samesite="lax",
                        secure=over_https(request))
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "") -> Response:
    if not services(request).accounts.exist():
        return RedirectResponse("/setup", status_code=303)
    return render(request, "login.html", next=next[:500], login_name="")


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request) -> Response:
    """Name and password. Attempts are limited per account name and per client address,
    in the database (so across every server process): a refusal is 429 with Retry-After."""
    svc = services(request)
    t = words(request)
    form = await request.form()
    target = str(form.get("next", "") or "")[:500]
    name = str(form.get("name", "") or "")[:MAX_NAME * 2]
    password = str(form.get("password", "") or "")[:auth.MAX_PASSWORD]
    client = request.client.host if request.client else ""
    wait = await run_in_threadpool(svc.accounts.attempt, auth.login_buckets(name, client), time.time())
    if wait:
        seconds = wait_seconds(wait)
        message = t.gettext("Too many login attempts: try again in %(seconds)s seconds.", seconds=seconds)
        response = render(request, "login.html", 429, next=target, login_name=name[:MAX_NAME], error=message)
        response.headers["retry-after"] = str(seconds)
        return response
    found = await run_in_threadpool(svc.accounts.credentials, name)
    ok = await run_in_threadpool(auth.verify_password, password, None if found is None else found[1])
    if found is None or not ok:
        return render(request, "login.html", 403, next=target, login_name=name[:MAX_NAME],
                      error=t.gettext("Wrong name or password."))
    account, stored = found
    if auth.needs_rehash(stored):
        fresh = await run_in_threadpool(auth.hash_password, password)
        await run_in_threadpool(svc.accounts.rehash, account, stored, fresh)
    return await logged_in(request, account, _safe_next(target, account))


@router.post("/logout")
async def logout(request: Request) -> Response:
    """Ends every session of this account, on every device."""
    response = RedirectResponse("/", status_code=303)
    session = session_of(request)
    if session is not None:
        if not csrf_ok(request, await request.form()):
            return refuse(request, 403, "forged", {})
        await run_in_threadpool(services(request).accounts.end_sessions, session.account)
    response.delete_cookie(auth.COOKIE)
    return response


# --- one's own account ----------------------------------------------------------------


@router.get("/account", response_class=HTMLResponse)
def own_account(request: Request) -> Response:
    if account_of(request) is None:
        return to_login(request, "/account")
    return render(request, "account.html", done=request.query_params.get("password") == "changed")


@router.post("/account/password", response_class=HTMLResponse)
async def change_password(request: Request) -> Response:
    """A new password for one's own account: its other sessions end; this one stays."""
    session = session_of(request)
    if session is None:
        return to_login(request, "/account")
    form = await request.form()
    if not csrf_ok(request, form):
        return refuse(request, 403, "forged", {})
    svc = services(request)
    t = words(request)
    fields = _fields(form, "current", "password", "again")
    found = await run_in_threadpool(svc.accounts.credentials, session.account.name)
    ok = await run_in_threadpool(auth.verify_password, fields["current"], None if found is None else found[1])
    if not ok:
        return render(request, "account.html", 403, error=t.gettext("Wrong password."))
    problem = password_problem(fields["password"], fields["again"], t)
    if problem:
        return render(request, "account.html", 422, error=problem)
    stored = await run_in_threadpool(auth.hash_password, fields["password"])
    keep = auth.session_key(str(request.cookies.get(auth.COOKIE)))
    await run_in_threadpool(lambda: svc.accounts.set_password(session.account, stored, by=session.account,
                                                              keep=keep))
    return RedirectResponse("/account?password=changed", status_code=303)


# --- the organiser's accounts ---------------------------------------------------------

CHANGES = {
    Action.CREATED: N_("%(who)s made the account %(subject)s"),
    Action.REMOVED: N_("%(who)s removed the account %(subject)s"),
    Action.RESET: N_("%(who)s set a new password for %(subject)s"),
    Action.CHANGED: N_("%(who)s changed their own password"),
}


def change_text(change: Change, t: PageWords) -> str:
    """A line of the accounts' log in words."""
    who = change.by or t.gettext("the command line")
    if change.action is Action.REGISTER:
        made, _, changed = change.subject.partition(" ")
        return t.gettext("%(who)s imported the register: %(made)s new players, %(changed)s updated",
                         who=who, made=made, changed=changed)
    return t.gettext(CHANGES[change.action], who=who, subject=change.subject)


def accounts_page(request: Request, status: int = 200, **extra: Any) -> Response:
    accounts = services(request).accounts
    now = time.time()
    rows = [(a, accounts.sessions(a.id, now)) for a in accounts.active()]
    t = words(request)
    return render(request, "accounts.html", status, rows=rows, roles=list(Role), changes=accounts.changes(),
                  change_text=lambda change: change_text(change, t), max_name=MAX_NAME, **extra)


@router.get("/accounts", response_class=HTMLResponse)
async def accounts_list(request: Request) -> Response:
    refused = allowed(request, "/accounts", Permission.ACCOUNTS)
    if refused is not None:
        return refused
    return await run_in_threadpool(accounts_page, request)


@router.post("/accounts", response_class=HTMLResponse)
async def create_account(request: Request) -> Response:
    checked = await account_form(request, "/accounts", Permission.ACCOUNTS)
    if isinstance(checked, Response):
        return checked
    form, me = checked
    t = words(request)
    fields = _fields(form, "name", "role", "password", "again")
    shown = {k: fields[k] for k in ("name", "role")}
    problem = password_problem(fields["password"], fields["again"], t)
    try:
        role = role_of(fields["role"])
        if problem is None:
            stored = await run_in_threadpool(auth.hash_password, fields["password"])
            await run_in_threadpool(lambda: services(request).accounts.create(
                fields["name"], role, stored, by=me))
    except AccountError as error:
        problem = t.error(error)
    if problem is not None:
        return await run_in_threadpool(lambda: accounts_page(request, 422, error=problem, form=shown))
    return RedirectResponse("/accounts", status_code=303)


async def _target(request: Request, account_id: int) -> tuple[FormData, Account, Account] | Response:
    """An organiser's form about an account: the form, the organiser and the account named,
    or the answer that refuses it."""
    checked = await account_form(request, "/accounts", Permission.ACCOUNTS)
    if isinstance(checked, Response):
        return checked
    try:
        return (*checked, await run_in_threadpool(services(request).accounts.get, account_id))
    except UnknownAccount:
        message = words(request).gettext("There is no account %(number)s.", number=account_id)
        return await run_in_threadpool(lambda: accounts_page(request, 404, error=message))


@router.post("/accounts/{account_id}/password", response_class=HTMLResponse)
async def reset_password(request: Request, account_id: int) -> Response:
    """The organiser sets a new password for an account: its sessions end."""
    checked = await _target(request, account_id)
    if isinstance(checked, Response):
        return checked
    form, me, target = checked
    t = words(request)
    fields = _fields(form, "password", "again")
    problem = password_problem(fields["password"], fields["again"], t)
    if problem is not None:
        return await run_in_threadpool(lambda: accounts_page(request, 422, error=problem))
    stored = await run_in_threadpool(auth.hash_password, fields["password"])
    await run_in_threadpool(lambda: services(request).accounts.set_password(target, stored, by=me))
    return RedirectResponse("/accounts", status_code=303)


@router.post("/accounts/{account_id}/remove", response_class=HTMLResponse)
async def remove_account(request: Request, account_id: int) -> Response:
    """Remove an account: its sessions end at once; what it did keeps its name."""
    checked = await _target(request, account_id)
    if isinstance(checked, Response):
        return checked
    _, me, target = checked
    try:
        await run_in_threadpool(lambda: services(request).accounts.remove(target, by=me))
    except AccountError as error:
        message = words(request).error(error)
        return await run_in_threadpool(lambda: accounts_page(request, 409, error=message))
    return RedirectResponse("/accounts", status_code=303)
