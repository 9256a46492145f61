"""Whether a confidence means what it says: rulings grouped by confidence against how
often they were right (a reliability table), for the benchmarks and the tests."""

from __future__ import annotations

from dataclasses import dataclass

BINS = (0.0, 0.5, 0.9, 0.99, 0.999, 1.0)
"""The edges of the confidence bins (the last bin holds 1.0 itself)."""


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


def reliability_lines(judged: list[Judged]) -> list[str]:
    """The reliability table in words, one line a bin."""
    out = []
    for low, high, n, r in reliability(judged):
        closing = "]" if high == 1.0 else ")"
        accuracy = f"{100.0 * r / n:6.2f} %" if n else "     –"
        out.append(f"[{low:.3f}, {high:.3f}{closing}  {n:5d} strokes  {r:5d} right  {accuracy}")
    return out
