"""Players' statistics across competitions, per discipline and season."""

from __future__ import annotations

import random
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from carom.league import Competition, PlayerGame, player_stats

GAMES = [
    PlayerGame(1, "2024/25", "three-cushion", Competition.MATCH, 30, 40, 5, 1),
    PlayerGame(1, "2025/26", "three-cushion", Competition.TOURNAMENT, 25, 50, 4, -1),
    PlayerGame(1, "2025/26", "three-cushion", Competition.LEAGUE, 40, 32, 7, 1),
    PlayerGame(1, "2025/26", "straight-rail", Competition.LEAGUE, 120, 10, 48, 0),
    PlayerGame(2, "2025/26", "three-cushion", Competition.LEAGUE, 20, 0, 0, -1),
]


def _lines(**options: object) -> list[tuple[object, ...]]:
    return [(x.player, x.discipline, x.season, x.games, x.won, x.drawn, x.lost, x.points, x.innings,
             x.general_average, x.best_average, x.high_run)
            for x in player_stats(GAMES, **options)]  # type: ignore[arg-type]


def test_each_player_per_discipline_and_season_over_every_competition() -> None:
    assert _lines() == [
        (1, "straight-rail", "2025/26", 1, 0, 1, 0, 120, 10, Fraction(12), Fraction(12), 48),
        (1, "three-cushion", "2024/25", 1, 1, 0, 0, 30, 40, Fraction(3, 4), Fraction(3, 4), 5),
        (1, "three-cushion", "2025/26", 2, 1, 0, 1, 65, 82, Fraction(65, 82), Fraction(5, 4), 7),
        (2, "three-cushion", "2025/26", 1, 0, 0, 1, 20, 0, Fraction(0), Fraction(0), 0),
    ]


def test_every_season_together_and_one_kind_of_competition() -> None:
    assert _lines(by_season=False)[1] == (1, "three-cushion", None, 3, 2, 0, 1, 95, 122, Fraction(95, 122),
                                          Fraction(5, 4), 7)
    assert [x[:4] for x in _lines(competitions={Competition.MATCH, Competition.TOURNAMENT})] == [
        (1, "three-cushion", "2024/25", 1), (1, "three-cushion", "2025/26", 1)]


ONE_GAME = st.builds(lambda p, s, d, c, points, innings, outcome: PlayerGame(p, s, d, c, points, innings,
                                                                            min(points, 9), outcome),
                     st.integers(1, 3), st.sampled_from(["2024/25", "2025/26"]),
                     st.sampled_from(["three-cushion", "one-cushion"]), st.sampled_from(list(Competition)),
                     st.integers(0, 60), st.integers(0, 60), st.integers(-1, 1))


@settings(deadline=None, max_examples=30)
@given(st.lists(ONE_GAME, max_size=30), st.randoms(use_true_random=False))
def test_the_statistics_do_not_depend_on_the_order_of_the_games(games: list[PlayerGame],
                                                                 rng: random.Random) -> None:
    shuffled = list(games)
    rng.shuffle(shuffled)
    assert player_stats(games) == player_stats(shuffled)
    assert sum(x.games for x in player_stats(games, by_season=False)) == len(games)
