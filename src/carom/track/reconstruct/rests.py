"""Rests and glitches in a ball's samples."""

from __future__ import annotations

import itertools
from math import hypot, sqrt

import numpy as np

from carom.track import laws, tracker
from carom.track.reconstruct.breaks import BREAK_Z
from carom.track.reconstruct.fit import Fit, fit_motion
from carom.track.reconstruct.numeric import diff, runs
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
    ks = np.nonzero(off > 2.0 * BREAK_Z * sigma)[0] + 2
    if not ks.size:
        return keep
    span = t[ks + 2] - t[ks - 2]
    ks = ks[span <= OUTLIER_SPAN]
    if not ks.size:
        return keep
    # a few candidates at most: each is checked in plain floats
    times, points = t.tolist(), xy.tolist()
    for k in ks.tolist():
        if _glitch(times, points, k, sigma):
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


BIAS_MAX = 0.05
"""The largest shift, m, the tracker's bias is taken to give a resting ball's centre."""


def biased_excursions(t: FloatArray, xy: FloatArray, sigma: float,
                      others: list[tuple[FloatArray, FloatArray]], diameter: float) -> np.ndarray:
    """Mask of the samples to keep: samples of a resting ball taken while another ball
    was close, that stay within :data:`BIAS_MAX` of where it rested, carry the tracker's
    bias near other balls (merged blobs, shading), and say nothing sure of a move; the
    samples before and after them, taken with no ball near, do. Where the ball rested is
    its sample before them, or, when that sample shows it still rolling and a silence
    follows, where it rolled on to (:func:`_rolled_to_rest`). A ball that really left
    its place goes farther (:func:`_leaving`), or stays where its samples near the other
    ball took it (:func:`_came_to_rest_away`), and its samples are kept."""
    n = int(t.shape[0])
    keep = np.ones(n, dtype=bool)
    if n < 3 or not others:
        return keep
    near = np.zeros(n, dtype=bool)
    reach = diameter + tracker.BIAS_NEAR
    at_start: list[tuple[float, float, float]] = []
    for times, oxy in others:
        ox, oy = np.interp(t, times, oxy[:, 0]), np.interp(t, times, oxy[:, 1])
        near |= np.hypot(xy[:, 0] - ox, xy[:, 1] - oy) <= reach
        at_start.append((float(ox[0]), float(oy[0]), _left(times, oxy, xy[0], reach)))
    near[-1] = False  # where a ball ends is always kept
    if not near.any():
        return keep
    still = max(4.0 * tracker.rayleigh_sd(max(sigma, tracker.REST_NOISE)), tracker.VISIBLE_NUDGE)
    points, times_ = xy.tolist(), t.tolist()
    if near[0]:
        keep[:_biased_start(times_, points, near.tolist(), at_start, still, diameter)] = False
        near[0] = False  # where it starts is kept but for the above
        if not near.any():
            return keep
    for a, b in _episodes(runs(np.nonzero(near)[0]), times_, points, others, reach):
        k0 = a - 1
        while k0 > 0 and not keep[k0]:
            k0 -= 1  # an episode before it set aside: where the ball rested before that
        (x0, y0) = points[k0]
        rolling = k0 > 0 and hypot(x0 - points[k0 - 1][0], y0 - points[k0 - 1][1]) > still
        resting = k0 == 0 or times_[a] - times_[k0] >= SILENCE or not rolling
        if not resting:
            continue
        if rolling:
            x0, y0 = _rolled_to_rest(times_, points, k0)
        away = [hypot(points[k][0] - x0, points[k][1] - y0) for k in range(a, min(b + 2, n))]
        then = times_[b + 1] - times_[b] if b + 1 < n else 0.0
        if max(away[:b + 1 - a]) > BIAS_MAX or _leaving(away, then):
            continue
        if b + 2 == n and (k0 == 0 or times_[a] - times_[k0] >= SILENCE):
            settled = hypot(points[-1][0] - points[b][0], points[-1][1] - points[b][1])
            if _came_to_rest_away(away, settled, still):
                continue
        keep[a:b + 1] = False
    return keep


