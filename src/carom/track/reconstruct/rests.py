"""Rests and glitches in a ball's samples."""

from __future__ import annotations

import itertools
from math import hypot, sqrt

import numpy as np

from carom.track import laws, tracker
from carom.track.reconstruct.breaks import BREAK_Z
from carom.track.reconstruct.numeric import diff, median, runs
from carom.track.samples import FloatArray

OUTLIER_SPAN = 0.12
"""Glitches are looked for only where four neighbouring samples span at most this, s
(dense sampling: the ball cannot both leave their line and come back to it)."""


def not_outliers(t: FloatArray, xy: FloatArray, sigma: float) -> np.ndarray:
    """Mask of the samples to keep: a lone sample far off the straight line through its
    two neighbours on each side, which themselves lie on it, is a tracking glitch (no
    event moves a ball away and back within two samples)."""
    n = int(t.shape[0])
    keep = np.ones(n, dtype=bool)
    if n < 6:
        return keep
    # only a sample off the chord of its two neighbours by more than the noise can be one
    w = ((t[2:-2] - t[1:-3]) / (t[3:-1] - t[1:-3]))[:, None]
    off = np.hypot(*(xy[2:-2] - (xy[1:-3] + (xy[3:-1] - xy[1:-3]) * w)).T)
    ks = (off > 2.0 * BREAK_Z * sigma).nonzero()[0] + 2
    if not ks.size:
        return keep
    span = t[ks + 2] - t[ks - 2]
    ks = ks[span <= OUTLIER_SPAN]
    if not ks.size:
        return keep
    # a few candidates at most: each is checked in plain floats, on its five samples
    for k in ks.tolist():
        if _glitch(t[k - 2:k + 3].tolist(), xy[k - 2:k + 3].tolist(), 2, sigma):
            keep[k] = False
    return keep


def _glitch(t: list[float], p: list[list[float]], k: int, sigma: float) -> bool:
    """Whether sample ``k`` is a glitch: its two neighbours on each side lie on one
    straight line (within the noise and what friction bends in their time) and ``k``
    lies far off it."""
    window = (k - 2, k - 1, k + 1, k + 2)
    tw = [t[i] for i in window]
    tbar = (tw[0] + tw[1] + tw[2] + tw[3]) / 4.0
    dt = [ti - tbar for ti in tw]
    stt = dt[0] * dt[0] + dt[1] * dt[1] + dt[2] * dt[2] + dt[3] * dt[3]
    xw, yw = [p[i][0] for i in window], [p[i][1] for i in window]
    x_bar, y_bar = (xw[0] + xw[1] + xw[2] + xw[3]) / 4.0, (yw[0] + yw[1] + yw[2] + yw[3]) / 4.0
    vx = sum_products(dt, [x - x_bar for x in xw]) / stt
    vy = sum_products(dt, [y - y_bar for y in yw]) / stt
    spread = max(hypot(xw[i] - (x_bar + dt[i] * vx), yw[i] - (y_bar + dt[i] * vy)) for i in range(4))
    h = t[k] - tbar
    miss = hypot(p[k][0] - (x_bar + h * vx), p[k][1] - (y_bar + h * vy))
    noise = hypot(sigma, hypot(vx, vy) * tracker.TIMING_JITTER)
    slack = 0.5 * laws.MAX_FREE_ACCELERATION * (0.5 * (tw[3] - tw[0])) ** 2
    agree = spread <= BREAK_Z * noise + slack
    return agree and miss > 2.0 * (BREAK_Z * noise * sqrt(1.25 + h * h / stt) + slack)


def sum_products(a: list[float], b: list[float]) -> float:
    """``Σ a_i b_i``, summed in order."""
    total = 0.0
    for u, v in zip(a, b, strict=True):
        total += u * v
    return total


