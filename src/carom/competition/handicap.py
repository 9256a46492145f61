"""Handicap targets: each player's distance in proportion to their average.

``target = distance × average ÷ reference`` (rounded to whole points, at least
``minimum``), where ``distance`` is the tournament's points limit and ``reference``
the best average in the field: the strongest player plays the full distance, a
player half as strong half of it, so that both need about the same number of innings.
A player without an average plays the full distance; the organiser may set any
target by hand instead.
"""

from __future__ import annotations

from fractions import Fraction

from carom.competition.errors import CompetitionError


def handicap_target(average: Fraction | float | None, reference: Fraction | float | None,
                    distance: int, minimum: int = 1) -> int:
    """The points target of a player of ``average`` in a field whose best is ``reference``."""
    if distance < 1:
        raise CompetitionError("handicap: the distance must be at least 1 point")
    if average is None or reference is None or Fraction(reference) <= 0:
        return distance
    share = Fraction(average) / Fraction(reference)
    share = min(max(share, Fraction(0)), Fraction(1))
    exact = distance * share
    target = int(exact + Fraction(1, 2))  # round half up
    return max(min(minimum, distance), min(distance, target))
