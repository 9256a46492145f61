"""What every route needs: the match book, the hub, the templates, the language,
the organiser's session and its anti-forgery token, and refusals turned into answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlencode

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.datastructures import FormData

from carom.notation.words import LANGUAGES, N_
from carom.storage.book import MatchBook
from carom.web.shared import auth, i18n
from carom.web.shared.hub import Hub
from carom.web.shared.i18n import PageWords
from carom.web.shared.limits import Limits
from carom.web.shared.pool import Pool
from carom.web.shared.tally import Tally

WEB = Path(__file__).parent.parent
AREAS = ("shared", "accounts", "matches", "players", "tournaments", "hall", "training", "review", "leagues")
"""The web's areas (:mod:`carom.web`): each a subpackage with its routes and, where it
has them, its ``templates/`` and ``static/`` folders. Template names are unique across
areas; ``/static/x`` serves ``x`` from whichever area has it."""
STATIC_AREAS = tuple(area for area in AREAS if (WEB / area / "static").is_dir())
_env = Environment(loader=FileSystemLoader([str(WEB / area / "templates") for area in AREAS
                                            if (WEB / area / "templates").is_dir()]),
                   autoescape=select_autoescape())
i18n.install(_env)
templates = Jinja2Templates(env=_env)


@dataclass
class Services:
    """What the application holds: set on ``app.state.services`` at creation."""

    book: MatchBook
    hub: Hub
    setup_code: str | None
    """The code that lets the first visitor set the organiser password."""
    tablet_host: str | None = None
    """The address tablets reach this server at, when the browser's is this machine's
    own (``localhost``): the tablet link and its QR code use it."""
    throttle: auth.LoginThrottle = field(default_factory=auth.LoginThrottle)
    limits: Limits = field(default_factory=Limits)
    tally: Tally = field(default_factory=Tally)
    """Counts that hold across the server's processes (:mod:`carom.web.shared.tally`)."""
    pool: Pool | None = None
    """The simulation pool (:mod:`carom.web.shared.pool`), made by the application."""

    def jobs(self) -> Pool:
        assert self.pool is not None
        return self.pool

    def password_hash(self) -> str | None:
        """The organiser's password hash, read from the database each time: a password
        changed through another server process holds here at once."""
        return self.book.store.organiser_hash()

    def set_password_hash(self, value: str, *, replace: bool = False) -> bool:
        return self.book.store.set_organiser_hash(value, replace=replace)

    def generation(self) -> int:
        """The session generation: sessions of an earlier one are over (read from the
        database each time, so that a logout ends sessions in every process)."""
        return int(self.book.store.setting(auth.GENERATION_KEY) or 0)

    def end_sessions(self) -> int:
        """Start a new session generation: every session issued before is over."""
        return self.book.store.count_up(auth.GENERATION_KEY)


def services(request: Request) -> Services:
    return request.app.state.services  # type: ignore[no-any-return]


def client_of(request: Request) -> str:
    """The address the request came from (behind a reverse proxy configured with
    ``carom serve --proxy``, the address the proxy names): what per-client limits count."""
    return request.client.host if request.client else "unknown"


async def until_gone(request: Request) -> None:
    """Return when the client has gone away (its body read, nothing else is coming)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


def language(request: Request) -> str:
    """The page's language: the address's ``?lang=`` (a hall screen's, a kiosk's: for this
    page only, nothing is remembered), else the user's choice, else the browser's."""
    return i18n.negotiate(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"),
                          request.query_params.get("lang"))


def words(request: Request) -> PageWords:
    return PageWords(language(request))


def organiser_session(request: Request) -> auth.Session | None:
    """The organiser's session this request proves (its cookie), looked up once."""
    if getattr(request.state, "organiser", _UNKNOWN) is _UNKNOWN:
        cookie = request.cookies.get(auth.COOKIE)
        svc = services(request)
        request.state.organiser = None if not cookie else auth.session(
            cookie, svc.password_hash(), svc.generation())
    found: auth.Session | None = request.state.organiser
    return found