def noise_sends(t: FloatArray, xy: FloatArray, sigma: float, rule: tracker.SendRule | None,
                others: list[tuple[FloatArray, FloatArray]], diameter: float) -> np.ndarray:
    """Mask of the samples to keep: a sample a send-on-move tracker (``rule``) sent of a
    still ball only because its noise carried the measured centre a send step from the
    sample before is set aside. Its distance from that sample is the noise's tail, weighed
    against a move by :meth:`~carom.track.tracker.TrackerModel.moved_probability` (with the
    rule's selection); where no other ball (``others``: their samples) came within
    :data:`~carom.track.tracker.REACH` since the sample before, a move needs a cause the
    tracker did not see (:attr:`~carom.track.tracker.TrackerModel.unseen`). With a ball
    near, the sample is kept (the nudge of :func:`~carom.track.contacts.departure.departure`
    weighs it). Only a sample after one the ball lay still at is weighed: its first (F3),
    or a lone sample with :data:`LONE_REST` of silence on either side; never its last (a
    tracker sends it whatever the step)."""
    n = int(t.shape[0])
    keep = np.ones(n, dtype=bool)
    if rule is None or n < 3:
        return keep
    step = np.hypot(*diff(xy).T)
    silent = diff(t) >= LONE_REST
    lay_still = np.zeros(n - 1, dtype=bool)
    lay_still[0] = True
    lay_still[1:] = silent[:-1] & silent[1:]
    candidates = (lay_still[:-1] & (step[:-1] >= rule.step)).nonzero()[0] + 1
    noise = max(sigma, tracker.REST_NOISE)
    model = tracker.DEFAULT_MODEL
    for k in candidates.tolist():
        t0, t1 = float(t[k - 1]), float(t[k])
        if not keep[k - 1] or _came_near(others, xy[k - 1], t0, t1, diameter):
            continue  # the sample before was one (the tracker measured this one from it), or a ball came
        moved = model.moved_probability(float(step[k - 1]), noise, sent=rule.sent(t0, t1))
        if moved * model.unseen < 1.0 - moved:
            keep[k] = False
    return keep


def _came_near(others: list[tuple[FloatArray, FloatArray]], point: FloatArray, t0: float, t1: float,
               diameter: float) -> bool:
    """Whether another ball (its samples, and its place on their chords at ``t0`` and ``t1``)
    came within :data:`~carom.track.tracker.REACH` beyond ``diameter`` of ``point`` from
    ``t0`` to ``t1``."""
    reach = diameter + tracker.REACH
    for times, oxy in others:
        inside = oxy[times.searchsorted(t0, side="right"):times.searchsorted(t1, side="left")]
        ends = np.column_stack((np.interp((t0, t1), times, oxy[:, 0]), np.interp((t0, t1), times, oxy[:, 1])))
        points = np.concatenate((ends, inside))
        if float(np.hypot(*(points - point).T).min()) <= reach:
            return True
    return False


BIAS_MAX = 0.05
"""The largest shift, m, the tracker's bias is taken to give a resting ball's centre."""


def biased_excursions(t: FloatArray, xy: FloatArray, sigma: float,
                      others: list[tuple[FloatArray, FloatArray]], diameter: float) -> np.ndarray:
    """Mask of the samples to keep: samples of a resting ball taken while another ball
    was close, that stay within :data:`BIAS_MAX` of where it rested, carry the tracker's
    bias near other balls (merged blobs, shading), and say nothing sure of a move; the
    samples before and after them, taken with no ball near, do. Where the ball rested is
    its sample before them. A ball that really left its place goes farther
    (:func:`_leaving`), and its samples are kept. Where a ball starts and ends is always
    kept."""
    n = int(t.shape[0])
    keep = np.ones(n, dtype=bool)
    if n < 3 or not others:
        return keep
    near = np.zeros(n, dtype=bool)
    reach = diameter + tracker.BIAS_NEAR
    for times, oxy in others:
        ox, oy = np.interp(t, times, oxy[:, 0]), np.interp(t, times, oxy[:, 1])
        near |= np.hypot(xy[:, 0] - ox, xy[:, 1] - oy) <= reach
    near[0] = near[-1] = False
    if not near.any():
        return keep
    still = max(4.0 * tracker.rayleigh_sd(max(sigma, tracker.REST_NOISE)), tracker.VISIBLE_NUDGE)
    for a, b in runs(near.nonzero()[0]):
        k0 = a - 1
        while k0 > 0 and not keep[k0]:
            k0 -= 1  # a run before it set aside: where the ball rested before that
        # the samples from the one before k0 to the one after the run, as plain floats
        first, end = max(k0 - 1, 0), min(b + 2, n)
        points, times_ = xy[first:end].tolist(), t[first:end].tolist()
        (x0, y0) = points[k0 - first]
        rolling = k0 > 0 and hypot(x0 - points[0][0], y0 - points[0][1]) > still
        if k0 > 0 and times_[a - first] - times_[k0 - first] < SILENCE and rolling:
            continue  # still rolling when the other ball came: not a resting ball
        away = [hypot(x - x0, y - y0) for x, y in points[a - first:]]
        then = times_[b + 1 - first] - times_[b - first] if b + 1 < n else 0.0
        if max(away[:b + 1 - a]) > BIAS_MAX or _leaving(away, then):
            continue
        keep[a:b + 1] = False
    return keep


