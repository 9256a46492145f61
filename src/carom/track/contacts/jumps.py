"""Jumped balls (rule F2): a ball that left the playing surface.

A tracker loses a ball that leaves the table: its samples stop while it still moves
fast, or its last samples lie beyond the cushion noses. A ball that merely rolls to a
stop keeps being seen (its last sample is where it rests, at the end of the stroke).

One sample beyond the noses between samples on the surface is weak evidence: a ball
that touched the frame and came back shows so, but so does a glitch of the tracker
(a sample off by a centimetre or two, which no line through its neighbours can catch
where the ball turns at a cushion). Such a jump is a candidate with the chance
:data:`LONE_SAMPLE_CHANCE`, not a certainty: it never enters the record on its own,
and it lowers the confidence of a stroke whose ruling it would change.
"""

from __future__ import annotations

import numpy as np

from carom.core.table import TableSpec
from carom.track.reconstruct.ballmotion import BallMotion

OFF_TABLE = 0.02
"""How far beyond the line ``R`` inside a cushion nose a centre must be seen to be off
the surface, m (a ball on the cushion rail, not one compressing the cushion)."""

LOST_SPEED = 0.3
"""A ball last seen moving at least this fast, m/s, well before the stroke ended, is gone."""

LOST_BEFORE_END = 0.5
"""How long before the end of the stroke, s, a ball must have vanished to count as gone."""


LONE_SAMPLE_CHANCE = 0.05
"""The chance that a lone sample beyond the noses (its neighbours on the surface) is a
jump: of the samples a tracker sends, a few in a thousand are glitches of a centimetre
or more (:mod:`carom.track.tracker`), and a ball that touches the frame and comes back
is rarer still; a rare event either way, so the stroke is ruled as if on the surface
and the jump is a doubt about it."""


def jump(motion: BallMotion, table: TableSpec, stroke_end: float) -> tuple[float, float] | None:
    """When the ball left the table and the chance that it did, or ``None`` if it
    stayed on it: its first sample beyond the noses (a lone one between samples on the
    surface with :data:`LONE_SAMPLE_CHANCE`), or its last, lost while moving fast."""
    r = table.ball_radius
    (x0, y0), (x1, y1) = motion.xy.min(axis=0).tolist(), motion.xy.max(axis=0).tolist()
    low, high_x, high_y = r - OFF_TABLE, table.width - r + OFF_TABLE, table.length - r + OFF_TABLE
    if x0 < low or x1 > high_x or y0 < low or y1 > high_y:
        x, y = motion.xy[:, 0], motion.xy[:, 1]
        off = (x < low) | (x > high_x) | (y < low) | (y > high_y)
        k = int(off.argmax())
        last = off.shape[0] - 1
        lone = 0 < k < last and not off[k + 1] and int(off.sum()) == 1
        return float(motion.t[k]), LONE_SAMPLE_CHANCE if lone else 1.0
    end = float(motion.t[-1])
    if end < stroke_end - LOST_BEFORE_END and motion.t.shape[0] >= 2:
        step = float(np.hypot(*(motion.xy[-1] - motion.xy[-2])))
        if step / float(motion.t[-1] - motion.t[-2]) >= LOST_SPEED:
            return end, 1.0
    return None
