"""Round-robin pairings by the circle method (Berger tables).

One place stays put, the others turn one place a round; with an odd field a bye
(``None``) takes the fixed place, and whoever meets it rests that round. Who is
listed first (player 0 of the match, who lags first) alternates for the fixed place
from round to round.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

from carom.competition.errors import CompetitionError

T = TypeVar("T", bound=Hashable)


def round_robin(players: Sequence[T]) -> list[list[tuple[T, T]]]:
    """The rounds of a single round robin: every two players meet exactly once.

    ``n`` players play ``n - 1`` rounds (``n`` rounds when ``n`` is odd, one player
    resting each round), each of ``n // 2`` games. The order of ``players`` is the
    seeding (seed 1 first).
    """
    if len(set(players)) != len(players):
        raise CompetitionError("round robin: a player is entered twice")
    entrants: list[T | None] = list(players)
    if len(entrants) < 2:
        return []
    if len(entrants) % 2:
        entrants.append(None)
    n = len(entrants)
    fixed = entrants[-1]
    ring = entrants[:-1]
    rounds: list[list[tuple[T, T]]] = []
    for r in range(n - 1):
        games: list[tuple[T, T]] = []
        head = ring[0]
        pair = (head, fixed) if r % 2 == 0 else (fixed, head)
        if pair[0] is not None and pair[1] is not None:
            games.append((pair[0], pair[1]))
        for i in range(1, n // 2):
            a, b = ring[i], ring[-i]
            if a is not None and b is not None:
                games.append((a, b))
        rounds.append(games)
        ring = ring[-1:] + ring[:-1]
    return rounds
