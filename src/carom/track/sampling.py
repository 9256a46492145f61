"""The sampling model: what a recording's camera does to the balls, measured from its samples.

A camera tracker sends a ball's centre on a frame clock, rounds and jitters the time
stamps, adds noise, loses frames (one ball's, or the whole frame's) and, on many trackers,
sends a ball only once it moved a step from where it was last sent. None of this needs a
labelled stroke: every figure here is measured from the samples of a recording alone
(:func:`measure_sampling`), so the detector can weigh each recording by its own camera,
the synthetic cameras can be drawn from what real ones show
(:mod:`carom.track.synthetic.camera`), and a recording whose camera lies beyond what was
validated can be told (``tools/track_camera.py`` prints the figures for any file).
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from math import sqrt

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.track.reconstruct.numeric import diff, median, percentile
from carom.track.samples import BallTrack, FloatArray, TrackedStroke
from carom.track.tracker import SendRule

WINDOW = 7
"""Consecutive samples of a moving ball one quadratic in time is fitted to for the noise:
a ball moves on a polynomial of degree two between events (PHYSICS.md), and seven samples
(0.14 s at 50 frames a second) leave four degrees of freedom per coordinate while an event
falls inside few windows (the median leaves those out)."""

MOVING = 0.1
"""A window whose fitted speed is below this, m/s, measures a resting ball, not a moving one."""

STILL_SPREAD = 0.005
"""A ball all of whose samples lie within this of its first, m, never moved (a tracker's
noise is about a millimetre; a touch that shows moves a ball farther)."""

EVERY_FRAME_SHARE = 0.25
"""A tracker that sends a moving ball only once it moved a step shows no step shorter than
that; when more than this share of a recording's steps between samples are shorter than
:data:`SHORT_STEP`, the tracker sends every frame."""

SHORT_STEP = 0.003
"""A step between two samples shorter than this, m, is one frame of a slow or resting ball."""

STEP_QUANTILE = 0.5
"""The send step's range: its bottom is the smallest step between a moving ball's samples,
its top the largest distance a ball moved without being sent; the outermost this many per
cent are left out (a glitch, a lost frame)."""

SPEED_BINS = (0.0, 1.5, 3.0, float("inf"))
"""The speeds, m/s, frame loss is counted by."""

_SPEED_EDGES = np.array(SPEED_BINS)


@dataclass(frozen=True, slots=True)
class Loss:
    """Frames lost among those a ball moving between ``low`` and ``high`` m/s was due to be
    sent in."""

    low: float
    high: float
    frames: int
    lost: int

    @property
    def rate(self) -> float | None:
        return self.lost / self.frames if self.frames else None


@dataclass(frozen=True, slots=True)
class Sampling:
    """A recording's camera, as its samples show it (:func:`measure_sampling`)."""

    strokes: int
    samples: int
    frame_period: float | None
    """Seconds between frames (``None``: too few consecutive frames to tell)."""
    stamp_sd: float | None
    """Standard deviation of a time stamp about the frame clock, s."""
    stamp_resolution: float | None
    """The time stamps are whole multiples of this, s (``None``: of nothing coarser than 0.1 ms)."""
    send_step: float
    """A ball is sent again once it moved at least this far, m (0: every frame is sent)."""
    send_step_top: float
    """... and surely once it moved this far, m (:func:`send_step_top`): the real file's
    tracker sends a ball that moved 15 mm one frame in five, one that moved 20 mm one in two
    (a threshold of its own that varies), one that moved 30 mm always."""
    moving_noise: float | None
    """Noise of a moving ball's centre, m per coordinate: the median residual of
    :data:`WINDOW`-sample quadratic fits."""
    along_noise: float | None
    """The same along the motion, m (time-stamp jitter and motion blur add here)."""
    across_noise: float | None
    """The same across the motion, m."""
    rest_jitter: float | None
    """The median distance between the first and the last sample of a ball that never moved, m."""
    still_balls: int
    loss: tuple[Loss, ...]
    """Frames lost, by speed (of the frames a ball was due to be sent in)."""
    whole_frame: float | None
    """Of the gaps in which a ball lost frames, the share in which another ball due to be
    sent then lost them too (whole frames lost, not one ball's)."""
    whole_frame_pairs: int
    hidden: int
    """How many times a ball moved :data:`HIDDEN_SENDS` send steps or more unseen (the
    tracker lost it for a while: :func:`hidden_moves`)."""
    longest_hidden: float
    """The longest of those gaps, s."""

    @property
    def loss_rate(self) -> float | None:
        """Frames lost of all those a ball was due to be sent in."""
        return loss_rate(self.loss)

    def lines(self) -> list[str]:
        """The figures in words, one line each."""
        return [
            f"strokes: {self.strokes}, samples: {self.samples}",
            f"frame period: {_milli(self.frame_period)} ms"
            + (f" ({1.0 / self.frame_period:.1f} frames a second)" if self.frame_period else ""),
            f"time stamps: {_milli(self.stamp_sd, 3)} ms sd about the frame clock"
            + (f", rounded to {self.stamp_resolution * 1000:g} ms" if self.stamp_resolution else ""),
            "send step: every frame sent" if self.send_step == 0.0 else
            f"send step: a ball is sent once it moved {self.send_step * 1000:.1f} mm, surely once "
            f"{self.send_step_top * 1000:.1f} mm",
            f"noise on a moving ball: {_milli(self.moving_noise)} mm per coordinate (median of "
            f"{WINDOW}-sample fits; along the motion {_milli(self.along_noise)} mm, "
            f"across {_milli(self.across_noise)} mm)",
            f"resting jitter: {_milli(self.rest_jitter)} mm between the first and the last sample of a still "
            f"ball (median of {self.still_balls})",
            "frame loss by speed: " + ", ".join(
                f"{b.low:g}–{b.high:g} m/s {_percent(b.rate)} of {b.frames}" if b.high < float("inf")
                else f"above {b.low:g} m/s {_percent(b.rate)} of {b.frames}" for b in self.loss),
            f"whole frames: in {_percent(self.whole_frame)} of the gaps in which a ball lost frames, another "
            f"ball due to be sent then lost them too ({self.whole_frame_pairs} such pairs)",
            f"balls hidden: {self.hidden} times a ball moved {HIDDEN_SENDS} send steps or more unseen"
            + (f" (the longest {self.longest_hidden:.2f} s)" if self.hidden else ""),
        ]


