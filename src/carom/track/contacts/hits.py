"""A ball–ball contact found by the detector, and what every kind of evidence shares."""

from __future__ import annotations

from dataclasses import dataclass
from math import acos, hypot

import numpy as np

from carom.core.balls import Ball
from carom.track import tracker
from carom.track.reconstruct.numeric import linspace
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import FloatArray

NEGLIGIBLE = 1e-4
"""A chance below this is negligible: a candidate contact less likely is not reported (nor
a state of the stroke's reading weighed, :mod:`~carom.track.judging.explanation`)."""

CONTACT_GRID = 0.002
"""Time step, s, at which paths are searched for the moment of a contact."""


@dataclass(frozen=True, slots=True)
class BallHit:
    """Two balls touched (or, with a low ``probability``, may have)."""

    mover: Ball
    """The moving ball (the hitter when the other was at rest)."""
    other: Ball
    t: float
    t_sd: float
    probability: float
    kind: str
    """``struck`` (a resting ball set moving), ``turned`` (a moving ball deflected) or
    ``touch`` (a close pass that changed nothing visible)."""
    clearance: float
    """Measured distance of the centres at the contact minus ``2R``, m."""
    group: object | None = None
    """Candidates of one group exclude each other: the hitters of one struck ball."""


def velocity_at(path: BallPath, t: float) -> FloatArray:
    """A ball's velocity at ``t``: the chord of the path's points around it."""
    times, points = path.times, path.points
    k = min(max(int(times.searchsorted(t)) - 1, 0), times.shape[0] - 2)
    dt = float(times[k + 1] - times[k])
    if dt <= 0.0:
        return np.zeros(2)
    velocity: FloatArray = (points[k + 1] - points[k]) / dt
    return velocity


def path_sd(path: BallPath, t: float) -> float:
    """Uncertainty of a ball's reconstructed centre at ``t``: the noise, and half the
    gap of a join that holds more than one event (its path is unknown to that much)."""
    sd = path.motion.sigma
    for join in path.joins_near(t, 0.0):
        if join.kind == "turn":
            sd = hypot(sd, 0.5 * join.gap)
    return sd


def contact_grid(t_from: float, t_to: float) -> FloatArray:
    """Times from ``t_from`` to ``t_to`` about :data:`CONTACT_GRID` apart (2 to 2,000 steps)."""
    return linspace(t_from, t_to, int(min(max((t_to - t_from) / CONTACT_GRID, 2), 2000)) + 1)


def angle_between(u: FloatArray, w: FloatArray, zero: float = 0.0) -> float:
    """The angle between two vectors, radians (``zero`` when either is zero)."""
    (ux, uy), (wx, wy) = u.tolist(), w.tolist()
    nu, nw = hypot(ux, uy), hypot(wx, wy)
    if nu == 0.0 or nw == 0.0:
        return zero
    return acos(max(-1.0, min(1.0, (ux * wx + uy * wy) / (nu * nw))))


def gap_sd(a: BallPath, b: BallPath, t: float, speed_a: float = 0.0, speed_b: float = 0.0) -> float:
    """The Gaussian core of the error of the measured distance of two centres at ``t``
    (the tracker model's heavy tail comes on top,
    :meth:`~carom.track.tracker.TrackerModel.gap_likelihood`), at most
    :data:`~carom.track.tracker.GAP_SD_MAX`."""
    jitter = tracker.TIMING_JITTER
    sd = hypot(path_sd(a, t), speed_a * jitter, path_sd(b, t), speed_b * jitter, tracker.CONTACT_SHAPE_SD)
    return min(sd, tracker.GAP_SD_MAX)
