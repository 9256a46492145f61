"""The three balls followed from frame to frame: identities kept, occlusion bridged.

Each ball is identified by its colour (:mod:`carom.video.balls`), and among the blobs of
its colour it takes the one nearest where its motion puts it. The motion model is the
project's own for a ball between events: a straight line at the speed of its last two
samples (friction changes it by centimetres a second per frame at most, far less than a
gate). A ball not seen (a player, the cue, the referee over it) keeps its last motion,
and the gate widens with the time it has been gone, by the fastest a ball moves; when it
is seen again it takes the blob of its colour nearest that prediction. No sample is
invented for the frames it was covered: the auto-referee reads a gap as uncertainty.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.video.balls import BallFinder, Blob
from carom.video.camera import Array
from carom.video.frames import Frame
from carom.video.table import Registration

FASTEST = 12.0
"""The fastest a ball moves, m/s (a hard break; the gate for a ball just struck)."""
GATE = 0.04
"""The gate's least radius, m."""
PIXEL_SD = 0.15
"""A still, whole ball's centre is measured to this many pixels (one standard deviation)."""
STREAK_SD = 0.04
"""Each pixel of streak adds this many pixels of deviation along the track."""


@dataclass(frozen=True, slots=True)
class Sample:
    """A ball's measured centre at a frame's time, with its uncertainty."""

    frame: int
    t: float
    x: float
    y: float
    sd: float
    """Standard deviation of each coordinate, m."""
    streak: float
    """The length of the ball's streak (its path while the shutter was open), m."""


@dataclass(slots=True)
class _Track:
    last: Sample | None = None
    before: Sample | None = None

    def predict(self, t: float) -> tuple[Array | None, float]:
        """Where the ball should be at ``t`` and how far it may be from that."""
        if self.last is None:
            return None, math.inf
        p = np.array([self.last.x, self.last.y])
        gone = t - self.last.t
        if self.before is not None and self.last.t - self.before.t < 0.2:
            v = (p - np.array([self.before.x, self.before.y])) / (self.last.t - self.before.t)
            return p + v * gone, GATE + 0.5 * float(np.linalg.norm(v)) * gone + FASTEST * 0.25 * gone
        return p, GATE + FASTEST * gone


@dataclass(slots=True)
class Follower:
    registration: Registration
    finder: BallFinder
    tracks: dict[Ball, _Track] = field(default_factory=lambda: {b: _Track() for b in BALLS})

    @classmethod
    def of(cls, registration: Registration, width: int, height: int) -> Follower:
        return cls(registration, BallFinder.of(registration, width, height))

    def step(self, frame: Frame) -> dict[Ball, Sample]:
        """Each ball seen in ``frame`` and where."""
        blobs = self.finder.find(frame)
        out: dict[Ball, Sample] = {}
        r = self.registration.table.ball_radius
        taken: set[int] = set()
        for ball in BALLS:
            mine = [(k, b) for k, b in enumerate(blobs) if b.ball is ball and k not in taken]
            if not mine:
                continue
            track = self.tracks[ball]
            where, gate = track.predict(frame.time)
            best = None
            for k, blob in mine:
                xy = self.registration.to_table(blob.centre[None, :], r)[0]
                if where is not None:
                    cost = float(np.linalg.norm(xy - where))
                    if cost > gate:
                        continue
                else:
                    cost = abs(1.0 - blob.share) + blob.colour
                if best is None or cost < best[0]:
                    best = (cost, k, blob, xy)
            if best is None:
                continue
            _, k, blob, xy = best
            taken.add(k)
            sample = self._sample(frame, blob, xy)
            track.before, track.last = track.last, sample
            out[ball] = sample
        return out

    def _sample(self, frame: Frame, blob: Blob, xy: Array) -> Sample:
        metres_per_pixel = self.registration.table.ball_radius / blob.radius
        sd_px = PIXEL_SD + STREAK_SD * blob.streak
        if blob.share < 0.8:
            sd_px *= 1.0 + 4.0 * (0.8 - blob.share)  # partly covered: its centre is off
        return Sample(frame.index, frame.time, float(xy[0]), float(xy[1]), sd_px * metres_per_pixel,
                      blob.streak * metres_per_pixel)

    def forget(self) -> None:
        """After the camera moved: start again from what is seen."""
        self.tracks = {b: _Track() for b in BALLS}
