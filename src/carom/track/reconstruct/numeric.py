"""Small numeric helpers for the detector's hot paths.

A numpy call costs about a microsecond whatever the size of its arrays, and some numpy
functions (``np.clip``, ``np.diff``, ``np.linspace``) add several microseconds of
Python around the work. The detector makes thousands of such calls per stroke, on
arrays of a few hundred samples or on single numbers, so these helpers do the same
arithmetic more cheaply: each gives the same result as the numpy function it stands
for, to the last bit (``clip`` may differ in the sign of a zero).
"""

from __future__ import annotations

from bisect import bisect_right
from typing import TypeVar

import numpy as np

from carom.track.samples import FloatArray

Array = TypeVar("Array", bound=np.ndarray)


def interp_at(times: list[float], values: list[float], t: float) -> float:
    """``np.interp(t, times, values)`` for a single ``t`` (``times`` never decreasing), in
    plain floats: constant beyond either end, linear between samples, computed as
    numpy does."""
    j = bisect_right(times, t) - 1
    if j < 0:
        return values[0]
    if j >= len(times) - 1:
        return values[-1]
    if times[j] == t:
        return values[j]
    slope = (values[j + 1] - values[j]) / (times[j + 1] - times[j])
    return slope * (t - times[j]) + values[j]


def clip(values: Array, low: float, high: float) -> Array:
    """``np.clip(values, low, high)`` without its Python wrapper."""
    clipped: Array = np.minimum(np.maximum(values, low), high)
    return clipped


def diff(values: Array) -> Array:
    """``np.diff(values, axis=0)``: each row minus the one before it."""
    difference: Array = values[1:] - values[:-1]
    return difference


def linspace(a: float, b: float, num: int) -> FloatArray:
    """``np.linspace(a, b, num)`` (``num`` ≥ 2), computed as numpy computes it."""
    grid: FloatArray = np.arange(num, dtype=float) * ((b - a) / (num - 1)) + a
    grid[-1] = b
    return grid


def percentile(values: FloatArray, q: float) -> float:
    """``np.percentile(values, q)`` (its linear method; ``values`` not empty, no NaN among
    them), interpolated as numpy interpolates, without its Python around the work."""
    ordered = np.sort(values)
    n = int(ordered.shape[0])
    virtual = (n - 1) * (q / 100)
    if virtual >= n - 1:
        return float(ordered[n - 1])
    k = int(virtual)
    a, b = float(ordered[k]), float(ordered[k + 1])
    gamma, step = virtual - k, b - a
    return b - step * (1 - gamma) if gamma >= 0.5 else a + step * gamma


def median(values: FloatArray) -> float:
    """``np.median(values)`` (``values`` not empty, no NaN among them)."""
    ordered = np.sort(values)
    n = int(ordered.shape[0])
    half = n // 2
    return float(ordered[half]) if n % 2 else (float(ordered[half - 1]) + float(ordered[half])) / 2


def runs(indices: np.ndarray) -> list[tuple[int, int]]:
    """The runs of consecutive numbers in the increasing integers ``indices``, as
    ``(first, last)`` pairs (what ``np.split`` at the gaps gives, without the arrays)."""
    gaps = (diff(indices) > 1).nonzero()[0]
    firsts = [int(indices[0]), *indices[gaps + 1].tolist()]
    lasts = [*indices[gaps].tolist(), int(indices[-1])]
    return list(zip(firsts, lasts, strict=True))
