"""A tournament's numbers as rows: the players' averages over their matches (for the
seeding and the handicap), the results and the ranking as CSV rows, a form's number."""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from carom.competition import standings
from carom.core.averages import printed_average
from carom.core.inputs import is_digits
from carom.storage.book import MatchBook
from carom.storage.daylog import TournamentError
from carom.storage.tournament_view import Tournament


def player_averages(book: MatchBook, discipline: str | None = None) -> dict[int, dict[str, tuple[int, int]]]:
    """Each player's points and innings per discipline over all their matches (the
    general average is their ratio)."""
    out: dict[int, dict[str, tuple[int, int]]] = {}
    for snap in book.snapshots():
        if snap.players is None or (discipline is not None and snap.header.discipline != discipline):
            continue
        for side, player in enumerate(snap.players):
            points, innings = out.setdefault(player, {}).get(snap.header.discipline, (0, 0))
            out[player][snap.header.discipline] = (points + snap.state.points_total[side],
                                                   innings + snap.state.innings_total[side])
    return out


def average_of(points_innings: tuple[int, int] | None) -> Fraction | None:
    if points_innings is None or points_innings[1] == 0:
        return None
    return Fraction(points_innings[0], points_innings[1])


def form_number(raw: str, key: str, default: int | None = None) -> int | None:
    """A form's whole number (empty: ``default``)."""
    raw = raw.strip()
    if not raw:
        return default
    if not is_digits(raw) or len(raw) > 6:
        raise TournamentError(f"{key}: expected a whole number")
    return int(raw)


def results_rows(t: Tournament) -> Iterable[list[str]]:
    """The tournament's games as rows for a results CSV (a header row first)."""
    names = t.names()
    yield ["game", "stage", "group", "round", "table", "match", "player_a", "player_b", "points_a",
           "points_b", "innings_a", "innings_b", "high_run_a", "high_run_b", "average_a", "average_b",
           "winner", "status"]
    group_names = dict(t.groups)
    for g in t.games:
        a, b = g.players
        result = g.outcome
        if result is None and g.snapshot is not None:
            s = g.snapshot.state
            pts, inn, hs = s.points_total, s.innings_total, s.high_run
        elif result is not None:
            pts, inn, hs = result.points, result.innings, result.high_run
        cells: list[str] = [""] * 8
        if result is not None or g.snapshot is not None:
            cells = [str(pts[0]), str(pts[1]), str(inn[0]), str(inn[1]), str(hs[0]), str(hs[1]),
                     *(printed_average(Fraction(pts[i], inn[i])) if inn[i] else "" for i in (0, 1))]
        winner = g.winner
        yield [g.id, g.stage, group_names.get(g.group_no, "") if g.stage == "group" else "", str(g.round),
               str(g.table_no or ""), str(g.match_id or ""), names.get(a, "") if a else "",
               names.get(b, "") if b else "", *cells,
               names.get(winner, "") if winner else ("draw" if g.status == "done" else ""), g.status]


def ranking_rows(t: Tournament) -> Iterable[list[str]]:
    """The final ranking (so far) as rows for a CSV, with each player's totals over all
    their games of the tournament (a header row first)."""
    names = t.names()
    clubs = {p.player_id: p.club or "" for p in t.participants}
    results = [r for g in t.games if (r := g.result()) is not None]
    totals = {line.player: line for line in standings(names, results)}
    yield ["rank", "player", "name", "club", "games", "won", "drawn", "lost", "match_points", "points",
           "innings", "general_average", "best_average", "high_run"]
    for rank, player in t.ranking():
        x = totals[player]
        yield [str(rank), str(player), names[player], clubs[player], str(x.played), str(x.won),
               str(x.drawn), str(x.lost), str(x.match_points), str(x.points), str(x.innings),
               printed_average(x.general_average), printed_average(x.best_average), str(x.high_run)]
