"""Whether a confidence means what it says: rulings grouped by confidence against how
often they were right (a reliability table, each share with its 95 % interval), and the
Brier score, for the benchmarks and the tests."""

from __future__ import annotations

from dataclasses import dataclass
from math import sqrt

BINS = (0.0, 0.5, 0.9, 0.99, 0.999, 1.0)
"""The edges of the confidence bins (the last bin holds 1.0 itself)."""

Z95 = 1.959964
"""The normal quantile of a two-sided 95 % interval."""


@dataclass(frozen=True, slots=True)
class Judged:
    """One ruling scored against its label."""

    confidence: float
    right: bool
    doubtful: bool = False


def bin_of(confidence: float) -> int:
    """The index of the bin of :data:`BINS` that holds ``confidence``."""
    for k in range(len(BINS) - 2, -1, -1):
        if confidence >= BINS[k]:
            return k
    return 0


def reliability(judged: list[Judged]) -> list[tuple[float, float, int, int]]:
    """Per bin: its edges, how many rulings fell in it and how many of them were right."""
    counts = [[0, 0] for _ in BINS[:-1]]
    for j in judged:
        k = bin_of(j.confidence)
        counts[k][0] += 1
        counts[k][1] += j.right
    return [(BINS[k], BINS[k + 1], n, r) for k, (n, r) in enumerate(counts)]


def wilson(right: int, count: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``right / count`` (``(0, 1)`` of nothing)."""
    if count == 0:
        return 0.0, 1.0
    p = right / count
    z2 = Z95 * Z95 / count
    centre = (p + z2 / 2.0) / (1.0 + z2)
    half = Z95 * sqrt(p * (1.0 - p) / count + z2 / (4.0 * count)) / (1.0 + z2)
    low = 0.0 if right == 0 else centre - half
    high = 1.0 if right == count else centre + half
    return low, high


def brier(judged: list[Judged]) -> float:
    """The Brier score of the confidences as forecasts of being right: the mean of
    ``(confidence - right)²`` (0: perfect; 0.25: a coin's 0.5 every time)."""
    return sum((j.confidence - j.right) ** 2 for j in judged) / len(judged) if judged else 0.0


def reliability_lines(judged: list[Judged]) -> list[str]:
    """The reliability table in words, one line a bin, each share with its 95 % interval."""
    out = []
    for low, high, n, r in reliability(judged):
        closing = "]" if high == 1.0 else ")"
        if n:
            lo, hi = wilson(r, n)
            accuracy = f"{100.0 * r / n:6.2f} % (95 %: {100.0 * lo:.1f}–{100.0 * hi:.1f})"
        else:
            accuracy = "     –"
        out.append(f"[{low:.3f}, {high:.3f}{closing}  {n:5d} strokes  {r:5d} right  {accuracy}")
    return out