def _episodes(near_runs: list[tuple[int, int]], t: list[float], p: list[list[float]],
              others: list[tuple[FloatArray, FloatArray]], reach: float) -> list[tuple[int, int]]:
    """``near_runs`` (runs of samples taken with another ball near) cut where, in a
    silence between two of their samples (:data:`SILENCE`: the tracker sent nothing, the
    ball lay still), every other ball was out of ``reach`` at some moment: a ball that
    passed and a ball that came back later are two episodes, each weighed against where
    the ball lay before it."""
    out: list[tuple[int, int]] = []
    for a, b in near_runs:
        first = a
        for k in range(a, b):
            if t[k + 1] - t[k] >= SILENCE and _all_left(t[k], t[k + 1], p[k], others, reach):
                out.append((first, k))
                first = k + 1
        out.append((first, b))
    return out


def _all_left(t0: float, t1: float, point: list[float], others: list[tuple[FloatArray, FloatArray]],
              reach: float) -> bool:
    """Whether, at some sample of another ball strictly between ``t0`` and ``t1``, every
    other ball lay farther than ``reach`` from ``point``."""
    moments = np.unique(np.concatenate([times[(times > t0) & (times < t1)] for times, _ in others]))
    if not moments.size:
        return False
    clear = np.ones(moments.shape[0], dtype=bool)
    for times, oxy in others:
        ox, oy = np.interp(moments, times, oxy[:, 0]), np.interp(moments, times, oxy[:, 1])
        clear &= np.hypot(ox - point[0], oy - point[1]) > reach
    return bool(clear.any())


def _rolled_to_rest(t: list[float], p: list[list[float]], k: int) -> tuple[float, float]:
    """Where a ball last sent rolling at sample ``k`` (a silence after it) came to rest: on
    along its last chord by as far as it rolls from the speed it had at ``k`` (the chord's
    mean speed less the rolling resistance over half of it), and never as far as a
    tracker's step (:data:`~carom.track.tracker.SEND_STEP`), for a ball that rolled that
    far would have been sent again."""
    (xa, ya), (xb, yb) = p[k - 1], p[k]
    dt = t[k] - t[k - 1]
    length = hypot(xb - xa, yb - ya)
    if dt <= 0.0 or length <= 0.0:
        return xb, yb
    speed = max(length / dt - 0.5 * laws.ROLL_DECELERATION * dt, 0.0)
    roll = min(laws.run_out(speed), tracker.SEND_STEP)
    return xb + (xb - xa) / length * roll, yb + (yb - ya) / length * roll


def _left(times: FloatArray, oxy: FloatArray, at: FloatArray, reach: float) -> float:
    """When another ball (its samples ``times``, ``oxy``) was first sent farther than
    ``reach`` from ``at``, s (infinity: never)."""
    far = np.nonzero(np.hypot(oxy[:, 0] - at[0], oxy[:, 1] - at[1]) > reach)[0]
    return float(times[far[0]]) if far.size else float("inf")


