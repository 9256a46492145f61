"""Rests and glitches in a ball's samples."""

from __future__ import annotations

import numpy as np

from carom.track import physics
from carom.track.breaks import BREAK_Z
from carom.track.samples import FloatArray

OUTLIER_SPAN = 0.12
"""Glitches are looked for only where four neighbouring samples span at most this, s
(dense sampling: the ball cannot both leave their line and come back to it)."""


def not_outliers(t: FloatArray, xy: FloatArray, sigma: float) -> np.ndarray:
    """Mask of the samples to keep: a lone sample far off the straight line through its
    two neighbours on each side, which themselves lie on it, is a tracking glitch (no
    event moves a ball away and back within two samples)."""
    n = int(t.shape[0])
    keep = np.ones(n, dtype=bool)
    if n < 6:
        return keep
    # only a sample off the chord of its two neighbours by more than the noise can be one
    w = ((t[2:-2] - t[1:-3]) / (t[3:-1] - t[1:-3]))[:, None]
    off = np.hypot(*(xy[2:-2] - (xy[1:-3] + (xy[3:-1] - xy[1:-3]) * w)).T)
    ks = np.nonzero(off > 2.0 * BREAK_Z * sigma)[0] + 2
    if not ks.size:
        return keep
    span = t[ks + 2] - t[ks - 2]
    ks = ks[span <= OUTLIER_SPAN]
    if not ks.size:
        return keep
    windows = np.column_stack((ks - 2, ks - 1, ks + 1, ks + 2))
    tw = t[windows]
    tbar = tw.mean(axis=1)
    dt = tw - tbar[:, None]
    stt = np.sum(dt * dt, axis=1)
    pw = xy[windows]
    pbar = pw.mean(axis=1)
    slope = np.einsum("kw,kwc->kc", dt, pw - pbar[:, None, :]) / stt[:, None]
    fitted = pbar[:, None, :] + dt[:, :, None] * slope[:, None, :]
    spread = np.max(np.hypot(*(pw - fitted).transpose(2, 0, 1)), axis=1)
    h = t[ks] - tbar
    miss = np.hypot(*(xy[ks] - (pbar + h[:, None] * slope)).T)
    speed = np.hypot(*slope.T)
    noise = np.hypot(sigma, speed * physics.TIMING_JITTER)
    slack = 0.5 * physics.MAX_FREE_ACCELERATION * (0.5 * (tw[:, 3] - tw[:, 0])) ** 2
    agree = spread <= BREAK_Z * noise + slack
    glitch = agree & (miss > 2.0 * (BREAK_Z * noise * np.sqrt(1.25 + h * h / stt) + slack))
    keep[ks[glitch]] = False
    return keep


REST_SPAN = 0.1
"""A ball is at rest where its samples stay within the noise for at least this long, s
(a ball rolling out at a few millimetres a second is as good as still)."""

REST_SAMPLES = 16
"""The most samples a rest span is checked over (a tracker at up to 150 Hz)."""


def rest_runs(t: FloatArray, xy: FloatArray, sigma: float) -> list[tuple[int, int, bool]]:
    """Rest runs and moving runs, in order. The first and the last sample are rests:
    balls are at rest before a stroke (F3) and when it ends (C1). Elsewhere a rest is
    a stretch of at least :data:`REST_SPAN` over which the ball stays within the noise
    (a tracker that samples moving balls only shows none: the ball then rests between
    two samples, inside a join)."""
    n = int(t.shape[0])
    radius = max(4.0 * sigma, 0.0015)
    still = np.zeros(n, dtype=bool)
    still[0] = still[-1] = True
    small = np.nonzero(np.hypot(*np.diff(xy, axis=0).T) <= radius)[0] if n > 2 else np.zeros(0, dtype=int)
    if small.size:
        # a rest begins where the next step is within the noise; it lasts if every sample
        # of the span stays near the first (a bounce comes back to where it was)
        ahead = np.minimum(np.searchsorted(t, t[small] + REST_SPAN), n - 1)
        covered = (t[ahead] - t[small]) >= REST_SPAN * 0.999
        reach = np.zeros(small.shape[0])
        for k in range(1, min(int(np.max(ahead - small)), REST_SAMPLES) + 1):
            other = np.minimum(small + k, n - 1)
            far = np.hypot(*(xy[other] - xy[small]).T)
            reach = np.where(small + k <= ahead, np.maximum(reach, far), reach)
        begin = small[covered & (reach <= radius) & (ahead - small <= REST_SAMPLES)]
        ahead = ahead[covered & (reach <= radius) & (ahead - small <= REST_SAMPLES)]
        if begin.size:
            marks = np.zeros(n + 1, dtype=int)
            np.add.at(marks, begin, 1)
            np.add.at(marks, ahead + 1, -1)
            still |= np.cumsum(marks)[:n] > 0
    # a run ends where stillness changes, or between two still samples apart (two rests
    # in different places: the ball moved between them unseen)
    apart = np.hypot(*np.diff(xy, axis=0).T) > radius
    cut = (still[1:] != still[:-1]) | (still[1:] & still[:-1] & apart)
    ends = [*np.nonzero(cut)[0].tolist(), n - 1]
    runs: list[tuple[int, int, bool]] = []
    begin = 0
    flags = still.tolist()
    for end in ends:
        runs.append((begin, end, bool(flags[begin])))
        begin = end + 1
    return runs
