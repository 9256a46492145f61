"""The organiser's pages: the password (set once, at first start), logging in,
creating and importing matches, the list with each match's tablet link."""

from __future__ import annotations

import hmac
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import UploadFile

from carom.core.errors import RecordError
from carom.core.table import TABLES
from carom.notation.matchfile import lines_of, read_match
from carom.notation.reader import parse_header
from carom.notation.writer import dumps, format_header, record_json
from carom.rules.disciplines import DISCIPLINES
from carom.web import auth
from carom.web.deps import is_organiser, render, services, words
from carom.web.forms import FormError, header_from_form
from carom.web.views import match_view

router = APIRouter(include_in_schema=False)
MAX_IMPORT = 16 * 1024 * 1024


def _safe_next(target: str) -> str:
    return target if target.startswith("/") and not target.startswith("//") else "/organiser"


@router.get("/setup", response_class=HTMLResponse)
def setup_form(request: Request) -> Response:
    if services(request).password_hash():
        return RedirectResponse("/login", status_code=303)
    return render(request, "setup.html")


@router.post("/setup", response_class=HTMLResponse)
async def setup(request: Request) -> Response:
    svc = services(request)
    t = words(request)
    form = await request.form()
    code, password, again = (str(form.get(k, "")) for k in ("code", "password", "again"))
    if svc.password_hash():
        return render(request, "setup.html", 409, error=t("already_set"))
    if not svc.setup_code or not hmac.compare_digest(code.strip().encode(), svc.setup_code.encode()):
        return render(request, "setup.html", 403, error=t("wrong_code"))
    if len(password) < 8:
        return render(request, "setup.html", 422, error=t("password_short"))
    if password != again:
        return render(request, "setup.html", 422, error=t("passwords_differ"))
    stored = await run_in_threadpool(auth.hash_password, password)
    if not await run_in_threadpool(svc.set_password_hash, stored):
        return render(request, "setup.html", 409, error=t("already_set"))
    return _logged_in("/organiser", svc.password_hash() or stored)


def _logged_in(target: str, stored: str) -> Response:
    response = RedirectResponse(target, status_code=303)
    response.set_cookie(auth.COOKIE, auth.session_cookie(stored), max_age=auth.SESSION_SECONDS,
                        httponly=True, samesite="lax")
    return response


@router.get("/login", response_class=HTMLResponse)
def login_form(request: Request, next: str = "/organiser") -> Response:
    if not services(request).password_hash():
        return RedirectResponse("/setup", status_code=303)
    return render(request, "login.html", next=_safe_next(next))


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request) -> Response:
    svc = services(request)
    form = await request.form()
    target = _safe_next(str(form.get("next", "/organiser")))
    stored = svc.password_hash()
    ok = await run_in_threadpool(auth.verify_password, str(form.get("password", "")), stored)
    if not ok or stored is None:
        return render(request, "login.html", 403, next=target, error=words(request)("wrong_password"))
    return _logged_in(target, stored)


@router.post("/logout")
def logout() -> Response:
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(auth.COOKIE)
    return response


def _page(request: Request, status: int = 200, **extra: Any) -> Response:
    svc = services(request)
    t = words(request)
    rows = [{"view": match_view(s, t), "snap": s, "token": svc.book.live(s.match_id).token}
            for s in svc.book.snapshots()]
    return render(request, "organiser.html", status, rows=rows, disciplines=DISCIPLINES,
                  tables=TABLES, **extra)


def _guard(request: Request) -> Response | None:
    if is_organiser(request):
        return None
    target = "/login?next=/organiser" if services(request).password_hash() else "/setup"
    return RedirectResponse(target, status_code=303)


@router.get("/organiser", response_class=HTMLResponse)
def organiser(request: Request) -> Response:
    return _guard(request) or _page(request)


@router.post("/organiser/matches", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    if (refused := _guard(request)) is not None:
        return refused
    form = dict(await request.form())
    try:
        header = parse_header(dumps(header_from_form(form)))
    except (RecordError, FormError) as error:
        return _page(request, 422, error=str(error), form=form)
    await run_in_threadpool(services(request).book.create, header, auth.new_token())
    return RedirectResponse("/organiser", status_code=303)


@router.post("/organiser/import", response_class=HTMLResponse)
async def import_file(request: Request) -> Response:
    """A ``carom/1`` file becomes a match, if every record of it replays."""
    if (refused := _guard(request)) is not None:
        return refused
    form = await request.form()
    upload = form.get("file")
    data = await upload.read(MAX_IMPORT + 1) if isinstance(upload, UploadFile) else b""
    try:
        if not data:
            raise RecordError("file: choose a carom/1 file to import")
        if len(data) > MAX_IMPORT:
            raise RecordError(f"file: larger than {MAX_IMPORT // 2**20} MiB")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise RecordError("file: not UTF-8 text") from None
        match = read_match(lines_of(text))
    except RecordError as error:
        return _page(request, 422, import_error=str(error))
    lines = tuple(dumps(record_json(record)) for _, record in match.records)
    header = format_header(match.header)
    await run_in_threadpool(services(request).book.create, header, auth.new_token(), lines)
    return RedirectResponse("/organiser", status_code=303)



