"""Groups, then knock-out: who goes through and how they are seeded.

The knock-out field is the smallest power of two larger than the number of groups
(3 groups: 4, the three winners and the best runner-up; 4 groups: 8, the winners and
runners-up), unless the organiser says otherwise. Group winners go first, then the
runners-up, then the thirds, ...; within each of those places players are ranked
across groups by MP, GD, BED and HS (:func:`~carom.competition.standings.rank_across`).
The best group winner is seed 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from carom.competition.errors import CompetitionError
from carom.competition.standings import Line, rank_across


def knockout_size(groups: int, smallest_group: int) -> int:
    """The default size of the knock-out field after ``groups`` groups."""
    size = 2
    while size <= groups:
        size *= 2
    return min(size, _pow2_floor(groups * smallest_group))


def _pow2_floor(n: int) -> int:
    size = 1
    while size * 2 <= n:
        size *= 2
    return size


def qualifiers(tables: Sequence[Sequence[Line]], places: int) -> list[int]:
    """The ``places`` players who go through, in seed order, from each group's standings."""
    if places < 2:
        raise CompetitionError("knock-out: at least two places")
    if places > sum(len(t) for t in tables):
        raise CompetitionError(f"knock-out: {places} places, but only {sum(len(t) for t in tables)} players")
    out: list[int] = []
    position = 0
    while len(out) < places:
        tier = rank_across(t[position] for t in tables if position < len(t))
        out.extend(line.player for line in tier[: places - len(out)])
        position += 1
    return out
