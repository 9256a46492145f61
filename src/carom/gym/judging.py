"""The referee's verdict on a whole batch at once, read from the simulator's contact
codes (``carom.physics.batch``): the fast path of the vector environment.

It decides what ``carom.rules.referee.judge`` decides for a simulated stroke of a
discipline without zones, played with the striker's own ball: ball 2 and ball 3 in
list order and ball 1's cushions before ball 3 (C1, 1C1, 3C1), a direct hit on a ball it
was frozen to (F9), an opening stroke not onto red first (O3). The simulator reports no
jump (F2), calls no fault (F3–F8, F10–F12) and strikes the striker's ball (no F13), so
nothing else can happen. It is tested equal to the referee, stroke by stroke
(``tests/gym``), and the vector environment can check it against the referee on every
stroke (``check_referee=True``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.table import TOLERANCES, TableSpec
from carom.physics.batch import KIND_BALL, KIND_CUSHION
from carom.rules.disciplines import Discipline

RED = BALLS.index(Ball.RED)
"""Red's number in the batch's codes (white 0, yellow 1, red 2)."""


class Verdicts(NamedTuple):
    """The verdicts on k strokes, as arrays."""

    points: np.ndarray
    """1 for a carom without a fault, else 0 (int8)."""
    frozen_hit: np.ndarray
    """F9: ball 1 first met the ball it was frozen to."""
    not_red_first: np.ndarray
    """O3: an opening stroke whose ball 2 was not red."""

    def fouls(self, k: int) -> tuple[str, ...]:
        """Stroke ``k``'s faults as the referee names them, in rulebook order (F9, O3)."""
        return (*(("F9",) if self.frozen_hit[k] else ()), *(("O3",) if self.not_red_first[k] else ()))


def verdicts(codes: np.ndarray, n_codes: np.ndarray, start: np.ndarray, cue: np.ndarray,
             opening: np.ndarray, discipline: Discipline, table: TableSpec) -> Verdicts:
    """The verdicts on k simulated strokes: ``codes`` (k × m, every stroke's contacts in
    order, ``n_codes`` ≤ m of them), ``start`` (k × 3 × 2), ``cue`` (k ball numbers, the
    striker's), ``opening`` (k flags, O3)."""
    assert not discipline.has_zones, "zones need the balls' paths: judge with the referee"
    used = int(n_codes.max(initial=0))
    assert used <= codes.shape[1], "a stroke's contacts were cut: simulate with more room"
    codes = codes[:, :used]
    k, m = codes.shape
    rows = np.arange(k)
    column = np.arange(m)[None, :]
    kind, a, b = codes >> 4, (codes >> 2) & 3, codes & 3
    ball1 = cue[:, None]
    valid = column < n_codes[:, None]
    meets = valid & (kind == KIND_BALL) & ((a == ball1) | (b == ball1))
    partner = np.where(a == ball1, b, a)
    cushion = valid & (kind == KIND_CUSHION) & (a == ball1)
    has2 = meets.any(axis=1)
    ball2 = partner[rows, meets.argmax(axis=1)]
    meets3 = meets & (partner != ball2[:, None])
    has3 = meets3.any(axis=1) & has2
    at3 = np.where(has3, meets3.argmax(axis=1), m)
    before3 = (cushion & (column < at3[:, None])).sum(axis=1)
    carom = has3 & (before3 >= discipline.cushions)
    own = meets | cushion
    first = own.argmax(axis=1)
    first_meets = own.any(axis=1) & meets[rows, first]
    mate = np.where(first_meets, partner[rows, first], cue)  # a cushion's number is no ball's
    gap = np.hypot(*(start[rows, cue] - start[rows, mate]).T)
    frozen_hit = first_meets & (np.abs(gap - 2.0 * table.ball_radius) <= TOLERANCES.touch)
    not_red_first = opening & has2 & (ball2 != RED)
    points = (carom & ~frozen_hit & ~not_red_first).astype(np.int8)
    return Verdicts(points, frozen_hit, not_red_first)