_UNKNOWN = object()


def is_organiser(request: Request) -> bool:
    return organiser_session(request) is not None


def csrf_ok(request: Request, form: Any = None) -> bool:
    """The request carries its session's anti-forgery token (header or form field)."""
    session = organiser_session(request)
    if session is None:
        return False
    given = request.headers.get(auth.CSRF_HEADER)
    if given is None and form is not None:
        value = form.get(auth.CSRF_FIELD)
        given = value if isinstance(value, str) else None
    return auth.same_token(given, session.csrf)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    t = words(request)
    session = organiser_session(request)
    context.setdefault("organiser", session is not None)
    return templates.TemplateResponse(
        request, name, {"t": t, "lang": t.lang, "languages": LANGUAGES, "path": request.url.path,
                        "here": _here(request), "csrf": session.csrf if session else "", **context},
        status_code=status,
    )


def _here(request: Request) -> str:
    """This page's address, query included but for its ``lang`` (the switch chooses the
    language), for the language switch to come back to. A panel fetched by htmx comes back
    to the page it sits in."""
    current = request.headers.get("hx-current-url")
    url = request.url.__class__(current) if current else request.url
    query = urlencode([(k, v) for k, v in parse_qsl(url.query, keep_blank_values=True) if k != "lang"])
    return url.path + (f"?{query}" if query else "")


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return render(request, "error.html", status=status, status_code=status, message=message)


def answer(request: Request, status: int, message: str) -> Response:
    """A refusal: JSON under ``/api/``, a page elsewhere."""
    if request.url.path.startswith("/api/"):
        return JSONResponse({"detail": message}, status_code=status)
    return error_page(request, status, message)


REFUSALS = {
    "origin": N_("Refused: this request came from another site (%(origin)s). The scoreboard takes "
              "changes only from its own pages (%(own)s); nothing was changed."),
    "too_large": N_("Refused: the request is larger than the %(limit)s bytes this address takes; "
                 "nothing was read or changed."),
    "slow": N_("Refused: the request's body stopped arriving for %(seconds)s seconds; nothing was "
            "changed."),
    "forged": N_("Refused: this form is out of date or did not come from the organiser's page "
              "(the anti-forgery token is missing or wrong). Reload the page and try again; "
              "nothing was changed."),
}


def problem(status: int, detail: str, **extra: Any) -> JSONResponse:
    """A refusal of the JSON API: its status and ``{"detail": …}``."""
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def api_organiser(request: Request) -> Response | None:
    """``None`` when a JSON request carries the organiser's session and its anti-forgery
    token, else the refusal (401 or 403)."""
    if organiser_session(request) is None:
        return problem(401, "organiser login needed (POST /login)")
    if not csrf_ok(request):
        return problem(403, f"the {auth.CSRF_HEADER} header must carry the session's anti-forgery "
                            "token (GET /api/session)")
    return None


def to_login(request: Request, back: str) -> Response:
    """Where a visitor who is not the organiser is sent: the login, coming back to
    ``back`` afterwards, or the first start's setup while no password is set."""
    target = f"/login?next={back}" if services(request).password_hash() else "/setup"
    return RedirectResponse(target, status_code=303)


async def organiser_form(request: Request, back: str) -> FormData | Response:
    """The form of an organiser's request: after the login (else :func:`to_login`), and
    with its session's anti-forgery token (else 403); otherwise the answer that refuses it."""
    if not is_organiser(request):
        return to_login(request, back)
    form = await request.form()
    if not csrf_ok(request, form):
        return refuse(request, 403, "forged", {})
    return form


def refuse(request: Request, status: int, why: str, values: dict[str, Any]) -> Response:
    """A refusal of :mod:`carom.web.shared.guard` or of a form without its token, in the page's
    language."""
    return answer(request, status, words(request).gettext(REFUSALS[why], **values))
