"""What every route needs: the match book, the hub, the templates, the language, the
session's account and what its role allows (:mod:`carom.storage.roles`), its anti-forgery
token, and refusals turned into answers."""

from __future__ import annotations

import time
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
from carom.storage.accounts import Accounts, Session
from carom.storage.book import MatchBook
from carom.storage.roles import Account, Permission, Role
from carom.storage.store import SqlStore
from carom.web.shared import auth, i18n
from carom.web.shared.hub import Hub
from carom.web.shared.i18n import PageWords
from carom.web.shared.limits import Limits
from carom.web.shared.pool import Pool
from carom.web.shared.tally import Tally

WEB = Path(__file__).parent.parent
AREAS = ("shared", "accounts", "matches", "players", "tournaments", "hall", "training", "review", "leagues",
         "tables")
"""The web's areas (:mod:`carom.web`): each a subpackage with its routes and, where it
has them, its ``templates/`` and ``static/`` folders. Template names are unique across
areas; ``/static/x`` serves ``x`` from whichever area has it."""
STATIC_AREAS = tuple(area for area in AREAS if (WEB / area / "static").is_dir())
_env = Environment(loader=FileSystemLoader([str(WEB / area / "templates") for area in AREAS
                                            if (WEB / area / "templates").is_dir()]),
                   autoescape=select_autoescape(), auto_reload=False)  # no stat() per render
i18n.install(_env)
templates = Jinja2Templates(env=_env)


@dataclass
class Services:
    """What the application holds: set on ``app.state.services`` at creation."""

    book: MatchBook
    hub: Hub
    setup_code: str | None
    """The code that lets the first visitor make the first organiser's account."""
    tablet_host: str | None = None
    """The address tablets reach this server at, when the browser's is this machine's
    own (``localhost``): the tablet link and its QR code use it."""
    limits: Limits = field(default_factory=Limits)
    tally: Tally = field(default_factory=Tally)
    """Counts that hold across the server's processes (:mod:`carom.web.shared.tally`)."""
    pool: Pool | None = None
    """The simulation pool (:mod:`carom.web.shared.pool`), made by the application."""
    data: Path | None = None
    """The data folder (``carom serve --data``): where reviews keep their videos."""
    accounts: Accounts = field(init=False)

    def jobs(self) -> Pool:
        assert self.pool is not None
        return self.pool

    def __post_init__(self) -> None:
        assert isinstance(self.book.store, SqlStore)
        self.accounts = Accounts(self.book.store)


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


def session_of(request: Request) -> Session | None:
    """The session this request's cookie proves (looked up in the database once per
    request, so that a logout or a removal in another process holds at once)."""
    if getattr(request.state, "session", _UNKNOWN) is _UNKNOWN:
        cookie = request.cookies.get(auth.COOKIE)
        accounts = services(request).accounts
        request.state.session = accounts.session(auth.session_key(str(cookie)), time.time()) \
            if auth.readable_cookie(cookie) else None
    found: Session | None = request.state.session
    return found


_UNKNOWN = object()


def account_of(request: Request) -> Account | None:
    """The account logged in on this request, if any."""
    session = session_of(request)
    return None if session is None else session.account


def checked_account(request: Request) -> Account:
    """The account of a request that passed its permission check."""
    account = account_of(request)
    assert account is not None, "a route used checked_account before checking the account"
    return account


def may(request: Request, permission: Permission = Permission.RUN) -> bool:
    account = account_of(request)
    return account is not None and account.may(permission)


def organiser_session(request: Request) -> Session | None:
    """The session, when its account runs the day (an organiser or a tournament
    director: :attr:`Permission.RUN`)."""
    session = session_of(request)
    return session if session is not None and session.account.may(Permission.RUN) else None


def is_organiser(request: Request) -> bool:
    """Whether the request comes from an account that runs the day (an organiser or a
    tournament director): what the organiser's pages and forms need."""
    return may(request, Permission.RUN)