def _biased_start(t: list[float], p: list[list[float]], near: list[bool],
                  others: list[tuple[float, float, float]], still: float, diameter: float) -> int:
    """How many of a ball's first samples to leave out as the tracker's bias: the samples
    taken at the start of the stroke while another ball lay close, when the ball then
    lies still a little way off them *towards where that ball stood*, as soon as that
    ball left (``others``: where each other ball was measured at the first sample, and
    when it was first sent out of reach of the bias).

    The bias pushed the two centres apart; once the other ball was struck away, the
    resting ball's centre comes back by the bias, towards where it stood. Three things
    tell this from a touch at the strike: a touch sends a ball away from the ball that
    touched it, never towards it; a ball set moving goes on, where this one stays (its
    next samples within the noise for :data:`REST_SPAN`, or none for :data:`SILENCE`);
    and the way back is at most half the gap the two were measured at beyond touching
    (the bias moved both centres). The bias goes when the other ball goes: a tracker
    that sends a ball once it moved sends its centre coming back at once, so a first
    sample away taken :data:`SILENCE` after the other ball left is a later move (a
    contact), not the bias. Read as a move, the bias would be a ball set moving at the
    strike by nothing, and its real move later would go unseen."""
    n = len(t)
    b = near.index(False) if False in near else n
    if b >= n - 1:
        return 0  # the other ball never left, or only by the end: the bias is the same throughout
    for k in range(b + 1, n):
        if t[k] - t[b] >= SILENCE:
            break
        if hypot(p[k][0] - p[b][0], p[k][1] - p[b][1]) > still:
            return 0  # it went on moving
        if t[k] - t[b] >= REST_SPAN:
            break
    mx = sum(q[0] for q in p[:b]) / b
    my = sum(q[1] for q in p[:b]) / b
    dx, dy = p[b][0] - mx, p[b][1] - my
    if hypot(dx, dy) > BIAS_MAX:
        return 0
    ox, oy, left = min(others, key=lambda o: hypot(o[0] - mx, o[1] - my))
    if t[b] - left > SILENCE:
        return 0  # it moved long after the other ball took the bias away
    jump = hypot(dx, dy)
    if hypot(ox - mx, oy - my) - diameter < 2.0 * jump - still:
        return 0  # the bias on both centres together would be more than their gap was measured
    return b if dx * (ox - mx) + dy * (oy - my) > 0.0 else 0


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


def _came_to_rest_away(away: list[float], settled: float, still: float) -> bool:
    """Whether a run of samples near another ball, after a rest the tracker sent nothing
    of (or the strike), that only the ball's last sample follows (where it ended the
    stroke, no ball near) is a move that came to rest: two samples or more, each farther
    than the one before, and the ball ending where the run ended (within ``still``),
    clearly away. ``away``: the distances of the run and of the last sample from where
    the ball rested; ``settled``: the last sample's distance from the run's last. A
    tracker that sends a ball once it moved sends nothing of it at rest, so the silence
    after the run cannot tell a return from a stop; where the ball ended can: a biased
    centre comes back when the other ball leaves, a moved ball stays."""
    return (len(away) >= 3 and away[-1] > LEFT_FOR_GOOD and settled <= still
            and all(b > a for a, b in itertools.pairwise(away[:-1])))


LEFT_FOR_GOOD = 3.0 * tracker.VISIBLE_NUDGE
"""How far from its rest, m, the first sample after a run of biased samples must lie, no
ball near, for the run to be taken as the start of a real move."""


SILENCE = 0.25
"""A tracker that sends a ball only when it moves sent nothing for this long, s: the ball
rested before its next sample."""


def _near_another(t: float, point: tuple[float, float], others: list[tuple[FloatArray, FloatArray]],
                  reach: float) -> bool:
    """Whether another ball's centre (its samples, interpolated) lay within ``reach`` of
    ``point`` at ``t``."""
    for times, xy in others:
        x = float(np.interp(t, times, xy[:, 0]))
        y = float(np.interp(t, times, xy[:, 1]))
        if hypot(x - point[0], y - point[1]) <= reach:
            return True
    return False


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


def _frame(t: FloatArray, run: tuple[int, int, bool]) -> float:
    """The usual interval, s, between the samples of ``run`` (a rest of many samples:
    the tracker's frame)."""
    return float(np.median(np.diff(t[run[0]:run[1] + 1])))


