"""The tournaments' games on the hall's tables (TD7, TD8): a tournament's table n is the
n-th of the hall's tables the organiser chose for it; its game there now is the one the
schedule called to table n (:func:`carom.competition.day.schedule.tables`), and its next
the one the schedule would call there next, with its start time. A game whose match has
finished stays on its table until the match is confirmed (TD8), although the schedule
has already called the next game there."""

from __future__ import annotations

from collections.abc import Iterator

from carom.competition.day import schedule
from carom.competition.day.games import DONE, DayGame, derived
from carom.competition.day.state import DayState
from carom.competition.tables import Game, Table, TablesState
from carom.storage.tournament_view import state_name
from carom.storage.tournaments import Tournaments


class CalledGames:
    """The tournaments' games on one of the hall's tables (a
    :data:`carom.storage.table_games.TournamentGames`)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments

    def __call__(self, hall: TablesState, table: Table) -> Iterator[Game]:
        for tid, chosen in hall.tournaments.items():
            if table.id not in chosen:
                continue
            day = self.tournaments.days.state(tid)
            if state_name(day) == "entry":  # a finished one: its last games until confirmed
                continue
            yield from self._on(tid, day, chosen.index(table.id) + 1)

    def _on(self, tid: int, day: DayState, number: int) -> Iterator[Game]:
        views = schedule.tables(day)
        if number > len(views):
            return
        view = views[number - 1]
        left = last_unconfirmed(day, number)
        games = [g for g in (left, view.now, view.next) if g is not None]
        names = self.tournaments.player_names({p for g in games for p in g.players})
        over = left.taken.at if left is not None and left.taken is not None else None
        for game in (left, view.now):
            if game is not None and game.call is not None and game.call.match is not None:
                since = game.call.at
                if game is not left and over is not None and over > since:
                    since = over  # moved here: it came to this table after the game before it there
                yield Game(_players(game, names), game.call.match, since, tournament=tid, game=str(game.key))
        if view.next is not None:
            yield Game(_players(view.next, names), start=view.next_start, tournament=tid,
                       game=str(view.next.key))


def _players(game: DayGame, names: dict[int, str]) -> tuple[str, str]:
    first, second = game.players
    return names.get(first, f"#{first}"), names.get(second, f"#{second}")


def last_unconfirmed(day: DayState, number: int) -> DayGame | None:
    """The game last played out on table ``number`` (the last to get its result there,
    after any move) when its result came from its match and is not confirmed yet (its match
    is to be confirmed on the table's tablet)."""
    by_key = derived(day).by_key
    for key in reversed(day.finished_order):
        game = by_key.get(key)
        if game is None or game.status != DONE or game.call is None or game.call.table != number:
            continue
        taken = game.taken
        if game.call.match is None or taken is None or taken.source != "match" or key in day.confirmed \
                or key in day.unlocked:
            return None
        return game
    return None
