"""Who may change things: the organiser password (set once, at first start, then changed
here), logging in and out.

Every form carries the session's anti-forgery token (:mod:`carom.web.shared.auth`); a form
without it is refused with 403 and changes nothing.
"""

from __future__ import annotations

import hmac

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from carom.web.matches.organiser import organiser_page
from carom.web.shared import auth
from carom.web.shared.deps import csrf_ok, is_organiser, organiser_form, refuse, render, services, words
from carom.web.shared.i18n import PageWords

router = APIRouter(include_in_schema=False)
MIN_PASSWORD = 8


def _safe_next(target: str) -> str:
    ok = target.startswith("/") and not target.startswith("//") and "\\" not in target
    return target if ok else "/organiser"


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
        return organiser_page(request, 403, password_error=t.gettext("Wrong password."))
    problem = _password_problem(password, again, t)
    if problem:
        return organiser_page(request, 422, password_error=problem)
    stored = await run_in_threadpool(auth.hash_password, password)
    await run_in_threadpool(svc.set_password_hash, stored, replace=True)
    await run_in_threadpool(svc.end_sessions)
    return _logged_in(request, "/organiser?password=changed", stored)
