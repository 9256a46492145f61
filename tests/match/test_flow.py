"""The flow of a match: innings and series (C2, C3), the end of a game (E1–E3), sets
(E4–E6), draws, undo. Each test names the rule it holds the engine to."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.table import TABLES
from carom.match.stats import player_stats
from tests.helpers import header, play

LARGE = TABLES["large"]


def scores(result) -> list[int]:  # type: ignore[no-untyped-def]
    return [p.points for p in player_stats(result.state)]


def test_c2_c3_a_carom_scores_one_and_the_striker_goes_on() -> None:
    r = play(header(), "opener 0", "carom", "carom", "miss")
    assert [x.points for x in r.rulings] == [1, 1, 0]
    assert [x.next for x in r.rulings] == [0, 0, 1]
    assert r.state.high_run == (2, 0)


def test_c3_a_fault_ends_the_inning_and_f14_keeps_earlier_caroms() -> None:
    """F14: the fault voids only its own stroke; the series before it stands."""
    r = play(header(), "opener 0", "carom", "carom", "foul F4")
    assert scores(r) == [2, 0]
    assert r.rulings[-1].fouls == ("F4",) and r.rulings[-1].next == 1


@pytest.mark.rule("O1")
def test_o1_the_opener_plays_white_the_other_yellow() -> None:
    r = play(header(), "opener 1")
    assert r.state.ball_of(1) is Ball.WHITE
    assert r.state.ball_of(0) is Ball.YELLOW
    assert r.state.position is not None and r.state.position[Ball.WHITE] == LARGE.starting_spots[1]


def test_e1_points_limit_with_e3_equalizing_inning_from_the_starting_position() -> None:
    r = play(header(points=3), "opener 0", "inning 3")
    last = r.rulings[-1]
    assert last.next == 1 and not r.state.finished
    assert last.spot == {Ball.YELLOW: LARGE.starting_spots[1], Ball.WHITE: LARGE.bottom_spot,
                         Ball.RED: LARGE.top_spot}
    assert "E3" in last.cites
    r = play(header(points=3), "opener 0", "inning 3", "inning 1")
    assert r.state.finished and r.state.winner == 0
    assert [p.innings for p in player_stats(r.state)] == [1, 1]  # E2


def test_e3_draw_when_the_equalizing_inning_reaches_the_limit() -> None:
    r = play(header(points=3), "opener 0", "inning 3", "inning 3")
    assert r.state.finished and r.state.winner is None
    assert [p.match_points for p in player_stats(r.state)] == [1, 1]


def test_e3_the_second_player_reaching_the_limit_ends_the_game_at_once() -> None:
    r = play(header(points=3), "opener 0", "miss", "inning 3")
    assert r.state.finished and r.state.winner == 1
    assert r.rulings[-1].spot is None


def test_e3_without_equalizing_inning_the_opener_wins_at_the_limit() -> None:
    r = play(header(points=3, equalizing=False), "opener 0", "inning 3")
    assert r.state.finished and r.state.winner == 0
    assert [p.innings for p in player_stats(r.state)] == [1, 0]


@pytest.mark.rule("E1", "E2", "E3")
def test_e1_e2_innings_limit_equal_innings_and_equalizing_start() -> None:
    r = play(header(points=None, innings=2), "opener 0", "inning 1", "inning 2", "inning 4")
    assert not r.state.finished
    assert r.rulings[-1].spot is not None and r.state.last_inning  # E3 at the innings limit
    r = play(header(points=None, innings=2), "opener 0", "inning 1", "inning 2", "inning 4", "inning 0")
    assert r.state.finished and r.state.winner == 0
    assert [p.innings for p in player_stats(r.state)] == [2, 2]


@pytest.mark.rule("E2")
def test_e2_innings_limit_without_equalizing_inning_still_gives_equal_innings() -> None:
    r = play(header(points=None, innings=1, equalizing=False), "opener 0", "inning 4")
    assert not r.state.finished and r.rulings[-1].spot is None
    r = play(header(points=None, innings=1, equalizing=False), "opener 0", "inning 4", "inning 4")
    assert r.state.finished and r.state.winner is None


def test_e1_record_after_the_match_ended_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 5: a call record after the match ended"):
        play(header(points=3), "opener 0", "inning 3", "inning 1", "carom")


def test_e1_more_points_than_remain_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: a series of 4 with only 3 points left"):
        play(header(points=3), "opener 0", "inning 4")


def test_e1_series_stops_at_the_limit() -> None:
    r = play(header(points=2), "opener 0", "carom", "carom")
    assert r.rulings[-1].next == 1 and r.rulings[-1].ends_inning


@pytest.mark.rule("E4")
def test_e4_a_set_ends_at_once_without_equalizing_inning() -> None:
    r = play(header(points=2, sets=2), "opener 0", "carom", "carom")
    assert r.state.sets_won == (1, 0) and r.state.set_no == 2
    assert r.state.innings == (0, 0) and r.state.games[0].innings == (1, 0)  # no equalizing inning
    assert r.rulings[-1].next == 1 and "E4" in r.rulings[-1].cites  # E6: the other player opens set 2


def test_e6_set_openers_alternate_and_each_set_starts_from_the_starting_position() -> None:
    r = play(header(points=1, sets=2), "opener 0", "carom", "carom", "miss", "carom")
    assert [x.player for x in r.rulings] == [0, 1, 0, 1]
    assert r.state.sets_won == (1, 2) and r.state.finished and r.state.winner == 1
    spot = r.rulings[0].spot
    assert spot is not None and spot[Ball.YELLOW] == LARGE.starting_spots[1]  # player 1 plays yellow
    assert "E6" in r.rulings[0].cites


def test_e5_innings_limited_set_last_inning_from_the_starting_position() -> None:
    r = play(header(points=5, innings=2, sets=2), "opener 0", "inning 1", "inning 0", "inning 1")
    last = r.rulings[-1]
    assert last.next == 1 and "E5" in last.cites and last.spot is not None
    r = play(header(points=5, innings=2, sets=2), "opener 0", "inning 1", "inning 0", "inning 1",
             "inning 3")
    assert r.state.sets_won == (0, 1) and r.state.set_no == 2


def test_e5_a_set_level_at_its_innings_limit_is_won_by_neither() -> None:
    r = play(header(points=5, innings=1, sets=1), "opener 0", "inning 2", "inning 2")
    assert r.state.sets_won == (0, 0) and r.state.set_no == 2 and not r.state.finished
    assert r.state.games[0].winner is None


def test_statistics_average_is_exact_and_best_game_average() -> None:
    r = play(header(points=2, sets=2), "opener 0",
             "miss", "carom", "carom",            # set 1: player 1 wins, 2 in 1 inning
             "miss", "inning 2",                  # set 2 (player 1 opens, E6): player 0 wins
             "inning 1", "miss", "inning 1")      # set 3: player 0 wins the match
    a, b = player_stats(r.state)
    assert r.state.finished and r.state.winner == 0 and r.state.sets_won == (2, 1)
    assert (a.points, a.innings, a.average, a.best_game_average) == (4, 4, Fraction(1), Fraction(2))
    assert (b.points, b.innings, b.average, b.best_game_average) == (2, 3, Fraction(2, 3), Fraction(2))
    assert (a.match_points, b.match_points) == (2, 0)


def test_undo_withdraws_the_latest_record_again_and_again() -> None:
    r = play(header(), "opener 0", "carom", "carom", "undo", "undo", "miss")
    assert [x.line for x in r.rulings] == [7]
    assert r.state.striker == 1 and scores(r) == [0, 0]


def test_undo_can_withdraw_the_opener_and_the_lag() -> None:
    r = play(header(), {"type": "lag", "collided": False, "results": [
        {"top": True, "red": False, "y": 0.2, "crossed": False},
        {"top": True, "red": False, "y": 0.3, "crossed": False}]}, "undo", "opener 1")
    assert r.state.lag_winner is None and r.state.opener == 1


def test_undo_with_nothing_to_withdraw_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 4: an undo with nothing left to withdraw"):
        play(header(), "opener 0", "undo", "undo")


def test_an_inning_record_in_the_middle_of_an_inning_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 4: an inning record in the middle of an inning"):
        play(header(), "opener 0", "carom", "inning 2")


def test_records_before_the_opener_are_refused() -> None:
    with pytest.raises(RecordError, match=r"line 2: a call record before the opener"):
        play(header(), "carom")
    with pytest.raises(RecordError, match=r"line 2: a respot record before the opener"):
        play(header(), "respot")


def test_second_opener_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: the opener is already decided"):
        play(header(), "opener 0", "opener 1")


@pytest.mark.rule("S1")
def test_s1_straight_rail_series_runs_to_the_points_limit() -> None:
    """S1: any number of caroms in an inning, up to the points limit (and no further)."""
    r = play(header("straight-rail", points=300), "opener 0", *(["carom"] * 250), "miss")
    assert r.state.high_run == (250, 0) and r.rulings[249].next == 0
    r = play(header("straight-rail", points=40), "opener 0", *(["carom"] * 40))
    assert r.rulings[-1].next == 1 and r.state.score == (40, 0)
