"""A referee's matches: the matches given to the logged-in account (by an organiser or a
tournament director, on each match's page), each with its tablet, and the result to
confirm once it is over. Every entry and confirmation names the account."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from carom.storage.events import Actor, NotFinished
from carom.storage.roles import Permission
from carom.web.shared.deps import account_form, allowed, checked_account, error_page, render, services, words
from carom.web.shared.views import match_view
from carom.web.tournaments.api import game_over

router = APIRouter(include_in_schema=False)


@router.get("/referee", response_class=HTMLResponse)
async def my_matches(request: Request) -> Response:
    refused = allowed(request, "/referee", Permission.REFEREE)
    if refused is not None:
        return refused
    account = checked_account(request)
    t = words(request)
    snaps = await run_in_threadpool(services(request).book.snapshots)
    rows = [{"view": match_view(s, t), "referee": True} for s in snaps
            if s.referee is not None and s.referee.id == account.id]
    return render(request, "referee.html", rows=rows)


@router.post("/referee/matches/{match_id}/confirm")
async def confirm(request: Request, match_id: int) -> Response:
    """The referee confirms the result of a finished match given to it."""
    checked = await account_form(request, "/referee", Permission.REFEREE)
    if isinstance(checked, Response):
        return checked
    account = checked[1]
    svc = services(request)
    t = words(request)
    live = await run_in_threadpool(svc.book.live, match_id)
    if not account.may_referee(None if live.referee is None else live.referee.id):
        return error_page(request, 403, t.gettext("Match %(number)s is not given to your account.",
                                                  number=match_id))
    try:
        snap = await run_in_threadpool(svc.book.confirm, match_id, Actor.ACCOUNT, account)
    except NotFinished:
        return error_page(request, 409, t.gettext("The match is not over yet."))
    svc.hub.publish(match_id, snap.version)
    await game_over(request, match_id, snap.state.finished)
    return RedirectResponse("/referee", status_code=303)
