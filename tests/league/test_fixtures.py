"""A division's meetings: the double round robin and the check of a fixture list."""

from __future__ import annotations

from collections import Counter
from datetime import datetime, timedelta
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.league import Fixture, LeagueError, check_fixtures, double_round_robin, rounds_of

START = datetime(2025, 9, 6, 14, 0)


def _days(n: int) -> list[datetime]:
    return [START + timedelta(weeks=w) for w in range(rounds_of(n))]


@settings(deadline=None)
@given(st.integers(min_value=2, max_value=14))
def test_every_team_meets_every_other_home_and_away_once(n: int) -> None:
    teams = list(range(10, 10 + n))
    fixtures = double_round_robin("d", teams, _days(n))
    pairs = Counter((f.home, f.away) for f in fixtures)
    assert set(pairs) == set(permutations(teams, 2)) and set(pairs.values()) == {1}
    for day in range(1, rounds_of(n) + 1):
        playing = [t for f in fixtures if f.round == day for t in (f.home, f.away)]
        assert len(playing) == len(set(playing)) == 2 * (n // 2)
        assert {f.start for f in fixtures if f.round == day} == {START + timedelta(weeks=day - 1)}
    half = rounds_of(n) // 2
    first = [(f.round, f.home, f.away) for f in fixtures if f.round <= half]
    second = [(f.round - half, f.away, f.home) for f in fixtures if f.round > half]
    assert first == second
    assert [f.id for f in fixtures] == list(range(1, len(fixtures) + 1))
    check_fixtures("d", teams, fixtures)


def test_four_teams_play_six_match_days_three_at_home() -> None:
    fixtures = double_round_robin("d", [1, 2, 3, 4], _days(4))
    assert rounds_of(4) == 6 and rounds_of(5) == 10 and rounds_of(1) == 0
    assert [(f.round, f.home, f.away) for f in fixtures][:4] == [(1, 1, 4), (1, 2, 3), (2, 4, 3), (2, 1, 2)]
    assert all(sum(f.home == t for f in fixtures) == 3 for t in (1, 2, 3, 4))


def test_the_dates_must_be_one_a_match_day() -> None:
    with pytest.raises(LeagueError, match="4 teams play 6 match days, 5 dates are given") as error:
        double_round_robin("d", [1, 2, 3, 4], _days(4)[:5])
    assert error.value.rule == "LG11"


def _change(index: int, **fields: object) -> list[Fixture]:
    fixtures = list(double_round_robin("d", [1, 2, 3, 4], _days(4)))
    old = fixtures[index]
    fixtures[index] = Fixture(old.id, old.division, int(fields.get("round", old.round)),  # type: ignore[call-overload]
                              int(fields.get("home", old.home)), int(fields.get("away", old.away)),  # type: ignore[call-overload]
                              old.start)
    return fixtures


@pytest.mark.parametrize(("fixtures", "message"), [
    (_change(0, home=9), "meeting 1: team 9 is not in division 'd'"),
    (_change(0, away=1), "meeting 1: team 1 would meet itself"),
    (_change(0, home=2, away=3), "team 2 receives team 3 2 times"),
    (_change(2, round=1), "plays 2 meetings on match day 1"),
    (list(double_round_robin("d", [1, 2, 3, 4], _days(4)))[:-1], "team 1 never receives team 3"),
])
def test_a_fixture_list_that_is_no_double_round_robin_is_refused(fixtures: list[Fixture],
                                                                  message: str) -> None:
    with pytest.raises(LeagueError, match=message) as error:
        check_fixtures("d", [1, 2, 3, 4], fixtures)
    assert error.value.rule == "LG11"


def test_an_incomplete_list_passes_while_it_is_being_read() -> None:
    fixtures = list(double_round_robin("d", [1, 2, 3, 4], _days(4)))[:-1]
    check_fixtures("d", [1, 2, 3, 4], fixtures, complete=False)
