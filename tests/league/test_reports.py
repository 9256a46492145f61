"""Meetings enter the season's reports once; a refused report changes nothing."""

from __future__ import annotations

import dataclasses

import pytest

from carom.league import LeagueError, MeetingResult, Reports, correct, report
from tests.league.small import fixtures_of, season_of, two_boards

SEASON = season_of("club-3c-two-boards")
FIXTURES = fixtures_of(SEASON)


def _result(index: int, home_points: int = 10) -> MeetingResult:
    return two_boards(FIXTURES[index], (home_points, home_points), (8, 8), innings=12)


def test_a_meeting_reported_twice_is_refused_and_the_reports_stay_as_they_were() -> None:
    once = report(Reports(), FIXTURES, _result(0))
    before = dataclasses.replace(once)
    with pytest.raises(LeagueError, match="meeting 1 is reported already \\(LG9\\)"):
        report(once, FIXTURES, _result(0, home_points=5))
    assert once == before and once.of(1) == _result(0) and once.of(2) is None
    both = report(once, FIXTURES, _result(1))
    assert [m.fixture for m in both.meetings] == [1, 2] and len(once.meetings) == 1


def test_a_report_of_no_fixture_of_the_season_is_refused() -> None:
    other = dataclasses.replace(_result(0), fixture=99)
    with pytest.raises(LeagueError, match="meeting 99 between teams 1 and 4 is not a fixture") as error:
        report(Reports(), FIXTURES, other)
    assert error.value.rule == "LG11"
    swapped = dataclasses.replace(_result(0), teams=(4, 1))
    with pytest.raises(LeagueError, match="meeting 1 between teams 4 and 1"):
        report(Reports(), FIXTURES, swapped)


def test_the_league_office_corrects_a_report_on_purpose() -> None:
    once = report(Reports(), FIXTURES, _result(0))
    fixed = correct(once, _result(0, home_points=5))
    assert fixed.of(1) == _result(0, home_points=5) and once.of(1) == _result(0)
    assert _result(0, home_points=5).meeting_points == (0, 2)
    with pytest.raises(LeagueError, match="meeting 2 has no report to correct \\(LG9\\)"):
        correct(once, _result(1))