def rest_runs(t: FloatArray, xy: FloatArray, sigma: float,
              bursts: list[float] | None = None) -> list[tuple[int, int, bool]]:
    """Rest runs and moving runs, in order. The first and the last sample are rests:
    balls are at rest before a stroke (F3) and when it ends (C1). Elsewhere a rest is
    a stretch of at least :data:`REST_SPAN` over which the ball stays within the noise
    (a tracker that samples moving balls only shows none: the ball then rests between
    two samples, inside a join). ``bursts``: when the tracker sent the ball again after
    a silence (:func:`resumed` of all the samples it sent, before any was left out); by
    default those of ``t``."""
    n = int(t.shape[0])
    radius = rest_reach(sigma)
    still = np.zeros(n, dtype=bool)
    still[0] = still[-1] = True
    if n > 2:
        # a lone sample with silence on both sides: the ball rested there (see LONE_REST)
        gaps = np.diff(t)
        still[1:-1] |= (gaps[:-1] >= LONE_REST) & (gaps[1:] >= LONE_REST)
    step = diff(xy)
    step_length = np.hypot(step[:, 0], step[:, 1])
    small = np.nonzero(step_length <= radius)[0] if n > 2 else np.zeros(0, dtype=int)
    if small.size:
        # a rest begins where the next step is within the noise; it lasts if every sample
        # of the span stays near the first (a bounce comes back to where it was)
        ahead = np.minimum(np.searchsorted(t, t[small] + REST_SPAN), n - 1)
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
            marks = np.zeros(n + 1, dtype=int)
            np.add.at(marks, begin, 1)
            np.add.at(marks, ahead + 1, -1)
            still |= np.cumsum(marks)[:n] > 0
    # a run ends where stillness changes, or between two still samples apart (two rests
    # in different places: the ball moved between them unseen)
    noise = max(sigma, tracker.REST_NOISE)
    apart = step_length > max(NUDGE_Z * tracker.rayleigh_sd(noise), 0.001)
    apart &= still[1:] & still[:-1]
    for k in np.nonzero(apart)[0].tolist():
        apart[k] = _stays_moved(xy, still, k, noise)
    apart |= _moved_across_gaps(t, xy, still, noise)
    times = t.tolist()
    for burst in resumed(t) if bursts is None else bursts:
        k = int(np.searchsorted(t, burst)) - 1
        if k >= 0:
            apart[k] = apart[k] or _moving_again(times, still, apart, k)
    cut = (still[1:] != still[:-1]) | apart
    ends = [*np.nonzero(cut)[0].tolist(), n - 1]
    runs: list[tuple[int, int, bool]] = []
    begin = 0
    flags = still.tolist()
    points = xy.tolist()
    for end in ends:
        if flags[begin] and end > begin:
            runs.extend(_undrifted(times, points, begin, end, radius, n))
        else:
            runs.append((begin, end, bool(flags[begin])))
        begin = end + 1
    # a moving stretch next to a moving stretch is one; so is a rest next to a rest where
    # the ball lay, on the mean of all their samples, in one place
    merged = _merged(runs, t, xy, noise)
    # and the samples a stretch read as moving begins with that never left the rest
    # before it are part of that rest (all of them: the stretch is rest)
    if len(merged) > 1:
        joined = _tails_joined(merged, t, xy, radius)
        merged = _merged(_rested_longer(joined, t, xy, radius, noise), t, xy, noise)
    if len(merged) > 2:
        merged = _merged(_crept_on(merged, t, xy, noise), t, xy, noise)
    return merged


