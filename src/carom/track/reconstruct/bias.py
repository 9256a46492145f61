"""The camera's bias near other balls, measured over a whole recording and taken out of
a stroke's samples.

A camera tracker moves the centres of two close balls along the line between them
(blobs merge, one ball shades the other): apart or together, by an amount that is the
camera's, largest at contact and fading as the balls part. The tracker-error model
(:mod:`carom.track.tracker`) takes it as ``b · exp(-c / BIAS_REACH)`` on each centre at
a clearance ``c`` beyond ``2R``, ``b`` the same for every pair of balls seen by one
camera.

Two resting balls measured close together before a stroke (the frozen reading of rule
F9) cannot tell it apart from a gap: their measured gap is their true gap plus twice
the bias, and nothing about the two balls alone says which is which. A moving ball
passing a resting one does show it. Its samples taken near the resting ball lie off the
line its samples farther from every ball draw, along the line from the resting ball,
while the resting ball's place comes from its samples before and after. Each such
sample's offset *across* that line is one measurement of ``b`` (:func:`bias_samples`):
across, because along the line the time stamps and the ball slowing over the reference
span move the line's point by millimetres, and the bias's own share along it moves the
sample nearer the resting ball or away (the weight of each sample allows for that).
One stroke holds a sample or two, too few to tell touching balls from balls a centimetre
apart; a recording of one camera holds tens to hundreds, and together they measure ``b``
within a millimetre or two (:func:`pooled`).

Left in, the bias bends a ball's samples as it passes another, makes a resting ball look
nudged, and puts a thin touch's centres up to ``2b`` too far apart (or a near pass's too
close). With ``b`` measured, each sample is moved back by the bias at the clearance the
stroke's first reconstruction puts the two balls at then (:func:`unbiased`), and the
stroke is read again.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp, hypot, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track import tracker
from carom.track.reconstruct.ballmotion import BallMotion
from carom.track.reconstruct.fit import fit_motion
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import BallTrack, TrackedStroke

NEAR = 0.03
"""A sample measures the bias when the ball was within this clearance of a resting ball, m."""

FAR = 0.045
"""Samples farther than this from every other ball, m, draw the line a near sample is
measured against (the bias there is under a twentieth of its value at contact)."""

REFERENCE = 3
"""How many far samples, nearest in time, draw that line."""

REFERENCE_SPAN = 0.12
"""The longest time, s, from a near sample to the far samples it is measured against
(beyond, the ball's curve or slowing matters)."""

MODEL_SD = 0.003
"""Standard deviation, m, of one measurement beyond the samples' noise: the ball's curve
over the reference span, a bias that is not quite the model's."""

REST_MARGIN = 0.02
"""A ball counts as resting until this long, s, before the first sign of its motion (its
first sample off its rest, or the estimated start), so that a contact setting it moving
is never measured against its old place."""

REST_AGREE = 0.003
"""Its reconstructed path must lie within this distance, m, of its resting place then."""

CLIP_Z = 3.0
"""Measurements farther than this many standard deviations from the pooled value are left
out (a contact between the samples, a glitch)."""

MIN_SAMPLES = 10
"""The fewest measurements a recording's bias is taken from."""

RELATIVE_SD = 0.25
"""An uncertainty of the pooled value proportional to it: the bias at contact is read
through the model's fading (the samples lie 1–3 cm from the resting ball, and the
fading of a real camera is not known), and far samples within a few centimetres of the
resting ball carry a little of the bias too, so a strong bias reads about a tenth short
in synthetic recordings, in some a quarter."""


@dataclass(frozen=True, slots=True)
class BiasSample:
    """One sample's measurement: ``shift`` (m), its offset across the line its ball's far
    samples draw; ``(x, y)``, the point of that line abreast of it, from the resting
    ball's place; ``(ax, ay)``, the line's direction; ``sd``, the offset's standard
    deviation; ``diameter``, ``2R``."""

    shift: float
    x: float
    y: float
    ax: float
    ay: float
    sd: float
    diameter: float

    def weight(self, bias: float) -> float:
        """The offset a bias of 1 at contact gives, were the bias ``bias``: the share of it
        the sample's clearance carries (:data:`~carom.track.tracker.BIAS_REACH`), times
        the share of the line from the resting ball that lies across the track. The bias
        moves the sample along the track too (towards the resting ball or away), so the
        sample stood where it was measured less that move (found in two steps)."""
        x, y = self.x, self.y
        for step in range(3):
            d = hypot(x, y)
            if d <= 1e-9:
                return 0.0
            share = exp(-max(d - self.diameter, 0.0) / tracker.BIAS_REACH)
            if step == 2:
                break
            along = bias * share * (x * self.ax + y * self.ay) / d
            x, y = self.x - along * self.ax, self.y - along * self.ay
        return share * (x * self.ay - y * self.ax) / d


Rest = tuple[float, float, float, float]
"""A ball at rest: from, until (s), and its place ``x``, ``y`` (m)."""


def bias_samples(tracked: TrackedStroke, motions: dict[Ball, BallMotion], paths: dict[Ball, BallPath],
                 diameter: float) -> list[BiasSample]:
    """Every measurement of the bias one stroke holds: each sample a moving ball sent
    within :data:`NEAR` of a resting ball, against the line of its own samples farther
    from every ball (see the module)."""
    rests = {ball: _rest_spans(motion, tracked.balls[ball].t) for ball, motion in motions.items()}
    out: list[BiasSample] = []
    for ball, motion in motions.items():
        raw = tracked.balls[ball]
        others = [b for b in motions if b is not ball]
        (x0, y0), (x1, y1) = raw.xy.min(axis=0).tolist(), raw.xy.max(axis=0).tolist()
        reach = diameter + NEAR
        passed = [rest for b in others for rest in rests[b]
                  if x0 - reach < rest[2] < x1 + reach and y0 - reach < rest[3] < y1 + reach]
        near_times = [t for rest in passed for t in raw.t[_passes(raw.t, raw.xy, rest, diameter)].tolist()]
        if not near_times:
            continue  # it never came near a resting ball: most balls of most strokes
        for piece in motion.pieces:
            if piece.rest or not any(piece.t0 - 1e-9 <= t <= piece.t1 + 1e-9 for t in near_times):
                continue
            inside = (raw.t >= piece.t0 - 1e-9) & (raw.t <= piece.t1 + 1e-9)
            t, xy = raw.t[inside], raw.xy[inside]
            if t.shape[0] > REFERENCE:
                out.extend(_measured(t, xy, motion.sigma, [(rests[b], paths[b]) for b in others], diameter))
    return out


def _passes(t: np.ndarray, xy: np.ndarray, rest: Rest, diameter: float) -> np.ndarray:
    """Which of the samples ``(t, xy)`` lie within :data:`NEAR` of ``rest`` while it lasts."""
    lo, hi, x, y = rest
    return (np.hypot(xy[:, 0] - x, xy[:, 1] - y) - diameter < NEAR) & (t >= lo) & (t <= hi)


def _rest_spans(motion: BallMotion, raw_t: np.ndarray) -> list[Rest]:
    """When ``motion``'s ball rested and where: each rest until :data:`REST_MARGIN` before
    the first sign of the motion after it (its estimated start, the first sample after
    the rest, any lone sample in between)."""
    if not motion.moved:
        x, y = motion.pieces[0].position(motion.pieces[0].t0).tolist()
        return [(-np.inf, np.inf, x, y)]
    spans: list[Rest] = []
    for join in motion.joins:
        if join.before.rest:
            first_sign = min(join.t, join.t_hi, *(float(motion.t[i]) for i in join.via))
            later = raw_t[raw_t > join.before.t1 + 1e-9]
            if later.shape[0]:
                first_sign = min(first_sign, float(later[0]))
            x, y = join.before.position(join.before.t0).tolist()
            spans.append((join.before.t0, first_sign - REST_MARGIN, x, y))
    last = motion.pieces[-1]
    if last.rest:
        x, y = last.position(last.t0).tolist()
        spans.append((last.t0, np.inf, x, y))
    return spans


def _measured(t: np.ndarray, xy: np.ndarray, sigma: float, others: list[tuple[list[Rest], BallPath]],
              diameter: float) -> list[BiasSample]:
    """The measurements of one moving piece's samples ``(t, xy)`` against the resting
    balls among ``others`` (each: its rests and its path)."""
    n = int(t.shape[0])
    nearest = np.full(n, np.inf)  # clearance to any other ball, on its path
    near = np.full(n, np.inf)  # clearance to a resting ball
    place = np.zeros((n, 2))
    for rests, path in others:
        on_path = path.centres(t)
        nearest = np.minimum(nearest, np.hypot(*(xy - on_path).T) - diameter)
        for rest in rests:
            x, y = rest[2], rest[3]
            still = np.hypot(on_path[:, 0] - x, on_path[:, 1] - y) <= REST_AGREE
            at = _passes(t, xy, rest, diameter) & still
            c = np.where(at, np.hypot(xy[:, 0] - x, xy[:, 1] - y) - diameter, np.inf)
            closer = c < near
            near = np.where(closer, c, near)
            place[closer] = (x, y)
    wanted = (near < NEAR).nonzero()[0].tolist()
    far = (nearest > FAR).nonzero()[0]
    if not wanted or far.shape[0] < REFERENCE:
        return []
    out: list[BiasSample] = []
    for k in wanted:
        tk = float(t[k])
        use = np.sort(far[np.argsort(np.abs(t[far] - tk), kind="stable")[:REFERENCE]])
        if float(np.max(np.abs(t[use] - tk))) > REFERENCE_SPAN:
            continue
        fit = fit_motion(t[use], xy[use], 1)
        px, py = fit.point(tk)
        vx, vy = fit.speed_vector(tk)
        speed = hypot(vx, vy)
        if speed <= 1e-6:
            continue
        ax, ay = vx / speed, vy / speed
        mx, my = float(xy[k, 0]), float(xy[k, 1])
        # the line's point abreast of the sample: the offset across the track is free of
        # the errors along it (the time stamps, the ball slowing over the reference span)
        along = (mx - px) * ax + (my - py) * ay
        px, py = px + along * ax, py + along * ay
        qx, qy = place[k].tolist()
        sd = hypot(sigma * sqrt(1.0 + 1.0 / REFERENCE), fit.position_sd(tk, sigma), MODEL_SD)
        out.append(BiasSample((mx - px) * ay - (my - py) * ax, px - qx, py - qy, ax, ay, sd, diameter))
    return out


def pooled(samples: list[BiasSample]) -> tracker.CameraBias | None:
    """The weighted least-squares ``b`` of ``shift = b · weight(b)`` over ``samples``
    (found in a few steps), leaving out those more than :data:`CLIP_Z` standard deviations
    from it; ``None`` from fewer than :data:`MIN_SAMPLES`. Its standard deviation adds
    :data:`RELATIVE_SD` of it."""
    keep, b = samples, 0.0
    for step in range(STEPS):
        weights = [s.weight(b) for s in keep]
        den = sum(w * w / (s.sd * s.sd) for w, s in zip(weights, keep, strict=True))
        if len(keep) < MIN_SAMPLES or den <= 0.0:
            return None
        b = sum(w * s.shift / (s.sd * s.sd) for w, s in zip(weights, keep, strict=True)) / den
        if step < STEPS - 1:
            keep = [s for s in samples if abs(s.shift - b * s.weight(b)) <= CLIP_Z * s.sd]
    return tracker.CameraBias(b, hypot(1.0 / sqrt(den), RELATIVE_SD * b), len(keep))


STEPS = 4
"""Least-squares steps: each weighs the samples by the bias the one before found, and
leaves out the samples far from it."""


def unbiased(stroke: TrackedStroke, paths: dict[Ball, BallPath], bias: tracker.CameraBias,
             diameter: float) -> TrackedStroke:
    """``stroke`` with every sample moved back by ``bias`` at the clearance ``paths`` (a
    reconstruction of the same stroke) give its ball and each other ball at its time."""
    balls: dict[Ball, BallTrack] = {}
    for ball, track in stroke.balls.items():
        own = paths[ball].centres(track.t)
        xy = track.xy.copy()
        for other, path in paths.items():
            if other is ball:
                continue
            line = own - path.centres(track.t)
            gap = np.hypot(line[:, 0], line[:, 1])
            shift = bias.value * np.exp(-np.maximum(gap - diameter, 0.0) / tracker.BIAS_REACH)
            xy -= line / np.maximum(gap, 1e-9)[:, None] * shift[:, None]
        balls[ball] = BallTrack(track.t, xy)
    return TrackedStroke(stroke.shot, stroke.cue, balls, stroke.label, stroke.line, stroke.extra)

