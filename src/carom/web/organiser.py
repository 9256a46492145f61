"""The organiser's pages: the password (set once, at first start, then changed here),
logging in and out, creating and importing matches, and each match's page: its tablet
link in full with a QR code, a new link that ends the old one, confirming the result
and reopening a confirmed match.

Every form carries the session's anti-forgery token (:mod:`carom.web.auth`); a form
without it is refused with 403 and changes nothing.
"""

from __future__ import annotations

import hmac
from typing import Any

import segno
from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from carom.core.errors import RecordError
from carom.core.table import TABLES
from carom.notation.matchfile import lines_of, read_match
from carom.notation.reader import parse_header
from carom.notation.words import N_
from carom.notation.writer import dumps, record_json
from carom.rules.disciplines import DISCIPLINES
from carom.storage.events import Actor, EventKind, NotFinished
from carom.storage.players import AmbiguousName, SamePlayer
from carom.web import auth
from carom.web.addresses import tablet_url
from carom.web.deps import csrf_ok, is_organiser, organiser_form, refuse, render, services, to_login, words
from carom.web.forms import MAX_NAME, FormError, check_names, header_from_form, read_upload, say
from carom.web.i18n import PageWords
from carom.web.tournaments_api import game_over
from carom.web.views import match_view

router = APIRouter(include_in_schema=False)
MAX_IMPORT = 16 * 1024 * 1024
MIN_PASSWORD = 8


def _safe_next(target: str) -> str:
    ok = target.startswith("/") and not target.startswith("//") and "\\" not in target
    return target if ok else "/organiser"


# --- the password, logging in and out -------------------------------------------------


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request, code: str = "") -> Response:
    if services(request).password_hash():
        return RedirectResponse("/login", status_code=303)
    return render(request, "setup.html", form={"code": code[:64]})


@router.post("/setup", response_class=HTMLResponse)
async def setup(request: Request) -> Response:
    svc = services(request)
    t = words(request)
    form = await request.form()
    fields = {k: str(form.get(k, ""))[:256] for k in ("code", "password", "again")}
    if svc.password_hash():
        return render(request, "setup.html", 409, error=t.gettext("The organiser password is already set."))
    code = fields["code"].strip().encode()
    if not svc.setup_code or not hmac.compare_digest(code, svc.setup_code.encode()):
        return render(request, "setup.html", 403, form=fields, error=t.gettext(
            "Wrong setup code: use the code carom serve printed at its start."))
    problem = _password_problem(fields["password"], fields["again"], t)
    if problem:
        return render(request, "setup.html", 422, form=fields, error=problem)
    stored = await run_in_threadpool(auth.hash_password, fields["password"])
    if not await run_in_threadpool(svc.set_password_hash, stored):
        return render(request, "setup.html", 409, error=t.gettext("The organiser password is already set."))
    return _logged_in(request, "/organiser", svc.password_hash() or stored)


def _password_problem(password: str, again: str, t: PageWords) -> str | None:
    if len(password) < MIN_PASSWORD:
        return t.gettext("Use at least %(count)s characters.", count=MIN_PASSWORD)
    if password != again:
        return t.gettext("The passwords differ.")
    return None


def _logged_in(request: Request, target: str, stored: str) -> Response:
    response = RedirectResponse(target, status_code=303)
    cookie = auth.session_cookie(stored, services(request).generation())
    response.set_cookie(auth.COOKIE, cookie, max_age=auth.SESSION_SECONDS, httponly=True, samesite="lax")
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/organiser") -> Response:
    if not services(request).password_hash():
        return RedirectResponse("/setup", status_code=303)
    return render(request, "login.html", next=_safe_next(next))


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request) -> Response:
    svc = services(request)
    t = words(request)
    form = await request.form()
    target = _safe_next(str(form.get("next", "/organiser")))
    wait = svc.throttle.wait(request.client.host if request.client else "")
    if wait:
        response = render(request, "login.html", 429, next=target, error=t.gettext(
            "Too many login attempts from this device: try again in %(seconds)s seconds.",
            seconds=int(wait) + 1))
        response.headers["retry-after"] = str(int(wait) + 1)
        return response
    stored = svc.password_hash()
    ok = await run_in_threadpool(auth.verify_password, str(form.get("password", ""))[:1024], stored)
    if not ok or stored is None:
        return render(request, "login.html", 403, next=target, error=t.gettext("Wrong password."))
    return _logged_in(request, target, stored)


@router.post("/logout")
async def logout(request: Request) -> Response:
    """Ends every organiser session issued until now, on every device."""
    response = RedirectResponse("/", status_code=303)
    if is_organiser(request):
        if not csrf_ok(request, await request.form()):
            return refuse(request, 403, "forged", {})
        await run_in_threadpool(services(request).end_sessions)
    response.delete_cookie(auth.COOKIE)
    return response


@router.post("/organiser/password", response_class=HTMLResponse)
async def change_password(request: Request) -> Response:
    """A new password: every other session ends; this browser stays logged in."""
    form = await organiser_form(request, "/organiser")
    if isinstance(form, Response):
        return form
    svc = services(request)
    t = words(request)
    current, password, again = (str(form.get(k, ""))[:1024] for k in ("current", "password", "again"))
    if not await run_in_threadpool(auth.verify_password, current, svc.password_hash()):
        return _page(request, 403, password_error=t.gettext("Wrong password."))
    problem = _password_problem(password, again, t)
    if problem:
        return _page(request, 422, password_error=problem)
    stored = await run_in_threadpool(auth.hash_password, password)
    await run_in_threadpool(svc.set_password_hash, stored, replace=True)
    await run_in_threadpool(svc.end_sessions)
    return _logged_in(request, "/organiser?password=changed", stored)


