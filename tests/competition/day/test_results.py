"""Results on the organiser's desk: withdrawals and no-shows (D8), walkovers (D9), paper
scoresheets (D10), corrections (D11) and unlocking (D12)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from carom.competition.day import DONE, Refused, Result, Settings, apply, group_standings, ranking
from carom.competition.day import records as r
from tests.competition.day.helpers import at, finish, game, key, made, playing, run, win

FOUR = Settings("Four", "three-cushion", "large", 10, None, tables=2)
# Berger tables of 4: round 1 1-4, 2-3; round 2 4-3, 1-2; round 3 2-4, 3-1


def _lines(state: object) -> list[tuple[int, int, int, int, int]]:
    return [(x.rank, x.player, x.played, x.match_points, x.points) for x in group_standings(state, 1)[0][1]]  # type: ignore[arg-type]


def test_a_withdrawn_players_games_are_annulled_and_the_rest_walkovers() -> None:
    state, _ = run(made(FOUR, [1, 2, 3, 4]))
    state = finish(state, key("1.A.1.0"), win(0, 4))  # 1 beats 4, 10:4
    state = apply(state, r.Withdrew(actor="anna", at=at(), player=4, reason="ill"))
    # his game against 3 (round 2) and against 2 (round 3) are walkovers; with "annul" (the
    # default) none of his games count: 1's win over him goes too
    assert game(state, "1.A.2.0").result == Result.walkover_for(1)
    assert game(state, "1.A.2.0").status == DONE and not game(state, "1.A.2.0").counts
    assert not game(state, "1.A.1.0").counts
    assert 4 not in [x.player for x in group_standings(state, 1)[0][1]]
    with pytest.raises(Refused, match=r"player: player 4 has withdrawn already \(D8\)"):
        apply(state, r.Withdrew(actor="anna", at=at(), player=4))


def test_with_count_his_finished_games_count_and_the_rest_are_won_by_walkover() -> None:
    counting = Settings("Four", "three-cushion", "large", 10, None, tables=2, withdrawn_games="count")
    state, _ = run(made(counting, [1, 2, 3, 4]))
    state = finish(state, key("1.A.1.0"), win(0, 4))
    state = apply(state, r.Withdrew(actor="anna", at=at(), player=4))
    state = finish(state, key("1.A.1.1"), win(0, 5))  # 2 beats 3
    for text in ("1.A.2.1", "1.A.3.1"):  # 1-2 and 3-1
        state = finish(state, key(text), win(0, 6))
    # by hand: 1 beat 4 (10:4) and 2 (10:6), lost to 3 (6:10): 4 MP, 26 points in 3 innings;
    # 2 beat 3 (10:5) and 4 (walkover), lost to 1 (6): 4 MP, 16 in 2; 3 beat 1 and 4 (walkover),
    # lost to 2 (5): 4 MP, 15 in 2; 4 lost all, 4 points in his one inning. GD: 26/3 > 8 > 7.5
    assert _lines(state) == [(1, 1, 3, 4, 26), (2, 2, 3, 4, 16), (3, 3, 3, 4, 15), (4, 4, 3, 0, 4)]
    lines = {x.player: x for x in group_standings(state, 1)[0][1]}
    assert lines[3].innings == 2 and lines[3].won == 2  # a walkover adds a win, no points, no innings


def test_a_no_show_is_out_of_the_standings_and_must_not_have_played() -> None:
    state, _ = run(made(FOUR, [1, 2, 3, 4]))
    state = finish(state, key("1.A.1.1"), win(0))  # 2 beats 3
    with pytest.raises(Refused, match=r"no_show: player 2 has played: he withdraws \(not a no-show\) \(D8\)"):
        apply(state, r.Withdrew(actor="anna", at=at(), player=2, no_show=True))
    playing_now = {g.key.text for g in playing(state)}
    assert "1.A.1.0" in playing_now  # 1-4 is on a table
    state = apply(state, r.Withdrew(actor="anna", at=at(), player=4, no_show=True))
    assert game(state, "1.A.1.0").status == DONE  # the table of 1-4 is free again
    # 4 is out of the standings, and 1's game with him does not count: 2 (2 MP), 3 (3 points in
    # his one game), 1 (no game)
    assert _lines(state) == [(1, 2, 1, 2, 10), (2, 3, 1, 0, 3), (3, 1, 0, 0, 0)]


def test_a_knockout_walkover_sends_the_opponent_on() -> None:
    ko = Settings("KO", "three-cushion", "large", 10, None, mode="knockout", tables=2)
    state, _ = run(made(ko, [1, 2, 3, 4]))
    state = apply(state, r.Withdrew(actor="anna", at=at(), player=4))  # seed 4 meets seed 1
    state, _ = run(state)
    assert game(state, "1.K1.1.0").winner == 1
    state = finish(state, key("1.K1.1.1"), win(1))  # 3 beats 2
    state = finish(state, key("1.K1.2.0"), win(0))
    assert ranking(state) == [(1, 1), (2, 3), (3, 2), (3, 4)]


def test_a_walkover_is_given_to_one_player_of_a_game_without_result() -> None:
    state = made(FOUR, [1, 2, 3, 4])
    state = apply(state, r.Walkover(actor="anna", at=at(), game=key("1.A.1.0"), winner=1, reason="1 is late"))
    assert game(state, "1.A.1.0").winner == 4 and key("1.A.1.0") in state.confirmed
    with pytest.raises(Refused, match=r"game: game 1.A.1.0 has a result \(D9\)"):
        apply(state, r.Walkover(actor="anna", at=at(), game=key("1.A.1.0"), winner=0))
    with pytest.raises(Refused, match=r"winner: expected 0 or 1 \(the side\) \(D9\)"):
        apply(state, r.Walkover(actor="anna", at=at(), game=key("1.A.1.1"), winner=2))


def test_a_paper_scoresheet_innings_by_innings_or_in_totals() -> None:
    state, _ = run(made(FOUR, [1, 2, 3, 4]))
    sheet = Result.from_series([[3, 0, 7], [2, 5, 1]])
    assert (sheet.points, sheet.innings, sheet.high_run, sheet.winner) == ((10, 8), (3, 3), (7, 5), 0)
    state = apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.1.0"), result=sheet))
    assert game(state, "1.A.1.0").status == DONE and key("1.A.1.0") in state.confirmed
    assert not any(g.key.text == "1.A.1.0" for g in playing(state))  # its table is free
    totals = Result.totals((7, 10), (4, 4), (3, 4))
    state = apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.1.1"), result=totals))
    lines = {x.player: x for x in group_standings(state, 1)[0][1]}
    assert lines[1].general_average == Fraction(10, 3) and lines[3].best_average == Fraction(10, 4)
    with pytest.raises(Refused, match=r"game: game 1.A.1.0 has a result: correct it instead \(D10\)"):
        apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.1.0"), result=sheet))
    over = Result.totals((12, 3), (2, 2), (8, 2))
    with pytest.raises(Refused, match=r"points\[0\]: more than the game's limit of 10 \(E1\)"):
        apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.2.0"), result=over))
    with pytest.raises(Refused, match=r"innings: the players' innings differ by more than one \(E2\)"):
        apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.2.0"),
                                     result=Result.totals((10, 3), (2, 5), (8, 2))))


@pytest.mark.parametrize(("make", "message"), [
    (lambda: Result.totals((10, 3), (0, 1), (5, 3)), r"innings\[0\]: a game played has at least one inning"),
    (lambda: Result.totals((10, 3), (2, 2), (4, 3)),
     r"high_run\[0\]: 10 points in 2 innings need a series of at least 5"),
    (lambda: Result.totals((10, 3), (2, 2), (11, 3)),
     r"high_run\[0\]: the high series is more than the points"),
    (lambda: Result.totals((10, 3), (2, 2), (8, 3), winner=1), "winner: side 1 has fewer points"),
    (lambda: Result.from_series([[1, 2]]), "series: expected the two players' series"),
    (lambda: Result.from_series([[1, -2], [3]]), r"series\[0\]\[1\]: expected a whole number"),
])
def test_a_scoresheet_that_cannot_be_is_refused_naming_the_field(make: object, message: str) -> None:
    with pytest.raises(Refused, match=message):
        make()  # type: ignore[operator]


def test_a_drawn_knockout_game_from_paper_names_its_winner() -> None:
    ko = Settings("KO", "three-cushion", "large", 10, None, mode="knockout")
    state = made(ko, [1, 2])
    level = Result.totals((10, 10), (5, 5), (4, 4))
    with pytest.raises(Refused, match=r"winner: a knock-out game needs a winner: name the one who won the "
                                      r"shoot-out \(P1\)"):
        apply(state, r.ResultEntered(actor="anna", at=at(), game=key("1.K1.1.0"), result=level))
    state = apply(state, r.ResultEntered(actor="anna", at=at(), game=key("1.K1.1.0"),
                                         result=Result.totals((10, 10), (5, 5), (4, 4), winner=1)))
    assert game(state, "1.K1.1.0").winner == 2


def test_a_confirmed_game_is_corrected_only_once_unlocked_and_with_a_reason() -> None:
    state, _ = run(made(FOUR, [1, 2, 3, 4]))
    state = apply(state, r.ResultEntered(actor="boris", at=at(), game=key("1.A.1.0"),
                                         result=Result.totals((10, 4), (3, 3), (5, 2))))
    fixed = Result.totals((10, 6), (3, 3), (5, 3))
    with pytest.raises(Refused, match=r"game: game 1.A.1.0 is confirmed: unlock it first \(D12\)"):
        apply(state, r.ResultCorrected(actor="anna", at=at(), game=key("1.A.1.0"), result=fixed, reason="6"))
    with pytest.raises(Refused, match=r"reason: expected why"):
        apply(state, r.GameUnlocked(actor="anna", at=at(), game=key("1.A.1.0"), reason=" "))
    state = apply(state, r.GameUnlocked(actor="anna", at=at(), game=key("1.A.1.0"), reason="sheet misread"))
    state = apply(state, r.ResultCorrected(actor="anna", at=at(), game=key("1.A.1.0"), result=fixed,
                                           reason="4 made 6, not 4"))
    assert game(state, "1.A.1.0").result == fixed and key("1.A.1.0") in state.confirmed  # locked again
    assert state.taken[key("1.A.1.0")].source == "correction"
    with pytest.raises(Refused, match=r"game: game 1.A.1.1 has no result to correct: enter its result "
                                      r"instead \(D11\)"):
        apply(state, r.ResultCorrected(actor="anna", at=at(), game=key("1.A.1.1"), result=fixed, reason="x"))
    with pytest.raises(Refused, match=r"game: game 1.A.1.1 is not confirmed \(D12\)"):
        apply(state, r.GameUnlocked(actor="anna", at=at(), game=key("1.A.1.1"), reason="x"))


def test_a_correction_cannot_change_who_went_on_once_that_was_used() -> None:
    ko = Settings("KO", "three-cushion", "large", 10, None, mode="knockout", tables=2)
    state, _ = run(made(ko, [1, 2, 3, 4]))
    state = finish(state, key("1.K1.1.0"), win(0))  # 1 beats 4
    state = finish(state, key("1.K1.1.1"), win(0))  # 2 beats 3: the final 1-2 is called
    assert [g.key.text for g in playing(state)] == ["1.K1.2.0"]
    turned = Result.totals((8, 10), (1, 1), (8, 10))
    with pytest.raises(Refused, match=r"result: game 1.K1.1.0: game 1.K1.2.0 is already played or on a table "
                                      r"with its players \(D11\)"):
        apply(state, r.ResultCorrected(actor="anna", at=at(), game=key("1.K1.1.0"), result=turned,
                                       reason="x"))
    same_winner = Result.totals((10, 7), (1, 1), (10, 7))  # the loser's points only: allowed
    state = apply(state, r.ResultCorrected(actor="anna", at=at(), game=key("1.K1.1.0"), result=same_winner,
                                           reason="4 made 7"))
    assert game(state, "1.K1.1.0").result == same_winner