def _crept_on(runs: list[tuple[int, int, bool]], t: FloatArray, xy: FloatArray,
              noise: float) -> list[tuple[int, int, bool]]:
    """``runs`` with the rests that follow a moving stretch read as motion where, taken
    together, their samples drift in a straight line on the way the ball came, no faster
    than it came: a ball rolling out at a few centimetres a second stays within the noise
    for :data:`REST_SPAN` and is cut into rests and nudges, each a start that no ball made
    (a ball does not move by itself). The longest such run of rests is taken, never the
    last (where the ball stopped). A drift is the velocity of a straight line through the
    samples, beyond :data:`~carom.track.reconstruct.breaks.BREAK_Z` standard deviations of
    its noise, the samples lying on it within the noise (a rest, a nudge and a rest do
    not); the way the ball came, that of its last samples before, beyond the same number
    of deviations (a still ball whose samples a passing ball's bias moves came from
    nowhere). The way it came is measured on as many samples as the drift, as long as
    they lie on one straight line (never fewer than :data:`CAME_SAMPLES`), so that the
    two are seen alike: on five frames sent every 20 ms a ball rolling out at 4 cm/s is
    within four deviations of still, on the fourteen of the drift it is not."""
    out = list(runs)
    k = 1
    while k < len(runs) - 1:
        if not runs[k][2] or out[k - 1][2]:
            k += 1
            continue
        last = k
        while last + 1 < len(runs) - 1 and runs[last + 1][2]:
            last += 1
        moving_from = k - 1
        while moving_from > 0 and not out[moving_from - 1][2]:
            moving_from -= 1  # the moving stretch it came on, rests read as motion included
        for end in range(last, k - 1, -1):
            came = _came(t, xy, out[moving_from][0], out[k - 1][1], runs[end][1] - runs[k][0] + 1, noise)
            if _creeps(t, xy, runs[k][0], runs[end][1], came, noise):
                for j in range(k, end + 1):
                    out[j] = (runs[j][0], runs[j][1], False)
                break
        k = last + 1
    return out


def _creeps(t: FloatArray, xy: FloatArray, a: int, b: int, came: Fit, noise: float) -> bool:
    """Whether samples ``a … b`` drift in a straight line on the way the ball came (the
    straight line through its last samples, ``came``), no faster (see :func:`_crept_on`)."""
    n = b - a + 1
    if n < 3:
        return False
    line = _line(t, xy, a, b)
    (vx, vy), sd = line.speed_vector(line.tm), line.velocity_sd(line.tm, noise)
    (cx, cy), came_sd = came.speed_vector(came.tm), came.velocity_sd(came.tm, noise)
    speed = hypot(vx, vy)
    if speed <= BREAK_Z * sd:
        return False
    if hypot(cx, cy) <= BREAK_Z * came_sd or cx * vx + cy * vy <= 0.0 or speed > hypot(cx, cy) + BREAK_Z * sd:
        return False  # not seen coming, not on the way it came, or faster: something moved it
    return _straight(t, xy, a, b, line, noise)


def _came(t: FloatArray, xy: FloatArray, first: int, last: int, size: int, noise: float) -> Fit:
    """The way a ball came into a rest, on its samples ``first … last`` before it: the
    straight line through the last ``size`` of them, or, where those do not lie on one
    line (an event among them), through half as many, and so on, but never fewer than
    :data:`CAME_SAMPLES` (see :func:`_crept_on`)."""
    count = min(size, last - first + 1)
    while count > CAME_SAMPLES:
        line = _line(t, xy, last - count + 1, last)
        if _straight(t, xy, last - count + 1, last, line, noise):
            return line
        count //= 2
    return _line(t, xy, max(first, last - CAME_SAMPLES + 1), last)


def _straight(t: FloatArray, xy: FloatArray, a: int, b: int, line: Fit, noise: float) -> bool:
    """Whether samples ``a … b`` lie on ``line`` within the noise (a chi-square test at
    :data:`~carom.track.reconstruct.breaks.BREAK_Z` deviations)."""
    off = xy[a:b + 1] - np.array([line.point(ti) for ti in t[a:b + 1].tolist()])
    dof = 2 * (b - a - 1)
    return float((off * off).sum()) <= noise * noise * (dof + BREAK_Z * sqrt(2.0 * dof))


def _line(t: FloatArray, xy: FloatArray, a: int, b: int) -> Fit:
    """The straight line (constant velocity) fitted through samples ``a … b``."""
    return fit_motion(t[a:b + 1], xy[a:b + 1], degree=1)


CAME_SAMPLES = 5
"""The fewest of its last samples the way a ball came into a rest is measured on."""


