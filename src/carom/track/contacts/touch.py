"""Touch: two balls passed close and nothing visible changed.

A contact moves the balls: a resting ball touched at speed ``v`` with an overlap ``δ`` of
the straight paths leaves at about ``v √(δ/R)`` and rolls about 5.8 times the square of
that, in metres; a moving ball's velocity changes by as much. A pass that changed
nothing the tracker shows was a contact only if the overlap was below what would have
shown, ``ε = R (v_visible / v)²``: a fraction of a micrometre for a ball passing at 1 m/s,
millimetres for a slow final contact. The chance is that of the true distance lying in
``[2R - ε, 2R]`` given the measured one, by the tracker-error model (its bias tail
included), and given that it did not fall below ``2R - ε``.
"""

from __future__ import annotations

from math import sqrt

import numpy as np

from carom.track import tracker
from carom.track.contacts.hits import BallHit, gap_sd, velocity_at
from carom.track.reconstruct.trajectory import BallPath
from carom.track.tracker import TrackerModel

STUN_ROLL = 5.8
"""A resting ball given speed ``v`` (m/s) by a thin hit slides, then rolls, about
``STUN_ROLL v²`` metres before it stops (PHYSICS.md friction constants)."""

NEGLIGIBLE = 1e-4
"""A touch less likely than this is not reported."""


def touch(pa: BallPath, pb: BallPath, t: float, distance: float, diameter: float,
          model: TrackerModel) -> BallHit | None:
    """The close pass of ``pa`` and ``pb`` at ``t`` (centres ``distance`` apart) as a
    contact that changed nothing visible, or ``None`` when that is negligible."""
    moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
    if not (moving_a or moving_b):
        return None
    va, vb = velocity_at(pa, t), velocity_at(pb, t)
    speed_a = float(np.hypot(*va)) if moving_a else 0.0
    speed_b = float(np.hypot(*vb)) if moving_b else 0.0
    sd = gap_sd(pa, pb, t, speed_a, speed_b)
    mover, other = (pa, pb) if speed_a >= speed_b else (pb, pa)
    clearance = distance - diameter
    relative = float(np.hypot(*((va if moving_a else 0.0) - (vb if moving_b else 0.0))))
    if moving_a and moving_b:
        visible = tracker.DETECTABLE_SPEED_CHANGE
    else:
        visible = sqrt(tracker.VISIBLE_NUDGE / STUN_ROLL)
    ratio = min(1.0, visible / max(relative, 1e-3))
    eps = 0.5 * diameter * ratio * ratio
    # P(true clearance < x | measured clearance) = P(error > clearance - x)
    below = model.gap_beyond(clearance + eps, sd)
    within = model.gap_beyond(clearance, sd) - below
    probability = max(within, 0.0) / max(1.0 - below, 1e-12)
    if probability < NEGLIGIBLE:
        return None
    speed = max(speed_a, speed_b, 0.05)
    return BallHit(mover.motion.ball, other.motion.ball, t, float(np.hypot(0.002, sd / speed)), probability,
                   "touch", clearance)
