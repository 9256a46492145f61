"""The application: routes, static files, and errors turned into clear 4xx answers."""

from __future__ import annotations

from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from carom.core.errors import RecordError
from carom.storage.book import MatchBook
from carom.storage.errors import UnknownMatch
from carom.web import api, organiser, pages, tablet
from carom.web.deps import HERE, Services, error_page, words
from carom.web.hub import Hub
from carom.web.live import LiveEvents
from carom.web.pages import BoardFragments


def create_app(book: MatchBook, *, setup_code: str | None = None) -> FastAPI:
    """The scoreboard over ``book``. ``setup_code`` lets the first visitor of ``/setup``
    set the organiser password (``None``: it must be set another way)."""
    app = FastAPI(title="carom scoreboard", version="1",
                  description="Matches as append-only carom/1 records; the state is their replay.")
    services = Services(book, Hub(), setup_code)
    app.state.services = services
    app.add_middleware(LiveEvents, book=book, hub=services.hub, board=BoardFragments())
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    for module in (api, tablet, pages, organiser):
        app.include_router(module.router)
    app.add_exception_handler(UnknownMatch, _unknown)
    app.add_exception_handler(RecordError, _unreadable)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    return app


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/")


def _answer(request: Request, status: int, message: str) -> Response:
    if _wants_json(request):
        return JSONResponse({"detail": message}, status_code=status)
    return error_page(request, status, message)


async def _unknown(request: Request, error: Exception) -> Response:
    return _answer(request, 404, str(error))


async def _unreadable(request: Request, error: Exception) -> Response:
    return _answer(request, 409, f"the stored match no longer reads: {error}")


async def _invalid(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    parts = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            parts.append(f"body: not valid JSON ({item.get('ctx', {}).get('error', 'cannot parse')})")
            continue
        where = ".".join(str(x) for x in item.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return _answer(request, 422, "; ".join(parts) or "invalid request")


async def _http(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message: Any = error.detail
    if error.status_code == 404 and not _wants_json(request):
        message = words(request)("not_found")
    response = _answer(request, error.status_code, str(message))
    for key, value in (error.headers or {}).items():
        response.headers[key] = value
    return response
