"""Every league rule refuses something, with its id in the message, and changes nothing:
one bad input per rule of LEAGUE_RULES (the other tests go through each in detail)."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from fractions import Fraction

import pytest

from carom.league import (
    LEAGUE_RULES,
    Club,
    Division,
    GameResult,
    LeagueError,
    LineUp,
    Reports,
    Team,
    check_fixtures,
    check_lineup,
    meeting_format,
    plan_meeting,
    report,
    score_meeting,
)
from tests.league.small import fixtures_of, lineup, season_of, two_boards

SEASON = season_of("club-3c-two-boards")
FIXTURES = fixtures_of(SEASON)
FIRST = FIXTURES[0]
EXTRALIGA = season_of("cmbs-3c-extraliga")
REPORTED = report(Reports(), FIXTURES, two_boards(FIRST, (10, 10), (5, 5)))


def _substitute_three_times() -> None:
    divisions = (Division("d", "D", "club-3c-two-boards", down="e"), Division("e", "E", "club-3c-two-boards"))
    season = dataclasses.replace(
        SEASON, divisions=divisions, clubs=(*SEASON.clubs, Club(9, "Club 9")),
        teams=(*SEASON.teams, Team(5, 1, "Team 1 B", "e", 2), Team(6, 9, "Club 9 A", "e")),
        rosters={**SEASON.rosters, 5: (501, 502), 6: (601, 602)})
    days = [f for f in fixtures_of(season) if f.home == 1 or f.away == 1][:3]
    earlier = tuple((f, LineUp(f.id, 1, (101, 501), f.start)) for f in days[:2])
    check_lineup(season, days[2], lineup(days[2], 1, (101, 501)), earlier)


REFUSALS: dict[str, Callable[[], object]] = {
    "LG1": lambda: dataclasses.replace(SEASON, rosters={**SEASON.rosters, 2: (201, 101)}),
    "LG2": lambda: dataclasses.replace(SEASON, rosters={**SEASON.rosters, 2: (201,)}),
    "LG3": lambda: check_lineup(SEASON, FIRST, lineup(FIRST, 1, (101, 201))),
    "LG4": _substitute_three_times,
    "LG5": lambda: check_lineup(SEASON, FIRST, lineup(FIRST, 1, (101, 102), hours_before=-1)),
    "LG6": lambda: check_lineup(SEASON, FIRST, lineup(FIRST, 1, (101,))),
    "LG7": lambda: check_lineup(SEASON, FIRST, lineup(FIRST, 1, (101, 101))),
    "LG8": lambda: check_lineup(EXTRALIGA, fixtures_of(EXTRALIGA)[0], lineup(fixtures_of(EXTRALIGA)[0], 1,
                                (101, 102, 103, 104)), averages={104: Fraction(1)}),
    "LG9": lambda: report(REPORTED, FIXTURES, two_boards(FIRST, (10, 10), (5, 5))),
    "LG10": lambda: score_meeting(meeting_format("club-3c-two-boards"), FIRST, plan_meeting(
        meeting_format("club-3c-two-boards"), lineup(FIRST, 1, (101, 102)), lineup(FIRST, 4, (401, 402))),
        [GameResult(1, (101, 401), (10, 3), (9, 9), (2, 1))]),
    "LG11": lambda: check_fixtures("d", SEASON.teams_in("d"), FIXTURES[:-1]),
    "LG12": lambda: dataclasses.replace(SEASON, clubs=(*SEASON.clubs, Club(9, "Club 1"))),
    "LG13": lambda: dataclasses.replace(SEASON, divisions=(Division("d", "D", "club-3c-two-boards",
                                                                    one_team_per_club=True),),
                                        teams=(*SEASON.teams[:3], dataclasses.replace(SEASON.teams[3], club=1,
                                                                                       number=2))),
}


def test_every_league_rule_has_a_refusal() -> None:
    assert list(REFUSALS) == list(LEAGUE_RULES)


@pytest.mark.parametrize("rule", list(LEAGUE_RULES))
def test_a_refusal_names_its_rule_and_changes_nothing(rule: str) -> None:
    before = copy.deepcopy((SEASON, FIXTURES, REPORTED, EXTRALIGA))
    with pytest.raises(LeagueError) as error:
        REFUSALS[rule]()
    assert error.value.rule == rule and str(error.value).endswith(f"({rule})")
    assert before == (SEASON, FIXTURES, REPORTED, EXTRALIGA)


def test_a_refusal_is_a_carom_error_and_a_value_error() -> None:
    with pytest.raises(ValueError, match="LG6"):
        REFUSALS["LG6"]()
    assert LEAGUE_RULES["LG9"] == "a meeting is reported once"
