"""The organiser's match pages: creating and importing matches, and each match's page:
its tablet link in full with a QR code, a new link that ends the old one, the referee's
account it is given to, confirming the result and reopening a confirmed match. They need
an account that runs the day (an organiser or a tournament director); every change names
that account. (Logging in and the accounts: :mod:`carom.web.accounts.pages`.)

Every form carries the session's anti-forgery token (:mod:`carom.web.shared.auth`); a form
without it is refused with 403 and changes nothing.
"""

from __future__ import annotations

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
from carom.storage.accounts import UnknownAccount
from carom.storage.events import Actor, EventKind, MatchEvent, NotFinished
from carom.storage.players import AmbiguousName, SamePlayer
from carom.storage.roles import Role
from carom.web.shared import auth
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import (
    allowed,
    checked_account,
    organiser_form,
    render,
    services,
    words,
)
from carom.web.shared.forms import (
    MAX_NAME,
    FormError,
    check_names,
    header_from_form,
    read_upload,
    say,
    whole_id,
)
from carom.web.shared.i18n import PageWords
from carom.web.shared.views import match_view
from carom.web.tournaments.api import game_over

router = APIRouter(include_in_schema=False)
MAX_IMPORT = 16 * 1024 * 1024


def organiser_page(request: Request, status: int = 200, **extra: Any) -> Response:
    svc = services(request)
    t = words(request)
    rows = [{"view": match_view(s, t), "manage": True} for s in svc.book.snapshots()]
    return render(request, "organiser.html", status, rows=rows, disciplines=DISCIPLINES, tables=TABLES,
                  known_players=svc.book.store.players(), max_name=MAX_NAME, **extra)



@router.get("/organiser", response_class=HTMLResponse)
def organiser(request: Request) -> Response:
    refused = allowed(request, "/organiser")
    return refused if refused is not None else organiser_page(request)


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
        await run_in_threadpool(lambda: services(request).book.create(header, auth.new_token(),
                                                                      by=checked_account(request)))
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return organiser_page(request, 422, error=say(error, t), form=fields)
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
        await run_in_threadpool(lambda: services(request).book.create(match.header, auth.new_token(), lines,
                                                                      by=checked_account(request)))
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return organiser_page(request, 422, import_error=say(error, t))
    return RedirectResponse("/organiser", status_code=303)


# --- one match: the tablet link, the result -------------------------------------------


@router.get("/organiser/matches/{match_id}", response_class=HTMLResponse)
def manage(request: Request, match_id: int) -> Response:
    refused = allowed(request, f"/organiser/matches/{match_id}")
    return refused if refused is not None else _manage_page(request, match_id)


def _manage_page(request: Request, match_id: int, status: int = 200, error: str | None = None) -> Response:
    svc = services(request)
    live = svc.book.live(match_id)
    t = words(request)
    snap = live.snapshot
    url, local_only = tablet_url(request, svc.tablet_host, match_id, live.token)
    qr = segno.make(url, error="m").svg_inline(
        scale=6, dark="#0d1722", light="#ffffff", border=3, title=t.gettext("Tablet link"),
        svgclass="qr-code", lineclass=None)
    history = [(t.when(e.at), event_text(e, snap.header.players, t)) for e in snap.events]
    referees = [a for a in svc.accounts.active() if a.role is Role.REFEREE]
    return render(request, "manage.html", status, view=match_view(snap, t), tablet_url=url, qr=qr,
                  tablet_path=f"/m/{match_id}/tablet?t={live.token}", local_only=local_only,
                  history=history, error=error, referees=referees, referee=snap.referee)


EVENTS = {EventKind.CONFIRM: N_("Result confirmed by %(who)s"), EventKind.REOPEN: N_("Reopened by %(who)s"),
          EventKind.NEW_TABLET_LINK: N_("New tablet link issued by %(who)s"),
          EventKind.CLOCK_PAUSE: N_("Shot clock paused by %(who)s"),
          EventKind.CLOCK_RESUME: N_("Shot clock resumed by %(who)s"),
          EventKind.UPHELD: N_("Stroke in doubt upheld by %(who)s")}


def event_text(event: MatchEvent, names: tuple[str, str], t: PageWords) -> str:
    """A line of a match's history: what happened, and who did it (a player, the tablet
    link's holder, an account, or a player or the referee on a tablet an account was
    logged in on)."""
    account = event.account.name if event.account is not None else t.gettext("an account since removed")
    if event.kind is EventKind.GIVEN:
        if not event.detail:
            return t.gettext("Taken from its referee by %(who)s", who=account)
        return t.gettext("Given to the referee %(referee)s by %(who)s", referee=event.detail, who=account)
    if event.actor is Actor.ACCOUNT:
        who = account
    else:
        player = names[event.actor is Actor.PLAYER1]
        who = t.gettext("the referee") if event.actor is Actor.REFEREE else player
        if event.account is not None:
            who = t.gettext("%(player)s (on %(account)s's tablet)", player=who, account=event.account.name)
    return t.gettext(EVENTS[event.kind], who=who)


async def _match_action(request: Request, match_id: int, action: str) -> Response:
    form = await organiser_form(request, "/organiser")
    if isinstance(form, Response):
        return form
    svc = services(request)
    me = checked_account(request)
    if action == "tablet-link":
        await run_in_threadpool(svc.book.new_token, match_id, auth.new_token(), me)
    elif action == "confirm":
        try:
            await run_in_threadpool(svc.book.confirm, match_id, Actor.ACCOUNT, me)
        except NotFinished:
            refusal = words(request).gettext("The match is not over yet.")
            return _manage_page(request, match_id, 409, error=refusal)
    elif action == "referee":
        try:
            chosen = str(form.get("referee", "") or "")
            referee = await run_in_threadpool(svc.accounts.referee, None if not chosen else whole_id(chosen))
        except UnknownAccount:
            refusal = words(request).gettext("referee: choose one of the referees' accounts")
            return _manage_page(request, match_id, 422, error=refusal)
        await run_in_threadpool(svc.book.give, match_id, referee, me)
    else:
        await run_in_threadpool(svc.book.reopen, match_id, me)
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
    """Reopen a confirmed match: recorded in its history, with the time and the account."""
    return await _match_action(request, match_id, "reopen")


@router.post("/organiser/matches/{match_id}/referee")
async def give(request: Request, match_id: int) -> Response:
    """Give the match to a referee's account (an empty choice: to nobody), in its history."""
    return await _match_action(request, match_id, "referee")
