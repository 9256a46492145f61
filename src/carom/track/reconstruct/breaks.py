"""Breaks: where a ball's samples change their motion more than noise and friction allow.

A break between two samples is found where straight lines through the samples on either
side miss the other side by more than the noise and the largest change free motion
allows (:data:`~carom.track.laws.MAX_FREE_ACCELERATION`), or where the velocities of
the two sides differ by more than friction can change them in between; once a ball must
be rolling, by more than rolling resistance can (:func:`_rolling_turns`).

Every test looks at a few neighbouring samples only, so the moving runs of all the
balls of a stroke are examined at once (:func:`find_breaks_in_runs`): laid end to end
in one array, with every window of samples that reaches from one run into the next
left out. A numpy call costs the same for one run as for all of them.
"""

from __future__ import annotations

import itertools
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass
from math import inf, sqrt

import numpy as np

from carom.track import laws, tracker
from carom.track.samples import FloatArray

BREAK_Z = 4.0
"""How many standard deviations of noise a prediction must miss by to mark a break."""

Run = tuple[FloatArray, FloatArray, float]
"""The samples ``t``, ``xy`` of one moving run of a ball, and the ball's noise."""


def free_acceleration(speed: FloatArray) -> FloatArray:
    """The acceleration allowed between samples without an event: sliding friction at
    full speed, proportionally less for a slow ball (which, if it slides at all, does so
    only briefly); a break this misses on a slow ball would change little."""
    return laws.MAX_FREE_ACCELERATION * np.minimum(1.0, speed / laws.FULL_SLIDE_SPEED)


@dataclass(frozen=True, slots=True)
class Breaks:
    """The breaks of one moving run."""

    at: list[int]
    """The intervals holding a break (between samples ``k`` and ``k+1``), in order."""
    rolling: list[bool]
    """For each, whether the ball must have been rolling into it (:func:`_rolling`): were
    it no event, its velocity would have changed across it by rolling resistance alone."""


@dataclass(frozen=True, slots=True)
class _Samples:
    """Moving runs laid end to end."""

    t: FloatArray
    xy: FloatArray
    sigma: FloatArray
    """Per sample, its ball's noise."""
    run: np.ndarray
    """Per sample, the index of its run."""

    def within(self, span: int) -> np.ndarray:
        """For each window of samples ``i … i + span``, whether it lies within one run
        (runs are contiguous: its first and last sample tell)."""
        n = self.run.shape[0]
        same: np.ndarray = self.run[:n - span] == self.run[span:]
        return same

    def bounds(self) -> list[tuple[int, int]]:
        """Each run's first sample and the sample after its last, in order."""
        n = self.run.shape[0]
        starts = [0, *((self.run[1:] != self.run[:-1]).nonzero()[0] + 1).tolist(), n]
        return list(itertools.pairwise(starts))


def find_breaks_in_runs(runs: list[Run]) -> list[Breaks]:
    """The breaks of each run (intervals across which the motion changes more than noise
    and friction allow, seen from both sides), computed for all of them at once, each with
    whether the ball must have been rolling into it."""
    out = [Breaks([], []) for _ in runs]
    kept = [i for i, (t, _, _) in enumerate(runs) if t.shape[0] >= 3]
    if not kept:
        return out
    sizes = [int(runs[i][0].shape[0]) for i in kept]
    s = _Samples(np.concatenate([runs[i][0] for i in kept]), np.concatenate([runs[i][1] for i in kept]),
                 np.repeat([runs[i][2] for i in kept], sizes), np.repeat(np.arange(len(kept)), sizes))
    # arithmetic on windows across two runs (times need not increase there) is left out
    with np.errstate(divide="ignore", invalid="ignore"):
        chord = _chords(s)
        found, rolling = _breaks(s, chord)
    offsets = np.cumsum([0, *sizes])
    run_of_interval = s.run[:-1]
    for k in found.nonzero()[0].tolist():
        j = int(run_of_interval[k])
        out[kept[j]].at.append(k - int(offsets[j]))
        out[kept[j]].rolling.append(bool(rolling[k]))
    return out


