"""The application: routes, static files, the guard in front, and errors turned into
clear 4xx answers (never a 500 for what a client sent)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.notation.svg import svg_table
from carom.storage.book import MatchBook
from carom.storage.errors import UnknownMatch
from carom.web.accounts import api as accounts_api
from carom.web.accounts import pages as accounts
from carom.web.connections import descriptors
from carom.web.hall import pages as hall
from carom.web.leagues import api as leagues_api
from carom.web.leagues import captain as league_captain
from carom.web.leagues import pages as leagues_pages
from carom.web.leagues import tables as league_tables
from carom.web.matches import api, organiser, referee, results, tablet
from carom.web.matches import pages as match_pages
from carom.web.matches.pages import BoardFragments
from carom.web.players import pages as players
from carom.web.players import profile as player_profile
from carom.web.review import fit_pages as review_fit
from carom.web.review import pages as review
from carom.web.review import video_pages as review_video
from carom.web.shared import pages as shared_pages
from carom.web.shared.deps import STATIC_AREAS, Services, answer, refuse, words
from carom.web.shared.guard import Guard, content_security_policy
from carom.web.shared.hub import Hub, follow_changes
from carom.web.shared.limits import Limits
from carom.web.shared.live import MATCH_PATH, LiveEvents, channel_refusal, match_feeds
from carom.web.shared.pool import Pool
from carom.web.shared.streams import StreamGate
from carom.web.shared.tally import Tally
from carom.web.tables import api as tables_api
from carom.web.tables import pages as tables_pages
from carom.web.tables import screens as table_screens
from carom.web.tables.feed import TABLE_PATH, table_feeds
from carom.web.tables.monitor import hall_tables
from carom.web.tournaments import api as tournaments_api
from carom.web.tournaments import desk_api, desk_pages
from carom.web.tournaments import pages as tournaments_pages
from carom.web.training import simulator
from carom.web.training import table as training


def create_app(book: MatchBook, *, setup_code: str | None = None, tablet_host: str | None = None,
               limits: Limits | None = None, tally: Tally | None = None, data: Path | None = None) -> FastAPI:
    """The scoreboard over ``book``. ``setup_code`` lets the first visitor of ``/setup``
    make the first organiser's account (``None``: it must be made another way); ``tablet_host``
    is the address tablets reach this server at (:mod:`carom.web.shared.addresses`);
    ``limits`` what it gives to whom (:mod:`carom.web.shared.limits`), counted in ``tally``
    (shared by the server's processes, :mod:`carom.web.shared.tally`); ``data`` the data folder
    (``None``: no video is taken on ``/review``)."""
    limits = limits or Limits()
    app = FastAPI(title="carom scoreboard", version="1", docs_url=None, redoc_url=None,
                  description="Matches as append-only carom/1 records; the state is their replay.")
    tally = tally or Tally()
    services = Services(book, Hub(), setup_code, tablet_host, limits=limits, tally=tally,
                        pool=Pool(limits, tally), data=data)
    app.state.services = services
    app.router.add_event_handler("shutdown", services.jobs().close)
    app.router.add_event_handler("startup", lambda: _follow(app, services))
    app.state.hall_tables = hall_tables(app)
    feeds = [(MATCH_PATH, match_feeds(book, services.hub, BoardFragments())),
             (hall.HALL_PATH, hall.hall_feeds(book, services.hub, app.state.hall_tables)),
             (TABLE_PATH, table_feeds(app))]
    gate = StreamGate(limits, tally, in_process=min(limits.connections, descriptors()) // 2)
    app.add_middleware(LiveEvents, feeds=feeds, gate=gate)
    app.state.channel_refusal = channel_refusal(feeds, gate)
    app.add_middleware(Guard, refuse=refuse, policy=content_security_policy(drawing_styles()), limits=limits)
    app.mount("/static", StaticFiles(packages=[(f"carom.web.{area}", "static") for area in STATIC_AREAS]),
              name="static")
    for module in (api, tablet, match_pages, organiser, referee, accounts, accounts_api, players,
                   player_profile, tournaments_api, tournaments_pages, hall, results, simulator, training,
                   review, review_fit, review_video, leagues_api, leagues_pages, league_captain,
                   league_tables, shared_pages,
                   tables_api, tables_pages, table_screens, desk_api, desk_pages):
        app.include_router(module.router)
    app.add_exception_handler(UnknownMatch, _unknown)
    app.add_exception_handler(RecordError, _unreadable)
    app.add_exception_handler(RequestValidationError, _invalid)
    app.add_exception_handler(HTTPException, _http)
    return app


def _follow(app: FastAPI, services: Services) -> None:
    """Follow the other processes' changes (PostgreSQL); stop at shutdown."""
    listener = follow_changes(services.book, services.hub)
    if listener is not None:
        app.router.add_event_handler("shutdown", listener.close)


def drawing_styles() -> tuple[str, ...]:
    """The ``<style>`` texts the table drawings carry (the tablet shows them inline):
    the Content-Security-Policy allows exactly these."""
    table = TABLES["large"]
    drawing = svg_table(table, starting_position(table, Ball.WHITE))
    return tuple(re.findall(r"<style>(.*?)</style>", drawing, re.DOTALL))


async def _unknown(request: Request, error: Exception) -> Response:
    assert isinstance(error, UnknownMatch)
    if request.url.path.startswith("/api/"):
        return answer(request, 404, str(error))
    message = words(request).gettext("There is no match %(number)s.", number=error.match_id)
    return answer(request, 404, message)


async def _unreadable(request: Request, error: Exception) -> Response:
    return answer(request, 409, words(request).gettext("The stored match no longer reads: %(reason)s",
                                                       reason=words(request).error(error)))


async def _invalid(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    parts = []
    for item in error.errors():
        if item.get("type") == "json_invalid":
            parts.append(f"body: not valid JSON ({item.get('ctx', {}).get('error', 'cannot parse')})")
            continue
        where = ".".join(str(x) for x in item.get("loc", ()) if x != "body") or "body"
        parts.append(f"{where}: {item.get('msg', 'invalid')}")
    return answer(request, 422, "; ".join(parts)[:2000] or "invalid request")


async def _http(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    message: Any = error.detail
    if error.status_code == 404 and not request.url.path.startswith("/api/"):
        message = words(request).gettext("Not found")
    response = answer(request, error.status_code, str(message))
    for key, value in (error.headers or {}).items():
        response.headers[key] = value
    return response
