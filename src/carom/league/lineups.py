"""Line-ups: the players a captain names for a meeting, position by position.

:func:`check_lineup` refuses a line-up the team's format forbids, with the rule: a team
not of the meeting or a position left empty (LG6), one handed in after the deadline
(LG5), a player neither on the roster nor a substitute the format allows (LG3), a
substitute past the number of games the format allows them in a half of the season
(LG4), a player in more games than the format allows (LG7), and, where the format
orders line-ups by average, a line-up out of that order (LG8). Before both are in, each
captain sees only their own (:func:`visible_lineups`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from itertools import pairwise

from carom.league.errors import LeagueError
from carom.league.fixtures import Fixture, rounds_of
from carom.league.formats import MeetingFormat
from carom.league.season import Season


@dataclass(frozen=True, slots=True)
class LineUp:
    """A team's players for a meeting, the first position first, and when it came in."""

    fixture: int
    team: int
    players: tuple[int, ...]
    submitted: datetime


def check_lineup(season: Season, fixture: Fixture, lineup: LineUp,
                 earlier: Iterable[tuple[Fixture, LineUp]] = (),
                 averages: Mapping[int, Fraction] | None = None) -> None:
    """Refuse ``lineup`` for ``fixture`` if the season's rules forbid it. ``earlier``: the
    season's other meetings' line-ups (for LG4); ``averages``: each player's average in
    the league so far (for a format that orders line-ups by it, LG8)."""
    if lineup.fixture != fixture.id:
        raise LeagueError("LG6", f"a line-up for meeting {lineup.fixture} given for meeting {fixture.id}")
    if lineup.team not in (fixture.home, fixture.away):
        raise LeagueError("LG6", f"team {lineup.team} does not play meeting {fixture.id}")
    side = 0 if lineup.team == fixture.home else 1
    fmt = season.format_of(fixture.home)
    name = season.team(lineup.team).name
    if len(lineup.players) != fmt.positions:
        raise LeagueError("LG6", f"line-up of {name!r}: {len(lineup.players)} players for the "
                                 f"{fmt.positions} positions of {fmt.id!r}")
    if lineup.submitted > fixture.start - fmt.deadline:
        raise LeagueError("LG5", f"line-up of {name!r}: in at {lineup.submitted:%Y-%m-%d %H:%M}, "
                                 f"the deadline was {fixture.start - fmt.deadline:%Y-%m-%d %H:%M}")
    for player in lineup.players:
        if _substitute(season, fmt, lineup.team, player):
            _check_appearances(season, fmt, fixture, player, earlier)
    games: Counter[int] = Counter()
    for position, player in enumerate(lineup.players, 1):
        games[player] += fmt.games_of(side, position)
    for player, count in games.items():
        if count > fmt.games_per_player:
            raise LeagueError("LG7", f"line-up of {name!r}: player {player} would play {count} games; "
                                     f"{fmt.id!r} allows {fmt.games_per_player}")
    if fmt.by_average:
        _check_order(name, lineup.players, averages or {})


def _substitute(season: Season, fmt: MeetingFormat, team: int, player: int) -> bool:
    """Whether ``player`` stands in for ``team`` (``False``: on its roster); refuses one
    who may not (LG3)."""
    if player in season.roster(team):
        return False
    holder = season.team_of(player)
    mine = season.team(team)
    if holder is None:
        raise LeagueError("LG3", f"line-up of {mine.name!r}: player {player} is on no roster of the season")
    theirs = season.team(holder)
    if theirs.club != mine.club or not 0 < theirs.number - mine.number <= fmt.substitutes.lower_teams:
        raise LeagueError("LG3", f"line-up of {mine.name!r}: player {player} is on the roster of "
                                 f"{theirs.name!r}; {fmt.id!r} allows substitutes from up to "
                                 f"{fmt.substitutes.lower_teams} lower teams of the club"
                          if fmt.substitutes.lower_teams else
                          f"line-up of {mine.name!r}: player {player} is on the roster of {theirs.name!r}; "
                          f"{fmt.id!r} allows no substitutes")
    return True


def half_of(season: Season, fixture: Fixture) -> int:
    """1 for the first half of the division's season (Hinrunde), 2 for the second."""
    days = rounds_of(len(season.teams_in(fixture.division)))
    return 1 if 2 * fixture.round <= days else 2


def _check_appearances(season: Season, fmt: MeetingFormat, fixture: Fixture, player: int,
                       earlier: Iterable[tuple[Fixture, LineUp]]) -> None:
    limit = fmt.substitutes.per_half
    if limit is None:
        return
    half = half_of(season, fixture)
    times = sum(1 for f, lineup in earlier if f.id != fixture.id and half_of(season, f) == half
                and player in lineup.players and player not in season.roster(lineup.team))
    if times >= limit:
        raise LeagueError("LG4", f"player {player} has stood in {times} times in this half of the season; "
                                 f"{fmt.id!r} allows {limit}")


def _check_order(name: str, players: tuple[int, ...], averages: Mapping[int, Fraction]) -> None:
    """Positions by average, the best first; a player without one after those with one."""
    def key(player: int) -> tuple[int, Fraction]:
        average = averages.get(player)
        return (0, Fraction(0)) if average is None else (1, average)

    for position, (a, b) in enumerate(pairwise(players), 1):
        if key(a) < key(b):
            raise LeagueError("LG8", f"line-up of {name!r}: player {b} (position {position + 1}) has a "
                                     f"better average than player {a} (position {position})")


def visible_lineups(lineups: Iterable[LineUp], fixture: Fixture, viewer: int | None) -> tuple[LineUp, ...]:
    """The line-ups of ``fixture`` that ``viewer`` (a team, ``None``: anyone else) may see:
    their own, and both once both are in."""
    mine = [x for x in lineups if x.fixture == fixture.id]
    both = {x.team for x in mine} >= {fixture.home, fixture.away}
    return tuple(x for x in mine if both or x.team == viewer)
