"""The harsh cameras of the auto-referee's first nineteen rounds: true ball paths in, the
samples a tracker would send out.

Until the camera was measured (carom.track.sampling), every synthetic stroke was seen by
a camera drawn from these ranges, and the detector was developed on them
(``tests/track/development.py`` still cites strokes seen so). Measured against the real
match file (``tools/track_camera.py``) they are harsher than its camera and of another
shape (three to four times its noise, about 7 % of each ball's frames lost apart from
the others, a bias near other balls in the very form the detector takes out), so the
default family is now the one fitted to the real camera
(:mod:`carom.track.synthetic.camera`); these ranges stay, unchanged sample for sample,
as the family ``harsh``. Each stroke gets its own camera, drawn from
:class:`HarshRanges`:

* **frames** every 17–40 ms (the real file: 50 a second), time stamps jittered and
  rounded to 0.5 ms;
* **sparse samples**: a ball is sent only once it has moved 10–20 mm from where it was
  last sent (the real file: about 14 mm), so a resting ball shows its first and last
  sample only, and a ball nudged by a few millimetres shows the nudge in its last
  sample alone; a quarter of the cameras send every frame of a moving ball instead;
* **jitter**: 0.3–1.5 mm of Gaussian noise per coordinate, and motion blur along the
  track (speed times up to 1 ms);
* **bias near other balls**: when two balls are within a few centimetres, their
  centres are pushed apart or pulled together (shading, merged blobs) by up to 2 cm each at
  contact (4 cm between the two), falling off over 15 mm of gap, which can make a resting ball look as if
  it moved;
* **lost samples**: up to 15 % of the frames of a ball at random, and up to 80 % of the
  frames in which a ball is within 1 cm of another (blobs merged), plus rare glitches
  (a sample off by about a centimetre);
* the recording starts at the frame before the strike and stops 0.05–3 s after the
  last ball stopped; every ball has a sample at both ends.

The detector's own model of these errors is :mod:`carom.track.tracker`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.core.balls import Ball
from carom.track.samples import BallTrack, FloatArray


@dataclass(frozen=True, slots=True)
class HarshRanges:
    """The ranges each simulated camera's settings are drawn from (uniformly)."""

    frame_period: tuple[float, float] = (1.0 / 60.0, 1.0 / 25.0)
    """Seconds between frames."""
    stamp_jitter: float = 0.0003
    """Standard deviation of a frame's time stamp, s."""
    stamp_resolution: float = 0.0005
    """Time stamps are rounded to this, s."""
    send_step: tuple[float, float] = (0.010, 0.020)
    """A ball is sent again once its measured centre moved this far, m."""
    every_frame: float = 0.25
    """The chance that a camera sends every frame of a moving ball instead."""
    noise: tuple[float, float] = (0.0003, 0.0015)
    """Gaussian noise per coordinate, m (per ball)."""
    blur: tuple[float, float] = (0.0, 0.001)
    """Along-track error per unit speed, s (standard deviation)."""
    bias: tuple[float, float] = (0.0, 0.02)
    """Shift of two touching balls' centres along their line, m (apart or together)."""
    bias_reach: float = 0.015
    """The gap over which the bias falls off by a factor e, m."""
    lost_near: tuple[float, float] = (0.0, 0.8)
    """The chance that a ball's frame is lost while it is within :data:`NEAR` of another."""
    drop: tuple[float, float] = (0.0, 0.15)
    """The chance that any frame of a ball is lost."""
    glitch: float = 0.002
    """The chance that a sent sample is off by a glitch."""
    glitch_size: float = 0.01
    """Standard deviation of a glitch, m."""
    tail: tuple[float, float] = (0.05, 3.0)
    """How long the recording goes on after the last ball stopped, s."""


HARSH_EVERY_FRAME = HarshRanges(send_step=(0.0, 0.0), every_frame=1.0)
"""Cameras that send every frame of every ball, moving or not (many trackers do; the real
match file's does not): a resting ball shows hundreds of measurements, its noise and the
bias of a ball passing it among them."""

NEAR = 0.01
"""Two balls whose surfaces are closer than this, m, may merge into one blob."""


