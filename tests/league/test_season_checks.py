"""A season is checked when it is made: names once, known divisions and formats, a player
on one roster, roster sizes, one team per club where a division says so."""

from __future__ import annotations

import dataclasses

import pytest

from carom.core.errors import UnknownName
from carom.league import Club, Division, LeagueError, Season, Team
from tests.league.small import season_of

GOOD = season_of("club-3c-two-boards", teams=2)
TEAMS = GOOD.teams


@pytest.mark.parametrize(("change", "rule", "message"), [
    ({"divisions": (Division("d", "D", "club-3c-two-boards"),) * 2}, "LG12", "division 'd' is given twice"),
    ({"clubs": (Club(1, "A"), Club(1, "B"))}, "LG12", "club 1 is given twice"),
    ({"clubs": (Club(1, "A"), Club(2, "A"))}, "LG12", "club name 'A' is given twice"),
    ({"teams": (TEAMS[0], dataclasses.replace(TEAMS[1], id=1))}, "LG12", "team 1 is given twice"),
    ({"teams": (TEAMS[0], dataclasses.replace(TEAMS[1], name="Team 1"))}, "LG12", "team name 'Team 1'"),
    ({"teams": (TEAMS[0], dataclasses.replace(TEAMS[1], club=1))}, "LG12", "club's team number \\(1, 1\\)"),
    ({"divisions": (Division("d", "D", "snooker"),)}, "LG12", "division 'd': unknown league format"),
    ({"divisions": (Division("d", "D", "club-3c-two-boards", up="z"),)}, "LG12",
     "division 'd' moves teams to 'z', not a division of the season"),
    ({"teams": (TEAMS[0], dataclasses.replace(TEAMS[1], division="z"))}, "LG12",
     "team 'Team 2' is in division 'z', not one of the season"),
    ({"teams": (TEAMS[0], dataclasses.replace(TEAMS[1], club=9))}, "LG12", "team 'Team 2' belongs to club 9"),
    ({"rosters": {1: (101, 102), 2: (201, 202), 3: (301, 302)}}, "LG12", "a roster for team 3"),
    ({"rosters": {1: (101, 102), 2: (201, 101)}}, "LG1", "team 'Team 2': player 101 is on the roster of "
                                                         "'Team 1' already"),
    ({"rosters": {1: (101, 101), 2: (201, 202)}}, "LG1", "team 'Team 1': player 101 is twice on its roster"),
    ({"rosters": {1: (101,), 2: (201, 202)}}, "LG2", "team 'Team 1': 1 players on the roster; the format "
                                                     "'club-3c-two-boards' needs 2 to 4"),
    ({"rosters": {1: (101, 102, 103, 104, 105), 2: (201, 202)}}, "LG2", "5 players"),
    ({"rosters": {1: (101, 102)}}, "LG2", "team 'Team 2': 0 players"),
    ({"divisions": (Division("d", "D", "club-3c-two-boards", one_team_per_club=True),),
      "teams": (TEAMS[0], dataclasses.replace(TEAMS[1], club=1, number=2))}, "LG13",
     "team 'Team 2': its club has 'Team 1' in division 'd' already"),
])
def test_a_season_its_rules_forbid_is_refused(change: dict[str, object], rule: str, message: str) -> None:
    with pytest.raises(LeagueError, match=message) as error:
        dataclasses.replace(GOOD, **change)  # type: ignore[arg-type]
    assert error.value.rule == rule and str(error.value).endswith(f"({rule})")


def test_a_season_is_a_value_that_cannot_change() -> None:
    with pytest.raises(TypeError):
        GOOD.rosters[1] = (101,)  # type: ignore[index]
    with pytest.raises(dataclasses.FrozenInstanceError):
        GOOD.name = "x"  # type: ignore[misc]
    assert season_of("club-3c-two-boards", teams=2) == GOOD


def test_looking_up_what_a_season_does_not_hold() -> None:
    with pytest.raises(UnknownName, match="unknown team '9' \\(known: 1, 2\\)"):
        GOOD.team(9)
    with pytest.raises(UnknownName, match="unknown division 'x' \\(known: d\\)"):
        GOOD.division("x")
    assert GOOD.team_of(101) == 1 and GOOD.team_of(999) is None and GOOD.roster(9) == ()
    assert GOOD.format_of(2).id == "club-3c-two-boards"


def test_a_club_may_have_several_teams_in_a_division_unless_it_says_otherwise() -> None:
    two = dataclasses.replace(GOOD, teams=(TEAMS[0], Team(2, 1, "Team 2", "d", 2)))
    assert [t.club for t in two.teams] == [1, 1]
    assert isinstance(two, Season)
