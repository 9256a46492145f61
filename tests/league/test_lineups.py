"""Line-ups checked against the roster, the substitutes the format allows, the deadline
and the format's positions, games per player and order; and who sees them when."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta
from fractions import Fraction

import pytest

from carom.league import (
    Club,
    Division,
    Fixture,
    LeagueError,
    LineUp,
    Season,
    Team,
    check_lineup,
    half_of,
    visible_lineups,
)
from tests.league.small import fixtures_of, lineup, season_of

# Club 1 has three teams: 1 (its 1st, in division "a"), 2 (2nd) and 3 (3rd), both in "b";
# club 2 has team 4 in "a" and team 5 in "b"; clubs 3 and 4 fill division "a" to four teams.
SEASON = Season(
    "test league", "2025/26",
    (Division("a", "A", "club-3c-two-boards", down="b"), Division("b", "B", "club-3c-two-boards", up="a")),
    (Club(1, "One"), Club(2, "Two"), Club(3, "Three"), Club(4, "Four")),
    (Team(1, 1, "One 1", "a"), Team(4, 2, "Two 1", "a"), Team(6, 3, "Three 1", "a"),
     Team(7, 4, "Four 1", "a"), Team(2, 1, "One 2", "b", 2), Team(3, 1, "One 3", "b", 3),
     Team(5, 2, "Two 2", "b", 2)),
    {1: (11, 12), 4: (41, 42), 6: (61, 62), 7: (71, 72), 2: (21, 22), 3: (31, 32), 5: (51, 52)})
START = datetime(2025, 9, 6, 14, 0)
MEETING = Fixture(1, "a", 1, 1, 4, START)


def _refused(rule: str, message: str, players: tuple[int, ...], team: int = 1, fixture: Fixture = MEETING,
             earlier: tuple[tuple[Fixture, LineUp], ...] = (), season: Season = SEASON,
             when: datetime = START - timedelta(hours=1)) -> None:
    with pytest.raises(LeagueError, match=message) as error:
        check_lineup(season, fixture, LineUp(fixture.id, team, players, when), earlier)
    assert error.value.rule == rule


def test_a_line_up_of_the_roster_in_time_is_taken() -> None:
    check_lineup(SEASON, MEETING, LineUp(1, 1, (12, 11), START))
    check_lineup(SEASON, MEETING, LineUp(1, 4, (41, 42), START - timedelta(days=3)))


def test_a_line_up_after_the_deadline_is_refused() -> None:
    _refused("LG5", "line-up of 'One 1': in at 2025-09-06 14:01, the deadline was 2025-09-06 14:00", (11, 12),
             when=START + timedelta(minutes=1))


def test_a_format_with_a_deadline_an_hour_before() -> None:
    season = season_of("club-handicap-mixed", players=3)
    fixture = fixtures_of(season)[0]
    check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 102, 103), hours_before=1))
    with pytest.raises(LeagueError, match="the deadline was 2025-09-06 13:00 \\(LG5\\)"):
        check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 102, 103), hours_before=0.5))


def test_a_player_of_another_club_or_of_no_roster_is_refused() -> None:
    _refused("LG3", "player 41 is on the roster of 'Two 1'; 'club-3c-two-boards' allows substitutes from up "
                    "to 1 lower teams of the club", (11, 41))
    _refused("LG3", "player 99 is on no roster of the season", (11, 99))


def test_a_substitute_comes_from_the_next_team_down_only() -> None:
    check_lineup(SEASON, MEETING, LineUp(1, 1, (11, 21), START))          # One 2 stands in for One 1
    _refused("LG3", "player 31 is on the roster of 'One 3'", (11, 31))  # One 3 is two teams down
    b = Fixture(2, "b", 1, 2, 5, START)
    _refused("LG3", "player 11 is on the roster of 'One 1'", (21, 11), team=2, fixture=b)  # never upwards


def test_a_format_without_substitutes_allows_none() -> None:
    rosters = {t.id: tuple(range(10 * t.id + 1, 10 * t.id + 5)) for t in SEASON.teams}
    divisions = (Division("a", "A", "dbu-3c-bundesliga-2"), Division("b", "B", "dbu-3c-bundesliga-2"))
    season = dataclasses.replace(SEASON, divisions=divisions, rosters=rosters)
    _refused("LG3", "'dbu-3c-bundesliga-2' allows no substitutes", (11, 12, 13, 21), season=season)


def test_a_substitute_stands_in_twice_a_half_of_the_season() -> None:
    days = [Fixture(n, "a", n, 1, 4, START + timedelta(weeks=n)) for n in (1, 2, 3)]
    twice = tuple((f, LineUp(f.id, 1, (11, 21), f.start)) for f in days[:2])
    _refused("LG4", "player 21 has stood in 2 times in this half of the season; 'club-3c-two-boards' "
                    "allows 2", (11, 21), fixture=days[2], earlier=twice)
    second_half = Fixture(4, "a", 4, 4, 1, START + timedelta(weeks=10))
    assert [half_of(SEASON, f) for f in (*days, second_half)] == [1, 1, 1, 2]
    check_lineup(SEASON, second_half, LineUp(4, 1, (11, 21), START), twice)  # a new half: twice again
    first_half = tuple((f, LineUp(f.id, 1, (11, 21), f.start)) for f in days[:1])
    check_lineup(SEASON, days[1], LineUp(2, 1, (11, 21), START), first_half)  # once so far: fine
    own = tuple((f, LineUp(f.id, 2, (21, 22), f.start)) for f in days)  # for one's own team: not counted
    check_lineup(SEASON, days[2], LineUp(3, 1, (11, 21), START), own)


def test_a_line_up_for_a_team_not_in_the_meeting_or_short_of_a_player_is_refused() -> None:
    _refused("LG6", "team 2 does not play meeting 1", (21, 22), team=2)
    _refused("LG6", "line-up of 'One 1': 1 players for the 2 positions of 'club-3c-two-boards'", (11,))
    _refused("LG6", "3 players for the 2 positions", (11, 12, 21))


def test_a_player_in_two_games_of_a_meeting_is_refused() -> None:
    _refused("LG7", "line-up of 'One 1': player 11 would play 2 games; 'club-3c-two-boards' allows 1",
             (11, 11))


def test_a_line_up_out_of_the_order_of_averages_is_refused() -> None:
    season = season_of("cmbs-3c-extraliga", players=5)
    fixture = fixtures_of(season)[0]
    averages = {101: Fraction(9, 10), 102: Fraction(8, 10), 103: Fraction(8, 10), 104: Fraction(1, 2)}
    check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 103, 102, 104)), averages=averages)
    check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 102, 104, 105)), averages=averages)
    with pytest.raises(LeagueError, match="player 102 \\(position 3\\) has a better average than player 104 "
                                          "\\(position 2\\) \\(LG8\\)"):
        check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 104, 102, 103)), averages=averages)
    with pytest.raises(LeagueError, match="player 104 \\(position 3\\) has a better average than player 105"):
        check_lineup(season, fixture, lineup(fixture, fixture.home, (101, 105, 104, 103)), averages=averages)


def test_each_captain_sees_the_other_line_up_only_when_both_are_in() -> None:
    home, away = LineUp(1, 1, (11, 12), START), LineUp(1, 4, (41, 42), START)
    other = LineUp(2, 2, (21, 22), START)
    assert visible_lineups([home, other], MEETING, 1) == (home,)
    assert visible_lineups([home, other], MEETING, 4) == ()
    assert visible_lineups([home], MEETING, None) == ()
    assert visible_lineups([away, home, other], MEETING, None) == (away, home)
    assert visible_lineups([away, home], MEETING, 4) == (away, home)


def test_a_line_up_for_another_meeting_is_refused() -> None:
    with pytest.raises(LeagueError, match="a line-up for meeting 2 given for meeting 1 \\(LG6\\)"):
        check_lineup(SEASON, MEETING, LineUp(2, 1, (11, 12), START))