def _leaving(away: list[float], then: float) -> bool:
    """Whether a run of samples near another ball, at distances ``away`` from where the
    ball rested (and the first sample after the run last, taken ``then`` after the run),
    is the start of a move: each farther than the one before, and the sample after the
    run, taken with no ball near (so without the bias) while the ball was still rolling
    (within :data:`LONE_REST` of the run: a slow ball is sent seldom), farther still and
    clearly away (the ball went on; a biased centre comes back when the other ball
    leaves)."""
    return (len(away) >= 2 and away[-1] > LEFT_FOR_GOOD and then < LONE_REST
            and all(b > a for a, b in itertools.pairwise(away)))


LEFT_FOR_GOOD = 3.0 * tracker.VISIBLE_NUDGE
"""How far from its rest, m, the first sample after a run of biased samples must lie, no
ball near, for the run to be taken as the start of a real move."""


SILENCE = 0.25
"""A tracker that sends a ball only when it moves sent nothing for this long, s: the ball
rested before its next sample."""


LONE_REST = 1.0
"""A sample with no other sample of its ball this long, s, before and after it is a rest:
a tracker that sends a ball once it moved a centimetre or two sends a rolling ball at
least every ``√(2 · 2 cm / 0.044 m/s²)`` ≈ 0.95 s until it stops (rolling resistance,
:data:`~carom.track.laws.ROLL_DECELERATION`), so a ball seen once in such a silence lay
still there (moved by a touch before, set moving by another after)."""

NUDGE_Z = 2.0
"""Two measurements of a resting ball farther apart than this many standard deviations
of their difference are two rests (the ball may have been moved between them; the
tracker-error model weighs how likely, :meth:`~carom.track.tracker.TrackerModel.moved_probability`)."""

REST_SPAN = 0.1
"""A ball is at rest where its samples stay within the noise for at least this long, s
(a ball rolling out at a few millimetres a second is as good as still)."""

REST_SAMPLES = 16
"""The most samples a rest span is checked over (a tracker at up to 150 Hz)."""


def rest_reach(sigma: float) -> float:
    """How far, m, the samples of a still ball with noise ``sigma`` may lie from where a
    rest began: four deviations, and never less than 1.5 mm (:func:`rest_runs`)."""
    return max(4.0 * sigma, 0.0015)


