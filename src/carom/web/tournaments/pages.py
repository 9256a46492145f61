"""The tournaments' pages: the list with the organiser's form to create one, one page per
tournament (participants, groups, schedule with the tablet links for the organiser,
live standings, the bracket). The player register: :mod:`carom.web.players.pages`.

The live part of a tournament's page is a fragment the page fetches again every few
seconds (htmx); fetching it starts the next games on the tables that became free.
Every form carries the session's anti-forgery token; the JSON API does the same work
(:mod:`carom.web.tournaments.api`).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.datastructures import FormData

from carom.core.inputs import is_digits
from carom.core.table import TABLES
from carom.notation.collation import sort_key
from carom.notation.words import N_
from carom.rules.disciplines import DISCIPLINES
from carom.storage.errors import StorageError
from carom.storage.tournaments import (
    CLOCK_FIELDS,
    MODES,
    Settings,
    Stage,
    Tournament,
    TournamentError,
    TournamentGame,
    UnknownTournament,
    form_number,
)
from carom.web.shared.addresses import tablet_url
from carom.web.shared.deps import (
    checked_account,
    error_page,
    is_organiser,
    organiser_form,
    render,
    services,
    words,
)
from carom.web.shared.forms import FormError, check_name, say
from carom.web.shared.i18n import PageWords
from carom.web.tournaments.api import results_pdf_response, tournaments
from carom.web.tournaments.reports import game_score

router = APIRouter(include_in_schema=False)
MAX_REGISTER = 60 * 1024
"""A register file: the default body limit (64 KiB) less the form around it."""


# --- the list and the form ------------------------------------------------------------


def _list(request: Request, status: int = 200, **extra: Any) -> Response:
    rows = tournaments(request).list()
    return render(request, "tournaments.html", status, rows=rows, disciplines=DISCIPLINES, tables=TABLES,
                  modes=MODES, **extra)


@router.get("/tournaments", response_class=HTMLResponse)
async def list_page(request: Request) -> Response:
    return await run_in_threadpool(_list, request)


def _number(form: FormData, key: str, *, default: int | None = None) -> int | None:
    return form_number(str(form.get(key, "") or ""), key, default)


def settings_from_form(form: FormData) -> Settings:
    """The organiser's form as the settings the API takes (every field of it); a field
    that is not right raises :class:`TournamentError` naming it."""
    def text(key: str, default: str) -> str:
        return str(form.get(key, default) or default)[:256]

    clock: dict[str, int] | None = None
    if form.get("clock") == "on":
        clock = {}
        for key in CLOCK_FIELDS:
            value = form_number(str(form.get(f"clock_{key}", "") or ""), f"clock.{key}")
            if value is not None:
                clock[key] = value

    discipline = text("discipline", "three-cushion")
    spec = DISCIPLINES.get(discipline)
    table = text("table", "large")
    if spec is not None and table not in spec.tables:
        table = spec.tables[0]  # a discipline of one table: the form's choice does not apply
    return Settings(name=text("name", "").strip(), discipline=discipline, table=table,
                    points=_number(form, "points"), innings=_number(form, "innings"),
                    sets_to_win=_number(form, "sets"),
                    equalizing_inning=form.get("equalizing_inning") == "on", mode=text("mode", "round_robin"),
                    groups=_number(form, "groups", default=1) or 0,
                    tables=_number(form, "tables", default=1) or 0,
                    handicap=form.get("handicap") == "on", seeding=text("seeding", "average"),
                    knockout_size=_number(form, "knockout_size"), clock=clock,
                    tiebreak=text("tiebreak", "penalties"), third_place=form.get("third_place") == "on",
                    placements=form.get("placements") == "on",
                    withdrawn_games=text("withdrawn_games", "annul"),
                    stages=stages_from_text(str(form.get("stages", "") or "")[:200]))


def stages_from_text(text: str) -> tuple[Stage, ...]:
    """The form's stages, ``;`` between them: ``groups 2 2`` (two groups, two of each go on),
    ``groups 1``, ``knockout`` (:class:`FormError` naming the one not understood)."""
    out = []
    for part in (p for p in text.split(";") if p.strip()):
        words = part.split()
        numbers = words[1:]
        if words[0] not in ("groups", "knockout") or len(numbers) > 2 or not all(
                is_digits(n) and len(n) < 4 for n in numbers):
            raise FormError(N_("stages: expected “groups N M” or “knockout”, not “%(part)s”"),
                            part=part.strip()[:40])
        out.append(Stage(words[0], int(numbers[0]) if numbers else 1,
                         int(numbers[1]) if len(numbers) > 1 else None))
    return tuple(out)


@router.post("/tournaments", response_class=HTMLResponse)
async def create(request: Request) -> Response:
    form = await organiser_form(request, "/tournaments")
    if isinstance(form, Response):
        return form
    try:
        settings = settings_from_form(form)
        tid = await run_in_threadpool(tournaments(request).create, settings, checked_account(request).actor)
    except (TournamentError, FormError) as error:
        fields = {k: str(v)[:256] for k, v in form.items() if k != "csrf"}
        message = say(error, words(request))
        return await run_in_threadpool(lambda: _list(request, 422, error=message, form=fields))
    return RedirectResponse(f"/tournaments/{tid}", status_code=303)


# --- one tournament ---------------------------------------------------------------------


def _view(request: Request, t: Tournament, organiser: bool) -> dict[str, Any]:
    """What the page and its live part show."""
    names = t.names()
    group_names = dict(t.groups)
    svc = services(request)
    games = []
    for g in t.games:
        link = None
        if organiser and g.match_id is not None and g.token is not None:
            link, _ = tablet_url(request, svc.tablet_host, g.match_id, g.token)
        games.append({"game": g, "names": [names.get(p, "?") if p else "—" for p in g.players],
                      "group": group_names.get(g.group_no, ""), "link": link,
                      "score": _score(g, words(request)),
                      "winner": names.get(g.winner) if g.winner else None})
    bracket = None
    found = t.bracket()
    if found is not None:
        b, _seeds, resolved = found
        by_place = {(g.round, g.slot): g for g in t.games if g.stage == "ko"}
        bracket = [{"round": r, "name": b.round_name(r), "games": [
            {"bye": g.is_bye, "players": [names.get(p) if p else None for p in resolved[g.id][:2]],
             "winner": names.get(resolved[g.id][2]) if resolved[g.id][2] else None,
             "status": by_place[g.id].status if g.id in by_place else None,
             "match": by_place[g.id].match_id if g.id in by_place else None,
             "score": _score(by_place.get(g.id), words(request))} for g in games]}
            for r, games in enumerate(b.rounds, start=1)]
    return {"t": t, "names": names, "games": games, "standings": t.group_standings(),
            "group_names": group_names, "bracket": bracket, "ranking": t.ranking(),
            "champion": names.get(c) if (c := t.champion()) else None, "organiser_view": organiser}


def _score(game: TournamentGame | None, t: PageWords) -> str | None:
    """A game's score as the schedule and the bracket show it (:func:`game_score`)."""
    return None if game is None else game_score(game, t)