def _breaks(s: _Samples, chord: FloatArray) -> tuple[np.ndarray, np.ndarray]:
    """Per interval (samples ``k``, ``k+1``), whether it holds a break, never an
    interval between two runs (``chord``: :func:`_chords`); and per sample, whether its
    ball must be rolling then (:func:`_rolling` of those breaks)."""
    t, xy = s.t, s.xy
    intervals = t.shape[0] - 1
    speed = _speeds(s, chord)
    # per sample: its position noise, and half the acceleration free motion allows it
    noise = np.hypot(s.sigma, speed * tracker.TIMING_JITTER)
    half_accel = 0.5 * free_acceleration(speed)
    tri = _triples(t, xy)
    miss_back = np.full(intervals, np.inf)
    miss_fore = np.full(intervals, np.inf)
    before, after = slice(None, -1), slice(1, None)
    if intervals >= 3:
        four = s.within(3)
        # backward: the three samples k-2 .. k predict k+1 (k = 2 … n-2)
        ratio = _missed(tri, before, 3, t[3:], xy[3:], noise[3:], half_accel[3:])
        miss_back[2:] = np.where(four, ratio, np.inf)
        # forward: the three samples k+1 .. k+3 predict k (k = 0 … n-4)
        ratio = _missed(tri, after, 3, t[:-3], xy[:-3], noise[:-3], half_accel[:-3])
        miss_fore[:-2] = np.where(four, ratio, np.inf)
    # two samples, less likely to reach across another event, may see no break where
    # three do: the smaller miss decides
    dt = t[1:] - t[:-1]
    pairs = _Lines(0.5 * (t[1:] + t[:-1]), 0.5 * (xy[1:] + xy[:-1]), (xy[1:] - xy[:-1]) / dt[:, None],
                   0.5 * dt ** 2)
    three = s.within(2)
    # backward: samples k-1, k predict k+1 (k = 1 … n-2): pair k-1
    ratio = _missed(pairs, before, 2, t[2:], xy[2:], noise[2:], half_accel[2:])
    miss_back[1:] = np.minimum(miss_back[1:], np.where(three, ratio, np.inf))
    # forward: samples k+1, k+2 predict k (k = 0 … n-3): pair k+1
    ratio = _missed(pairs, after, 2, t[:-2], xy[:-2], noise[:-2], half_accel[:-2])
    miss_fore[:-1] = np.minimum(miss_fore[:-1], np.where(three, ratio, np.inf))
    between = np.minimum(miss_back, miss_fore)
    flagged = np.isfinite(between) & (between > 1.0)
    # A sample taken at the very moment of the event lies on both motions: then no
    # interval is flagged, but the samples before it do not predict the one after it,
    # nor the samples from it onwards the one before it. The break goes after it.
    at_sample = np.zeros(intervals, dtype=bool)
    at_sample[1:] = (np.minimum(miss_back[1:], miss_fore[:-1]) > 1.0) & ~flagged[1:] & ~flagged[:-1] & three
    at_sample &= np.isfinite(miss_back)
    found = flagged | at_sample
    # Where samples are sparse (a slow ball), a straight extension reaches far and
    # friction could bend it a lot; compare instead the velocities on both sides
    # with what friction can change between them.
    jump = _velocity_jumps(tri, s)
    found[_peaks(jump, _beside(found))] = True
    found |= _sped_up(s, chord)
    turns, rolling = _rolling_turns(s, tri, chord, found, jump)
    if turns.any():
        found |= turns
        rolling = _rolling(s, chord, found)
    return found, rolling


SILENCE = 0.3
"""A gap between two samples of a moving ball this long, s, or longer, is a silence: the
ball rolled slowly through it (a tracker sends a ball once it moved a centimetre or two),
or lay still."""

SPEED_UP = 0.05
"""How much faster, m/s, a ball may leave a silence than it entered it without an event,
beyond the noise of the two chords."""


STOP_MARGIN = 2.0
"""A ball entering a silence at ``v`` (m/s) rolls to a stop within ``v / a`` seconds
(``a``: :data:`~carom.track.laws.ROLL_DECELERATION`); a silence longer than this many
times that ended with the ball moving held a stop and a new start (the margin allows a
table faster than the model's)."""


def _sped_up(s: _Samples, chord: FloatArray) -> np.ndarray:
    """Per interval, whether it is a silence the ball left faster than it entered it,
    or left moving when it must have stopped in it (``chord``: :func:`_chords`).

    A ball rolling on slows (rolling resistance); only a ball still sliding from an
    event can speed up by itself, and that lasts a fraction of a second. A ball slow
    enough to be sent rarely, seen leaving a silence faster than it came, was set
    moving again: by a ball, after it had perhaps stopped unseen. So was a ball seen
    moving after a silence longer than it could have rolled on from the speed it
    entered it at (:data:`STOP_MARGIN`), however slowly it left: a tracker that sends a
    ball once it moved a centimetre or two sends nothing of a ball's last roll to a stop,
    nor of its first centimetres when a ball sets it moving again."""
    t = s.t
    n = t.shape[0]
    out = np.zeros(max(n - 1, 0), dtype=bool)
    if n < 4:
        return out
    dt = t[1:] - t[:-1]
    # interval k (1 … n-3): the chord k-1 before it, the chord k+1 after it
    dt_before, dt_at, dt_after = dt[:n - 3], dt[1:n - 2], dt[2:]
    chord_before, chord_after = chord[:n - 3], chord[2:]
    spread = s.sigma[1:n - 2] * sqrt(2.0)  # of the difference of two samples, per coordinate
    noise = spread * (1.0 / dt_before + 1.0 / dt_after)
    faster = chord_after - chord_before > SPEED_UP + BREAK_Z * noise
    # or it left a silence longer than it could have rolled on: it stopped in it
    entered = chord_before + BREAK_Z * spread / dt_before
    stopped = dt_at > STOP_MARGIN * entered / laws.ROLL_DECELERATION
    left = chord_after > BREAK_Z * spread / dt_after
    out[1:n - 2] = (dt_at >= SILENCE) & (faster | (stopped & left)) & s.within(3)
    return out


