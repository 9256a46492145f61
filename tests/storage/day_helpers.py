"""Playing tournament games on a store for the tests: a game's match played to a score
through its records, as a tablet does."""

from __future__ import annotations

from carom.storage.book import MatchBook
from carom.storage.tournaments import Tournament, TournamentGame


def play(book: MatchBook, match_id: int, first: int, second: int) -> None:
    """Player 0 opens and makes ``first`` points, player 1 ``second`` (one inning each; the
    second inning an equalizing one when the first reached the limit)."""
    live = book.live(match_id)
    seq = book.snapshot(match_id).seq
    for record in ({"type": "opener", "player": 0}, {"type": "inning", "points": first},
                   {"type": "inning", "points": second}):
        if book.snapshot(match_id).state.finished:
            break
        seq = book.append(match_id, seq, record, live.token).seq


def on_tables(t: Tournament) -> list[TournamentGame]:
    """The games being played, by table."""
    return sorted((g for g in t.games if g.status in ("playing", "tie-break")), key=lambda g: g.table_no or 0)


def named(t: Tournament, game: TournamentGame) -> tuple[str, str]:
    names = t.names()
    a, b = game.players
    return names[a] if a else "?", names[b] if b else "?"
