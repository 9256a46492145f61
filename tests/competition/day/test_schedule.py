"""The schedule on the tables: calls (D5), moves, swaps and postponements (D6), start
times (D7), results taken from matches and given back (D14), each table's now and next."""

from __future__ import annotations

from datetime import timedelta

import pytest

from carom.competition.day import DONE, WAITING, MatchView, Refused, Settings, apply, day_games, tables
from carom.competition.day import records as r
from carom.competition.day.schedule import calls_now
from tests.competition.day.helpers import T0, at, finish, game, key, made, playing, run, win

FIVE = Settings("Five", "three-cushion", "large", 10, None, tables=2)


def test_the_start_calls_the_first_games_to_the_free_tables() -> None:
    state, done = run(made(FIVE, [1, 2, 3, 4, 5]))
    # Berger tables of 5 (6 the bye): round 1 is 2-5 and 3-4 (1 rests)
    assert [(rec.game.text, rec.table) for rec in done if isinstance(rec, r.GameCalled)] == [
        ("1.A.1.1", 1), ("1.A.1.2", 2)]
    assert [g.players for g in playing(state)] == [(2, 5), (3, 4)]
    assert run(state)[1] == []  # nothing more is due: both tables play


def test_a_call_needs_a_waiting_game_a_free_table_and_free_players() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    with pytest.raises(Refused, match=r"game: game 1.A.1.1 is playing, not waiting \(D5\)"):
        apply(state, r.GameCalled(actor="anna", at=at(), game=key("1.A.1.1"), table=1))
    fresh, _ = run(made(Settings("Five", "three-cushion", "large", 10, None, tables=3), [1, 2, 3, 4, 5]))
    # table 3 stays free: every other game has a player who is playing (1 rests)
    assert [g.table for g in playing(fresh)] == [1, 2]
    with pytest.raises(Refused, match=r"table: table 1 is playing game 1.A.1.1 \(D5\)"):
        apply(fresh, r.GameCalled(actor="anna", at=at(), game=key("1.A.2.2"), table=1))
    with pytest.raises(Refused, match=r"game: game 1.A.2.2: a player is playing game 1.A.1.1 \(D5\)"):
        apply(fresh, r.GameCalled(actor="anna", at=at(), game=key("1.A.2.2"), table=3))
    with pytest.raises(Refused, match="table: expected a table from 1 to 3"):
        apply(fresh, r.GameCalled(actor="anna", at=at(), game=key("1.A.2.2"), table=4))
    with pytest.raises(Refused, match=r"game: no game 1.A.2.0"):  # the bye's board of round 2
        apply(fresh, r.GameCalled(actor="anna", at=at(), game=key("1.A.2.0"), table=3))
    unplayed = apply(made(FIVE, [1, 2, 3, 4, 5]), r.GameCalled(actor="anna", at=at(), game=key("1.A.1.1"),
                                                               table=1, match=7))
    with pytest.raises(Refused, match="match: match 7 is another game's"):
        apply(unplayed, r.GameCalled(actor="anna", at=at(), game=key("1.A.1.2"), table=2, match=7))


def test_a_finished_match_frees_its_table_for_the_next_game() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    state = finish(state, key("1.A.1.1"), win(0))
    assert game(state, "1.A.1.1").status == DONE and game(state, "1.A.1.1").winner == 2
    # table 1 is free: the first waiting game whose players are free (5-3 waits for 3), even
    # with a player who has just played, since no rested pair can play
    assert [(g.key.text, g.players, g.table) for g in playing(state)] == [("1.A.1.2", (3, 4), 2),
                                                                         ("1.A.2.2", (1, 2), 1)]


def test_a_game_moves_to_a_free_table() -> None:
    state, _ = run(made(Settings("Six", "three-cushion", "large", 10, None, tables=3), [1, 2, 3, 4, 5, 6]))
    assert [(g.players, g.table) for g in playing(state)] == [((1, 6), 1), ((2, 5), 2), ((3, 4), 3)]
    state = finish(state, key("1.A.1.0"), win(0))
    assert [g.table for g in playing(state)] == [2, 3]  # 1 and 6 have met; the others play
    with pytest.raises(Refused, match=r"table: table 2 is playing game 1.A.1.1 \(D5\)"):
        apply(state, r.GameMoved(actor="anna", at=at(), game=key("1.A.1.2"), table=2))
    with pytest.raises(Refused, match=r"game 1.A.1.0 is done: only a game on a table moves"):
        apply(state, r.GameMoved(actor="anna", at=at(), game=key("1.A.1.0"), table=3))
    with pytest.raises(Refused, match=r"table: game 1.A.1.2 is on table 3 already \(D6\)"):
        apply(state, r.GameMoved(actor="anna", at=at(), game=key("1.A.1.2"), table=3))
    state = apply(state, r.GameMoved(actor="anna", at=at(), game=key("1.A.1.2"), table=1))
    assert [(g.key.text, g.table) for g in playing(state)] == [("1.A.1.1", 2), ("1.A.1.2", 1)]
    assert tables(state)[2].now is None  # table 3 is free


