"""Players' statistics across competitions: per player, discipline and season.

A :class:`PlayerGame` is one player's side of one finished game, from a single match,
a tournament or a league meeting alike (the caller makes them from the matches; league
meetings give them through :func:`league_games`). :func:`player_stats` sums them into the
figures federations class and seed players by: games won, drawn and lost, points,
innings, the general average (all points over all innings), the best single-game
average and the high run. Averages are exact fractions; the order of the games does not
matter.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from carom.league.meetings import MeetingResult


class Competition(StrEnum):
    MATCH = "match"
    TOURNAMENT = "tournament"
    LEAGUE = "league"


@dataclass(frozen=True, slots=True)
class PlayerGame:
    player: int
    season: str
    discipline: str
    competition: Competition
    points: int
    innings: int
    high_run: int
    outcome: int
    """1 won, 0 drawn, -1 lost."""


@dataclass(frozen=True, slots=True)
class PlayerLine:
    player: int
    discipline: str
    season: str | None
    """``None``: every season together."""
    games: int
    won: int
    drawn: int
    lost: int
    points: int
    innings: int
    best_average: Fraction
    high_run: int

    @property
    def general_average(self) -> Fraction:
        return Fraction(self.points, self.innings) if self.innings else Fraction(0)


def player_stats(games: Iterable[PlayerGame], *, by_season: bool = True,
                 competitions: Collection[Competition] | None = None) -> list[PlayerLine]:
    """Each player's line per discipline (and season, unless ``by_season`` is off), over
    the ``competitions`` given (``None``: all), sorted by player, discipline, season."""
    lines: dict[tuple[int, str, str | None], PlayerLine] = {}
    for g in games:
        if competitions is not None and g.competition not in competitions:
            continue
        key = (g.player, g.discipline, g.season if by_season else None)
        single = Fraction(g.points, g.innings) if g.innings else Fraction(0)
        x = lines.get(key) or PlayerLine(*key, 0, 0, 0, 0, 0, 0, single, 0)
        lines[key] = PlayerLine(*key, x.games + 1, x.won + (g.outcome > 0), x.drawn + (g.outcome == 0),
                                x.lost + (g.outcome < 0), x.points + g.points, x.innings + g.innings,
                                max(x.best_average, single), max(x.high_run, g.high_run))
    return [lines[k] for k in sorted(lines, key=lambda k: (k[0], k[1], k[2] or ""))]


def league_games(meetings: Iterable[MeetingResult], season: str) -> list[PlayerGame]:
    """Both players' sides of every game of ``meetings``."""
    out = []
    for m in meetings:
        for g in m.games:
            for side in (0, 1):
                outcome = g.outcome if side == 0 else -g.outcome
                out.append(PlayerGame(g.result.players[side], season, g.game.discipline, Competition.LEAGUE,
                                      g.result.points[side], g.result.innings[side], g.result.high_run[side],
                                      outcome))
    return out
