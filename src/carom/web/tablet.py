"""The referee's tablet: one page, one panel that every button replaces.

The link carries the match's referee token (``?t=``); the page sends it back as
the ``X-Referee-Token`` header on every request, and every write names the record
it follows (``after``). A stale write gets 409 and the match as it is now.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response

from carom.core.errors import RecordError
from carom.storage.book import BrokenMatch, Snapshot, WrongToken
from carom.storage.errors import StaleSequence
from carom.web.auth import TOKEN_HEADER
from carom.web.deps import error_page, render, services, words
from carom.web.forms import FormError, record_from_form
from carom.web.views import match_view

router = APIRouter(include_in_schema=False)


def _panel(request: Request, snap: Snapshot, token: str, status: int = 200, **extra: Any) -> Response:
    view = match_view(snap, words(request), tablet=True)
    return render(request, "_panel.html", status=status, view=view, token=token, **extra)


@router.get("/m/{match_id}/tablet", response_class=HTMLResponse)
def tablet(request: Request, match_id: int, t: str = "") -> Response:
    live = services(request).book.live(match_id)
    try:
        live.check_token(t)
    except WrongToken:
        return error_page(request, 403, words(request)("token_needed"))
    view = match_view(live.snapshot, words(request), tablet=True)
    return render(request, "tablet.html", view=view, token=t)


@router.get("/m/{match_id}/tablet/panel", response_class=HTMLResponse)
def panel(request: Request, match_id: int) -> Response:
    live = services(request).book.live(match_id)
    token = request.headers.get(TOKEN_HEADER, "")
    try:
        live.check_token(token)
    except WrongToken:
        return error_page(request, 403, words(request)("token_needed"))
    return _panel(request, live.snapshot, token)


@router.post("/m/{match_id}/tablet", response_class=HTMLResponse)
async def enter(request: Request, match_id: int) -> Response:
    """A button or form of the tablet: the record it stands for, judged and stored."""
    svc = services(request)
    token = request.headers.get(TOKEN_HEADER, "")
    t = words(request)
    form = await request.form()
    live = await run_in_threadpool(svc.book.live, match_id)
    try:
        live.check_token(token)
    except WrongToken:
        return error_page(request, 403, t("token_needed"))
    try:
        after = int(str(form.get("after", "")))
    except ValueError:
        return _panel(request, live.snapshot, token, 422, error="after: the record number this "
                      "entry follows is missing or not a whole number")
    try:
        record = record_from_form(dict(form), live.header.players)
        done = await svc.book.append_async(match_id, after, record, token)
    except StaleSequence as stale:
        fresh = await run_in_threadpool(svc.book.snapshot, match_id)
        return _panel(request, fresh, token, 409, error=t("stale", seq=stale.current))
    except (RecordError, FormError, BrokenMatch) as error:
        return _panel(request, live.snapshot, token, 422, error=f"{t('refused')}: {error}")
    svc.hub.publish(match_id, done.seq)
    return _panel(request, done.snapshot, token)
