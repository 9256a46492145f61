"""Reconstructing one ball's motion from its samples: rests, pieces and joins.

A ball's track is cut into *pieces*: stretches with no event inside, whose motion at
each end is fitted with a quadratic in time (:mod:`carom.track.reconstruct.fit`), and *rests*. Between
two pieces lies a
*join*, where something changed the ball's velocity faster than friction can: a
cushion, another ball, or (for the first move) the cue. A break between two samples is
found where neither neighbourhood predicts the other within the noise and the largest
change free motion allows (:data:`~carom.track.laws.MAX_FREE_ACCELERATION`).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from math import hypot, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track import tracker
from carom.track.reconstruct.breaks import find_breaks_in_runs
from carom.track.reconstruct.joins import REST_RUN_OUT, Join, join_all
from carom.track.reconstruct.pieces import Piece, Span, make_pieces
from carom.track.reconstruct.rests import biased_excursions, noise_sends, not_outliers, rest_runs
from carom.track.samples import BallTrack, FloatArray

__all__ = ["REST_RUN_OUT", "BallMotion", "Join", "Piece", "SampleLists", "estimate_noise", "reconstruct",
           "reconstruct_all"]

SampleLists = tuple[list[float], list[float], list[float]]
"""A ball's samples as plain lists: times, x, y."""


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
    _lists: SampleLists | None = field(default=None, init=False, repr=False, compare=False)

    def sample_lists(self) -> SampleLists:
        """The samples as plain lists ``(t, x, y)``, made once (for scalar work)."""
        if self._lists is None:
            self._lists = (self.t.tolist(), self.xy[:, 0].tolist(), self.xy[:, 1].tolist())
        return self._lists

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
        return hypot(self.sigma, speed * tracker.TIMING_JITTER)

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
                points.append(np.array((join.rest_point, join.rest_point)))
                continue
            times.append(np.array([join.t]))
            points.append(join.point[None, :])
        if len(times) == 1:
            return self.t.copy(), self.xy.copy()
        t = np.concatenate(times)
        order = np.argsort(t, kind="stable")
        return t[order], np.concatenate(points)[order]


def estimate_noise(t: FloatArray, xy: FloatArray, *, capped: bool = True) -> float | None:
    """Robust noise of the samples: the spread of each sample about the line through its
    two neighbours (MAD), where they are close in time; floored and (if ``capped``)
    capped. ``None`` when the track has too few such samples to tell."""
    if t.shape[0] < 8:
        return None
    t0, t1, t2 = t[:-2], t[1:-1], t[2:]
    close = (t2 - t0) < 0.1
    if np.count_nonzero(close) < 6:
        return None
    w = ((t1 - t0) / (t2 - t0))[:, None]
    e = (xy[1:-1] - (xy[:-2] + (xy[2:] - xy[:-2]) * w))[close]
    flat = np.abs(e).ravel()
    half = flat.shape[0] // 2
    flat.partition(half)  # a fresh array: partitioned in place
    mad = float(flat[half]) * 1.4826 / sqrt(1.5)
    floored = max(mad, tracker.POSITION_NOISE_FLOOR)
    return min(floored, tracker.POSITION_NOISE_CEILING) if capped else floored


DIAMETER = 0.0615
"""A ball's diameter on a match table, m (the detector is told the table's)."""


def reconstruct(ball: Ball, track: BallTrack, sigma: float | None = None) -> BallMotion:
    """Cut ``track`` into rests and pieces and estimate every join. ``sigma``: the
    position noise, if known (else estimated from the track itself)."""
    return reconstruct_all([(ball, track, sigma)])[ball]


def reconstruct_all(tracks: list[tuple[Ball, BallTrack, float | None]], diameter: float = DIAMETER,
                    rule: tracker.SendRule | None = None) -> dict[Ball, BallMotion]:
    """:func:`reconstruct` of each ball of a stroke; the breaks of all their moving runs
    are looked for at once (:func:`~carom.track.reconstruct.breaks.find_breaks_in_runs`).
    A resting ball's samples that only show the tracker's bias while another ball
    passed are left out first (:func:`~carom.track.reconstruct.rests.biased_excursions`).
    So are those a send-on-move tracker (the recording's ``rule``) sent of a still ball only
    because its noise reached the send step (:func:`~carom.track.reconstruct.rests.noise_sends`)."""
    prepared = []
    for ball, track, noise in tracks:
        t, xy = track.t, track.xy
        sigma = noise if noise is not None else estimate_noise(t, xy) or tracker.POSITION_NOISE_FLOOR
        others = [(o.t, o.xy) for b, o, _ in tracks if b is not ball]
        keep = not_outliers(t, xy, sigma) & biased_excursions(t, xy, sigma, others, diameter)
        keep &= noise_sends(t, xy, sigma, rule, others, diameter)
        if not keep.all():
            t, xy = t[keep], xy[keep]
        prepared.append((ball, t, xy, sigma, rest_runs(t, xy, sigma)))
    moving = [(t[lo:hi + 1], xy[lo:hi + 1], sigma)
              for _, t, xy, sigma, runs in prepared for lo, hi, rest in runs if not rest]
    breaks = iter(find_breaks_in_runs(moving))
    motions: dict[Ball, BallMotion] = {}
    for ball, t, xy, sigma, runs in prepared:
        spans: list[Span] = []
        rolling_into: set[int] = set()  # the last sample before each break a ball rolled into
        for lo, hi, rest in runs:
            if rest:
                spans.append((lo, hi, True))
                continue
            found = next(breaks)
            spans.extend(_moving_spans(lo, hi, found.at))
            rolling_into.update(lo + k for k, r in zip(found.at, found.rolling, strict=True) if r)
        motion = BallMotion(ball, t, xy, sigma, [])
        pieces = make_pieces(t, xy, spans, motion.sample_lists())
        motion.pieces, motion.joins = join_all(pieces, motion.sigma_at)
        for join in motion.joins:
            join.rolling = join.kind == "turn" and join.before.i1 in rolling_into
        motions[ball] = motion
    return motions


def _moving_spans(lo: int, hi: int, breaks: list[int]) -> list[Span]:
    """The moving run ``lo … hi`` cut at its ``breaks`` (intervals counted from ``lo``)
    into pieces with no event inside."""
    bounds = [lo, *(lo + b + 1 for b in breaks), hi + 1]
    return [(a, b - 1, False) for a, b in itertools.pairwise(bounds)]
