"""What every route needs: the match book, the hub, the templates, the language,
whether the organiser is logged in, and the errors turned into answers."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from carom.storage.book import MatchBook
from carom.web import auth, i18n
from carom.web.hub import Hub

HERE = Path(__file__).parent
templates = Jinja2Templates(directory=str(HERE / "templates"))


@dataclass
class Services:
    """What the application holds: set on ``app.state.services`` at creation."""

    book: MatchBook
    hub: Hub
    setup_code: str | None
    """The code that lets the first visitor set the organiser password."""
    _hash: str | None = None

    def password_hash(self) -> str | None:
        """The organiser's password hash (read once, then kept)."""
        if self._hash is None:
            self._hash = self.book.store.organiser_hash()
        return self._hash

    def set_password_hash(self, value: str, *, replace: bool = False) -> bool:
        done = self.book.store.set_organiser_hash(value, replace=replace)
        self._hash = None
        return done


def services(request: Request) -> Services:
    return request.app.state.services  # type: ignore[no-any-return]


def language(request: Request) -> str:
    return i18n.negotiate(request.cookies.get(i18n.COOKIE), request.headers.get("accept-language"))


def words(request: Request) -> i18n.Words:
    return i18n.Words(language(request))


def is_organiser(request: Request) -> bool:
    stored = services(request).password_hash()
    return auth.valid_session(request.cookies.get(auth.COOKIE), stored)


def render(request: Request, name: str, status: int = 200, **context: Any) -> HTMLResponse:
    t = words(request)
    context.setdefault("organiser", is_organiser(request))
    return templates.TemplateResponse(
        request, name, {"t": t, "lang": t.lang, "path": request.url.path, "here": _here(request),
                        **context},
        status_code=status,
    )


def _here(request: Request) -> str:
    """This page's address, query included, for the language switch to come back to. A
    panel fetched by htmx comes back to the page it sits in."""
    current = request.headers.get("hx-current-url")
    if current:
        url = request.url.__class__(current)
        return url.path + (f"?{url.query}" if url.query else "")
    return request.url.path + (f"?{request.url.query}" if request.url.query else "")


def error_page(request: Request, status: int, message: str) -> HTMLResponse:
    return render(request, "error.html", status=status, status_code=status, message=message)