def _merged(runs: list[tuple[int, int, bool]], t: FloatArray, xy: FloatArray,
            noise: float) -> list[tuple[int, int, bool]]:
    """``runs`` with each moving stretch next to a moving stretch made one, and each rest
    next to a rest in one place (:func:`_one_place`, :func:`_leads_into`)."""
    merged: list[tuple[int, int, bool]] = []
    for run in runs:
        if merged and not run[2] and not merged[-1][2]:
            merged[-1] = (merged[-1][0], run[1], False)
        elif merged and run[2] and merged[-1][2] and (_one_place(xy, merged[-1], run, noise)
                                                      or _leads_into(t, xy, merged[-1], run, noise)):
            merged[-1] = (merged[-1][0], run[1], True)
        else:
            merged.append(run)
    return merged


def _leads_into(t: FloatArray, xy: FloatArray, short: tuple[int, int, bool], rest: tuple[int, int, bool],
                noise: float) -> bool:
    """Whether a rest of fewer than :data:`~carom.track.tracker.STILL_SAMPLES` samples
    is the start of the rest of many after it (a tracker that sends every frame of a
    resting ball): each of its samples within the rest's own reach, four noise
    deviations, of where that rest lay on the mean of its samples, and sent one frame
    before it (:data:`NEXT_FRAME`). A sample in the noise's tail cut them, often the
    first after a gap (samples beside a passing ball set aside); left apart, a thin
    touch in the gap was weighed between two single samples, not between two rests.
    Never across a gap, nor into the rest *before* it: a ball touched meanwhile may lie
    within the noise's reach of where it lay."""
    m = tracker.STILL_SAMPLES
    if short[1] - short[0] + 1 >= m or rest[1] - rest[0] + 1 < m:
        return False
    if t[rest[0]] - t[short[1]] > NEXT_FRAME * _frame(t, rest):
        return False
    return bool((_from_rest(xy, rest, short[0], short[1]) <= 4.0 * noise).all())


def _rested_longer(runs: list[tuple[int, int, bool]], t: FloatArray, xy: FloatArray,
                   radius: float, noise: float) -> list[tuple[int, int, bool]]:
    """``runs`` with each rest of many samples (a tracker that sends every frame of a
    resting ball) taking in the samples the moving stretch after it begins with while they
    lie within ``radius`` (the rest's own test) of where the rest lay on the mean of its
    samples: the whole stretch, if it never left; else all of them when on their own
    mean (``noise``: a sample's) they lie where the rest lay, or when the ball was not
    seen leaving them (a gap follows them: samples lost, or set aside as biased beside
    the ball that came and set it moving, whose bias moves their mean a millimetre or
    two before it touches), or at most ``STILL_SAMPLES - 1`` of them when neither, which
    a ball crept from its place in unseen (:mod:`~carom.track.contacts.struck` allows
    for that), so that the move's start is not read before it; and only samples sent one
    frame after another (:data:`NEXT_FRAME`):
    after a gap, left by samples lost or set aside as biased, the ball may have been
    touched and moved less than ``radius``. A sample in the noise's tail cut the rest, the
    samples after it read as a creep measured from that sample, or the samples near a
    passing ball were set aside, and the last still ones before the gap read as moving;
    measured against the whole rest, they have not moved. The stroke's first rest may be
    its first sample alone (still samples spanning less than :data:`REST_SPAN` before the
    ball was struck): every ball lies still when a stroke begins (F3), so it takes them in
    as a rest of many does. A lone sample beyond
    ``radius`` between two within it, and as far from the next, is the noise's tail (or
    a glitch) and does not end them: a ball touched stays away, and a crawl steps little."""
    m = tracker.STILL_SAMPLES
    out = list(runs)
    for i in range(1, len(out)):
        (r0, r1, rest), (m0, m1, moving_rest) = out[i - 1], out[i]
        if not rest or moving_rest or (r1 - r0 + 1 < m and r0 > 0):
            continue
        # a first rest of one sample: the frame the stretch after it was sent at
        frame = _frame(t, out[i - 1] if r1 > r0 else (r0, m1, True))
        sent_next = np.diff(t[m0 - 1:m1 + 1]) <= NEXT_FRAME * frame
        near = _from_rest(xy, out[i - 1], m0, m1) <= radius
        # a lone sample off the rest, and off the next sample, between two on it: a jump
        # away and back, the noise's tail or a glitch (a crawl's samples step little)
        jump = np.hypot(*diff(xy[m0:m1 + 1]).T) > radius
        near[:-1] |= near[1:] & np.r_[True, near[:-2]] & jump
        inside = near & sent_next
        lead = int(np.argmin(inside)) if not inside.all() else m1 - m0 + 1
        if lead == m1 - m0 + 1:
            out[i] = (m0, m1, True)
        elif lead:
            seen_leaving = bool(sent_next[lead])  # else it left unseen, in the gap after them
            if lead >= m and seen_leaving and _means_apart(xy[r0:r1 + 1], xy[m0:m0 + lead], noise):
                lead = m - 1  # on their mean they left the rest: a creep, its first samples only
            out[i - 1], out[i] = (r0, r1 + lead, True), (m0 + lead, m1, False)
    return out


