"""What each table of the hall plays now and next: the hall's log (the one-off matches put
on a table), the tournaments' calls to their tables, and the matches' own state, folded by
:func:`carom.competition.tables.on_table` (TD8)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from carom.competition.tables import Game, OnTable, Progress, Table, TablesState, on_table
from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import UnknownMatch
from carom.storage.hall import Hall

TournamentGames = Callable[[TablesState, Table], Iterable[Game]]
"""The tournaments' games on a table: the called ones with their matches, the next one."""


def progress(snap: Snapshot) -> Progress:
    return Progress(snap.seq > 0, snap.state.finished, snap.confirmation.confirmed)


class TableGames:
    """The games on the hall's tables."""

    def __init__(self, book: MatchBook, hall: Hall, tournament_games: TournamentGames | None = None) -> None:
        self.book = book
        self.hall = hall
        self.tournament_games: TournamentGames = tournament_games or (lambda state, table: ())

    def now(self, table: Table, state: TablesState | None = None) -> OnTable:
        """The table's game now (since when) and next (TD8)."""
        state = state or self.hall.state()
        known: dict[int, Progress] = {}
        games = [*self._one_off(state, table, known), *self.tournament_games(state, table)]
        for game in games:
            if game.match is not None and game.match not in known:
                snap = self._snapshot(game.match)
                if snap is not None:
                    known[game.match] = progress(snap)
        return on_table(table, games, known)

    def hall_now(self) -> list[OnTable]:
        """Every table of the hall, in its order."""
        state = self.hall.state()
        return [self.now(table, state) for table in state.in_order()]

    def _one_off(self, state: TablesState, table: Table, known: dict[int, Progress]) -> list[Game]:
        """The one-off matches on the table: those put there after the last one that is done
        (a match leaves its table when it is done, or when one put there after it is: so a
        match reopened long after does not push the table's game aside)."""
        out = []
        for placed in reversed(state.queue(table.id)):
            snap = self._snapshot(placed.match)
            if snap is None:
                continue
            known[placed.match] = progress(snap)
            if known[placed.match].done:
                break
            out.append(Game(snap.header.players, placed.match, placed.at))
        return out[::-1]

    def _snapshot(self, match_id: int) -> Snapshot | None:
        try:
            return self.book.snapshot(match_id)
        except UnknownMatch:
            return None