def _page(request: Request, tournament_id: int, status: int = 200, **extra: Any) -> Response:
    organiser = is_organiser(request)
    try:
        t = tournaments(request).read(tournament_id, tokens=organiser)
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))
    register_players = services(request).book.store.players() if organiser and t.state == "entry" else []
    entered = {p.player_id for p in t.participants}
    lang = words(request).lang
    picks = sorted((p for p in register_players if p.id not in entered), key=lambda p: sort_key(p.name, lang))
    response = render(request, "tournament.html", status, v=_view(request, t, organiser), register=picks,
                      **extra)
    if organiser:
        response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/tournaments/{tournament_id}", response_class=HTMLResponse)
async def page(request: Request, tournament_id: int) -> Response:
    return await run_in_threadpool(_page, request, tournament_id)


@router.get("/tournaments/{tournament_id}/live", response_class=HTMLResponse)
async def live(request: Request, tournament_id: int) -> Response:
    """The live part of the page: schedule, standings, bracket (fetched every few seconds)."""
    organiser = is_organiser(request)
    try:
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, tokens=organiser))
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))
    response = render(request, "_tournament_live.html", v=_view(request, t, organiser))
    if organiser:
        response.headers["Cache-Control"] = "no-store"
    return response


@router.get("/tournaments/{tournament_id}/results.pdf")
async def results_pdf(request: Request, tournament_id: int, lang: str | None = None) -> Response:
    """The results to print (:mod:`carom.web.tournaments.reports`), in the page's language."""
    try:
        return await results_pdf_response(request, tournament_id, lang)
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))


