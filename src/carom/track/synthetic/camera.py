"""Simulated camera trackers: true ball paths in, the samples a tracker would send out.

Each family of cameras is a :class:`Family` of ranges a camera's settings are drawn from.
The default, :data:`REAL`, is fitted to the real match file's camera as
``tools/track_camera.py`` measures it from the samples alone (``tests/data/real-3c-match-
part1.jsonl``; docs/auto-referee.md, "The camera"): frames every 19.9 ms, time stamps
rounded to 0.5 ms, a ball sent once it moved a step of its own between 14.6 and 28 mm
(sent one frame in five after 15 mm, always after 28 mm), 0.3 mm of noise, 0.1–0.3 % of
a ball's frames lost (a fifth of them whole frames), now and then a ball hidden for half a
second or so (4 of the file's 91 strokes), no bias near other balls that the file shows.

The families of :data:`TEST_ONLY` go beyond it, one way each (noise up to 4 mm, heavy
tails, half the frames lost, whole frames lost in bursts, 25–60 frames a second, a video
tracker's blur along the motion, other forms of bias near other balls, other tables'
physics). They measure the auto-referee and are never used to choose anything in it.
The harsh cameras of the first nineteen rounds are :mod:`carom.track.synthetic.harsh`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.core.balls import Ball
from carom.track.samples import BallTrack, FloatArray

Range = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Family:
    """The ranges a family's cameras (and the tables they watch) are drawn from, each
    setting evenly within its range."""

    name: str
    test_only: bool = False
    """Kept for measuring only: nothing of the detector is chosen on it."""
    frame_period: Range = (0.01991, 0.01991)
    """Seconds between frames (the real file: 19.91 ms)."""
    stamp_resolution: float = 0.0005
    """Time stamps are rounded to this, s (the real file: 0.5 ms)."""
    stamp_jitter: float = 0.00002
    """Standard deviation of a frame's time stamp before rounding, s (the real file's stamps
    are its clock, rounded: 0.12 ms about it, less than the rounding alone gives)."""
    send_step: Range = (0.0142, 0.028)
    """A ball is sent again once it moved a step drawn from this range (:data:`SEND_SKEW`)
    since it was last sent, m (the real file: no step under 14.2 mm, none left unsent over
    28 mm)."""
    every_frame: bool = False
    """Every frame of every ball is sent, moving or not (a video tracker)."""
    noise: Range = (0.00025, 0.00033)
    """Standard deviation of a centre per coordinate, m, per ball (the real file: 0.29 mm
    across the motion, 0.35 mm in all with its stamps' rounding along it)."""
    noise_df: float = 0.0
    """Degrees of freedom of a Student-t error scaled by ``noise`` (0: Gaussian)."""
    exposure: Range = (0.0, 0.0)
    """A video frame's exposure, s: the blob is a streak of ``speed · exposure`` along the
    motion, and its centre is found anywhere along it (its standard deviation added)."""
    drop: Range = (0.001, 0.002)
    """The chance that one ball's frame is lost (the real file: 0.1–0.2 % above 0.5 m/s)."""
    whole: Range = (0.0003, 0.0008)
    """The chance that a lost run of whole frames begins at a frame (every ball lost; the
    real file: 2 of 10 gaps in which a ball lost frames, another due then lost them too)."""
    burst: float = 1.0
    """The mean length of such a run, frames."""
    hidden: float = 0.03
    """The chance that a ball is hidden for a while during a stroke (the player's body, the
    cue; the real file: 5 of its moving balls, in 4 of 91 strokes)."""
    hidden_span: Range = (0.3, 1.0)
    """How long, s (the real file: 0.4–0.9 s)."""
    bias: Range = (0.0, 0.001)
    """The shift of each of two touching centres along their line, m, apart or together (the
    real file: 0.1 ± 2.5 mm, none shown)."""
    bias_forms: tuple[str, ...] = ("exp",)
    """How the bias fades as the balls part (:data:`BIAS_FORMS`)."""
    bias_reach: Range = (0.015, 0.015)
    """The clearance over which it fades, m."""
    glitch: float = 0.0
    """The chance that a sent sample is off by a glitch."""
    glitch_size: float = 0.005
    """Standard deviation of a glitch, m."""
    tail: Range = (0.05, 3.0)
    """How long the recording goes on after the last ball stopped, s."""
    physics: tuple[tuple[str, float, float], ...] = ()
    """Simulator parameters drawn from ranges (name, low, high), the others the defaults."""


SEND_SKEW = 1.4
"""A send step is ``low + (high - low) · u^SEND_SKEW``, ``u`` even in [0, 1]: fitted by eye to
the real file's chance that a ball is sent by how far it moved since it was last sent
(20, 36, 49, 63, 77, 84, 89 % at 14–28 mm in steps of 2 mm; these cameras: 14, 33, 46, 57,
66, 79, 92 %). Its samples, not its labels."""

BIAS_FORMS = ("exp", "linear", "step", "one-sided")
"""``exp``: ``b·exp(-c/reach)`` at a clearance ``c``; ``linear``: ``b·(1 - c/reach)`` to
nothing at ``reach``; ``step``: ``b`` within ``reach``, nothing beyond; ``one-sided``: as
``exp``, on one ball of the pair only (the one the light falls on)."""

REAL = Family("real")
"""The real match file's camera (the default)."""

REAL_EVERY_FRAME = Family("real-every-frame", every_frame=True)
"""The real file's camera sending every frame of every ball, moving or not, as many trackers
do: for developing what such a tracker needs (its resting balls' hundreds of samples)."""

TEST_ONLY: tuple[Family, ...] = (
    Family("noisy", True, noise=(0.001, 0.004)),
    Family("heavy-tails", True, noise=(0.0003, 0.001), noise_df=3.0, glitch=0.005),
    Family("half-lost", True, drop=(0.5, 0.5)),
    Family("whole-frames", True, whole=(0.02, 0.08), burst=3.0),
    Family("frame-rates", True, frame_period=(1.0 / 60.0, 1.0 / 25.0)),
    Family("video", True, frame_period=(1.0 / 60.0, 1.0 / 25.0), every_frame=True, exposure=(0.001, 0.005)),
    Family("bias-forms", True, bias=(0.002, 0.01), bias_forms=BIAS_FORMS, bias_reach=(0.005, 0.03)),
    Family("other-physics", True, physics=(("mu_slide", 0.15, 0.30), ("mu_roll", 0.003, 0.008),
                                           ("spin_decay", 5.0, 20.0), ("e_ball", 0.90, 0.98),
                                           ("han_e", 0.75, 0.92), ("han_mu", 0.15, 0.35))),
)
"""Cameras beyond the real one, one way each, for measuring only."""


@dataclass(frozen=True, slots=True)
class Camera:
    """One camera's settings (drawn by :meth:`draw`)."""

    family: Family
    frame_period: float
    send_step: float
    """The smallest step a ball is sent after (0: every frame sent)."""
    send_step_top: float
    every_frame: bool
    noise: tuple[float, float, float]
    exposure: float
    drop: float
    whole: float
    bias: float
    bias_form: str
    bias_reach: float
    tail: float

    @staticmethod
    def draw(rng: np.random.Generator, family: Family = REAL) -> Camera:
        def pick(bounds: Range) -> float:
            return float(rng.uniform(*bounds))

        noise = (pick(family.noise), pick(family.noise), pick(family.noise))
        bias = pick(family.bias) * (1.0 if rng.random() < 0.5 else -1.0)
        form = family.bias_forms[int(rng.integers(len(family.bias_forms)))]
        low, high = (0.0, 0.0) if family.every_frame else family.send_step
        return Camera(family, pick(family.frame_period), low, high, family.every_frame, noise,
                      pick(family.exposure), pick(family.drop), pick(family.whole), bias, form,
                      pick(family.bias_reach), pick(family.tail))

    def view(self, paths: dict[Ball, tuple[FloatArray, FloatArray]], stopped: float, radius: float,
             rng: np.random.Generator) -> dict[Ball, BallTrack]:
        """What this camera sends of ``paths`` (per ball: times and centres, densely
        sampled, from the strike at ``t = 0``); ``stopped``: when the last ball stopped."""
        f = self.family
        period = self.frame_period
        lead = float(rng.uniform(0.0, period))
        count = int(np.ceil((stopped + self.tail + lead) / period)) + 1
        clock = np.arange(count) * period - lead
        balls = list(paths)
        true = np.stack([np.column_stack((np.interp(clock, t, xy[:, 0]), np.interp(clock, t, xy[:, 1])))
                         for t, xy in (paths[b] for b in balls)])
        velocity = np.gradient(true, period, axis=1)
        speed = np.hypot(velocity[..., 0], velocity[..., 1])
        seen = true + self._errors(rng, velocity, speed)
        for i in range(len(balls)):
            for j in range(i + 1, len(balls)):
                self._bias(seen, true, i, j, radius, rng)
        lost = rng.random(speed.shape) < self.drop
        lost |= self._whole_frames(rng, count)[None, :]
        for i in range(len(balls)):
            if rng.random() < f.hidden:
                lost[i] |= _hidden(rng, clock, speed[i], f.hidden_span)
        stamps = np.round((clock + rng.normal(0.0, f.stamp_jitter, count)) / f.stamp_resolution)
        stamps = stamps * f.stamp_resolution
        return {ball: BallTrack(*self._sent(seen[i], lost[i], stamps, rng)) for i, ball in enumerate(balls)}

    def _errors(self, rng: np.random.Generator, velocity: FloatArray, speed: FloatArray) -> FloatArray:
        """Each frame's error of each ball's centre: its noise (Gaussian, or Student-t with
        :attr:`Family.noise_df`), and for a video camera the streak's share along the motion."""
        shape = velocity.shape
        df = self.family.noise_df
        unit = rng.standard_t(df, shape) if df > 0.0 else rng.standard_normal(shape)
        errors: FloatArray = unit * np.array(self.noise[:shape[0]])[:, None, None]
        if self.exposure > 0.0:
            along = velocity / np.maximum(speed, 1e-12)[..., None]
            streak = speed * self.exposure / np.sqrt(12.0) * rng.standard_normal(speed.shape)
            errors += along * streak[..., None]
        return errors

    def _bias(self, seen: FloatArray, true: FloatArray, i: int, j: int, radius: float,
              rng: np.random.Generator) -> None:
        """The bias of balls ``i`` and ``j`` on each other's centres, in its form."""
        line = true[i] - true[j]
        gap = np.hypot(line[:, 0], line[:, 1])
        unit = line / np.maximum(gap, 1e-12)[:, None]
        clearance = np.maximum(gap - 2.0 * radius, 0.0)
        reach, form = self.bias_reach, self.bias_form
        if form == "linear":
            fade = np.maximum(1.0 - clearance / reach, 0.0)
        elif form == "step":
            fade = (clearance < reach).astype(float)
        else:
            fade = np.exp(-clearance / reach)
        shift = (self.bias * fade)[:, None] * unit
        if form == "one-sided":
            seen[i if rng.random() < 0.5 else j] += shift if rng.random() < 0.5 else -shift
        else:
            seen[i] += shift
            seen[j] -= shift

    def _whole_frames(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """Frames lost for every ball: runs beginning with :attr:`whole`'s chance, of
        lengths drawn with the family's mean :attr:`Family.burst`."""
        out = np.zeros(count, dtype=bool)
        for start in np.nonzero(rng.random(count) < self.whole)[0].tolist():
            out[start:start + int(rng.geometric(1.0 / self.family.burst))] = True
        return out

    def _sent(self, seen: FloatArray, lost: np.ndarray, stamps: FloatArray,
              rng: np.random.Generator) -> tuple[FloatArray, FloatArray]:
        """The samples of one ball the camera sends: always the first and the last frame;
        between them every frame not lost (:attr:`every_frame`), or each frame not lost in
        which the ball moved a step from where it was last sent, the step drawn anew after
        each sample between :attr:`send_step` and :attr:`send_step_top` (:data:`SEND_SKEW`)."""
        count = int(stamps.shape[0])
        f = self.family
        if self.every_frame:
            sent = [0, *(k for k in range(1, count - 1) if not lost[k]), count - 1]
        else:
            xs, ys = seen[:, 0].tolist(), seen[:, 1].tolist()
            skip = lost.tolist()
            spread = self.send_step_top - self.send_step
            steps = (self.send_step + spread * rng.random(count) ** SEND_SKEW).tolist()
            sent = [0]
            lx, ly, step = xs[0], ys[0], steps[0]
            for k in range(1, count - 1):
                if skip[k]:
                    continue
                dx, dy = xs[k] - lx, ys[k] - ly
                if dx * dx + dy * dy >= step * step:
                    sent.append(k)
                    lx, ly, step = xs[k], ys[k], steps[k]
            sent.append(count - 1)
        xy = seen[sent]
        if f.glitch > 0.0:
            glitches = rng.random(len(sent)) < f.glitch
            glitches[[0, -1]] = False
            xy[glitches] += rng.normal(0.0, f.glitch_size, (int(glitches.sum()), 2))
        t = stamps[sent] - stamps[0]
        keep = np.r_[True, np.diff(t) > 0.0]
        return t[keep], xy[keep]


def _hidden(rng: np.random.Generator, clock: np.ndarray, speed: np.ndarray, span: Range) -> np.ndarray:
    """The frames a ball is hidden in: a stretch of ``span`` beginning at a frame drawn from
    those it moves in (none, if it never moves)."""
    moving = np.nonzero(speed > 0.05)[0]
    out = np.zeros(clock.shape[0], dtype=bool)
    if moving.shape[0]:
        start = float(clock[int(rng.choice(moving))])
        out[(clock >= start) & (clock < start + float(rng.uniform(*span)))] = True
    return out
