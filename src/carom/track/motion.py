"""Reconstructing one ball's motion from its samples: rests, pieces and joins.

A ball's track is cut into *pieces*: stretches with no event inside, whose motion at
each end is fitted with a quadratic in time (:mod:`carom.track.fit`), and *rests*. Between
two pieces lies a
*join*, where something changed the ball's velocity faster than friction can: a
cushion, another ball, or (for the first move) the cue. A break between two samples is
found where neither neighbourhood predicts the other within the noise and the largest
change free motion allows (:data:`~carom.track.physics.MAX_FREE_ACCELERATION`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import hypot, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track import physics
from carom.track.breaks import find_breaks
from carom.track.joins import REST_RUN_OUT, Join, join_all
from carom.track.pieces import Piece, make_piece
from carom.track.rests import not_outliers, rest_runs
from carom.track.samples import BallTrack, FloatArray

__all__ = ["REST_RUN_OUT", "BallMotion", "Join", "Piece", "estimate_noise", "reconstruct"]

@dataclass(slots=True)
class BallMotion:
    """A ball's reconstructed motion over the whole stroke."""

    ball: Ball
    t: FloatArray
    xy: FloatArray
    sigma: float
    """Estimated position noise of this ball's samples, metres."""
    pieces: list[Piece]
    joins: list[Join] = field(default_factory=list)

    @property
    def moved(self) -> bool:
        return any(not p.rest for p in self.pieces) or any(j.kind == "nudge" for j in self.joins)

    @property
    def start(self) -> FloatArray:
        return self.pieces[0].position(self.pieces[0].t0)

    @property
    def end(self) -> FloatArray:
        return self.pieces[-1].position(self.pieces[-1].t1)

    @property
    def piece_of(self) -> list[int]:
        """Per sample, the index of its moving piece (-1: a rest or a lone sample)."""
        out = [-1] * int(self.t.shape[0])
        for k, piece in enumerate(self.pieces):
            if not piece.rest:
                out[piece.i0:piece.i1 + 1] = [k] * piece.size
        return out

    def sigma_at(self, speed: float) -> float:
        """Position noise of a sample of this ball moving at ``speed``."""
        return hypot(self.sigma, speed * physics.TIMING_JITTER)

    def path(self) -> tuple[FloatArray, FloatArray]:
        """The centre as a polyline ``(times, points)``: samples, plus the estimated
        point of every join, so that corners are not cut between samples."""
        times = [self.t]
        points = [self.xy]
        for join in self.joins:
            if join.kind == "nudge" or not (join.t_lo < join.t < join.t_hi):
                continue
            if join.kind == "restart" and join.rest_point is not None:
                times.append(np.array([join.t_stop, join.t]))
                points.append(np.vstack((join.rest_point, join.rest_point)))
                continue
            times.append(np.array([join.t]))
            points.append(join.point[None, :])
        t = np.concatenate(times)
        order = np.argsort(t, kind="stable")
        return t[order], np.concatenate(points)[order]


def estimate_noise(t: FloatArray, xy: FloatArray) -> float | None:
    """Robust noise of the samples: the spread of each sample about the line through its
    two neighbours (MAD), where they are close in time; floored and capped. ``None``
    when the track has too few such samples to tell."""
    if t.shape[0] < 8:
        return None
    t0, t1, t2 = t[:-2], t[1:-1], t[2:]
    close = (t2 - t0) < 0.1
    if np.count_nonzero(close) < 6:
        return None
    w = ((t1 - t0) / (t2 - t0))[:, None]
    e = (xy[1:-1] - (xy[:-2] + (xy[2:] - xy[:-2]) * w))[close]
    flat = np.abs(e).ravel()
    mad = float(np.partition(flat, flat.shape[0] // 2)[flat.shape[0] // 2]) * 1.4826 / sqrt(1.5)
    return min(max(mad, physics.POSITION_NOISE_FLOOR), physics.POSITION_NOISE_CEILING)


def reconstruct(ball: Ball, track: BallTrack, sigma: float | None = None) -> BallMotion:
    """Cut ``track`` into rests and pieces and estimate every join. ``sigma``: the
    position noise, if known (else estimated from the track itself)."""
    t, xy = track.t, track.xy
    if sigma is None:
        sigma = estimate_noise(t, xy) or physics.POSITION_NOISE_FLOOR
    keep = not_outliers(t, xy, sigma)
    if not keep.all():
        t, xy = t[keep], xy[keep]
    pieces: list[Piece] = []
    for lo, hi, rest in rest_runs(t, xy, sigma):
        if rest:
            pieces.append(make_piece(t, xy, lo, hi, True))
        else:
            pieces.extend(_moving_pieces(t, xy, lo, hi, sigma))
    motion = BallMotion(ball, t, xy, sigma, [])
    motion.pieces, motion.joins = join_all(pieces, motion.sigma_at)
    return motion


def _moving_pieces(t: FloatArray, xy: FloatArray, lo: int, hi: int, sigma: float) -> list[Piece]:
    breaks = find_breaks(t[lo:hi + 1], xy[lo:hi + 1], sigma)
    bounds = [lo, *(lo + b + 1 for b in breaks), hi + 1]
    return [make_piece(t, xy, a, b - 1) for a, b in itertools.pairwise(bounds)]
