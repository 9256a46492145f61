"""Pieces of motion: stretches of a ball's samples with no event inside, or rests.

Between events every ball moves on a polynomial of degree ≤ 2 in time; a piece keeps
the motion fitted at each of its ends, where it meets the joins around it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.track.reconstruct.fit import Fit, TrackFitter
from carom.track.samples import FloatArray

LOCAL_SAMPLES = 8
"""How many samples at each end of a piece give its motion there (a quadratic over a
whole long roll misses its ends: the rolling deceleration varies with speed)."""

LOCAL_SPAN = 0.3
"""The longest stretch, s, at each end of a piece fitted for its motion there."""


@dataclass(slots=True)
class Piece:
    """Samples ``i0 … i1`` (inclusive) of one motion with no event inside, or a rest.

    ``head`` and ``tail`` fit the motion over the first and the last few samples: the
    piece's state where it begins and where it ends.
    """
    # Not frozen, though never changed once made: the detector makes thousands of these
    # per match, and a frozen dataclass takes several times longer to construct.

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
        return np.array(self.point(t))

    def velocity(self, t: float) -> FloatArray:
        return np.array(self.speed_vector(t))

    def point(self, t: float) -> tuple[float, float]:
        """:meth:`position` in plain floats."""
        if self.rest:
            return self.head.point(self.head.t0)
        return self.fit_at(t).point(t)

    def speed_vector(self, t: float) -> tuple[float, float]:
        """:meth:`velocity` in plain floats."""
        if self.rest:
            return (0.0, 0.0)
        return self.fit_at(t).speed_vector(t)


Span = tuple[int, int, bool]
"""Samples ``a … b`` (inclusive) of one piece, and whether it is a rest."""


def make_pieces(t: FloatArray, xy: FloatArray, spans: list[Span],
                lists: tuple[list[float], list[float], list[float]] | None = None) -> list[Piece]:
    """The pieces of samples ``a … b`` for each span, with their end fits (``lists``: the
    samples as plain lists, if made already)."""
    fitter = TrackFitter(t, xy, lists)
    pieces = []
    for a, b, rest in spans:
        if rest:
            whole = fitter.fit(a, b, 0)
            pieces.append(Piece(a, b, whole, whole, True))
            continue
        head_end, tail_start = _ends(fitter.times, a, b)
        if head_end == b:
            whole = fitter.fit(a, b)
            pieces.append(Piece(a, b, whole, whole, False))
        else:
            pieces.append(Piece(a, b, fitter.fit(a, head_end), fitter.fit(tail_start, b), False))
    return pieces


def _ends(times: list[float], a: int, b: int) -> tuple[int, int]:
    """The samples fitted for the motion at each end of the moving piece ``a … b``: the
    head ``a … head_end`` and the tail ``tail_start … b``, each at most
    :data:`LOCAL_SAMPLES` samples over at most :data:`LOCAL_SPAN`, and never fewer than
    two of a piece that has two: a slow ball the tracker sends seldom still has a
    velocity at each end, its chord there."""
    head_end = a
    while head_end < b and head_end - a + 1 < LOCAL_SAMPLES and times[head_end + 1] - times[a] <= LOCAL_SPAN:
        head_end += 1
    tail_start = b
    while (tail_start > a and b - tail_start + 1 < LOCAL_SAMPLES
           and times[b] - times[tail_start - 1] <= LOCAL_SPAN):
        tail_start -= 1
    if b > a:
        head_end, tail_start = max(head_end, a + 1), min(tail_start, b - 1)
    return head_end, tail_start
