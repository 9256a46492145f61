"""Stages, knock-outs and late entries: a stage feeds the next with its direct entrants
and qualifiers (D13, the UMB World Cup's shape), the third-place and placement games,
late entries before the player's first game would be called (D2)."""

from __future__ import annotations

import pytest

from carom.competition.day import (
    DayState,
    Refused,
    Settings,
    Stage,
    apply,
    champion,
    day_games,
    finished,
    ranking,
)
from carom.competition.day import records as r
from carom.competition.day.rank import next_field
from tests.competition.day.helpers import at, finish, game, made, playing, run, win


def _play_out(state: DayState) -> DayState:
    """Every game played to its end, the better seed winning each."""
    state, _ = run(state)
    while playing(state):
        game_on = playing(state)[0]
        a, b = game_on.players
        state = finish(state, game_on.key, win(0 if state.seeds.index(a) < state.seeds.index(b) else 1))
    return state


def test_the_world_cup_shape_qualifiers_meet_seeded_players_who_enter_late() -> None:
    settings = Settings("Cup", "three-cushion", "large", 10, None, tables=4, mode="stages",
                        stages=(Stage("groups", 2, places=2), Stage("groups", 2, places=2),
                                Stage("knockout")))
    state = made(settings, [11, 12, 13, 14, 15, 16], start=False)
    for seeded in (1, 2):  # the two seeded players enter the second stage
        state = apply(state, r.Entered(actor="anna", at=at(), player=seeded, stage=2))
    state = apply(state, r.Started(actor="anna", at=at(), seeds=(1, 2, 11, 12, 13, 14, 15, 16)))
    assert state.fields == {1: (11, 12, 13, 14, 15, 16)}
    late = apply(state, r.Entered(actor="anna", at=at(), player=3, stage=2))  # a third, entered late
    state = _play_out(late)
    # stage 1: groups A 11 14 15 and B 12 13 16 won by 11 and 12; stage 2: the direct entrants
    # in seed order (3 entered late, after the start), then the qualifiers
    assert state.fields[2] == (1, 2, 3, 11, 12)
    assert state.groups[2] == ((1, 11, 12), (2, 3))
    assert state.fields[3] == (1, 2)  # 1 won both his games, 2 his one: 1 is the better winner
    assert finished(state) and champion(state) == 1
    # those out earlier are ranked by their group place, then MP, GD, BED, HS: 11 (2nd of A) before 3
    # (2nd of B, no win); in stage 1 13 and 14 are level on everything (their ids decide)
    assert ranking(state) == [(1, 1), (2, 2), (3, 11), (4, 3), (5, 12), (6, 13), (7, 14), (8, 15), (9, 16)]


def test_a_stage_is_fed_only_once_done_and_with_its_field() -> None:
    settings = Settings("GK", "three-cushion", "large", 10, None, tables=2, mode="groups_knockout", groups=2)
    state, _ = run(made(settings, [1, 2, 3, 4]))
    with pytest.raises(Refused, match=r"stage: stage 1 has games to play \(D13\)"):
        apply(state, r.StageFed(actor="schedule", at=at(), stage=2, field=(1, 2)))
    while any(g.key.stage == 1 and g.status != "done" for g in day_games(state)):
        state = finish(state, playing(state)[0].key, win(0))
    assert 2 in state.fields  # fed by the schedule
    with pytest.raises(Refused, match=r"stage: only the stage after the last begun one is fed \(D13\)"):
        apply(state, r.StageFed(actor="schedule", at=at(), stage=2, field=state.fields[2]))


def test_a_fed_field_is_checked_against_the_qualifiers() -> None:
    settings = Settings("GK", "three-cushion", "large", 10, None, tables=2, mode="groups_knockout", groups=2)
    state = made(settings, [1, 2, 3, 4])
    for g in list(day_games(state)):
        state = apply(state, r.ResultEntered(actor="anna", at=at(), game=g.key,
                                             result=win(0).__class__.totals((10, 3), (1, 1), (10, 3))))
    field = next_field(state, 2)
    with pytest.raises(Refused, match=r"field: expected \[.*\] \(direct entrants, then qualifiers\) \(D13\)"):
        apply(state, r.StageFed(actor="schedule", at=at(), stage=2, field=tuple(reversed(field))))