# --- matches --------------------------------------------------------------------------


def _page(request: Request, status: int = 200, **extra: Any) -> Response:
    svc = services(request)
    t = words(request)
    rows = [{"view": match_view(s, t), "manage": True} for s in svc.book.snapshots()]
    return render(request, "organiser.html", status, rows=rows, disciplines=DISCIPLINES, tables=TABLES,
                  known_players=svc.book.store.players(), max_name=MAX_NAME,
                  password_done=request.query_params.get("password") == "changed", **extra)


@router.get("/organiser", response_class=HTMLResponse)
def organiser(request: Request) -> Response:
    if not is_organiser(request):
        return to_login(request, "/organiser")
    return _page(request)


@router.post("/organiser/matches", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    form = await organiser_form(request, "/organiser")
    if isinstance(form, Response):
        return form
    fields = {k: v for k, v in form.items() if isinstance(v, str) and k != auth.CSRF_FIELD}
    t = words(request)
    try:
        header = parse_header(dumps(header_from_form(fields)))
        check_names(header)
        await run_in_threadpool(services(request).book.create, header, auth.new_token())
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return _page(request, 422, error=say(error, t), form=fields)
    return RedirectResponse("/organiser", status_code=303)


@router.post("/organiser/import", response_class=HTMLResponse)
async def import_file(request: Request) -> Response:
    """A ``carom/1`` file becomes a match, if every record of it replays."""
    form = await organiser_form(request, "/organiser")
    if isinstance(form, Response):
        return form
    t = words(request)
    try:
        data, _ = await read_upload(form, MAX_IMPORT, N_("file: choose a carom/1 file to import"))
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise FormError(N_("file: not UTF-8 text")) from None
        match = read_match(lines_of(text))
        check_names(match.header)
        lines = tuple(dumps(record_json(record)) for _, record in match.records)
        await run_in_threadpool(services(request).book.create, match.header, auth.new_token(), lines)
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return _page(request, 422, import_error=say(error, t))
    return RedirectResponse("/organiser", status_code=303)


# --- one match: the tablet link, the result -------------------------------------------


@router.get("/organiser/matches/{match_id}", response_class=HTMLResponse)
def manage(request: Request, match_id: int) -> Response:
    if not is_organiser(request):
        return RedirectResponse(f"/login?next=/organiser/matches/{match_id}", status_code=303)
    return _manage_page(request, match_id)


def _manage_page(request: Request, match_id: int, status: int = 200, error: str | None = None) -> Response:
    svc = services(request)
    live = svc.book.live(match_id)
    t = words(request)
    snap = live.snapshot
    url, local_only = tablet_url(request, svc.tablet_host, match_id, live.token)
    qr = segno.make(url, error="m").svg_inline(
        scale=6, dark="#0d1722", light="#ffffff", border=3, title=t.gettext("Tablet link"),
        svgclass="qr-code", lineclass=None)
    history = [(t.when(e.at), _event_text(e.kind, e.actor, snap.header.players, t)) for e in snap.events]
    return render(request, "manage.html", status, view=match_view(snap, t), tablet_url=url, qr=qr,
                  tablet_path=f"/m/{match_id}/tablet?t={live.token}", local_only=local_only,
                  history=history, error=error)


def _event_text(kind: EventKind, actor: Actor, names: tuple[str, str], t: PageWords) -> str:
    who = t.gettext("the organiser") if actor is Actor.ORGANISER else names[actor is Actor.PLAYER1]
    text = {EventKind.CONFIRM: N_("Result confirmed by %(who)s"), EventKind.REOPEN: N_("Reopened by %(who)s"),
            EventKind.NEW_TABLET_LINK: N_("New tablet link issued by %(who)s")}[kind]
    return t.gettext(text, who=who)


async def _match_action(request: Request, match_id: int, action: str) -> Response:
    form = await organiser_form(request, "/organiser")
    if isinstance(form, Response):
        return form
    svc = services(request)
    if action == "tablet-link":
        await run_in_threadpool(svc.book.new_token, match_id, auth.new_token())
    elif action == "confirm":
        try:
            await run_in_threadpool(svc.book.confirm, match_id, Actor.ORGANISER)
        except NotFinished:
            refusal = words(request).gettext("The match is not over yet.")
            return _manage_page(request, match_id, 409, error=refusal)
    else:
        await run_in_threadpool(svc.book.reopen, match_id)
    snap = svc.book.snapshot(match_id)
    svc.hub.publish(match_id, snap.version)
    if action == "confirm":
        await game_over(request, match_id, snap.state.finished)
    return RedirectResponse(f"/organiser/matches/{match_id}", status_code=303)


@router.post("/organiser/matches/{match_id}/tablet-link")
async def new_tablet_link(request: Request, match_id: int) -> Response:
    """A new tablet link for the match; the old one stops working at once."""
    return await _match_action(request, match_id, "tablet-link")


@router.post("/organiser/matches/{match_id}/confirm")
async def confirm(request: Request, match_id: int) -> Response:
    return await _match_action(request, match_id, "confirm")


@router.post("/organiser/matches/{match_id}/reopen")
async def reopen(request: Request, match_id: int) -> Response:
    """Reopen a confirmed match: recorded in its history, with the time."""
    return await _match_action(request, match_id, "reopen")