def _milli(value: float | None, digits: int = 2) -> str:
    """Seconds in milliseconds, metres in millimetres."""
    return "unknown" if value is None else f"{value * 1000:.{digits}f}"


def _percent(value: float | None) -> str:
    return "–" if value is None else f"{100.0 * value:.2f} %"


@dataclass(frozen=True, slots=True)
class Sending:
    """How a recording's tracker sends the balls, as far as the detector's doubts need it
    (:func:`sending`): its frame, its send step, and the frames it loses."""

    frame_period: float | None
    send_step: float
    send_step_top: float
    loss: tuple[Loss, ...]

    @property
    def loss_rate(self) -> float | None:
        return loss_rate(self.loss)

    @property
    def rule(self) -> SendRule | None:
        """The send-on-move rule the detector weighs a resting ball's samples by (``None``:
        a tracker that sends every frame, or a frame the samples do not show)."""
        if self.frame_period is None or self.send_step == 0.0:
            return None
        return SendRule(self.frame_period, self.send_step)


def sending(strokes: Sequence[TrackedStroke]) -> Sending:
    """The :class:`Sending` of the strokes of one recording (or of one stroke)."""
    period = frame_period(strokes)
    steps = intervals(strokes, period)
    low = send_step(steps)
    loss = loss_by_speed(steps, period, low)
    return Sending(period, low, send_step_top(steps, low, loss_rate(loss)), loss)