def _chords(s: _Samples) -> FloatArray:
    """Per interval, the chord speed between its two samples (``-inf`` between two runs)."""
    t, xy = s.t, s.xy
    step = xy[1:] - xy[:-1]
    chord: FloatArray = np.where(s.within(1), np.hypot(step[:, 0], step[:, 1]) / (t[1:] - t[:-1]), -np.inf)
    return chord


def _speeds(s: _Samples, chord: FloatArray) -> FloatArray:
    """Speed at each sample: the larger of the chords (:func:`_chords`) to its neighbours
    in its run (the one chord at either end of a run)."""
    t = s.t
    before, after = np.full(t.shape[0], -np.inf), np.full(t.shape[0], -np.inf)
    before[1:], after[:-1] = chord, chord
    speed: FloatArray = np.maximum(before, after)
    return speed


@dataclass(frozen=True, slots=True)
class _Lines:
    """Straight-line fits to every few consecutive samples (two, or three: :func:`_triples`)."""

    tbar: FloatArray
    pbar: FloatArray
    slope: FloatArray
    stt: FloatArray


def _missed(lines: _Lines, which: slice, samples: int, t: FloatArray, xy: FloatArray, noise: FloatArray,
            half_accel: FloatArray) -> FloatArray:
    """How far the fits ``lines[which]`` through ``samples`` samples each miss the sample
    at ``t``, ``xy`` they predict, as a fraction of what noise and free motion allow
    (``noise`` and ``half_accel``: the predicted sample's position noise and half its free
    acceleration)."""
    h = t - lines.tbar[which]
    miss = np.hypot(*(xy - (lines.pbar[which] + lines.slope[which] * h[:, None])).T)
    factor = np.sqrt(1.0 + 1.0 / samples + h * h / lines.stt[which])
    return miss / (BREAK_Z * factor * noise + half_accel * h * h)


def _triples(t: FloatArray, xy: FloatArray) -> _Lines:
    a, b, c = t[:-2], t[1:-1], t[2:]
    tbar = (a + b + c) / 3.0
    da, db, dc = a - tbar, b - tbar, c - tbar
    stt = da * da + db * db + dc * dc
    pbar = (xy[:-2] + xy[1:-1] + xy[2:]) / 3.0
    slope = (da[:, None] * xy[:-2] + db[:, None] * xy[1:-1] + dc[:, None] * xy[2:]) / stt[:, None]
    return _Lines(tbar, pbar, slope, stt)


def _velocity_jumps(tri: _Lines, s: _Samples,
                    acceleration: Callable[[FloatArray], FloatArray] | None = None) -> FloatArray:
    """For each interval ``k``, the change between the velocities of the three samples
    before (``k-2 … k``) and after (``k+1 … k+3``), as a fraction of what friction and
    noise allow (above 1: a break; 0 where the six samples are not all of one run);
    ``acceleration``: the free acceleration at a speed, by default
    :func:`free_acceleration`."""
    n = s.t.shape[0]
    out = np.zeros(n - 1)
    if n < 6:
        return out
    # interval k (2 … n-4): triples starting at k-2 and at k+1
    vb, vf = tri.slope[:-3], tri.slope[3:]
    change = np.hypot(*(vf - vb).T)
    fast = np.maximum(np.hypot(*vb.T), np.hypot(*vf.T))
    noise = np.hypot(s.sigma[2:n - 3], fast * tracker.TIMING_JITTER)
    allowed = ((acceleration or free_acceleration)(fast) * (tri.tbar[3:] - tri.tbar[:-3])
               + BREAK_Z * noise * np.sqrt(1.0 / tri.stt[:-3] + 1.0 / tri.stt[3:]))
    out[2:n - 3] = np.where(s.within(5), change / allowed, 0.0)
    return out


