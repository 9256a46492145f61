"""Statistics of a match: points, innings, high run, averages, sets, match points."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from carom.match.state import MatchState


def average(points: int, innings: int) -> Fraction:
    """Points per inning as an exact ratio; 0 with no innings. The general average
    (total points ÷ total innings) is this over a player's whole record."""
    return Fraction(points, innings) if innings else Fraction(0)


@dataclass(frozen=True, slots=True)
class PlayerStats:
    points: int
    innings: int
    high_run: int
    average: Fraction
    sets: int
    best_game_average: Fraction
    """The best average of one game (or set) of the match."""
    match_points: int | None
    """2 for a win, 1 for a draw, 0 for a loss; ``None`` while the match goes on."""


def match_points(state: MatchState, player: int) -> int | None:
    """2 for a win, 1 for a draw, 0 for a loss; ``None`` while the match goes on. A match
    decided by a penalty shoot-out was drawn on the table and stays a draw for the
    statistics (P1): 1 each, whoever won the shoot-out."""
    if not state.finished:
        return None
    if state.winner is None or state.penalties:
        return 1
    return 2 if state.winner == player else 0


def player_stats(state: MatchState) -> tuple[PlayerStats, PlayerStats]:
    """Both players' statistics over the whole match (all sets together)."""
    return (_stats(state, 0), _stats(state, 1))


def _stats(state: MatchState, p: int) -> PlayerStats:
    games = [(g.points[p], g.innings[p]) for g in state.games]
    if not state.finished and (state.innings[0] or state.innings[1]):
        games.append((state.score[p], state.innings[p]))
    best = max((average(pts, inn) for pts, inn in games), default=Fraction(0))
    return PlayerStats(
        points=state.points_total[p], innings=state.innings_total[p], high_run=state.high_run[p],
        average=average(state.points_total[p], state.innings_total[p]),
        sets=state.sets_won[p], best_game_average=best, match_points=match_points(state, p),
    )