def rest_runs(t: FloatArray, xy: FloatArray, sigma: float) -> list[tuple[int, int, bool]]:
    """Rest runs and moving runs, in order. The first and the last sample are rests:
    balls are at rest before a stroke (F3) and when it ends (C1). Elsewhere a rest is
    a stretch of at least :data:`REST_SPAN` over which the ball stays within the noise
    (a tracker that samples moving balls only shows none: the ball then rests between
    two samples, inside a join)."""
    n = int(t.shape[0])
    radius = rest_reach(sigma)
    still = np.zeros(n, dtype=bool)
    still[0] = still[-1] = True
    if n > 2:
        # a lone sample with silence on both sides: the ball rested there (see LONE_REST)
        gaps = diff(t)
        still[1:-1] |= (gaps[:-1] >= LONE_REST) & (gaps[1:] >= LONE_REST)
    step = diff(xy)
    step_length = np.hypot(step[:, 0], step[:, 1])
    small = (step_length <= radius).nonzero()[0] if n > 2 else np.zeros(0, dtype=int)
    if small.size:
        # a rest begins where the next step is within the noise; it lasts if every sample
        # of the span stays near the first (a bounce comes back to where it was)
        ahead = np.minimum(t.searchsorted(t[small] + REST_SPAN), n - 1)
        covered = (t[ahead] - t[small]) >= REST_SPAN * 0.999
        # how far the samples of the span (up to REST_SAMPLES) lie from its first
        steps = np.arange(1, min(int((ahead - small).max()), REST_SAMPLES) + 1)
        later = small[:, None] + steps[None, :]
        away = xy[np.minimum(later, n - 1)] - xy[small][:, None, :]
        far = np.hypot(away[..., 0], away[..., 1])
        reach = np.where(later <= ahead[:, None], far, 0.0).max(axis=1, initial=0.0)
        begin = small[covered & (reach <= radius) & (ahead - small <= REST_SAMPLES)]
        ahead = ahead[covered & (reach <= radius) & (ahead - small <= REST_SAMPLES)]
        if begin.size:
            # +1 where each span begins, -1 after it ends: inside one where the sum is positive
            marks = np.bincount(begin, minlength=n + 1) - np.bincount(ahead + 1, minlength=n + 1)
            still |= marks.cumsum()[:n] > 0
    # a run ends where stillness changes, or between two still samples apart (two rests
    # in different places: the ball moved between them unseen)
    noise = max(sigma, tracker.REST_NOISE)
    apart = step_length > max(NUDGE_Z * tracker.rayleigh_sd(noise), 0.001)
    apart &= still[1:] & still[:-1]
    for k in apart.nonzero()[0].tolist():
        apart[k] = _stays_moved(xy, still, k, noise)
    cut = (still[1:] != still[:-1]) | apart
    ends = [*cut.nonzero()[0].tolist(), n - 1]
    runs: list[tuple[int, int, bool]] = []
    begin = 0
    flags = still.tolist()
    points: tuple[list[float], list[list[float]]] | None = None  # as plain lists, made when needed
    for end in ends:
        if flags[begin] and end > begin:
            points = points or (t.tolist(), xy.tolist())
            runs.extend(_undrifted(*points, begin, end, radius, n))
        else:
            runs.append((begin, end, bool(flags[begin])))
        begin = end + 1
    # a moving stretch next to a moving stretch is one; and the samples a stretch read as
    # moving begins with that never left the rest before it are part of that rest
    merged = _merged(runs)
    if len(merged) > 1:
        merged = _merged(_rested_longer(merged, t, xy, radius, noise))
    return merged


def _merged(runs: list[tuple[int, int, bool]]) -> list[tuple[int, int, bool]]:
    """``runs`` with each moving stretch next to a moving stretch made one."""
    merged: list[tuple[int, int, bool]] = []
    for run in runs:
        if merged and not run[2] and not merged[-1][2]:
            merged[-1] = (merged[-1][0], run[1], False)
        else:
            merged.append(run)
    return merged


def _rested_longer(runs: list[tuple[int, int, bool]], t: FloatArray, xy: FloatArray,
                   radius: float, noise: float) -> list[tuple[int, int, bool]]:
    """``runs`` with each rest of many samples (a tracker that sends every frame of a
    resting ball), and the stroke's first rest (every ball lies still when a stroke
    begins, F3), taking in the first samples of the moving stretch after it that lie
    within ``radius`` of where the rest lay on its samples' mean and were sent one frame
    after another (:data:`NEXT_FRAME`; after a gap the ball may have been touched): the
    whole stretch if it never left; else all of those samples when on their own mean
    (``noise``: a sample's) they lie where the rest lay or a gap follows them (the ball
    was not seen leaving), and at most ``STILL_SAMPLES - 1`` of them otherwise (a creep,
    which :mod:`~carom.track.contacts.struck` allows for, not read before it began). A
    sample in the noise's tail, or a passing ball's bias, cut the rest short; measured
    against the whole rest, these samples have not moved. A lone sample beyond ``radius``
    between two within it, and as far from the next, is the noise's tail or a glitch and
    does not end them: a ball touched stays away, and a crawl steps little."""
    m = tracker.STILL_SAMPLES
    out = list(runs)
    for i in range(1, len(out)):
        (r0, r1, rest), (m0, m1, moving_rest) = out[i - 1], out[i]
        if not rest or moving_rest or (r1 - r0 + 1 < m and r0 > 0):
            continue
        # the tracker's frame: the usual interval between the rest's samples (a first
        # rest of one sample: the stretch after it)
        frame = median(diff(t[r0:(r1 if r1 > r0 else m1) + 1]))
        sent_next = diff(t[m0 - 1:m1 + 1]) <= NEXT_FRAME * frame
        # how far the stretch's samples lie from where the rest lay on the mean of its samples
        away = xy[m0:m1 + 1] - xy[r0:r1 + 1].mean(axis=0)
        near = np.hypot(away[:, 0], away[:, 1]) <= radius
        # a lone sample off the rest, and off the next sample, between two on it: a jump
        # away and back, the noise's tail or a glitch (a crawl's samples step little)
        jump = np.hypot(*diff(xy[m0:m1 + 1]).T) > radius
        near[:-1] |= near[1:] & np.concatenate(([True], near[:-2])) & jump
        inside = near & sent_next
        lead = int(inside.argmin()) if not inside.all() else m1 - m0 + 1
        if lead == m1 - m0 + 1:
            out[i] = (m0, m1, True)
        elif lead:
            seen_leaving = bool(sent_next[lead])  # else it left unseen, in the gap after them
            if lead >= m and seen_leaving and _means_apart(xy[r0:r1 + 1], xy[m0:m0 + lead], noise):
                lead = m - 1  # on their mean they left the rest: a creep, its first samples only
            out[i - 1], out[i] = (r0, r1 + lead, True), (m0 + lead, m1, False)
    return out