def loss_rate(loss: Sequence[Loss]) -> float | None:
    """Frames lost of all those a ball was due to be sent in (``None``: none was)."""
    frames = sum(b.frames for b in loss)
    return sum(b.lost for b in loss) / frames if frames else None


def measure_sampling(strokes: Sequence[TrackedStroke]) -> Sampling:
    """Every figure of :class:`Sampling` for the strokes of one recording."""
    tracks = [track for stroke in strokes for track in stroke.balls.values()]
    sent = sending(strokes)
    period = sent.frame_period
    along, across, both = moving_noise(tracks, period)
    jitter, still = rest_jitter(tracks)
    whole, pairs = whole_frames(strokes, intervals(strokes, period), period, sent.send_step)
    hidden = hidden_moves(intervals(strokes, period, inner=False), sent.send_step_top, period)
    longest = max((i.t1 - i.t0 for i in hidden), default=0.0)
    stamps = stamp_sd(strokes, period) if period else None
    return Sampling(len(strokes), sum(len(t) for t in tracks), period, stamps, stamp_resolution(tracks),
                    sent.send_step, sent.send_step_top, both, along, across, jitter, still, sent.loss, whole,
                    pairs, len(hidden), longest)


def _clock(stroke: TrackedStroke) -> FloatArray:
    """Every time at which the stroke's tracker sent some ball, once each, in order."""
    times: FloatArray = np.unique(np.concatenate([track.t for track in stroke.balls.values()]))
    return times


def frame_period(strokes: Sequence[TrackedStroke]) -> float | None:
    """The frame period, s: the mean interval between two consecutive samples of a ball, over
    the intervals of about one frame (the mean, not the median: a clock whose stamps are
    rounded gives intervals of two values, in the proportion of its true period). The frame
    is first found as the median of the shortest tenth of the intervals' neighbourhood. Each
    ball's own samples: a tracker need not send every ball on one clock."""
    intervals = np.concatenate([diff(track.t) for s in strokes for track in s.balls.values()]
                               or [np.zeros(0)])
    intervals = intervals[intervals > 0.0]
    if intervals.shape[0] < WINDOW:
        return None
    guess = median(intervals[intervals <= 1.5 * percentile(intervals, 10)])
    one = intervals[(intervals >= 0.5 * guess) & (intervals <= 1.5 * guess)]
    return float(one.mean()) if one.shape[0] >= WINDOW else None


def stamp_sd(strokes: Sequence[TrackedStroke], period: float) -> float | None:
    """The standard deviation of a time stamp about the frame clock, s: from every three
    times one frame apart, the middle one's offset from the mean of its neighbours (whose
    variance is 1.5 times a stamp's); an offset beyond a quarter frame is the clock slipping
    a frame, not jitter, and is left out."""
    offsets: list[FloatArray] = []
    for stroke in strokes:
        t = _clock(stroke)
        d = np.diff(t)
        one = (d >= 0.5 * period) & (d <= 1.5 * period)
        triple = one[:-1] & one[1:]
        offsets.append((t[1:-1] - 0.5 * (t[:-2] + t[2:]))[triple])
    e = np.concatenate(offsets or [np.zeros(0)])
    e = e[np.abs(e) <= 0.25 * period]
    if e.shape[0] < WINDOW:
        return None
    return sqrt(float(np.mean(e * e)) / 1.5)


RESOLUTIONS = (0.01, 0.005, 0.002, 0.001, 0.0005, 0.0002, 0.0001)
"""The roundings of a time stamp looked for, s."""


def stamp_resolution(tracks: Sequence[BallTrack]) -> float | None:
    """The coarsest of :data:`RESOLUTIONS` every time stamp is a whole multiple of."""
    t = np.concatenate([track.t for track in tracks] or [np.zeros(0)])
    for resolution in RESOLUTIONS:
        if bool(np.all(np.abs(t / resolution - np.round(t / resolution)) < 1e-6)):
            return resolution
    return None


