"""The referee's tablet: one page, one panel that every button replaces.

The link carries the match's referee token (``?t=``); the page sends it back as
the ``X-Referee-Token`` header on every request, and every write names the record
it follows (``after``). An account that may referee the match (the referee it is given
to, an organiser, a tournament director) opens the tablet page without the link (the page
then carries the token like the link's); whatever
is entered on a tablet with an account logged in names that account. A stale write
gets 409 and the match as it is now. At the end both players confirm the result here
(or an account does): from then on the tablet takes nothing more, not even an undo.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from starlette.datastructures import FormData

from carom.core.errors import RecordError
from carom.core.inputs import MAX_DIGITS, is_digits
from carom.storage.book import BrokenMatch, LiveMatch, Snapshot, WrongToken
from carom.storage.errors import StaleSequence
from carom.storage.events import Actor, Confirmed, NotFinished, NotInDoubt
from carom.web.shared.auth import TOKEN_HEADER
from carom.web.shared.deps import account_of, error_page, render, services, words
from carom.web.shared.forms import FormError, record_from_form, say
from carom.web.shared.views import match_view
from carom.web.tables.devices import check_referee, referee_token
from carom.web.tournaments.api import game_over

router = APIRouter(include_in_schema=False)


def _panel(request: Request, snap: Snapshot, token: str, status: int = 200, **extra: Any) -> Response:
    view = match_view(snap, words(request), tablet=True)
    return render(request, "_panel.html", status=status, view=view, token=token, **extra)


def _refused_token(request: Request) -> Response:
    return error_page(request, 403, words(request).gettext(
        "This page needs the match's referee token: open the tablet link the organiser gave you "
        "(a link replaced by a new one no longer works)."))


def tablet_token(request: Request, live: LiveMatch, given: str) -> str | None:
    """The match's referee token when ``given`` is it, or when the request's account may
    referee the match; else ``None``."""
    try:
        live.check_token(given)
        return given
    except WrongToken:
        account = account_of(request)
        may = account is not None and account.may_referee(None if live.referee is None else live.referee.id)
        return live.token if may else None


@router.get("/m/{match_id}/tablet", response_class=HTMLResponse)
def tablet(request: Request, match_id: int, t: str = "") -> Response:
    live = services(request).book.live(match_id)
    token = tablet_token(request, live, t)
    if token is None:
        try:
            check_referee(request, live, t)
        except WrongToken:
            return _refused_token(request)
        token = t
        return _refused_token(request)
    view = match_view(live.snapshot, words(request), tablet=True)
    return render(request, "tablet.html", view=view, token=token)


@router.get("/m/{match_id}/tablet/panel", response_class=HTMLResponse)
def panel(request: Request, match_id: int) -> Response:
    live = services(request).book.live(match_id)
    token = request.headers.get(TOKEN_HEADER, "")
    try:
        check_referee(request, live, token)
    except WrongToken:
        return _refused_token(request)
    return _panel(request, live.snapshot, token)


async def _checked_form(request: Request, match_id: int) -> tuple[LiveMatch, str, FormData] | Response:
    """The match, the token to write with and the form, the referee checked before the
    body is read (the match's token, or a tablet paired with the table it is on now). (The
    page sends the token it was given, also to an account: a header another site's page
    cannot send.)"""
    live = await run_in_threadpool(services(request).book.live, match_id)
    try:
        token = await referee_token(request, live, request.headers.get(TOKEN_HEADER, ""))
    except WrongToken:
        return _refused_token(request)
    return live, token, await request.form()


def _whole(form: FormData, name: str) -> int | None:
    """The form's field ``name`` as a whole number in ASCII digits (:func:`is_digits`: not
    "٣", "+3" or " 3"), or ``None`` when it is missing or not one."""
    text = str(form.get(name, ""))
    return int(text) if is_digits(text) and len(text) <= MAX_DIGITS else None


@router.post("/m/{match_id}/tablet", response_class=HTMLResponse)
async def enter(request: Request, match_id: int) -> Response:
    """A button or form of the tablet: the record it stands for, judged and stored."""
    checked = await _checked_form(request, match_id)
    if isinstance(checked, Response):
        return checked
    live, token, form = checked
    svc, t = services(request), words(request)
    after = _whole(form, "after")
    if after is None:
        return _panel(request, live.snapshot, token, 422, error=t.gettext(
            "after: the record number this entry follows is missing or not a whole number"))
    try:
        record = record_from_form(dict(form), live.header.players)
        done = await svc.book.append_async(match_id, after, record, token, strict=True,
                                           by=account_of(request))
    except StaleSequence as stale:
        fresh = await run_in_threadpool(svc.book.snapshot, match_id)
        return _panel(request, fresh, token, 409, error=t.gettext(
            "Another tablet entered a record first (the match is now at record %(number)s). This is "
            "the match as it is: enter the stroke again if it still applies.", number=stale.current))
    except Confirmed:
        return _panel(request, live.snapshot, token, 409, error=t.gettext(
            "The result is confirmed: nothing more can be entered. Only the organiser can reopen the match."))
    except (RecordError, FormError, BrokenMatch) as error:
        return _panel(request, live.snapshot, token, 422,
                      error=t.gettext("Refused: %(reason)s", reason=say(error, t)))
    svc.hub.publish(match_id, done.snapshot.version)
    await game_over(request, match_id, done.snapshot.state.finished)
    return _panel(request, done.snapshot, token)


@router.post("/m/{match_id}/tablet/confirm", response_class=HTMLResponse)
async def confirm(request: Request, match_id: int) -> Response:
    """A player confirms the result on the tablet (``player``: 0 or 1)."""
    checked = await _checked_form(request, match_id)
    if isinstance(checked, Response):
        return checked
    live, token, form = checked
    svc, t = services(request), words(request)
    player = str(form.get("player", ""))
    if player not in ("0", "1"):
        return _panel(request, live.snapshot, token, 422, error=t.gettext("player: expected 0 or 1"))
    try:
        snap = await run_in_threadpool(svc.book.confirm, match_id, Actor.player(int(player)),
                                       account_of(request))
    except NotFinished:
        return _panel(request, live.snapshot, token, 409, error=t.gettext("The match is not over yet."))
    svc.hub.publish(match_id, snap.version)
    await game_over(request, match_id, snap.state.finished)
    return _panel(request, snap, token)


@router.post("/m/{match_id}/tablet/uphold", response_class=HTMLResponse)
async def uphold(request: Request, match_id: int) -> Response:
    """The referee upholds the latest stroke, which its source (a camera) doubted
    (``line``: the stroke's line): kept as a match event, the record unchanged. Overruling
    it is an undo and the right call."""
    checked = await _checked_form(request, match_id)
    if isinstance(checked, Response):
        return checked
    live, token, form = checked
    svc, t = services(request), words(request)
    line = _whole(form, "line")
    if line is None:
        return _panel(request, live.snapshot, token, 422, error=t.gettext(
            "line: the stroke's line is missing or not a whole number"))
    try:
        snap = await run_in_threadpool(svc.book.uphold, match_id, line, Actor.REFEREE, account_of(request))
    except NotInDoubt:
        fresh = await run_in_threadpool(svc.book.snapshot, match_id)
        return _panel(request, fresh, token, 409, error=t.gettext(
            "That stroke is no longer the last one in doubt (upheld already, undone, or followed by "
            "another). This is the match as it is."))
    except Confirmed:
        return _panel(request, live.snapshot, token, 409, error=t.gettext(
            "The result is confirmed: nothing more can be entered. Only the organiser can reopen the match."))
    svc.hub.publish(match_id, snap.version)
    return _panel(request, snap, token)


@router.post("/m/{match_id}/tablet/clock", response_class=HTMLResponse)
async def pause_clock(request: Request, match_id: int) -> Response:
    """The referee pauses (``paused=1``) or resumes (``paused=0``) the shot clock: kept as a
    match event, so every tablet and board of the match stops and goes on with it."""
    checked = await _checked_form(request, match_id)
    if isinstance(checked, Response):
        return checked
    live, token, form = checked
    svc, t = services(request), words(request)
    paused = str(form.get("paused", ""))
    if paused not in ("0", "1"):
        return _panel(request, live.snapshot, token, 422, error=t.gettext("paused: expected 0 or 1"))
    snap = await run_in_threadpool(svc.book.pause_clock, match_id, paused == "1", Actor.REFEREE,
                                   account_of(request))
    svc.hub.publish(match_id, snap.version)
    return _panel(request, snap, token)