NEXT_FRAME = 2.5
"""Two samples at most this many times the rest's usual interval apart were sent one
frame after the other, or with a frame or two lost (:func:`_rested_longer`)."""


def _stays_moved(xy: FloatArray, still: np.ndarray, k: int, sigma: float) -> bool:
    """Whether a resting ball's step between samples ``k`` and ``k + 1`` moved it. A
    tracker that sends every frame of a resting ball sends hundreds of measurements of
    it, and among them steps in the tail of the noise: where
    :data:`~carom.track.tracker.STILL_SAMPLES` still samples lie on either side, the step
    moved it only if their means lie apart by more than the means' noise allows. With
    fewer (a tracker that sends a ball only once it moved) the step itself decides."""
    n, m = int(xy.shape[0]), tracker.STILL_SAMPLES
    if k + 1 < m or n - (k + 1) < m or not (still[k + 1 - m:k + 1].all() and still[k + 1:k + 1 + m].all()):
        return True
    return _means_apart(xy[k + 1 - m:k + 1], xy[k + 1:k + 1 + m], sigma)


def _means_apart(a: FloatArray, b: FloatArray, sigma: float) -> bool:
    """Whether two sets of measurements of a resting ball, each with noise ``sigma``, have
    means farther apart than :data:`NUDGE_Z` standard deviations of their difference (or
    a millimetre): the ball moved between them."""
    spread = sigma * sqrt(1.0 / a.shape[0] + 1.0 / b.shape[0])
    return float(np.hypot(*(b.mean(axis=0) - a.mean(axis=0)))) > max(NUDGE_Z * spread, 0.001)


def _undrifted(t: list[float], p: list[list[float]], begin: int, end: int, radius: float,
               n: int) -> list[tuple[int, int, bool]]:
    """A run of still samples cut where it drifts farther than ``radius`` from where it
    began: a ball creeping along (a thin cut, the end of a slow roll) is moving, however
    small each step. Each stretch that holds still for :data:`REST_SPAN` (or holds the
    first or last sample) is a rest, the rest is motion. Where the stretch began is its
    first sample, or, for a long run (a tracker sending every frame of a resting ball),
    the mean of its first :data:`~carom.track.tracker.STILL_SAMPLES` samples: one sample
    in the noise's tail is no place to measure a drift from."""
    out: list[tuple[int, int, bool]] = []
    anchor = begin
    x0, y0 = _began_at(p, begin, end)
    for k in range(begin + 1, end + 2):
        if k <= end and hypot(p[k][0] - x0, p[k][1] - y0) <= radius:
            continue
        rest = (anchor == 0 or k - 1 == n - 1 or t[k - 1] - t[anchor] >= REST_SPAN * 0.999
                or (k - 1 == anchor and t[anchor] - t[anchor - 1] >= LONE_REST
                    and t[anchor + 1] - t[anchor] >= LONE_REST))
        out.append((anchor, k - 1, rest))
        if k <= end:
            anchor = k
            x0, y0 = _began_at(p, k, end)
    return out


def _began_at(p: list[list[float]], k: int, end: int) -> tuple[float, float]:
    """Where a stretch of still samples from ``k`` (to at most ``end``) began: see
    :func:`_undrifted`."""
    m = tracker.STILL_SAMPLES
    if end - k + 1 < 2 * m:
        return p[k][0], p[k][1]
    return sum(q[0] for q in p[k:k + m]) / m, sum(q[1] for q in p[k:k + m]) / m
