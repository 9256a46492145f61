"""What the table pages show of a table's games, in the page's words (no HTTP here)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime

from babel.dates import format_time

from carom.competition.tables import Game, OnTable
from carom.web.shared.i18n import PageWords


def clock_time(moment: datetime | None, t: PageWords) -> str:
    """A start time as a hall reads it ("14:30"), in the server's time zone."""
    if moment is None:
        return ""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return format_time(moment.astimezone(), "short", locale=t.lang)


def game_text(game: Game | None, t: PageWords) -> str:
    """``Anna – Boris, 14:30``: the players, and the start time when it has one."""
    if game is None:
        return ""
    players = t.gettext("%(first)s – %(second)s", first=game.players[0], second=game.players[1])
    start = clock_time(game.start, t)
    return t.gettext("%(players)s, %(time)s", players=players, time=start) if start else players


@dataclass(frozen=True, slots=True)
class Coming:
    """A table between games: what it plays next (TD8)."""

    table: str
    text: str
    """"Next: Anna – Boris, 14:30", or that nothing is planned."""
    state: str
    """What the live channel compares: it changes when the next game does."""


def coming(on: OnTable, t: PageWords) -> Coming:
    """The next game of a table that plays none now, or whose game has not begun."""
    game = on.now if on.now is not None and not on.started else on.next
    if game is None:
        return Coming(on.table.name, t.gettext("No game is planned on this table."), "none")
    return Coming(on.table.name, t.gettext("Next: %(game)s", game=game_text(game, t)), _state(game))


def next_line(on: OnTable, t: PageWords) -> str:
    """Under a game under way: the one after it ("Next: Cyril – Dana")."""
    return t.gettext("Next: %(game)s", game=game_text(on.next, t)) if on.next is not None else ""


def _state(game: Game) -> str:
    start = "" if game.start is None else game.start.isoformat()
    return f"next:{game.match or ''}:{game.tournament or ''}:{game.game or ''}:{start}"
