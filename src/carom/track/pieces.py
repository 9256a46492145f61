"""Pieces of motion: stretches of a ball's samples with no event inside, or rests.

Between events every ball moves on a polynomial of degree ≤ 2 in time; a piece keeps
the motion fitted at each of its ends, where it meets the joins around it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.track.fit import Fit, fit_motion
from carom.track.samples import FloatArray

LOCAL_SAMPLES = 8
"""How many samples at each end of a piece give its motion there (a quadratic over a
whole long roll misses its ends: the rolling deceleration varies with speed)."""

LOCAL_SPAN = 0.3
"""The longest stretch, s, at each end of a piece fitted for its motion there."""


@dataclass(frozen=True, slots=True)
class Piece:
    """Samples ``i0 … i1`` (inclusive) of one motion with no event inside, or a rest.

    ``head`` and ``tail`` fit the motion over the first and the last few samples: the
    piece's state where it begins and where it ends.
    """

    i0: int
    i1: int
    head: Fit
    tail: Fit
    rest: bool

    @property
    def t0(self) -> float:
        return self.head.t0

    @property
    def t1(self) -> float:
        return self.tail.t1

    @property
    def size(self) -> int:
        return self.i1 - self.i0 + 1

    def fit_at(self, t: float) -> Fit:
        """The end fit nearer to ``t``."""
        return self.head if abs(t - self.t0) <= abs(t - self.t1) else self.tail

    def position(self, t: float) -> FloatArray:
        if self.rest:
            return np.array(self.head.point(self.head.t0))
        return self.fit_at(t).position(t)

    def velocity(self, t: float) -> FloatArray:
        if self.rest:
            return np.zeros(2)
        return self.fit_at(t).velocity(t)


def make_piece(t: FloatArray, xy: FloatArray, a: int, b: int, rest: bool = False) -> Piece:
    """The piece of samples ``a … b``."""
    if rest:
        whole = fit_motion(t[a:b + 1], xy[a:b + 1], 0)
        return Piece(a, b, whole, whole, True)
    head_end = a
    while head_end < b and head_end - a + 1 < LOCAL_SAMPLES and t[head_end + 1] - t[a] <= LOCAL_SPAN:
        head_end += 1
    if head_end == b:
        whole = fit_motion(t[a:b + 1], xy[a:b + 1])
        return Piece(a, b, whole, whole, False)
    tail_start = b
    while tail_start > a and b - tail_start + 1 < LOCAL_SAMPLES and t[b] - t[tail_start - 1] <= LOCAL_SPAN:
        tail_start -= 1
    head = fit_motion(t[a:head_end + 1], xy[a:head_end + 1])
    tail = fit_motion(t[tail_start:b + 1], xy[tail_start:b + 1])
    return Piece(a, b, head, tail, False)