@dataclass(frozen=True, slots=True)
class HarshCamera:
    """One camera's settings (drawn by :meth:`draw`)."""

    frame_period: float
    send_step: float
    every_frame: bool
    noise: tuple[float, float, float]
    blur: float
    bias: float
    lost_near: float
    drop: float
    tail: float
    ranges: HarshRanges

    @staticmethod
    def draw(rng: np.random.Generator, ranges: HarshRanges | None = None) -> HarshCamera:
        r = ranges or HarshRanges()

        def pick(bounds: tuple[float, float]) -> float:
            return float(rng.uniform(*bounds))

        noise = (pick(r.noise), pick(r.noise), pick(r.noise))
        bias = pick(r.bias) * (1.0 if rng.random() < 0.5 else -1.0)
        return HarshCamera(pick(r.frame_period), pick(r.send_step), bool(rng.random() < r.every_frame), noise,
                      pick(r.blur), bias, pick(r.lost_near), pick(r.drop), pick(r.tail), r)

    def view(self, paths: dict[Ball, tuple[FloatArray, FloatArray]], stopped: float, radius: float,
             rng: np.random.Generator) -> dict[Ball, BallTrack]:
        """What this camera sends of ``paths`` (per ball: times and centres, densely
        sampled, from the strike at ``t = 0``); ``stopped``: when the last ball stopped."""
        r = self.ranges
        lead = float(rng.uniform(0.0, self.frame_period))
        end = stopped + self.tail
        count = int(np.ceil((end + lead) / self.frame_period)) + 1
        clock = np.arange(count) * self.frame_period - lead
        balls = list(paths)
        true = np.stack([np.column_stack((np.interp(clock, t, xy[:, 0]), np.interp(clock, t, xy[:, 1])))
                         for t, xy in (paths[b] for b in balls)])
        velocity = np.gradient(true, self.frame_period, axis=1)
        seen = true.copy()
        for i in range(len(balls)):
            seen[i] += rng.normal(0.0, self.noise[i], true[i].shape)
            speed = np.hypot(velocity[i, :, 0], velocity[i, :, 1])
            along = np.where(speed[:, None] > 0.0, velocity[i] / np.maximum(speed, 1e-12)[:, None], 0.0)
            seen[i] += along * (speed * self.blur * rng.normal(0.0, 1.0, speed.shape))[:, None]
        lost = rng.random((len(balls), count)) < self.drop
        for i in range(len(balls)):
            for j in range(i + 1, len(balls)):
                line = true[i] - true[j]
                gap = np.hypot(line[:, 0], line[:, 1])
                unit = line / np.maximum(gap, 1e-12)[:, None]
                clearance = np.maximum(gap - 2.0 * radius, 0.0)
                shift = self.bias * np.exp(-clearance / r.bias_reach)
                seen[i] += unit * shift[:, None]
                seen[j] -= unit * shift[:, None]
                merged = (clearance < NEAR) & (rng.random(count) < self.lost_near)
                which = rng.random(count) < 0.5
                lost[i] |= merged & which
                lost[j] |= merged & ~which
        stamps = np.round((clock + rng.normal(0.0, r.stamp_jitter, count)) / r.stamp_resolution)
        stamps = stamps * r.stamp_resolution
        out: dict[Ball, BallTrack] = {}
        for i, ball in enumerate(balls):
            out[ball] = BallTrack(*self._sent(seen[i], velocity[i], lost[i], stamps, rng))
        return out

    def _sent(self, seen: FloatArray, velocity: FloatArray, lost: np.ndarray, stamps: FloatArray,
              rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
        """The samples of one ball the camera sends: always the first and the last frame;
        between them each frame not lost in which the ball moved :attr:`send_step` from
        where it was last sent (or, with :attr:`every_frame`, in which it moves)."""
        r = self.ranges
        count = int(stamps.shape[0])
        xs, ys = seen[:, 0].tolist(), seen[:, 1].tolist()
        moving = (np.hypot(velocity[:, 0], velocity[:, 1]) > 1e-3).tolist()
        skip = lost.tolist()
        sent = [0]
        lx, ly = xs[0], ys[0]
        step2 = self.send_step * self.send_step
        for k in range(1, count - 1):
            if skip[k]:
                continue
            dx, dy = xs[k] - lx, ys[k] - ly
            if (self.every_frame and moving[k]) or dx * dx + dy * dy >= step2:
                sent.append(k)
                lx, ly = xs[k], ys[k]
        sent.append(count - 1)
        xy = seen[sent]
        glitches = rng.random(len(sent)) < r.glitch
        glitches[[0, -1]] = False
        xy[glitches] += rng.normal(0.0, r.glitch_size, (int(glitches.sum()), 2))
        t = stamps[sent] - stamps[0]
        keep = np.r_[True, np.diff(t) > 0.0]
        return t[keep], xy[keep]