def _rolling_turns(s: _Samples, tri: _Lines, chord: FloatArray, found: np.ndarray,
                   jump: FloatArray) -> tuple[np.ndarray, np.ndarray]:
    """Per interval, whether it holds a turn of a ball that must have been rolling: a
    rolling ball keeps its line and slows by rolling resistance alone
    (:data:`~carom.track.laws.MAX_ROLL_DECELERATION`), so a slow contact that turns it by a
    tenth of a metre a second, within what sliding friction could do, is a break.

    A ball rolls once its slip is gone (:data:`~carom.track.laws.SLIP_DECAY`). The slip
    after each event is bounded from the speeds around it: a ball set moving slips by at
    most :data:`~carom.track.laws.STRIKE_SLIP` times its speed; across a later event, by
    at most its speed after, plus its spin's speed, which is at most its speed before
    plus the slip it had left then (``found``: the breaks already found, events all).
    Each turn found makes the ball slide again, so the turns are taken in order, and none
    within the slide that follows one. ``jump``: :func:`_velocity_jumps`, whose windows
    this weighs again with rolling resistance instead of sliding friction. Also, per
    sample, whether its ball must be rolling then, from the breaks ``found``
    (:func:`_rolling`)."""
    t = s.t
    n = t.shape[0]
    out = np.zeros(max(n - 1, 0), dtype=bool)
    rolling = _rolling(s, chord, found)
    if n < 6:
        return out, rolling
    # windows k-2 … k+3 (interval k), all six samples rolling
    both = np.zeros(n - 1, dtype=bool)
    run_rolls = rolling[:-5] & rolling[1:-4] & rolling[2:-3] & rolling[3:-2] & rolling[4:-1] & rolling[5:]
    both[2:n - 3] = run_rolls & s.within(5)
    if not both.any():
        return out, rolling
    ratio = np.where(both, _velocity_jumps(tri, s, _rolling_resistance), 0.0)
    slide_run, sliding_until = -1, -np.inf
    for k in _peaks(ratio, _beside(found) | (jump > 1.0)):
        if s.run[k] == slide_run and t[k - 2] < sliding_until:
            continue  # within the slide after a turn just found
        out[k] = True
        slide_run = int(s.run[k])
        sliding_until = float(t[k + 1] + (chord[k + 1] + chord[k - 1]) / laws.SLIP_DECAY)
    return out, rolling


def _beside(found: np.ndarray) -> np.ndarray:
    """Per interval, whether it or an interval next to it is in ``found``."""
    near = found.copy()
    near[1:] |= found[:-1]
    near[:-1] |= found[1:]
    return near


def _peaks(ratio: FloatArray, skip: np.ndarray) -> list[int]:
    """The intervals, in order and not in ``skip``, where ``ratio`` passes 1 at a local
    maximum (the first of equal neighbours)."""
    candidates = ((ratio > 1.0) & ~skip).nonzero()[0].tolist()
    if not candidates:
        return []
    values = ratio.tolist()
    last = len(values) - 1
    return [k for k in candidates
            if not ((k > 0 and values[k - 1] > values[k]) or (k < last and values[k + 1] >= values[k]))]


def _rolling_resistance(speed: FloatArray) -> FloatArray:
    """The free acceleration of a rolling ball, whatever its speed."""
    return np.full_like(speed, laws.MAX_ROLL_DECELERATION)


def _rolling(s: _Samples, chord: FloatArray, found: np.ndarray) -> np.ndarray:
    """Per sample, whether its ball must be rolling then (see :func:`_rolling_turns`): in
    each stretch between two breaks, from the first sample at or after its slip is gone
    (a run's times increase)."""
    times, chords = s.t.tolist(), chord.tolist()
    rolling = np.zeros(len(times), dtype=bool)
    breaks = found.nonzero()[0].tolist()
    for lo, hi in s.bounds():
        inside = breaks[bisect_left(breaks, lo):bisect_left(breaks, hi - 1)]
        slip_left = 0.0
        for a, b in zip([lo, *(k + 1 for k in inside)], [*inside, hi - 1], strict=True):
            speed_out = chords[a] if a < b else 0.0
            if a == lo:
                slip = laws.STRIKE_SLIP * speed_out
            else:
                slip = speed_out + chords[a - 2] + slip_left if a - 2 >= lo else inf
            rolling[bisect_left(times, times[a] + slip / laws.SLIP_DECAY, a, b + 1):b + 1] = True
            slip_left = max(0.0, slip - laws.SLIP_DECAY * (times[b] - times[a]))
    return rolling