def test_third_place_and_every_place_played_out() -> None:
    eight = list(range(1, 9))
    third = Settings("KO", "three-cushion", "large", 10, None, mode="knockout", tables=4, third_place=True)
    state = _play_out(made(third, eight))
    assert [g.key.text for g in day_games(state) if g.key.bracket != 1] == ["1.K3.1.0"]
    # the better seed wins every game: 1, 2, then the semi-finals' losers 3 and 4 play for 3rd;
    # the quarter-finals' losers share the 5th place
    assert ranking(state) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (5, 6), (5, 7), (5, 8)]
    every = Settings("KO", "three-cushion", "large", 10, None, mode="knockout", tables=4, placements=True)
    state = _play_out(made(every, eight))
    assert ranking(state) == [(place, place) for place in range(1, 9)]
    assert sorted({g.key.bracket for g in day_games(state)}) == [1, 3, 5, 7]
    # the games for places are played before the final of their round
    order = [g.key.text for g in day_games(state)]
    assert order.index("1.K3.1.0") < order.index("1.K1.3.0")


def test_a_knockout_of_five_with_byes() -> None:
    ko = Settings("KO", "three-cushion", "large", 5, None, mode="knockout", tables=2, placements=True)
    state = _play_out(made(ko, [5, 4, 3, 2, 1]))
    # seeds 1-3 had byes; 4-5 played first; the loser of the only first-round game is 5th
    assert champion(state) == 5
    assert ranking(state) == [(1, 5), (2, 4), (3, 3), (4, 2), (5, 1)]


def test_a_late_entrant_takes_the_bye_place_of_a_group_in_its_first_round() -> None:
    five = Settings("Five", "three-cushion", "large", 10, None, tables=2)
    state, _ = run(made(five, [1, 2, 3, 4, 5]))
    before = {g.key: g.players for g in day_games(state)}
    state = apply(state, r.Entered(actor="anna", at=at(), player=6))
    after = {g.key: g.players for g in day_games(state)}
    assert all(after[k] == v for k, v in before.items())  # every game as it was
    assert sorted(p for k, v in after.items() if k not in before for p in v if p != 6) == [1, 2, 3, 4, 5]
    assert game(state, "1.A.1.0").players == (1, 6)  # round 1: he meets the player who rested
    state, done = run(state)
    assert [(rec.game.text, rec.table) for rec in done] == []  # both tables still play


def test_a_late_entry_is_refused_once_his_first_game_would_have_been_called() -> None:
    five = Settings("Five", "three-cushion", "large", 10, None, tables=2)
    state, _ = run(made(five, [1, 2, 3, 4, 5]))
    while not any(g.key.round > 1 and g.call for g in day_games(state)):
        state = finish(state, playing(state)[0].key, win(0))
    with pytest.raises(Refused, match=r"group: group 1 has played past its first round: a late entry comes "
                                      r"before the player's first game would be called \(D2\)"):
        apply(state, r.Entered(actor="anna", at=at(), player=6, group=1))
    with pytest.raises(Refused, match=r"group: every group has begun past its first round or has no bye"):
        apply(state, r.Entered(actor="anna", at=at(), player=6))
    four = Settings("Four", "three-cushion", "large", 10, None, tables=2)
    begun, _ = run(made(four, [1, 2, 3, 4]))
    with pytest.raises(Refused, match=r"group: group 1 has begun and has no bye place"):
        apply(begun, r.Entered(actor="anna", at=at(), player=6, group=1))


def test_a_late_entry_joins_a_group_not_begun_and_a_knockout_before_its_first_call() -> None:
    two = Settings("Two groups", "three-cushion", "large", 10, None, groups=2, tables=1)
    state, _ = run(made(two, [1, 2, 3, 4, 5, 6]))  # one table: only group A has begun
    assert [g.key.text for g in playing(state)] == ["1.A.1.1"]  # 4-5 (1 rests)
    state = apply(state, r.Entered(actor="anna", at=at(), player=7))  # into group B, not begun
    assert state.groups[1] == ((1, 4, 5), (2, 3, 6, 7))
    ko = Settings("KO", "three-cushion", "large", 10, None, mode="knockout", tables=1)
    fresh = made(ko, [1, 2, 3])
    fresh = apply(fresh, r.Entered(actor="anna", at=at(), player=4))
    assert fresh.fields[1] == (1, 2, 3, 4)
    called, _ = run(fresh)
    with pytest.raises(Refused, match=r"stage: the knock-out of stage 1 has begun: a late entry comes "
                                      r"before its first game is called \(D2\)"):
        apply(called, r.Entered(actor="anna", at=at(), player=5))
