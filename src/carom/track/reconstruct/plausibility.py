"""What no tracker's errors explain: samples a real ball cannot have made.

The tracker-error model (:mod:`carom.track.tracker`) explains noise of a few
millimetres, bias of centimetres near other balls, lost and sparse samples. A recording
beyond that (a ball that moves metres in a millisecond, samples scattered by
centimetres, two balls measured on one spot) is not one the detector can judge: the
stroke is flagged, with what is wrong, and given no confidence.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from carom.core.table import TableSpec
from carom.notation.said import Said
from carom.track.reconstruct.ballmotion import estimate_noise
from carom.track.reconstruct.numeric import diff
from carom.track.samples import TrackedStroke

MAX_SPEED = 15.0
"""The fastest a ball can move, m/s (a hard break shot sends the cue ball at about 10)."""

JUMP_BEYOND = 0.1
"""A move between two samples faster than :data:`MAX_SPEED` counts only when it is
longer than this, m (a glitch of a centimetre between close samples is noise)."""

CLOSEST = 0.01
"""Two centres measured closer than this, m, are one spot: even merged blobs keep two
touching balls' centres centimetres apart (``2R`` is 61.5 mm)."""

NOISE_BEYOND = 0.008
"""Samples scattered by more than this, m (one standard deviation), are not a tracker's
noise (about 1 mm, a few mm for a poor one)."""


def implausible(stroke: TrackedStroke, table: TableSpec) -> list[Said]:
    """What in ``stroke``'s samples no tracker's error explains, in words (empty: nothing)."""
    found: list[Said] = []
    for ball, track in stroke.balls.items():
        if len(track) < 2:
            continue
        step = np.hypot(*diff(track.xy).T)
        dt = diff(track.t)
        fast = ((step > JUMP_BEYOND) & (step > MAX_SPEED * dt)).nonzero()[0]
        if fast.size:
            k = int(fast[0])
            found.append(Said("%(ball)s moves %(step)s m in %(ms)s ms at %(t)s s (%(speed)s m/s; no ball "
                              "moves faster than %(most)s m/s)", ball=ball, step=format(step[k], ".2f"),
                              ms=format(dt[k] * 1000, ".3g"), t=format(track.t[k], ".2f"),
                              speed=format(step[k] / dt[k], ".0f"),
                              most=format(MAX_SPEED, ".0f")))
        sigma = estimate_noise(track.t, track.xy, capped=False)
        if sigma is not None and sigma > NOISE_BEYOND:
            found.append(Said("the samples of %(ball)s scatter by about %(mm)s mm (a tracker's noise is "
                              "about 1 mm)", ball=ball, mm=format(sigma * 1000, ".0f")))
    for (a, ta), (b, tb) in combinations(stroke.balls.items(), 2):
        bx, by = np.interp(ta.t, tb.t, tb.xy[:, 0]), np.interp(ta.t, tb.t, tb.xy[:, 1])
        apart = np.hypot(ta.xy[:, 0] - bx, ta.xy[:, 1] - by)
        k = int(apart.argmin())
        if apart[k] < CLOSEST:
            found.append(Said("%(ball)s and %(other)s are measured %(mm)s mm apart at %(t)s s (their centres "
                              "cannot come closer than %(closest)s mm)", ball=a, other=b,
                              mm=format(apart[k] * 1000, ".0f"), t=format(ta.t[k], ".2f"),
                              closest=format(2000 * table.ball_radius, ".1f")))
    return found
