"""Groups seeded snake-wise: the strongest players spread over the groups.

Seeds 1..g go into groups 1..g, seeds g+1..2g back from group g to 1, and so on
(the "snake" or serpentine system of federations' group draws without a draw).
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import TypeVar

from carom.competition.errors import CompetitionError

T = TypeVar("T", bound=Hashable)


def by_average(players: Sequence[int], averages: Mapping[int, Fraction | float]) -> list[int]:
    """The players strongest first: by average (none counts as 0), then by id."""
    return sorted(players, key=lambda p: (-Fraction(averages.get(p, 0)), p))


def snake_groups(seeded: Sequence[T], groups: int) -> list[list[T]]:
    """``seeded`` (strongest first) dealt snake-wise into ``groups`` groups."""
    if groups < 1:
        raise CompetitionError("groups: at least one")
    if groups > max(1, len(seeded) // 2):
        raise CompetitionError(f"groups: {groups} groups need at least {2 * groups} players, "
                         f"there are {len(seeded)}")
    out: list[list[T]] = [[] for _ in range(groups)]
    for i, player in enumerate(seeded):
        row, col = divmod(i, groups)
        out[col if row % 2 == 0 else groups - 1 - col].append(player)
    return out
