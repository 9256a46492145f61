"""The referee's verdict on a whole batch at once, read from the simulator's contact
codes (``carom.physics.batch``), in one compiled pass over the batch: the fast path of
the vector environment.

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

import math
from typing import NamedTuple

import numpy as np
from numba import njit

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
    cut = int(n_codes.max(initial=0)) > codes.shape[1]
    assert not cut, "a stroke's contacts were cut: simulate with more room"
    k = codes.shape[0]
    points = np.empty(k, dtype=np.int8)
    frozen_hit = np.empty(k, dtype=np.bool_)
    not_red_first = np.empty(k, dtype=np.bool_)
    _judge(np.ascontiguousarray(codes, dtype=np.uint8), np.ascontiguousarray(n_codes, dtype=np.int64),
           np.ascontiguousarray(start, dtype=np.float64), np.ascontiguousarray(cue, dtype=np.int64),
           np.ascontiguousarray(opening, dtype=np.bool_), discipline.cushions, 2.0 * table.ball_radius,
           TOLERANCES.touch, points, frozen_hit, not_red_first)
    return Verdicts(points, frozen_hit, not_red_first)


@njit(cache=True, nogil=True, error_model="numpy")
def _judge(codes: np.ndarray, n_codes: np.ndarray, start: np.ndarray, cue: np.ndarray, opening: np.ndarray,
           cushions: int, touching: float, touch: float, points: np.ndarray, frozen_hit: np.ndarray,
           not_red_first: np.ndarray) -> None:
    """One pass over each stroke's contacts, in order: ball 1's first contact (a ball or
    a cushion), ball 2 (the first ball it meets), ball 3 (the first other one it meets
    after) and ball 1's cushions before ball 3."""
    for k in range(codes.shape[0]):
        ball1 = cue[k]
        ball2 = -1
        has3 = False
        cushions_before3 = 0
        cushions_seen = 0
        first_seen = False
        first_meets = False
        mate = ball1
        for c in range(n_codes[k]):
            code = codes[k, c]
            kind, a, b = code >> 4, (code >> 2) & 3, code & 3
            if kind == KIND_BALL and (a == ball1 or b == ball1):
                partner = b if a == ball1 else a
                if not first_seen:
                    first_seen = True
                    first_meets = True
                    mate = partner
                if ball2 < 0:
                    ball2 = partner
                elif partner != ball2 and not has3:
                    has3 = True
                    cushions_before3 = cushions_seen
            elif kind == KIND_CUSHION and a == ball1:
                if not first_seen:
                    first_seen = True
                cushions_seen += 1
        carom = has3 and cushions_before3 >= cushions
        gap = math.hypot(start[k, ball1, 0] - start[k, mate, 0], start[k, ball1, 1] - start[k, mate, 1])
        frozen = first_meets and abs(gap - touching) <= touch
        not_red = opening[k] and ball2 >= 0 and ball2 != RED
        frozen_hit[k] = frozen
        not_red_first[k] = not_red
        points[k] = 1 if carom and not frozen and not not_red else 0
