"""Touch: two balls passed close and nothing visible changed.

A contact moves the balls: a resting ball touched at speed ``v`` with an overlap ``δ`` of
the straight paths leaves at about ``v √(δ/R)`` and rolls about 5.8 times the square of
that, in metres; a moving ball's velocity changes by as much. A pass that changed
nothing the tracker shows was a contact only if the overlap was below what would have
shown, ``ε = R (v_visible / v)²``: a fraction of a micrometre for a ball passing at 1 m/s,
millimetres for a slow final contact. The chance is that of the true distance lying in
``[2R - ε, 2R]`` given the measured one, by the tracker-error model (its bias tail
included), and given that it did not fall below ``2R - ε``.

What shows of a resting ball is weighed at its noise (:func:`unseen_nudge`): its own, or,
when it only rests in the stroke, the noise measured on it over the recording
(:func:`~carom.track.judging.recording.ball_noise`). A camera with 3 mm of noise hides a
nudge of 8 mm: a slow thin contact that leaves one is not ruled out by a ball that shows
no move.
"""

from __future__ import annotations

from math import sqrt

import numpy as np

from carom.track import tracker
from carom.track.contacts.hits import NEGLIGIBLE, BallHit, gap_sd, velocity_at
from carom.track.reconstruct.rests import NUDGE_Z
from carom.track.reconstruct.trajectory import BallPath
from carom.track.tracker import TrackerModel

STUN_ROLL = 5.8
"""A resting ball given speed ``v`` (m/s) by a thin hit slides, then rolls, about
``STUN_ROLL v²`` metres before it stops (PHYSICS.md friction constants)."""


def touch(pa: BallPath, pb: BallPath, t: float, distance: float, diameter: float,
          model: TrackerModel, since: float | None = None) -> BallHit | None:
    """The close pass of ``pa`` and ``pb`` at ``t`` (centres ``distance`` apart) as a
    contact that changed nothing visible, or ``None`` when that is negligible. Both at
    rest at ``t``, the pass is where one of them stopped after ``since`` (the episode's
    beginning), if one did: a ball rolled up to the other and stayed (:func:`_arrival`)."""
    moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
    if not (moving_a or moving_b):
        arrived = _arrival(pa, pb, since, t) if since is not None else None
        if arrived is None:
            return None
        t = arrived
        distance = float(np.hypot(*(pa.at(t) - pb.at(t))))
        moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
        if not (moving_a or moving_b):
            return None
    va, vb = velocity_at(pa, t), velocity_at(pb, t)
    speed_a = float(np.hypot(*va)) if moving_a else 0.0
    speed_b = float(np.hypot(*vb)) if moving_b else 0.0
    sd = gap_sd(pa, pb, t, speed_a, speed_b)
    mover, other = (pa, pb) if speed_a >= speed_b else (pb, pa)
    clearance = distance - diameter
    still = np.zeros(2)
    relative = float(np.hypot(*((va if moving_a else still) - (vb if moving_b else still))))
    if moving_a and moving_b:
        visible = tracker.DETECTABLE_SPEED_CHANGE
    else:
        visible = sqrt(unseen_nudge(other.motion.sigma) / STUN_ROLL)
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


def unseen_nudge(sigma: float) -> float:
    """How far, m, a contact may move a resting ball measured with noise ``sigma`` and
    leave no sign in its samples: the step its rests are not cut at
    (:data:`~carom.track.reconstruct.rests.NUDGE_Z` standard deviations of the difference
    of two measurements of it: a larger one is read as a nudge, and weighed as one), never
    less than :data:`~carom.track.tracker.VISIBLE_NUDGE` (at the noise of the real match's
    camera, what two measurements of a still ball differ by, with rare exceptions)."""
    return max(tracker.VISIBLE_NUDGE, NUDGE_Z * tracker.rayleigh_sd(max(sigma, tracker.REST_NOISE)))


def _arrival(pa: BallPath, pb: BallPath, since: float, until: float) -> float | None:
    """When the later of ``pa`` and ``pb`` to come to rest between ``since`` and ``until``
    stopped (``None``: neither did): the nearest two balls come, when one rolls up to the
    other and stays there, is the place it stopped, and the moment of a slow last touch."""
    stops = [j for path in (pa, pb) for j in path.joins if j.kind == "stop" and since <= j.t <= until]
    if not stops:
        return None
    last = max(stops, key=lambda j: j.t)
    return max(last.t - ARRIVAL_LEAD, last.t_lo)  # still rolling, a moment before it stopped


ARRIVAL_LEAD = 0.001
"""How long, s, before a ball's estimated stop its arrival is weighed (it still rolls)."""
