"""The hall monitor's part of the club's tables (:mod:`carom.web.hall.pages`): a card for
each registered table (its game now when it has begun, else what it plays next and when)
and, for each running tournament, the top of its live standings and its next games.
Rendered as one block; the hall's live channel sends it again when it changes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.concurrency import run_in_threadpool

from carom.competition.day import rank as day_rank
from carom.competition.day.games import WAITING, derived
from carom.competition.day.schedule import start_of
from carom.competition.day.state import DayState
from carom.competition.tables import OnTable, Table, TablesState
from carom.storage.book import Snapshot
from carom.storage.errors import UnknownMatch
from carom.storage.tournament_view import state_name
from carom.storage.tournaments import Tournaments
from carom.web.hall.pages import CARDS, HallTables
from carom.web.shared import i18n
from carom.web.shared.deps import templates
from carom.web.tables.service import app_games
from carom.web.tables.views import clock_time, coming, game_text
from carom.web.tournaments.api import app_tournaments

TOP = 3
"""Lines of each group's standings on the hall monitor."""
NEXT_GAMES = 4
"""A tournament's next games on the hall monitor."""


@dataclass(frozen=True, slots=True)
class TableCard:
    name: str
    card: str | None
    """The match card of the game under way (the hall's card), else ``None``."""
    coming: str
    """"Next: A – B, 14:30" (or that nothing is planned); under a game: the one after it."""


@dataclass(frozen=True, slots=True)
class TournamentBox:
    id: int
    name: str
    groups: list[tuple[str, list[tuple[int, str, int, str]]]]
    """Each group's name and its top lines: rank, name, match points, general average."""
    next: list[str]
    """Its next games: players, and the table or the time."""


def hall_tables(app: Any) -> Callable[[str], Awaitable[HallTables | None]]:
    """The block of an application's hall monitor, in a language (``None``: the hall has no
    registered tables and no tournament is running)."""

    async def block(lang: str) -> HallTables | None:
        return await run_in_threadpool(_block, app, lang)

    return block


def _block(app: Any, lang: str) -> HallTables | None:
    games = app_games(app)
    state = games.hall.state()
    t = i18n.PageWords(lang)
    cards: list[TableCard] = []
    shown: set[int] = set()
    for on in (games.now(table, state) for table in state.in_order()):
        snap = _begun(games.book, on)
        if snap is not None:
            shown.add(snap.match_id)
            after = t.gettext("Next: %(game)s", game=game_text(on.next, t)) if on.next is not None else ""
            cards.append(TableCard(on.table.name, CARDS(snap, lang), after))
        else:
            cards.append(TableCard(on.table.name, None, coming(on, t).text))
    boxes = _tournaments(app_tournaments(app), state, t)
    if not cards and not boxes:
        return None
    html = templates.get_template("_hall_tables.html").render(t=t, lang=lang, cards=cards, boxes=boxes)
    return HallTables(html, frozenset(shown))


def _begun(book: Any, on: OnTable) -> Snapshot | None:
    if on.now is None or on.now.match is None or not on.started:
        return None
    try:
        snap: Snapshot = book.snapshot(on.now.match)
    except UnknownMatch:
        return None
    return snap


def _tournaments(tournaments: Tournaments, hall: TablesState, t: i18n.PageWords) -> list[TournamentBox]:
    """Each running tournament: its standings' top and its next games."""
    out = []
    for tid in tournaments.days.ids():
        day = tournaments.days.state(tid)
        if day.settings is None or state_name(day) != "running":
            continue
        names = tournaments.player_names(day.players())
        out.append(TournamentBox(tid, day.settings.name, _standings(day, names, t),
                                 _next_games(day, names, hall.tournament_tables(tid), t)))
    return out


def _standings(day: DayState, names: dict[int, str],
               t: i18n.PageWords) -> list[tuple[str, list[tuple[int, str, int, str]]]]:
    """The top of each group of the latest groups stage, in the standings' order
    (:mod:`carom.competition.standings`: MP, GD, BED, HS, the direct game)."""
    if not day.groups:
        return []
    return [(chr(ord("A") + number - 1),
             [(line.rank, names.get(line.player, "?"), line.match_points, t.average(line.general_average))
              for line in lines[:TOP]])
            for number, lines in day_rank.group_standings(day, max(day.groups))]


def _next_games(day: DayState, names: dict[int, str], chosen: tuple[Table | None, ...],
                t: i18n.PageWords) -> list[str]:
    """The first waiting games in the schedule's order: players, the hall's table the
    organiser gave it, its start time."""
    out = []
    for game in [g for g in derived(day).games if g.status == WAITING][:NEXT_GAMES]:
        players = t.gettext("%(first)s – %(second)s", first=names.get(game.players[0], "?"),
                            second=names.get(game.players[1], "?"))
        plan = day.plans.get(game.key)
        where = ""
        if plan is not None and plan.table is not None:
            table = chosen[plan.table - 1] if 0 < plan.table <= len(chosen) else None
            where = t.gettext("table %(name)s", name=table.name if table is not None else plan.table)
        out.append(", ".join(x for x in (players, where, clock_time(start_of(day, game), t)) if x))
    return out
