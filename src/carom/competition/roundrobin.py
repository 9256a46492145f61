"""Round-robin pairings: the Berger tables as FIDE publishes them (FIDE Handbook C.05,
Annex 1).

The players are numbered by their place in the seeding (1 the first); with an odd
field a bye takes the highest number, and whoever meets it rests that round. Round 1
pairs 1 with n, 2 with n − 1, and so on; each next round adds n/2 to every number but
n (counting round from n − 1 to 1), keeping each pair on its board and its order, while
the pair of n changes order every round. The first of a pair is player 0 of the match
(the one listed first, "white" in the tables). Ten players, round 2: 10-6, 7-5, 8-4,
9-3, 1-2, as printed.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from carom.competition.errors import CompetitionError

T = TypeVar("T", bound=Hashable)


def berger_numbers(n: int) -> list[list[tuple[int, int]]]:
    """The Berger tables of ``n`` numbers (even): the rounds, each a list of boards."""
    half = n // 2
    boards = [(i, n + 1 - i) for i in range(1, half + 1)]
    rounds: list[list[tuple[int, int]]] = []

    def turned(x: int) -> int:
        return x if x == n else (x - 1 + half) % (n - 1) + 1

    for _ in range(n - 1):
        rounds.append(boards)
        boards = [(turned(b), turned(a)) if n in (a, b) else (turned(a), turned(b)) for a, b in boards]
    return rounds


def round_robin(players: Sequence[T]) -> list[list[tuple[T, T]]]:
    """The rounds of a single round robin: every two players meet exactly once.

    ``n`` players play ``n - 1`` rounds (``n`` rounds when ``n`` is odd, one player
    resting each round), each of ``n // 2`` games, by the Berger tables. The order of
    ``players`` is the seeding (number 1 first).
    """
    return [[pair for _, pair in boards] for boards in round_robin_boards(players)]


def round_robin_boards(players: Sequence[T]) -> list[list[tuple[int, tuple[T, T]]]]:
    """:func:`round_robin` with each game's board in its round (0 the first): the bye's
    board is left out, so the others keep their numbers when a late entrant takes it."""
    if len(set(players)) != len(players):
        raise CompetitionError("round robin: a player is entered twice")
    if len(players) < 2:
        return []
    entrants: list[T | None] = list(players)
    if len(entrants) % 2:
        entrants.append(None)  # the bye: the highest number
    rounds: list[list[tuple[int, tuple[T, T]]]] = []
    for boards in berger_numbers(len(entrants)):
        games = []
        for board, (a, b) in enumerate(boards):
            first, second = entrants[a - 1], entrants[b - 1]
            if first is not None and second is not None:
                games.append((board, (first, second)))
        rounds.append(games)
    return rounds