def _tails_joined(runs: list[tuple[int, int, bool]], t: FloatArray, xy: FloatArray,
                  radius: float) -> list[tuple[int, int, bool]]:
    """``runs`` with each rest of fewer than :data:`~carom.track.tracker.STILL_SAMPLES`
    samples that lies between a rest of many and a moving stretch made part of the rest
    of many, when every one of its samples lies within ``radius`` of where that rest lay
    on the mean of its samples and was sent one frame after another
    (:data:`NEXT_FRAME`): a sample in the noise's tail cut the rest's last samples off
    it, and the moving stretch after them, its first still samples included, is then
    measured against the whole rest (:func:`_rested_longer`), not against those few.
    Left short, the samples the moving stretch begins with were read as the ball's
    departure, before the gap in which a passing ball truly set it moving."""
    m = tracker.STILL_SAMPLES
    out: list[tuple[int, int, bool]] = []
    for i, run in enumerate(runs):
        before = out[-1] if out else None
        if (before is not None and run[2] and before[2] and run[1] - run[0] + 1 < m
                and before[1] - before[0] + 1 >= m and i + 1 < len(runs) and not runs[i + 1][2]):
            frame = _frame(t, before)
            sent_next = bool((np.diff(t[before[1]:run[1] + 1]) <= NEXT_FRAME * frame).all())
            if sent_next and bool((_from_rest(xy, before, run[0], run[1]) <= radius).all()):
                out[-1] = (before[0], run[1], True)
                continue
        out.append(run)
    return out


def _from_rest(xy: FloatArray, rest: tuple[int, int, bool], first: int, last: int) -> FloatArray:
    """How far samples ``first … last`` lie from where ``rest`` lay on the mean of its samples."""
    away = xy[first:last + 1] - xy[rest[0]:rest[1] + 1].mean(axis=0)
    distance: FloatArray = np.hypot(away[:, 0], away[:, 1])
    return distance


NEXT_FRAME = 2.5
"""Two samples at most this many times the rest's usual interval apart were sent one
frame after the other, or with a frame or two lost (:func:`_rested_longer`)."""


def _one_place(xy: FloatArray, first: tuple[int, int, bool], second: tuple[int, int, bool],
               sigma: float) -> bool:
    """Whether two rests one after the other, each of several samples (a tracker that
    sends every frame of a resting ball), lie in one place: the means of their samples
    apart by no more than :data:`NUDGE_Z` standard deviations of their difference. A step
    in the tail of the noise between two samples cut them; the ball did not move."""
    if min(first[1] - first[0], second[1] - second[0]) + 1 < tracker.STILL_SAMPLES:
        return False
    return not _means_apart(xy[first[0]:first[1] + 1], xy[second[0]:second[1] + 1], sigma)


