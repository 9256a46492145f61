"""A division's meetings: a double round robin, home and away, one match day a round.

The first half is the circle method's single round robin (:func:`carom.competition.
round_robin`, the team listed first at home); the second half plays the same rounds in
the same order with home and away swapped, so every team meets every other once at
home and once away (LG11). ``n`` teams play ``2 (n - 1)`` match days (``2 n`` when ``n``
is odd, one team resting each day).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from carom.competition.roundrobin import round_robin
from carom.league.errors import LeagueError


@dataclass(frozen=True, slots=True)
class Fixture:
    """A meeting to play: ``home`` receives ``away`` at its club on match day ``round``."""

    id: int
    division: str
    round: int
    home: int
    away: int
    start: datetime


def rounds_of(teams: int) -> int:
    """How many match days a double round robin of ``teams`` teams has."""
    return 0 if teams < 2 else 2 * (teams - 1 + teams % 2)


def double_round_robin(division: str, teams: Sequence[int], starts: Sequence[datetime],
                       first_id: int = 1) -> tuple[Fixture, ...]:
    """The meetings of ``teams`` (in seeding order), match day ``r`` starting at
    ``starts[r - 1]``; fixture ids count from ``first_id``."""
    if len(starts) != rounds_of(len(teams)):
        raise LeagueError("LG11", f"division {division!r}: {len(teams)} teams play {rounds_of(len(teams))} "
                                  f"match days, {len(starts)} dates are given")
    first = round_robin(list(teams))
    rounds = [*first, *([(b, a) for a, b in games] for games in first)]
    out: list[Fixture] = []
    for day, games in enumerate(rounds, 1):
        for home, away in games:
            out.append(Fixture(first_id + len(out), division, day, home, away, starts[day - 1]))
    return tuple(out)


def check_fixtures(division: str, teams: Iterable[int], fixtures: Iterable[Fixture], complete: bool = True,
                   names: Mapping[int, str] | None = None) -> None:
    """Refuse a division's fixture list (made or imported) that is not a double round
    robin of ``teams`` (LG11): an unknown team, a team meeting itself, receiving another
    twice or playing twice on one match day, and (when ``complete``) a pair that never
    meets at one of the two clubs. ``names``: the teams' names for the message."""
    def team(t: int) -> str:
        return repr(names[t]) if names and t in names else f"team {t}"

    field = set(teams)
    mine = [f for f in fixtures if f.division == division]
    for f in mine:
        for t in (f.home, f.away):
            if t not in field:
                raise LeagueError("LG11", f"meeting {f.id}: {team(t)} is not in division {division!r}")
        if f.home == f.away:
            raise LeagueError("LG11", f"meeting {f.id}: {team(f.home)} would meet itself")
    for (home, away), count in Counter((f.home, f.away) for f in mine).items():
        if count > 1:
            raise LeagueError("LG11", f"{team(home)} receives {team(away)} {count} times")
    for (day, t), count in Counter((f.round, t) for f in mine for t in (f.home, f.away)).items():
        if count > 1:
            raise LeagueError("LG11", f"{team(t)} plays {count} meetings on match day {day}")
    met = {(f.home, f.away) for f in mine}
    missing = sorted((a, b) for a in field for b in field if a != b and (a, b) not in met)
    if complete and missing:
        raise LeagueError("LG11", f"{team(missing[0][0])} never receives {team(missing[0][1])}")