@dataclass(frozen=True, slots=True)
class Intervals:
    """Every two consecutive samples of each ball (but its first and its last interval: a
    tracker sends the first and the last sample whatever the step), as arrays: the stroke
    (its index), the ball (its index in :data:`~carom.core.balls.BALLS`), when, how many
    frames apart and how far apart."""

    stroke: np.ndarray
    ball: np.ndarray
    t0: FloatArray
    t1: FloatArray
    frames: np.ndarray
    chord: FloatArray


@dataclass(frozen=True, slots=True)
class Interval:
    """One of the :class:`Intervals`."""

    stroke: int
    ball: Ball
    t0: float
    t1: float
    frames: int
    chord: float


def intervals(strokes: Sequence[TrackedStroke], period: float | None, *, inner: bool = True) -> Intervals:
    """Every interval of the strokes (frames counted with ``period``; 1 without); each
    ball's first and last interval too unless ``inner``."""
    cut = 1 if inner else 0
    owners: list[tuple[int, int]] = []  # per ball track: its stroke, its ball
    counts: list[int] = []
    columns: list[list[FloatArray]] = [[], [], []]  # t0, t1, chord
    for k, stroke in enumerate(strokes):
        for ball, track in stroke.balls.items():
            n = len(track) - 1 - 2 * cut
            if n < 1:
                continue
            owners.append((k, BALLS.index(ball)))
            counts.append(n)
            columns[0].append(track.t[cut:cut + n])
            columns[1].append(track.t[cut + 1:cut + 1 + n])
            columns[2].append(np.hypot(*diff(track.xy).T)[cut:cut + n])
    if not counts:
        none = np.zeros(0, int)
        return Intervals(none, none.copy(), np.zeros(0), np.zeros(0), none.copy(), np.zeros(0))
    t0, t1, chord = (np.concatenate(c) for c in columns)
    frames = np.maximum(((t1 - t0) / period).round(), 1.0) if period else np.ones(t0.shape[0])
    stroke_of, ball_of = np.repeat(np.array(owners), counts, axis=0).T
    return Intervals(stroke_of, ball_of, t0, t1, frames.astype(int), chord)


def send_step(steps: Intervals) -> float:
    """How far a ball must have moved before the tracker sends it again, m: the smallest step
    between its samples, without the lowest :data:`STEP_QUANTILE` per cent; 0 when short
    steps are common (every frame sent)."""
    chords = steps.chord
    if chords.shape[0] == 0 or np.count_nonzero(chords < SHORT_STEP) / chords.shape[0] > EVERY_FRAME_SHARE:
        return 0.0
    return percentile(chords, STEP_QUANTILE)


def send_step_top(steps: Intervals, low: float, loss: float | None) -> float:
    """How far a ball moves before the tracker surely sends it, m: the first distance from
    which, up to twice as far, the share of the frames after a sample in which the ball is
    sent again (by how far it moved in that frame, moving evenly between two samples; in
    bins of :data:`STEP_BIN`) is at least :data:`SURELY` of the share of frames not lost,
    within two standard deviations of a bin's count; ``low`` for a tracker that sends every
    frame or always after ``low``. Only the first frame after a sample is weighed: the
    frames after a lost one are lost more often (whole frames are lost in runs)."""
    if low == 0.0 or steps.chord.shape[0] == 0:
        return low
    bins = (steps.chord / steps.frames / STEP_BIN).astype(int)
    count = np.bincount(bins)
    sent = np.bincount(bins, weights=(steps.frames == 1).astype(float))
    plateau = SURELY * (1.0 - (loss or 0.0))
    short = (sent < plateau * count - 2.0 * np.sqrt(count * plateau * (1.0 - plateau))).tolist()
    first = int(low / STEP_BIN)
    top = next((k for k in range(first, len(short)) if not any(short[k:2 * k])), first)
    return max(low, top * STEP_BIN)