def typed_names(lines: list[str]) -> list[tuple[str, str]]:
    """Each line's name (checked: :func:`check_name`) and what follows it (``; club``)."""
    out = []
    for number, raw in enumerate(lines, start=1):
        name, _, rest = raw.partition(";")
        check_name(name.strip(), (N_("names: line %(line)s"), {"line": number}))
        out.append((name.strip(), rest))
    return out


@router.post("/tournaments/{tournament_id}/players", response_class=HTMLResponse)
async def add_players(request: Request, tournament_id: int) -> Response:
    """Names typed one a line (``name; club`` optionally), and players ticked in the register."""
    form = await organiser_form(request, f"/tournaments/{tournament_id}")
    if isinstance(form, Response):
        return form
    entries: list[dict[str, Any]] = []
    try:
        typed = typed_names(str(form.get("names", "") or "").splitlines()[:256])
    except FormError as error:
        message = say(error, words(request))
        return await run_in_threadpool(lambda: _page(request, tournament_id, 422, error=message))
    for name, rest in typed:
        club, _, target = rest.partition(";")
        if name:
            entry: dict[str, Any] = {"name": name}
            if club.strip():
                entry["club"] = club.strip()[:200]
            if target.strip():  # a handicap target by hand: the API's "target"
                entry["target"] = int(target) if is_digits(target.strip()) and len(target.strip()) < 7 \
                    else target.strip()[:20]
            entries.append(entry)
    for value in form.getlist("player")[:256]:
        if isinstance(value, str) and is_digits(value) and len(value) < 10:
            entries.append({"player": int(value)})
    try:
        t = await run_in_threadpool(lambda: tournaments(request).read(tournament_id, advance=False))
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))
    if t.settings.seeding == "hand":  # seeded by hand: in the order of entry (the API's "seed")
        for number, entry in enumerate(entries, start=len(t.participants) + 1):
            entry["seed"] = number
    if not entries:
        message = words(request).gettext("Type names (one a line) or tick players of the register.")
        return await run_in_threadpool(lambda: _page(request, tournament_id, 422, error=message))
    try:
        await run_in_threadpool(tournaments(request).add_players, tournament_id, entries,
                                checked_account(request).actor)
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))
    except StorageError as error:
        message = words(request).error(error)
        return await run_in_threadpool(lambda: _page(request, tournament_id, 422, error=message))
    return RedirectResponse(f"/tournaments/{tournament_id}", status_code=303)


@router.post("/tournaments/{tournament_id}/start", response_class=HTMLResponse)
async def start(request: Request, tournament_id: int) -> Response:
    form = await organiser_form(request, f"/tournaments/{tournament_id}")
    if isinstance(form, Response):
        return form
    try:
        await run_in_threadpool(tournaments(request).start, tournament_id, checked_account(request).actor)
    except UnknownTournament:
        return error_page(request, 404, words(request).gettext("There is no tournament %(number)s.",
                                                               number=tournament_id))
    except StorageError as error:
        message = words(request).error(error)
        return await run_in_threadpool(lambda: _page(request, tournament_id, 422, error=message))
    services(request).hub.tables_changed()  # its first games are called to the hall's tables
    return RedirectResponse(f"/tournaments/{tournament_id}", status_code=303)