def _means_apart(a: FloatArray, b: FloatArray, sigma: float) -> bool:
    """Whether two sets of measurements of a resting ball, each with noise ``sigma``, have
    means farther apart than :data:`NUDGE_Z` standard deviations of their difference (or
    a millimetre): the ball moved between them."""
    spread = sigma * sqrt(1.0 / a.shape[0] + 1.0 / b.shape[0])
    return float(np.hypot(*(b.mean(axis=0) - a.mean(axis=0)))) > max(NUDGE_Z * spread, 0.001)


def _moved_across_gaps(t: FloatArray, xy: FloatArray, still: np.ndarray, sigma: float) -> np.ndarray:
    """Per interval, whether a ball sent every frame of its rest moved across a gap in its
    samples: frames lost, or its samples beside a passing ball set aside as biased
    (:func:`biased_excursions`). A thin touch moves a ball by millimetres, within the
    noise's reach of any one sample; the means of
    :data:`~carom.track.tracker.STILL_SAMPLES` still samples or more on either side
    (up to :data:`GAP_WINDOW`) tell (:func:`_means_apart`)."""
    n = int(t.shape[0])
    out = np.zeros(max(n - 1, 0), dtype=bool)
    m = tracker.STILL_SAMPLES
    if n < 2 * m:
        return out
    dt = np.diff(t)
    sent_next = dt <= NEXT_FRAME * float(np.median(dt))
    for k in np.nonzero(~sent_next)[0].tolist():
        lo = k  # back and on from the gap, over still samples sent one frame after another
        while lo > 0 and k - lo + 1 < GAP_WINDOW and still[lo - 1] and sent_next[lo - 1]:
            lo -= 1
        hi = k + 1
        while hi < n - 1 and hi - k < GAP_WINDOW and still[hi + 1] and sent_next[hi]:
            hi += 1
        if k - lo + 1 >= m and hi - k >= m and still[lo:k + 1].all() and still[k + 1:hi + 1].all():
            out[k] = _means_apart(xy[lo:k + 1], xy[k + 1:hi + 1], sigma)
    return out


GAP_WINDOW = 12
"""The most still samples on either side of a gap whose means are compared
(:func:`_moved_across_gaps`): a few tenths of a second, before a slow move after it
carries the ball on."""


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


def resumed(t: FloatArray) -> list[float]:
    """When a tracker that sent a ball nothing for :data:`LONE_REST` or more sent it
    again in a burst: :data:`~carom.track.tracker.STILL_SAMPLES` samples or more, each
    within :data:`SILENCE` of the last. A tracker that sends a ball once it moved a
    centimetre or two sends a burst only of a ball moving that far each frame; one that
    sends every frame of a moving ball, of any moving ball: either way the ball was
    moving (the tracker's bias near a passing ball moves a centre a step once or twice,
    not frame after frame). The samples themselves may be left out as biased; that they
    were sent is still evidence that the ball moved."""
    m = tracker.STILL_SAMPLES
    gaps = np.diff(t)
    out: list[float] = []
    for k in np.nonzero(gaps >= LONE_REST)[0].tolist():
        burst = gaps[k + 1:k + m]
        if burst.shape[0] == m - 1 and bool((burst < SILENCE).all()):
            out.append(float(t[k + 1]))
    return out


def _moving_again(t: list[float], still: np.ndarray, apart: np.ndarray, k: int) -> bool:
    """Whether the burst the tracker sent after sample ``k`` (:func:`resumed`) is a rest
    of its own: its first :data:`~carom.track.tracker.STILL_SAMPLES` samples kept are
    still, none cut from the next, and close together. The ball was moving when the
    burst began and crept from its place, however little the burst lies from where it
    was last seen; how likely it moved is weighed later
    (:meth:`~carom.track.tracker.TrackerModel.moved_probability`)."""
    m = tracker.STILL_SAMPLES
    n = int(still.shape[0])
    return (k + m < n and t[k + m] - t[k + 1] < LONE_REST and bool(still[k + 1:k + 1 + m].all())
            and not apart[k + 1:k + m].any())


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