STEP_BIN = 0.002
"""The distances the share of frames sent is counted in, m."""

SURELY = 0.9
"""The top of the send step: the share of frames a ball is sent in stays this fraction of
the frames not lost from there on."""

def moving_noise(tracks: Sequence[BallTrack], period: float | None,
                 ) -> tuple[float | None, float | None, float | None]:
    """The noise of a moving ball's centre along its motion, across it and per coordinate,
    m: the medians, over every :data:`WINDOW` consecutive frames of a ball moving faster than
    :data:`MOVING`, of the residuals' standard deviation about a quadratic in time (all the
    windows of a ball fitted at once, by their normal equations)."""
    if period is None:
        return None, None, None
    found = [_window_noise(track, period) for track in tracks if len(track) >= WINDOW]
    rows = np.concatenate([f for f in found if f.shape[0]] or [np.zeros((0, 3))])
    if rows.shape[0] == 0:
        return None, None, None
    along, across, both = np.median(rows, axis=0).tolist()
    return along, across, both


def _window_noise(track: BallTrack, period: float) -> FloatArray:
    """Per window of :data:`WINDOW` consecutive frames of a ball moving faster than
    :data:`MOVING`: the residuals' standard deviation along the motion, across it and per
    coordinate, as rows."""
    d = np.diff(track.t)
    one = (d >= 0.5 * period) & (d <= 1.5 * period)
    starts = (np.convolve(one.astype(float), np.ones(WINDOW - 1), "valid") == WINDOW - 1).nonzero()[0]
    if starts.shape[0] == 0:
        return np.zeros((0, 3))
    index = starts[:, None] + np.arange(WINDOW)[None, :]
    t, xy = track.t[index], track.xy[index]
    tau = t - t.mean(axis=1, keepdims=True)
    design = np.stack((np.ones_like(tau), tau, tau * tau), axis=2)
    normal = np.einsum("wki,wkj->wij", design, design)
    coefficients = np.linalg.solve(normal, np.einsum("wki,wkc->wic", design, xy))
    residual = xy - np.einsum("wki,wic->wkc", design, coefficients)
    velocity = coefficients[:, 1, :]
    speed = np.hypot(velocity[:, 0], velocity[:, 1])
    moving = speed >= MOVING
    unit = velocity[moving] / speed[moving, None]
    residual = residual[moving]
    on = np.einsum("wkc,wc->wk", residual, unit)
    off = np.einsum("wkc,wc->wk", residual, np.stack((-unit[:, 1], unit[:, 0]), axis=1))
    dof = WINDOW - 3
    both = (residual * residual).sum(axis=(1, 2)) / 2.0
    out: FloatArray = np.sqrt(np.column_stack(((on * on).sum(axis=1), (off * off).sum(axis=1), both)) / dof)
    return out


def rest_jitter(tracks: Sequence[BallTrack]) -> tuple[float | None, int]:
    """The median distance between the first and the last sample of each ball that never
    moved (every sample within :data:`STILL_SPREAD` of its first), m, and how many there were."""
    gaps = []
    for track in tracks:
        if len(track) < 2:
            continue
        spread = np.hypot(*(track.xy - track.xy[0]).T)
        if float(spread.max()) <= STILL_SPREAD:
            gaps.append(float(spread[-1]))
    return (statistics.median(gaps) if gaps else None), len(gaps)