def csrf_ok(request: Request, form: Any = None) -> bool:
    """The request carries its session's anti-forgery token (header or form field)."""
    session = session_of(request)
    if session is None:
        return False
    given = request.headers.get(auth.CSRF_HEADER)
    if given is None and form is not None:
        value = form.get(auth.CSRF_FIELD)
        given = value if isinstance(value, str) else None
    return auth.same_token(given, session.csrf)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    t = words(request)
    session = session_of(request)
    account = None if session is None else session.account
    context.setdefault("organiser", account is not None and account.may(Permission.RUN))
    return templates.TemplateResponse(
        request, name, {"t": t, "lang": t.lang, "languages": LANGUAGES, "path": request.url.path,
                        "here": _here(request), "csrf": session.csrf if session else "",
                        "account": account, "role_names": ROLE_NAMES,
                        "manages_accounts": account is not None and account.may(Permission.ACCOUNTS),
                        **context},
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
    "role": N_("Refused: the account %(name)s (%(role)s) may not do this; ask an organiser. "
            "Nothing was changed."),
    "bodies": N_("Refused: the scoreboard is receiving too many requests at once (%(mib)s MiB of "
              "them); nothing was changed. Try again in a few seconds."),
}
ROLE_NAMES = {Role.ORGANISER: N_("organiser"), Role.DIRECTOR: N_("tournament director"),
              Role.REFEREE: N_("referee")}


def problem(status: int, detail: str, **extra: Any) -> JSONResponse:
    """A refusal of the JSON API: its status and ``{"detail": …}``."""
    return JSONResponse({"detail": detail, **extra}, status_code=status)


def api_organiser(request: Request, permission: Permission = Permission.RUN) -> Response | None:
    """``None`` when a JSON request carries a session whose account holds ``permission``
    (by default: runs the day) and its anti-forgery token, else the refusal (401 or 403)."""
    session = session_of(request)
    if session is None:
        return problem(401, "login needed (POST /login with name and password)")
    if not session.account.may(permission):
        return problem(403, f"the account {session.account.name} ({session.account.role}) may not do this")
    if not csrf_ok(request):
        return problem(403, f"the {auth.CSRF_HEADER} header must carry the session's anti-forgery "
                            "token (GET /api/session)")
    return None


def to_login(request: Request, back: str) -> Response:
    """Where a visitor who is not logged in is sent: the login, coming back to ``back``
    afterwards, or the first start's setup while there is no account."""
    target = f"/login?next={back}" if services(request).accounts.exist() else "/setup"
    return RedirectResponse(target, status_code=303)


def allowed(request: Request, back: str, permission: Permission = Permission.RUN) -> Response | None:
    """``None`` when the request's account holds ``permission``; else the way to the login
    (no session) or a 403 page naming the account and its role."""
    account = account_of(request)
    if account is None:
        return to_login(request, back)
    if not account.may(permission):
        return refuse(request, 403, "role", {"name": account.name,
                                             "role": words(request).gettext(ROLE_NAMES[account.role])})
    return None


async def organiser_form(request: Request, back: str,
                         permission: Permission = Permission.RUN) -> FormData | Response:
    """The form of a request that needs ``permission`` (by default: runs the day): after
    the login (else :func:`to_login`), from an account that holds it (else 403), and with
    its session's anti-forgery token (else 403); otherwise the answer that refuses it."""
    refused = allowed(request, back, permission)
    if refused is not None:
        return refused
    form = await request.form()
    if not csrf_ok(request, form):
        return refuse(request, 403, "forged", {})
    return form


async def account_form(request: Request, back: str, permission: Permission = Permission.RUN
                       ) -> tuple[FormData, Account] | Response:
    """:func:`organiser_form`, with the account that sent it."""
    form = await organiser_form(request, back, permission)
    return form if isinstance(form, Response) else (form, checked_account(request))


def refuse(request: Request, status: int, why: str, values: dict[str, Any]) -> Response:
    """A refusal of :mod:`carom.web.shared.guard` or of a form without its token, in the page's
    language."""
    return answer(request, status, words(request).gettext(REFUSALS[why], **values))
