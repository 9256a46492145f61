"""The pure competition package: pairings, groups, brackets, schedules, standings, handicap."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.competition import (
    Game,
    Pairing,
    bracket,
    dispatch,
    handicap_target,
    knockout_size,
    plan,
    qualifiers,
    round_robin,
    seed_order,
    snake_groups,
    standings,
)
from carom.competition.day.bracket import ko_specs, resolve
from carom.competition.groups import by_average

# --- round robin ------------------------------------------------------------------------


@settings(deadline=None)
@given(st.integers(min_value=2, max_value=24))
def test_every_pair_meets_exactly_once(n: int) -> None:
    players = list(range(100, 100 + n))
    rounds = round_robin(players)
    met = [frozenset(g) for r in rounds for g in r]
    assert len(met) == len(set(met)) == n * (n - 1) // 2
    assert set(met) == {frozenset(p) for p in combinations(players, 2)}
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for r in rounds:  # nobody plays twice in a round
        seen = [p for g in r for p in g]
        assert len(seen) == len(set(seen))
        assert len(r) == n // 2


def test_round_robin_of_four_is_bergers_table() -> None:
    assert round_robin([1, 2, 3, 4]) == [[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]


# FIDE Handbook C.05, Annex 1: the Berger tables of 6 and of 10 players, round by round,
# board by board (white first)
FIDE_6 = """1-6 2-5 3-4 / 6-4 5-3 1-2 / 2-6 3-1 4-5 / 6-5 1-4 2-3 / 3-6 4-2 5-1"""
FIDE_10 = """1-10 2-9 3-8 4-7 5-6 / 10-6 7-5 8-4 9-3 1-2 / 2-10 3-1 4-9 5-8 6-7 /
10-7 8-6 9-5 1-4 2-3 / 3-10 4-2 5-1 6-9 7-8 / 10-8 9-7 1-6 2-5 3-4 / 4-10 5-3 6-2 7-1 8-9 /
10-9 1-8 2-7 3-6 4-5 / 5-10 6-4 7-3 8-2 9-1"""


def _table(text: str) -> list[list[tuple[int, int]]]:
    return [[(int(a), int(b)) for a, b in (g.split("-") for g in r.split())] for r in text.split("/")]


def test_round_robin_follows_the_published_berger_tables() -> None:
    assert round_robin(list(range(1, 7))) == _table(FIDE_6)
    assert round_robin(list(range(1, 11))) == _table(FIDE_10)
    # five players: number 6 is the bye, whoever meets it rests
    assert round_robin([1, 2, 3, 4, 5]) == [[g for g in r if 6 not in g] for r in _table(FIDE_6)]


def test_round_robin_refuses_a_player_twice() -> None:
    with pytest.raises(ValueError, match="twice"):
        round_robin([1, 2, 2])
    assert round_robin([7]) == []


# --- groups -----------------------------------------------------------------------------


def test_snake_groups_spread_the_seeds() -> None:
    assert snake_groups(list(range(1, 13)), 3) == [[1, 6, 7, 12], [2, 5, 8, 11], [3, 4, 9, 10]]
    assert snake_groups([1, 2, 3, 4, 5], 2) == [[1, 4, 5], [2, 3]]
    with pytest.raises(ValueError, match="need at least"):
        snake_groups([1, 2, 3], 2)


def test_seeding_by_average_strongest_first_then_id() -> None:
    assert by_average([1, 2, 3, 4], {1: 0.5, 2: Fraction(3, 2), 4: 1.5}) == [2, 4, 1, 3]


# --- knock-out --------------------------------------------------------------------------


def test_seed_order() -> None:
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    with pytest.raises(ValueError):
        seed_order(6)


@settings(deadline=None)
@given(st.integers(min_value=2, max_value=40), st.randoms(use_true_random=False))
def test_bracket_with_byes_crowns_one_champion(n: int, rnd: random.Random) -> None:
    b = bracket(n)
    assert b.size >= n > b.size // 2
    byes = [g for g in b.rounds[0] if g.is_bye]
    assert len(byes) == b.size - n
    assert all(g.a.seed is not None and g.a.seed <= b.size - n for g in byes)  # the best seeds
    # played out through the day's resolution: one champion, one game per player knocked out
    field = list(range(100, 100 + n))
    specs = ko_specs(1, n, third_place=False, placements=False)
    resolved = resolve(specs, field, lambda key, players: rnd.randint(0, 1))
    final = next(s for s in specs if s.key.bracket == 1 and s.last)
    assert resolved[final.key].winner in field
    played = sum(1 for r in resolved.values() if r.played)
    assert played == n - 1 == len([g for g in b.games() if not g.is_bye])


def test_bracket_round_names() -> None:
    b = bracket(12)
    assert [b.round_name(r) for r in (1, 2, 3, 4)] == ["round of 16", "quarter-final", "semi-final", "final"]


# --- schedule ---------------------------------------------------------------------------


@settings(deadline=None)
@given(st.integers(min_value=2, max_value=14), st.integers(min_value=1, max_value=6))
def test_plan_never_double_books(n: int, tables: int) -> None:
    games = [Pairing(i, g) for i, g in enumerate(g for r in round_robin(list(range(n))) for g in r)]
    slots = plan(games, tables)
    assert sorted(g.key for s in slots for g in s) == list(range(len(games)))  # type: ignore[type-var]
    for s in slots:
        assert 1 <= len(s) <= tables
        seen = [p for g in s for p in g.players]
        assert len(seen) == len(set(seen))


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=2, max_value=12), st.integers(min_value=1, max_value=5),
       st.randoms(use_true_random=False))
def test_dispatch_never_double_books_a_player_or_a_table(n: int, tables: int, rnd: random.Random) -> None:
    waiting = [Pairing(i, g) for i, g in enumerate(g for r in round_robin(list(range(n))) for g in r)]
    running: dict[int, Pairing] = {}
    resting: set[int] = set()
    done = 0
    while waiting or running:
        free = [t for t in range(tables) if t not in running]
        playing = {p for g in running.values() for p in g.players}
        started = dispatch(waiting, playing, free, resting)
        for table, game in started:
            assert table not in running
            assert not set(game.players) & playing
            playing.update(game.players)
            running[table] = game
            waiting.remove(game)
        assert running, "a free table and a waiting game: something must start"
        table = rnd.choice(sorted(running))
        resting = set(running.pop(table).players)
        done += 1
    assert done == n * (n - 1) // 2


def test_dispatch_prefers_rested_players_and_is_deterministic() -> None:
    waiting = [Pairing("a", (1, 2)), Pairing("b", (3, 4)), Pairing("c", (5, 6))]
    assert dispatch(waiting, set(), [1], resting={1}) == [(1, waiting[1])]
    assert dispatch(waiting, {3}, [1, 2], resting={1}) == [(1, waiting[2]), (2, waiting[0])]
    assert dispatch(waiting, set(), [1, 2], resting={1}) == dispatch(waiting, set(), [1, 2], resting={1})


def test_plan_rests_players_when_it_can() -> None:
    games = [Pairing(0, (1, 2)), Pairing(1, (1, 3)), Pairing(2, (4, 5))]
    assert [[g.key for g in s] for s in plan(games, 1)] == [[0], [2], [1]]


# --- standings --------------------------------------------------------------------------


def test_standings_order_mp_gd_bed_hs() -> None:
    games = [
        Game((1, 2), (30, 20), (10, 10), (8, 5), 0),    # 1 beats 2
        Game((2, 3), (30, 25), (15, 15), (6, 9), 0),    # 2 beats 3
        Game((3, 1), (30, 10), (12, 12), (7, 3), 0),    # 3 beats 1
    ]
    lines = standings([3, 2, 1], games)
    # all on 2 MP; GD: 3 = 55/27 > 2 = 50/25 = 2 > 1 = 40/22
    assert [x.player for x in lines] == [3, 2, 1]
    assert [x.rank for x in lines] == [1, 2, 3]
    assert lines[0].general_average == Fraction(55, 27) and lines[0].best_average == Fraction(5, 2)
    assert lines[0].high_run == 9


def test_bed_then_hs_break_a_tie_on_gd() -> None:
    # 1 and 2 each win against 3 and lose against 4, 20 points in 20 innings each (GD 1)
    games = [Game((1, 3), (20, 0), (10, 10), (4, 0), 0), Game((1, 4), (0, 20), (10, 10), (0, 4), 1),
             Game((2, 3), (15, 0), (5, 5), (4, 0), 0), Game((2, 4), (5, 20), (15, 15), (3, 4), 1)]
    assert [x.played for x in standings([1, 2], games)] == [0, 0]  # only games among the field count
    lines = {x.player: x for x in standings([1, 2, 3, 4], games)}
    assert lines[1].key()[:2] == lines[2].key()[:2] == (2, 1)
    assert (lines[2].best_average, lines[1].best_average) == (3, 2)
    assert lines[2].rank < lines[1].rank
    hs = [Game((1, 3), (10, 0), (10, 10), (5, 0), 0), Game((2, 4), (10, 0), (10, 10), (6, 0), 0)]
    assert [x.player for x in standings([1, 2, 3, 4], hs)][:2] == [2, 1]


def test_direct_game_breaks_a_full_tie() -> None:
    games = [Game((1, 2), (10, 20), (10, 10), (3, 3), 1), Game((3, 1), (20, 10), (10, 10), (3, 3), 1),
             Game((2, 3), (10, 10), (10, 10), (3, 3), None)]
    lines = standings([1, 2, 3], games)
    # 1: 2 MP (GD 1.5), 2: 3 MP, 3: 1 MP
    assert [(x.player, x.match_points) for x in lines] == [(2, 3), (1, 2), (3, 1)]
    level = [Game((5, 6), (10, 10), (10, 10), (2, 2), 1)]
    assert [(x.player, x.rank) for x in standings([5, 6], level)] == [(6, 1), (5, 2)]
    drawn = [Game((5, 6), (10, 10), (10, 10), (2, 2), None)]
    assert [(x.player, x.rank) for x in standings([6, 5], drawn)] == [(5, 1), (6, 1)]


def _even(a: int, b: int, winner: int | None) -> Game:
    """A game of 10 points each in 10 innings each, high run 3 each: only its winner counts."""
    return Game((a, b), (10, 10), (10, 10), (3, 3), winner)


def test_a_cyclic_tie_of_three_shares_the_rank() -> None:
    # 1 beat 2, 2 beat 3, 3 beat 1, all else equal: the mini-table is level, so is the rank
    lines = standings([1, 2, 3], [_even(1, 2, 0), _even(2, 3, 0), _even(3, 1, 0)])
    assert [(x.player, x.rank) for x in lines] == [(1, 1), (2, 1), (3, 1)]


def test_a_tie_of_three_takes_the_mini_tables_rank_numbers() -> None:
    # 1, 2 and 3 end on 5 MP with the same GD, BED and HS. Among themselves: 1 beat 2, 1-3 and
    # 2-3 drawn, so the mini-table is 1 (3), 3 (2), 2 (1): ranks 1, 2, 3, although the direct
    # games of the neighbours 1-3 and 3-2 were drawn
    games = [_even(1, 2, 0), _even(1, 3, None), _even(2, 3, None),
             _even(1, 4, 1), _even(1, 5, 0), _even(2, 4, 0), _even(2, 5, 0), _even(3, 4, 0),
             _even(3, 5, None)]
    lines = standings([1, 2, 3, 4, 5], games)
    assert [x.match_points for x in lines[:3]] == [5, 5, 5]
    assert [(x.player, x.rank) for x in lines[:3]] == [(1, 1), (3, 2), (2, 3)]


def test_a_tie_of_three_with_two_level_in_the_mini_table_shares_their_rank() -> None:
    # 1, 2 and 3 on 4 MP, all else equal; among themselves 1 beat 2 and 3, 2-3 drawn
    games = [_even(1, 2, 0), _even(1, 3, 0), _even(2, 3, None), _even(1, 4, 1), _even(2, 4, 0),
             _even(3, 4, 0), _even(2, 5, None), _even(3, 5, None)]
    lines = standings([1, 2, 3, 4, 5], games)
    assert [(x.player, x.rank, x.match_points) for x in lines[:3]] == [(1, 1, 4), (2, 2, 4), (3, 2, 4)]


def _games() -> st.SearchStrategy[list[Game]]:
    def game(pair: tuple[int, int], data: tuple[int, int, int, int, int]) -> Game:
        pa, pb, inn, ha, w = data
        return Game(pair, (pa, pb), (inn, inn), (min(ha, pa), min(ha, pb)), None if w == 2 else w)
    pairs = [tuple(g) for g in combinations(range(1, 7), 2)]
    one = st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(1, 20), st.integers(0, 12),
                    st.integers(0, 2))
    return st.lists(st.sampled_from(pairs), unique=True).flatmap(
        lambda ps: st.tuples(*[one for _ in ps]).map(
            lambda ds: [game(p, d) for p, d in zip(ps, ds, strict=True)]))  # type: ignore[arg-type]


@settings(deadline=None)
@given(_games(), st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_of_the_input(games: list[Game], rnd: random.Random) -> None:
    players = list(range(1, 7))
    first = standings(players, games)
    rnd.shuffle(players)
    shuffled = list(games)
    rnd.shuffle(shuffled)
    assert standings(players, shuffled) == first
    assert sum(x.match_points for x in first) == 2 * len(games)
    keys = [(x.match_points, x.general_average) for x in first]
    assert keys == sorted(keys, reverse=True)


# --- groups then knock-out ----------------------------------------------------------------


def test_group_winners_and_best_runners_up_go_through() -> None:
    assert knockout_size(3, 4) == 4 and knockout_size(4, 4) == 8 and knockout_size(2, 3) == 4
    assert knockout_size(1, 5) == 2
    g1 = standings([1, 2], [Game((1, 2), (30, 10), (10, 10), (5, 2), 0)])
    g2 = standings([3, 4], [Game((3, 4), (30, 20), (20, 20), (5, 2), 0)])
    g3 = standings([5, 6], [Game((5, 6), (30, 25), (10, 10), (5, 2), 0)])
    # winners by GD: 1 (3.0), 5 (3.0, BED same, HS same -> id), 3 (1.5); runners-up: 6 (2.5) best
    assert qualifiers([g1, g2, g3], 4) == [1, 5, 3, 6]
    with pytest.raises(ValueError):
        qualifiers([g1], 3)


# --- handicap ---------------------------------------------------------------------------


def test_handicap_target_is_proportional_to_the_average() -> None:
    assert handicap_target(Fraction(2), Fraction(4), 100) == 50
    assert handicap_target(4.0, 4.0, 100) == 100
    assert handicap_target(Fraction(1, 3), Fraction(1), 50) == 17
    assert handicap_target(None, Fraction(1), 50) == 50
    assert handicap_target(Fraction(0), Fraction(1), 50, minimum=5) == 5
    with pytest.raises(ValueError):
        handicap_target(1.0, 1.0, 0)
