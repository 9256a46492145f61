"""Breaks: where a ball's samples change their motion more than noise and friction allow.

A break between two samples is found where straight lines through the samples on either
side miss the other side by more than the noise and the largest change free motion
allows (:data:`~carom.track.physics.MAX_FREE_ACCELERATION`), or where the velocities of
the two sides differ by more than friction can change them in between.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.track import physics
from carom.track.samples import FloatArray

BREAK_Z = 4.0
"""How many standard deviations of noise a prediction must miss by to mark a break."""


def speeds(t: FloatArray, xy: FloatArray) -> FloatArray:
    """Speed at each sample from its neighbours (central where possible)."""
    n = int(t.shape[0])
    if n < 2:
        return np.zeros(n)
    chord = np.hypot(*np.diff(xy, axis=0).T) / np.diff(t)
    speed = np.empty(n)
    speed[0], speed[-1] = chord[0], chord[-1]
    speed[1:-1] = np.maximum(chord[:-1], chord[1:])
    return speed



def free_acceleration(speed: FloatArray) -> FloatArray:
    """The acceleration allowed between samples without an event: sliding friction at
    full speed, proportionally less for a slow ball (which, if it slides at all, does so
    only briefly); a break this misses on a slow ball would change little."""
    return physics.MAX_FREE_ACCELERATION * np.minimum(1.0, speed / physics.FULL_SLIDE_SPEED)


@dataclass(frozen=True, slots=True)
class _Triples:
    """Straight-line fits to every three consecutive samples ``i, i+1, i+2``."""

    tbar: FloatArray
    pbar: FloatArray
    slope: FloatArray
    stt: FloatArray


def _triples(t: FloatArray, xy: FloatArray) -> _Triples:
    a, b, c = t[:-2], t[1:-1], t[2:]
    tbar = (a + b + c) / 3.0
    da, db, dc = a - tbar, b - tbar, c - tbar
    stt = da * da + db * db + dc * dc
    pbar = (xy[:-2] + xy[1:-1] + xy[2:]) / 3.0
    slope = (da[:, None] * xy[:-2] + db[:, None] * xy[1:-1] + dc[:, None] * xy[2:]) / stt[:, None]
    return _Triples(tbar, pbar, slope, stt)


def _ratio(miss: FloatArray, h: FloatArray, factor: FloatArray, speed: FloatArray,
           sigma: float) -> FloatArray:
    """A prediction's miss as a fraction of what noise and free motion allow."""
    allowed = (BREAK_Z * factor * np.hypot(sigma, speed * physics.TIMING_JITTER)
               + 0.5 * free_acceleration(speed) * h * h)
    return miss / allowed


def find_breaks(t: FloatArray, xy: FloatArray, sigma: float) -> list[int]:
    """Intervals ``k`` (between samples ``k`` and ``k+1``) across which the motion
    changes more than noise and friction allow, seen from both sides."""
    n = int(t.shape[0])
    if n < 3:
        return []
    speed = speeds(t, xy)
    intervals = n - 1
    miss_back = np.full(intervals, np.inf)
    miss_fore = np.full(intervals, np.inf)
    tri = _triples(t, xy)
    if n >= 4:
        # backward: the three samples k-2 .. k predict k+1 (k = 2 … n-2)
        h = t[3:] - tri.tbar[:-1]
        miss = np.hypot(*(xy[3:] - (tri.pbar[:-1] + tri.slope[:-1] * h[:, None])).T)
        factor = np.sqrt(1.0 + 1.0 / 3.0 + h * h / tri.stt[:-1])
        miss_back[2:] = _ratio(miss, h, factor, speed[3:], sigma)
        # forward: the three samples k+1 .. k+3 predict k (k = 0 … n-4)
        h = t[:-3] - tri.tbar[1:]
        miss = np.hypot(*(xy[:-3] - (tri.pbar[1:] + tri.slope[1:] * h[:, None])).T)
        factor = np.sqrt(1.0 + 1.0 / 3.0 + h * h / tri.stt[1:])
        miss_fore[:-2] = _ratio(miss, h, factor, speed[:-3], sigma)
    # two samples, less likely to reach across another event, may see no break where
    # three do: the smaller miss decides
    slope2 = (xy[1:] - xy[:-1]) / (t[1:] - t[:-1])[:, None]
    tbar2, pbar2 = 0.5 * (t[1:] + t[:-1]), 0.5 * (xy[1:] + xy[:-1])
    stt2 = 0.5 * (t[1:] - t[:-1]) ** 2
    # backward: samples k-1, k predict k+1 (k = 1 … n-2): pair k-1
    h = t[2:] - tbar2[:-1]
    miss = np.hypot(*(xy[2:] - (pbar2[:-1] + slope2[:-1] * h[:, None])).T)
    ratio = _ratio(miss, h, np.sqrt(1.5 + h * h / stt2[:-1]), speed[2:], sigma)
    miss_back[1:] = np.minimum(miss_back[1:], ratio)
    # forward: samples k+1, k+2 predict k (k = 0 … n-3): pair k+1
    h = t[:-2] - tbar2[1:]
    miss = np.hypot(*(xy[:-2] - (pbar2[1:] + slope2[1:] * h[:, None])).T)
    ratio = _ratio(miss, h, np.sqrt(1.5 + h * h / stt2[1:]), speed[:-2], sigma)
    miss_fore[:-1] = np.minimum(miss_fore[:-1], ratio)
    between = np.minimum(miss_back, miss_fore)
    flagged = np.isfinite(between) & (between > 1.0)
    # A sample taken at the very moment of the event lies on both motions: then no
    # interval is flagged, but the samples before it do not predict the one after it,
    # nor the samples from it onwards the one before it. The break goes after it.
    at_sample = np.zeros(intervals, dtype=bool)
    at_sample[1:] = (np.minimum(miss_back[1:], miss_fore[:-1]) > 1.0) & ~flagged[1:] & ~flagged[:-1]
    at_sample &= np.isfinite(miss_back)
    found = flagged | at_sample
    # Where samples are sparse (a slow ball), a straight extension reaches far and
    # friction could bend it a lot; compare instead the velocities on both sides
    # with what friction can change between them.
    jump = _velocity_jumps(tri, sigma, n)
    near = found.copy()
    near[1:] |= found[:-1]
    near[:-1] |= found[1:]
    for k in np.nonzero((jump > 1.0) & ~near)[0].tolist():
        if (k > 0 and jump[k - 1] > jump[k]) or (k + 1 < intervals and jump[k + 1] >= jump[k]):
            continue
        found[k] = True
    return np.nonzero(found)[0].tolist()


def _velocity_jumps(tri: _Triples, sigma: float, n: int) -> FloatArray:
    """For each interval ``k``, the change between the velocities of the three samples
    before (``k-2 … k``) and after (``k+1 … k+3``), as a fraction of what friction and
    noise allow (above 1: a break)."""
    out = np.zeros(n - 1)
    if n < 6:
        return out
    # interval k (2 … n-4): triples starting at k-2 and at k+1
    vb, vf = tri.slope[:-3], tri.slope[3:]
    change = np.hypot(*(vf - vb).T)
    fast = np.maximum(np.hypot(*vb.T), np.hypot(*vf.T))
    noise = np.hypot(sigma, fast * physics.TIMING_JITTER)
    allowed = (free_acceleration(fast) * (tri.tbar[3:] - tri.tbar[:-3])
               + BREAK_Z * noise * np.sqrt(1.0 / tri.stt[:-3] + 1.0 / tri.stt[3:]))
    out[2:n - 3] = change / allowed
    return out