def test_two_waiting_games_swap_places_and_a_postponed_game_goes_last() -> None:
    state = made(FIVE, [1, 2, 3, 4, 5])
    order = [g.key.text for g in day_games(state)]
    state = apply(state, r.GamesSwapped(actor="anna", at=at(), first=key(order[0]), second=key(order[3])))
    swapped = [g.key.text for g in day_games(state)]
    assert swapped[0] == order[3] and swapped[3] == order[0]
    state = apply(state, r.GamePostponed(actor="anna", at=at(), game=key(order[1])))
    assert [g.key.text for g in day_games(state)][-1] == order[1]
    state, done = run(state)
    # 1-2 first, then 5-3 (3-4 waits at the end)
    assert [(rec.game.text, rec.table) for rec in done] == [("1.A.2.2", 1), ("1.A.2.1", 2)]
    with pytest.raises(Refused, match=r"swap two waiting games or two games on tables \(D6\)"):
        apply(state, r.GamesSwapped(actor="anna", at=at(), first=key("1.A.2.2"), second=key("1.A.1.1")))
    with pytest.raises(Refused, match=r"only a waiting game is postponed \(D6\)"):
        apply(state, r.GamePostponed(actor="anna", at=at(), game=key("1.A.2.2")))


def test_two_games_on_tables_swap_tables() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    a, b = playing(state)
    state = apply(state, r.GamesSwapped(actor="anna", at=at(), first=a.key, second=b.key))
    assert (game(state, a.key.text).table, game(state, b.key.text).table) == (b.table, a.table)


def test_a_start_time_holds_a_game_back_until_it_comes() -> None:
    state = made(FIVE, [1, 2, 3, 4, 5])
    later = T0 + timedelta(hours=3)
    state = apply(state, r.RoundScheduled(actor="anna", at=at(), stage=1, round=1, start=later))
    assert calls_now(state, T0 + timedelta(hours=1)) == []  # round 1 waits for 21:00
    first = next(g for g in day_games(state) if g.key.round == 1)
    state = apply(state, r.GameScheduled(actor="anna", at=at(), game=first.key, table=2, start=T0))
    assert calls_now(state, T0 + timedelta(hours=1)) == [(2, first.key)]  # its own time, its own table
    assert len(calls_now(state, later)) == 2
    with pytest.raises(Refused, match=r"start: expected a time with its offset from UTC \(D7\)"):
        naive = later.replace(tzinfo=None)
        apply(state, r.RoundScheduled(actor="anna", at=at(), stage=1, round=2, start=naive))
    with pytest.raises(Refused, match=r"group: expected a group from 1 to 1 \(D7\)"):
        apply(state, r.RoundScheduled(actor="anna", at=at(), stage=1, round=1, group=2, start=later))


def test_each_table_shows_its_game_and_the_next() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    views = tables(state)
    assert [(v.number, v.now.players if v.now else None) for v in views] == [(1, (2, 5)), (2, (3, 4))]
    assert all(v.next is not None and v.next.status == WAITING for v in views)
    assert views[0].since is not None


def test_a_finished_game_goes_on_until_its_table_moves_on() -> None:
    state, _ = run(made(Settings("Three", "three-cushion", "large", 10, None, tables=1), [1, 2, 3]))
    (first,) = playing(state)
    # the match finished, but the next game is held back by its start time: nothing moved on yet
    tomorrow = T0 + timedelta(days=1)
    state = apply(state, r.RoundScheduled(actor="anna", at=at(), stage=1, round=2, start=tomorrow))
    state, _ = run(state, {first.key: MatchView(True, win(0))}, now=T0)
    assert game(state, first.key.text).status == DONE and not playing(state)
    # its last stroke is undone: the match goes on, and so does the game
    state, done = run(state, {first.key: MatchView(False, None)}, now=T0)
    assert [type(x).__name__ for x in done] == ["GameResumed"] and playing(state)[0].key == first.key
    # finished again; the next round's time comes and its table moves on: no going back now
    state, _ = run(state, {first.key: MatchView(True, win(0))}, now=T0 + timedelta(days=2))
    assert playing(state) and playing(state)[0].key != first.key
    with pytest.raises(Refused, match=r"table 1 has moved on to game .* \(D14\)"):
        apply(state, r.GameResumed(actor="schedule", at=at(), game=first.key))
    assert run(state, {first.key: MatchView(False, None)}, now=T0 + timedelta(days=2))[1] == []


def test_a_confirmed_match_confirms_its_game() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    a = playing(state)[0]
    state, done = run(state, {a.key: MatchView(True, win(1), confirmed=True)})
    assert [type(x).__name__ for x in done][:2] == ["GameFinished", "GameConfirmed"]
    assert a.key in state.confirmed


def test_an_unlocked_game_is_not_confirmed_again_by_its_confirmed_match() -> None:
    state, _ = run(made(FIVE, [1, 2, 3, 4, 5]))
    a = playing(state)[0]
    confirmed = {a.key: MatchView(True, win(1), confirmed=True)}
    state, _ = run(state, confirmed)
    state = apply(state, r.GameUnlocked(actor="anna", at=at(), game=a.key, reason="to correct it"))
    state, done = run(state, confirmed)
    assert not any(isinstance(x, r.GameConfirmed) for x in done) and a.key not in state.confirmed