def loss_by_speed(steps: Intervals, period: float | None, low: float) -> tuple[Loss, ...]:
    """Frames lost by speed (see :class:`Sampling`), over the intervals in which a ball moved
    at least twice the smallest send step ``low`` a frame (a frame was due in each; any
    speed, for a tracker that sends every frame): of their ``n`` frames, ``n - 1`` were lost."""
    if period is None:
        return tuple(Loss(lo, hi, 0, 0) for lo, hi in pairwise(SPEED_BINS))
    due = steps.chord >= 2.0 * low * steps.frames
    frames = steps.frames[due]
    speed_bin = _SPEED_EDGES.searchsorted(steps.chord[due] / (frames * period), side="right") - 1
    counted = np.bincount(speed_bin, weights=frames, minlength=len(SPEED_BINS) - 1)
    lost = np.bincount(speed_bin, weights=frames - 1, minlength=len(SPEED_BINS) - 1)
    return tuple(Loss(lo, hi, int(n), int(m)) for (lo, hi), n, m
                 in zip(pairwise(SPEED_BINS), counted.tolist(), lost.tolist(), strict=True))


def whole_frames(strokes: Sequence[TrackedStroke], steps: Intervals, period: float | None,
                 low: float) -> tuple[float | None, int]:
    """Of the gaps in which a ball due to be sent every frame (:func:`loss_by_speed`) lost
    frames, the share in which another ball due to be sent in it too (moving that fast then,
    on the chord of its samples around) sent nothing in it either: whole frames lost; and
    how many such pairs there were."""
    together = alone = 0
    due = (steps.chord >= 2.0 * low * steps.frames) & (steps.frames > 1)
    for k in due.nonzero()[0].tolist() if period else []:
        t0, t1, n = float(steps.t0[k]), float(steps.t1[k]), int(steps.frames[k])
        for other, theirs in strokes[int(steps.stroke[k])].balls.items():
            if BALLS.index(other) != steps.ball[k] and _travel(theirs, t0, t1) >= 2.0 * low * n:
                inside = bool(np.any((theirs.t > t0) & (theirs.t < t1)))
                together += not inside
                alone += inside
    pairs = together + alone
    return (together / pairs if pairs else None), pairs


def hidden_moves(steps: Intervals, top: float, period: float | None) -> list[Interval]:
    """The gaps in which a ball moved unseen as far as :data:`HIDDEN_SENDS` samples would
    have taken it: the tracker lost it for a while (the player's body, the cue, a tracking
    failure), not a frame or two. A ball is sent at least once each send step's ``top`` it
    moves, and once a frame when it moves farther than that a frame (its speed on either
    side of the gap or over it, the fastest; any move at all, for a tracker that sends
    every frame)."""
    if steps.chord.shape[0] == 0 or period is None:
        return []
    pace = steps.chord / steps.frames
    same = (steps.stroke[1:] == steps.stroke[:-1]) & (steps.ball[1:] == steps.ball[:-1])
    fastest = pace.copy()
    fastest[1:] = np.where(same, np.maximum(fastest[1:], pace[:-1]), fastest[1:])
    fastest[:-1] = np.where(same, np.maximum(fastest[:-1], pace[1:]), fastest[:-1])
    reach = np.maximum(np.maximum(fastest, top), SHORT_STEP)
    hidden = (steps.frames > HIDDEN_SENDS) & (steps.chord >= HIDDEN_SENDS * reach)
    return [Interval(int(steps.stroke[k]), BALLS[int(steps.ball[k])], float(steps.t0[k]), float(steps.t1[k]),
                     int(steps.frames[k]), float(steps.chord[k])) for k in hidden.nonzero()[0].tolist()]


HIDDEN_SENDS = 3
"""A ball that moved this many send steps without a sample was hidden, not lost a frame or
two: with a frame lost one time in hundreds, three in a row are lost about once in a
million."""
def _travel(track: BallTrack, t0: float, t1: float) -> float:
    """How far a ball's centre moved from ``t0`` to ``t1`` on the chords of its samples, m."""
    x = np.interp((t0, t1), track.t, track.xy[:, 0])
    y = np.interp((t0, t1), track.t, track.xy[:, 1])
    return float(np.hypot(x[1] - x[0], y[1] - y[0]))
