"""A league's season: divisions, clubs, teams and their rosters, checked when made.

Players and teams are ids (the register's and the league's); names live with the
caller. A :class:`Season` that exists has passed every check: names once (LG12), every
team in a division with a registered format (LG12), a player on one roster (LG1), each
roster between a line-up's size and the format's roster size (LG2), and, where a
division says so, one team per club (LG13).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TypeVar

from carom.core.errors import UnknownName
from carom.core.frozen import FrozenMap
from carom.league.errors import LeagueError
from carom.league.formats import MeetingFormat, meeting_format

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Club:
    id: int
    name: str


@dataclass(frozen=True, slots=True)
class Division:
    """A division (a league class, a "Staffel") and the divisions its teams move to."""

    id: str
    name: str
    format: str
    """The id of its meeting format (:data:`carom.league.formats.FORMATS`)."""
    up: str | None = None
    """The division its best teams are promoted to (``None``: the top)."""
    down: str | None = None
    """The division its last teams are relegated to (``None``: the bottom)."""
    promote: int = 0
    relegate: int = 0
    one_team_per_club: bool = False
    """A club may have one team here at most (LG13); promotion passes over a team whose
    club has one in the division above."""


@dataclass(frozen=True, slots=True)
class Team:
    id: int
    club: int
    name: str
    division: str
    number: int = 1
    """The club's 1st, 2nd, … team: substitutes come from teams with higher numbers."""


@dataclass(frozen=True, slots=True)
class Season:
    """One season of one league, checked when made (the module's docstring says how)."""

    league: str
    name: str
    divisions: tuple[Division, ...]
    clubs: tuple[Club, ...]
    teams: tuple[Team, ...]
    rosters: Mapping[int, tuple[int, ...]] = field(default_factory=FrozenMap)
    """Team id → its players, in the order the club listed them."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "rosters", FrozenMap(self.rosters))
        _check_names(self)
        _check_rosters(self)

    def team(self, team: int) -> Team:
        return _find(self.teams, lambda t: t.id == team, "team", str(team), (str(t.id) for t in self.teams))

    def division(self, division: str) -> Division:
        return _find(self.divisions, lambda d: d.id == division, "division", division,
                     (d.id for d in self.divisions))

    def format_of(self, team: int) -> MeetingFormat:
        return meeting_format(self.division(self.team(team).division).format)

    def teams_in(self, division: str) -> tuple[int, ...]:
        return tuple(t.id for t in self.teams if t.division == division)

    def roster(self, team: int) -> tuple[int, ...]:
        return self.rosters.get(team, ())

    def team_of(self, player: int) -> int | None:
        """The team whose roster holds ``player`` (LG1: at most one)."""
        return next((team for team, players in self.rosters.items() if player in players), None)


def _find(items: Iterable[T], match: Callable[[T], bool], what: str, name: str, known: Iterable[str]) -> T:
    for item in items:
        if match(item):
            return item
    raise UnknownName(what, name, known)


def _once(what: str, names: Iterable[object]) -> None:
    seen: set[object] = set()
    for name in names:
        if name in seen:
            raise LeagueError("LG12", f"{what} {name!r} is given twice")
        seen.add(name)


def _check_names(season: Season) -> None:
    _once("division", (d.id for d in season.divisions))
    _once("club", (c.id for c in season.clubs))
    _once("club name", (c.name for c in season.clubs))
    _once("team", (t.id for t in season.teams))
    _once("team name", (t.name for t in season.teams))
    _once("club's team number", ((t.club, t.number) for t in season.teams))
    divisions = {d.id: d for d in season.divisions}
    for d in season.divisions:
        try:
            meeting_format(d.format)
        except UnknownName as error:
            raise LeagueError("LG12", f"division {d.id!r}: {error}") from None
        for target in (d.up, d.down):
            if target is not None and target not in divisions:
                raise LeagueError("LG12", f"division {d.id!r} moves teams to {target!r}, not a division "
                                          "of the season")
    clubs = {c.id for c in season.clubs}
    first: dict[tuple[str, int], Team] = {}
    for t in season.teams:
        if t.division not in divisions:
            raise LeagueError("LG12", f"team {t.name!r} is in division {t.division!r}, not one of the season")
        if t.club not in clubs:
            raise LeagueError("LG12", f"team {t.name!r} belongs to club {t.club}, not one of the season")
        other = first.setdefault((t.division, t.club), t)
        if other is not t and divisions[t.division].one_team_per_club:
            raise LeagueError("LG13", f"team {t.name!r}: its club has {other.name!r} in division "
                                      f"{t.division!r} already")


def _check_rosters(season: Season) -> None:
    teams = {t.id: t for t in season.teams}
    holder: dict[int, int] = {}
    for team_id, players in season.rosters.items():
        if team_id not in teams:
            raise LeagueError("LG12", f"a roster for team {team_id}, not a team of the season")
        for player in players:
            if player in holder:
                first, name = teams[holder[player]].name, teams[team_id].name
                raise LeagueError("LG1", f"team {name!r}: player {player} is twice on its roster"
                                  if holder[player] == team_id else
                                  f"team {name!r}: player {player} is on the roster of {first!r} already")
            holder[player] = team_id
    for team in season.teams:
        check_roster_size(season.format_of(team.id), team.name, len(season.roster(team.id)))


def check_roster_size(fmt: MeetingFormat, team: str, size: int) -> None:
    """Refuse a roster of ``size`` players for a team playing ``fmt`` (LG2)."""
    if not fmt.positions <= size <= fmt.roster:
        raise LeagueError("LG2", f"team {team!r}: {size} players on the roster; the format "
                                 f"{fmt.id!r} needs {fmt.positions} to {fmt.roster}")
