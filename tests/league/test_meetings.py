"""A meeting per format, worked out by hand: the games its row makes from two line-ups,
their game points, the meeting points, the weighted team average, the handicap; and a
report that does not fit its format, refused."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carom.league import (
    GameResult,
    LeagueError,
    LineUp,
    MeetingResult,
    league_table,
    meeting_format,
    plan_meeting,
    score_meeting,
)
from tests.league.small import fixtures_of, lineup, season_of

Totals = tuple[int, int, int, int, int]
"""(home points, away points, innings of both, home high run, away high run)."""


def _meeting(fmt: str, games: list[Totals], averages: dict[tuple[int, str], Fraction] | None = None,
             ) -> MeetingResult:
    """Team 1 (players 101 …) receives team 4 (players 401 …), each line-up in position order."""
    season = season_of(fmt)
    fixture = fixtures_of(season)[0]
    assert (fixture.home, fixture.away) == (1, 4)
    positions = meeting_format(fmt).positions
    home = lineup(fixture, 1, tuple(101 + k for k in range(positions)))
    away = lineup(fixture, 4, tuple(401 + k for k in range(positions)))
    planned = plan_meeting(meeting_format(fmt), home, away, averages)
    results = [GameResult(g.number, g.players, (hp, ap), (inn, inn), (hr, ar))
               for g, (hp, ap, inn, hr, ar) in zip(planned, games, strict=True)]
    return score_meeting(meeting_format(fmt), fixture, planned, results)


def test_bundesliga_boards_three_and_four_first_a_draw_on_one_board_five_three() -> None:
    m = _meeting("dbu-3c-bundesliga", [(50, 50, 41, 7, 6), (38, 50, 44, 5, 9), (50, 30, 25, 11, 4),
                                       (50, 44, 33, 6, 5)])
    assert [(g.game.round, g.game.players, g.game.targets, g.outcome, g.game_points) for g in m.games] == [
        (1, (103, 403), (50, 50), 0, (1, 1)), (1, (104, 404), (50, 50), -1, (0, 2)),
        (2, (101, 401), (50, 50), 1, (2, 0)), (2, (102, 402), (50, 50), 1, (2, 0))]
    assert (m.game_points, m.meeting_points, m.outcome) == ((5, 3), (2, 0), 1)


def test_second_bundesliga_four_all_is_a_point_each_and_fifty_innings_at_most() -> None:
    m = _meeting("dbu-3c-bundesliga-2", [(40, 31, 38, 5, 4), (35, 38, 50, 4, 5), (40, 22, 30, 6, 3),
                                         (29, 40, 45, 3, 6)])
    assert (m.game_points, m.meeting_points, m.outcome) == ((4, 4), (1, 1), 0)
    with pytest.raises(LeagueError, match="game 2: 51 innings beyond the limit of 50 \\(LG10\\)"):
        _meeting("dbu-3c-bundesliga-2", [(40, 31, 38, 5, 4), (35, 38, 51, 4, 5), (40, 22, 30, 6, 3),
                                         (29, 40, 45, 3, 6)])


def test_oberliga_mehrkampf_the_reported_four_all_and_its_weighted_team_averages() -> None:
    """DBC Bochum - Bfr. Creidlitz 4:4 (Oberliga Vierkampf 2019/20, docs/leagues.md): free game
    39:200 in 4 innings, one-cushion 80:58/17, balkline 47/2 150:49/2, 71/2 25:125/6 (the
    high runs are not in the report; these are made up within the points)."""
    m = _meeting("dbu-mehrkampf-oberliga", [(39, 200, 4, 21, 104), (80, 58, 17, 12, 9), (150, 49, 2, 98, 41),
                                            (25, 125, 6, 14, 63)])
    assert [g.game.discipline for g in m.games] == ["straight-rail", "one-cushion", "balkline-47/2",
                                                    "balkline-71/2"]
    assert (m.game_points, m.meeting_points) == ((4, 4), (1, 1))
    table = league_table(meeting_format("dbu-mehrkampf-oberliga"), [1, 4], [m])
    assert {x.team: x.team_average for x in table} == {1: Fraction(3657, 109), 4: Fraction(4509, 109)}
    assert [x.team for x in table] == [4, 1]  # level on points and games: the weighted average decides


def test_oberliga_mehrkampf_two_six_with_games_ended_by_the_innings_limits() -> None:
    """TuS Kaltehardt - Bfr. Creidlitz 2:6 (the same report): 123:164 in 20 innings, 79:41 in 25."""
    m = _meeting("dbu-mehrkampf-oberliga", [(123, 164, 20, 30, 44), (79, 41, 25, 9, 7), (12, 150, 4, 8, 77),
                                            (39, 125, 13, 12, 40)])
    assert (m.game_points, m.meeting_points) == ((2, 6), (0, 2))


def test_extraliga_lower_boards_play_thirty_points_the_upper_forty() -> None:
    """Jablonec - Kladno A (Extraliga v trojbandu 2017/18, 8th round, docs/leagues.md): board 3
    23:30 in 38 innings, board 4 30:30 in 35, board 2 28:34 at the 40-inning limit; board 1's
    result is not in the report, this one is made up."""
    m = _meeting("cmbs-3c-extraliga", [(23, 30, 38, 4, 5), (30, 30, 35, 4, 4), (40, 35, 33, 6, 5),
                                       (28, 34, 40, 3, 3)])
    assert [g.game.targets for g in m.games] == [(30, 30), (30, 30), (40, 40), (40, 40)]
    assert [g.game_points for g in m.games] == [(0, 2), (1, 1), (2, 0), (0, 2)]
    assert (m.game_points, m.meeting_points) == ((3, 5), (0, 2))
    with pytest.raises(LeagueError, match="game 1: 31 points beyond the target of 30"):
        _meeting("cmbs-3c-extraliga", [(23, 31, 38, 4, 5), (30, 30, 35, 4, 4), (40, 35, 33, 6, 5),
                                       (28, 34, 40, 3, 3)])


AVERAGES = {(101, "straight-rail"): Fraction(4), (401, "straight-rail"): Fraction(2),
            (102, "balkline-52/2"): Fraction(3, 2), (103, "three-cushion"): Fraction(1, 2),
            (403, "three-cushion"): Fraction(2, 5)}


def test_a_handicap_by_average_gives_each_player_their_share_of_the_distance() -> None:
    m = _meeting("club-handicap-mixed", [(100, 60, 25, 14, 9), (80, 70, 21, 12, 10), (20, 16, 40, 3, 2)],
                 AVERAGES)
    # 120 points at 4.0 and 2.0: 120 and 60; 80 at 1.5 and unknown: the full 80 each;
    # 20 three-cushion points at 0.5 and 0.4: 20 and 16.
    assert [g.game.targets for g in m.games] == [(120, 60), (80, 80), (20, 16)]
    # 100 of 120 loses to 60 of 60; 80 beats 70; 20 of 20 and 16 of 16 are level.
    assert [g.outcome for g in m.games] == [-1, 1, 0]
    assert (m.game_points, m.meeting_points) == ((3, 3), (1, 1))
    with pytest.raises(LeagueError, match="game 1: 61 points beyond the target of 60"):
        _meeting("club-handicap-mixed", [(100, 61, 25, 14, 9), (80, 70, 21, 12, 10), (20, 16, 40, 3, 2)],
                 AVERAGES)


def test_without_averages_a_handicap_format_plays_the_full_distance() -> None:
    m = _meeting("club-handicap-mixed", [(120, 90, 25, 14, 9), (60, 80, 21, 12, 10), (20, 20, 40, 3, 2)])
    assert [g.game.targets for g in m.games] == [(120, 120), (80, 80), (20, 20)]
    assert (m.game_points, m.meeting_points) == ((3, 3), (1, 1))


def _two_boards(results: list[GameResult]) -> None:
    season = season_of("club-3c-two-boards")
    fixture = fixtures_of(season)[0]
    fmt = meeting_format("club-3c-two-boards")
    planned = plan_meeting(fmt, lineup(fixture, 1, (101, 102)), lineup(fixture, 4, (401, 402)))
    score_meeting(fmt, fixture, planned, results)


GOOD = GameResult(1, (101, 401), (10, 7), (12, 12), (3, 2))
OTHER = GameResult(2, (102, 402), (9, 10), (15, 15), (2, 3))


@pytest.mark.parametrize(("results", "message"), [
    ([GOOD], "game 2 has 0 results, one is needed"),
    ([GOOD, GOOD, OTHER], "game 1 has 2 results"),
    ([GOOD, OTHER, GameResult(3, (101, 401), (1, 1), (1, 1), (1, 1))], "game 3 is not a game of"),
    ([GOOD, GameResult(2, (402, 102), (9, 10), (15, 15), (2, 3))],
     "game 2: played by 402 and 102, the line-ups put 102 and 402 there"),
    ([GOOD, GameResult(2, (102, 402), (9, 11), (15, 15), (2, 3))], "11 points beyond the target of 10"),
    ([GOOD, GameResult(2, (102, 402), (9, 10), (21, 21), (2, 3))], "21 innings beyond the limit of 20"),
    ([GOOD, GameResult(2, (102, 402), (-1, 10), (15, 15), (0, 3))], "-1 points, 15 innings, high run 0"),
    ([GOOD, GameResult(2, (102, 402), (9, 10), (15, 15), (2, 11))], "10 points, 15 innings, high run 11"),
    ([GOOD, GameResult(2, (102, 402), (9, 10), (13, 15), (2, 3))], "13 and 15 innings"),
])
def test_a_report_that_does_not_fit_the_format_is_refused(results: list[GameResult], message: str) -> None:
    with pytest.raises(LeagueError, match=message) as error:
        _two_boards(results)
    assert error.value.rule == "LG10"


def test_a_report_with_a_player_in_two_games_is_refused() -> None:
    with pytest.raises(LeagueError, match="player 101 plays 2 games of the meeting; 'club-3c-two-boards' "
                                          "allows 1 \\(LG7\\)"):
        _two_boards([GOOD, GameResult(2, (101, 402), (9, 10), (15, 15), (2, 3))])
    season = season_of("club-3c-two-boards")
    fixture = fixtures_of(season)[0]
    with pytest.raises(LeagueError, match="player 101 plays 2 games") as error:
        plan_meeting(meeting_format("club-3c-two-boards"), LineUp(1, 1, (101, 101), fixture.start),
                     lineup(fixture, 4, (401, 402)))
    assert error.value.rule == "LG7"
