"""Knock-out brackets with byes, seeded so that the best seeds meet last.

A field of ``n`` plays in a bracket of the next power of two; the missing places are
byes, and they go to the best seeds (seed 1 meets the first bye, ...). The seed order
is the usual one: in a bracket of 8, 1-8, 4-5, 2-7, 3-6, so that seeds 1 and 2 can meet
only in the final, and seeds 1-4 only in the semi-finals. Who plays and wins each game
once results come in: :mod:`carom.competition.day.bracket`.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.competition.errors import CompetitionError

GameId = tuple[int, int]
"""(round, index): round 1 is the first, index 0 the top game of the round."""


def seed_order(size: int) -> list[int]:
    """The seeds (1-based) down a bracket of ``size`` places, a power of two."""
    if size < 1 or size & (size - 1):
        raise CompetitionError(f"bracket: {size} places is not a power of two")
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


@dataclass(frozen=True, slots=True)
class Slot:
    """One side of a knock-out game: a seed (``None`` for a bye) or the winner of a game."""

    seed: int | None = None
    winner_of: GameId | None = None

    @property
    def bye(self) -> bool:
        return self.seed is None and self.winner_of is None


@dataclass(frozen=True, slots=True)
class KoGame:
    round: int
    index: int
    a: Slot
    b: Slot

    @property
    def id(self) -> GameId:
        return (self.round, self.index)

    @property
    def is_bye(self) -> bool:
        """A first-round place against nobody: its player goes through unplayed."""
        return self.a.bye or self.b.bye


@dataclass(frozen=True, slots=True)
class Bracket:
    entrants: int
    size: int
    rounds: tuple[tuple[KoGame, ...], ...]

    def games(self) -> list[KoGame]:
        return [g for r in self.rounds for g in r]

    def round_name(self, round_no: int) -> str:
        """"final", "semi-final", "quarter-final" or "round of N"."""
        left = len(self.rounds) - round_no
        return {0: "final", 1: "semi-final", 2: "quarter-final"}.get(left, f"round of {2 ** (left + 1)}")


def bracket(entrants: int) -> Bracket:
    """The bracket for ``entrants`` seeds (at least 2)."""
    if entrants < 2:
        raise CompetitionError("bracket: at least two players")
    size = 1
    while size < entrants:
        size *= 2
    order = seed_order(size)
    first = tuple(
        KoGame(1, i, Slot(seed=order[2 * i] if order[2 * i] <= entrants else None),
               Slot(seed=order[2 * i + 1] if order[2 * i + 1] <= entrants else None))
        for i in range(size // 2))
    rounds = [first]
    while len(rounds[-1]) > 1:
        r = len(rounds) + 1
        prev = rounds[-1]
        rounds.append(tuple(KoGame(r, i, Slot(winner_of=prev[2 * i].id), Slot(winner_of=prev[2 * i + 1].id))
                            for i in range(len(prev) // 2)))
    return Bracket(entrants, size, tuple(rounds))
