"""Struck: a resting ball set moving was touched, most likely by the ball that explains
its departure best.

Balls do not move by themselves. A struck ball leaves along the line of centres (up to
a few degrees of throw), so its first motion points away from the hitter, and it leaves
when the hitter reaches ``2R`` from its resting centre. Each moving ball is searched,
along its reconstructed path around that time, for the moment that best explains the
departure; three kinds of evidence are weighed there, each by the tracker-error model
(:class:`~carom.track.tracker.TrackerModel`): the measured distance of the centres (a
contact measured centimetres apart keeps a small but real likelihood: the tracker's
centres are biased near other balls), the direction the struck ball left in, and the
time it left. Each candidate's chance is its likelihood against the others' and
against a cause the tracker did not see, times the chance that the ball really moved.
"""

from __future__ import annotations

from math import asin, hypot, pi, sqrt

import numpy as np

from carom.core.balls import Ball
from carom.track import laws, tracker
from carom.track.contacts.departure import Departure
from carom.track.contacts.hits import NEGLIGIBLE, BallHit, contact_grid, velocity_at
from carom.track.contacts.touch import STUN_ROLL, hitter_turn_ratio
from carom.track.reconstruct.approach import nearest_on_segments
from carom.track.reconstruct.ballmotion import Join
from carom.track.reconstruct.numeric import clip, runs
from carom.track.reconstruct.trajectory import BallPath, box_distance
from carom.track.samples import FloatArray
from carom.track.tracker import TrackerModel


def struck(dep: Departure, moved: BallPath, paths: dict[Ball, BallPath], diameter: float,
           model: TrackerModel) -> list[BallHit]:
    """Who set the resting ball of ``dep`` moving, and when, with the probability of each
    reading: every moving ball, at its best moment in each pass it made near the
    resting ball (a ball found moved may have been touched on any of them), against a
    cause the tracker did not see (:attr:`~carom.track.tracker.TrackerModel.unseen`)
    when more than one ball came near; when one did, it is that ball's, however badly its
    samples fit, for only a ball moves a ball."""
    motion = moved.motion
    candidates: list[tuple[float, BallPath, float, float]] = []
    for hitter in paths.values():
        if hitter.motion.ball is motion.ball or hitter.still:
            continue  # a ball that never moved hit nothing
        candidates.extend((value, hitter, t, clearance) for value, t, clearance
                          in contact_readings(dep, hitter, diameter, model))
    # balls do not move by themselves: with one ball near enough to have touched it, a
    # cause the tracker did not see is that ball, measured badly (its samples blurred or
    # lost at the contact); whether the ball moved at all is weighed apart (moved_chance)
    alone = len({c[1].motion.ball for c in candidates}) == 1
    total = sum(c[0] for c in candidates) + (0.0 if alone else model.unseen)
    moved_chance = dep.moved
    if moved_chance < 1.0 and dep.left_at is None:
        moved_chance = _moved_given_passes(dep, moved, candidates, model, diameter)
    hits = []
    for likelihood, hitter, t_contact, clearance in candidates:
        probability = moved_chance * likelihood / total
        if probability < NEGLIGIBLE:
            continue
        speed = float(np.hypot(*velocity_at(hitter, t_contact)))
        t_sd = hypot(0.002, hitter.motion.sigma_at(speed) / max(speed, 0.05))
        hits.append(BallHit(hitter.motion.ball, motion.ball, t_contact, t_sd, probability,
                            "struck", clearance, (motion.ball, dep.join.t_lo, dep.join.t_hi)))
    return hits


Reading = tuple[float, float, float]
"""A moment along a hitter's path read as the contact: its likelihood, time, and the
measured clearance of the centres then."""


def _moved_given_passes(dep: Departure, moved_path: BallPath,
                        candidates: list[tuple[float, BallPath, float, float]], model: TrackerModel,
                        diameter: float) -> float:
    """The chance that a ball found displaced by a few millimetres really moved, with
    the passes of the other balls weighed too (``candidates``: each reading's likelihood,
    the distance of the centres, the direction and the time together, its hitter and time).

    :attr:`Departure.moved` weighs the length of the displacement alone: a still ball's
    two measurements differ by a Rayleigh-distributed amount, in any direction. The
    passes are evidence too, weighed as the density of what they measured under each
    reading: touched in the pass that fits best, the measured distance of the centres
    has the density of a contact's (the tracker-error model), and the displacement
    points away from the hitter along the line of centres (within throw); still, every
    pass missed, its measured distance lying anywhere within reach (against a perfect
    match, a density ``√(2π) σ_d / REACH``), and the displacement points anywhere (the
    even density ``1/2π``). A displacement pointing away from a ball that passed at
    contact distance makes *moved* likelier; one pointing elsewhere, or a pass measured
    centimetres beyond touching, makes *still* likelier. So does the hitter of the best pass
    going on straight where a touch that moved the ball so far would have turned it
    (:func:`~carom.track.contacts.touch.hitter_turn_ratio`)."""
    moved = dep.moved
    if moved <= 0.0 or not candidates:
        return moved
    likelihoods = [c[0] for c in candidates]
    # the hitter's noise taken as the struck ball's
    direction_sd = _direction_sd(dep, hypot(dep.sigma, tracker.CONTACT_SHAPE_SD), diameter)
    spread = laws.BALL_THROW + direction_sd * _HALF_NORMAL + model.angle_weight * model.angle_scale
    # a pass that missed: its measured distance anywhere within reach, the ratio of its
    # density to a perfect match's
    gap_sd = hypot(dep.sigma, dep.sigma, tracker.CONTACT_SHAPE_SD)
    missed = sqrt(2.0 * pi) * gap_sd / tracker.REACH
    # a touch's direction has the density π/spread of the even one at its best; a
    # cause the tracker did not see moves the ball in any direction
    ratio = (pi / spread * max(likelihoods) + model.unseen) / missed
    _, hitter, t, _ = max(candidates, key=lambda c: c[0])
    displacement = float(np.hypot(*(moved_path.motion.xy[dep.join.after.i1] - dep.rest)))  # as departure's
    ratio *= hitter_turn_ratio(hitter, moved_path, t, displacement, diameter, model)
    odds = moved / max(1.0 - moved, 1e-12) * ratio
    return odds / (1.0 + odds)


_HALF_NORMAL = sqrt(pi / 2.0)
"""∫₀^∞ exp(-x²/2σ²) dx / σ."""


def _direction_sd(dep: Departure, gap_sd: float, diameter: float) -> float:
    """The spread of the direction a touched ball is measured to leave in, the line of
    centres known to ``gap_sd`` (m) at each end."""
    return hypot(min(dep.angle_sd, 1.0), gap_sd / diameter)


def _crept_from(join: Join) -> float:
    """The earliest a ball resting before ``join`` may have crept from its place unseen:
    any time during the rest when the tracker sent it rarely (a first and a last sample
    show nothing between them); over its last :data:`~carom.track.tracker.STILL_SAMPLES`
    samples when the tracker sent every frame of it (even spacing assumed)."""
    rest = join.before
    if rest.size <= tracker.STILL_SAMPLES:
        return rest.t0
    return rest.t1 - (rest.t1 - rest.t0) * tracker.STILL_SAMPLES / (rest.size - 1)


def contact_readings(dep: Departure, hitter: BallPath, diameter: float, model: TrackerModel) -> list[Reading]:
    """The moments along ``hitter``'s path that best explain the departure ``dep``, one
    per pass near the resting ball (distance of the centres, direction of departure,
    time, each by the tracker-error model). Empty if the hitter does not come towards
    the struck ball within reach while it could have left."""
    join = dep.join
    frozen = _frozen_contact(dep, hitter, diameter, model)
    # a struck ball may have crept from its place unseen any time during the rest
    # before (its samples stayed within the noise); when it left is weighed by the
    # time its first motion points back to, not by where the rest seemed to end
    t_from = _crept_from(join) if join.before.rest else join.t_lo
    passes = _near_times(hitter, dep.rest, t_from - laws.CUSHION_DWELL, join.t_hi + tracker.BIAS_LEAD,
                         diameter + tracker.REACH)
    if not passes:
        return [frozen] if frozen is not None else []
    grid = np.concatenate(passes) if len(passes) > 1 else passes[0]
    # the path between samples read both ways (carried on from before: row 0, come
    # straight to after: row 1; see BallPath.extended), scored together
    pos, vel = hitter.readings(grid, (True, False))
    speed = np.hypot(vel[..., 0], vel[..., 1])
    line = dep.rest - pos
    dist = np.hypot(line[..., 0], line[..., 1])
    sd_d = hypot(hitter.motion.sigma, dep.sigma, tracker.CONTACT_SHAPE_SD,
                 float(speed.max(initial=0.0)) * tracker.TIMING_JITTER)
    likelihood = model.gap_likelihood(dist - diameter, sd_d)
    cosine = np.einsum("rij,j->ri", line, dep.direction) / np.maximum(dist, 1e-9)
    angle = np.arccos(clip(cosine, -1.0, 1.0))
    direction = model.angle_likelihood(angle - laws.BALL_THROW, _direction_sd(dep, sd_d, diameter))
    likelihood = likelihood * direction
    if dep.left_at is not None:
        likelihood = likelihood * model.time_likelihood(grid - dep.left_at, dep.left_sd)
    # the hitter must be moving, and coming towards the struck ball
    coming = (speed > laws.REST_SPEED) & (np.einsum("rij,rij->ri", vel, line) > 0.0)
    likelihood = np.where(coming, likelihood, 0.0)
    best = np.max(likelihood, axis=0)
    out: list[Reading] = []
    start = 0
    for piece in passes:
        stop = start + piece.shape[0]
        # the likeliest of the pass; on a tie the forward reading and the earlier time
        k = start + int(best[start:stop].argmax())
        row = int(likelihood[:, k].argmax())
        if best[k] > 0.0:
            out.append((float(best[k]), float(grid[k]), float(dist[row, k] - diameter)))
        start = stop
    if frozen is not None:
        out = [r for r in out if r[0] > frozen[0] or abs(r[1] - frozen[1]) > BIAS_WINDOW]
        out.append(frozen)
    return out


BIAS_WINDOW = 0.1
"""Two readings of one contact closer in time than this, s, are one (the likelier kept)."""


def _frozen_contact(dep: Departure, hitter: BallPath, diameter: float, model: TrackerModel) -> Reading | None:
    """Two balls that touch are set moving at the same moment: a ball that starts to
    move while the struck ball leaves, from where it lay beside it, pushed it (the cue
    ball struck while frozen to a ball, or a ball driven into one frozen to it). Its
    motion measured just after says little: it turns at once, and the tracker's bias
    is at its worst for touching balls. The likelihood, time and clearance of that
    reading, or ``None`` when the hitter was not set moving then."""
    join = dep.join
    lo, hi = join.t_lo - laws.CUSHION_DWELL, join.t_hi + laws.CUSHION_DWELL
    start = next((j for j in hitter.joins if j.kind == "start" and j.t_lo <= hi and j.t_hi >= lo), None)
    if start is None:
        return None
    where = start.before.position(start.before.t1)
    line = dep.rest - where
    dist = float(np.hypot(*line))
    if dist - diameter > tracker.BIAS_NEAR:
        return None
    sd_d = hypot(hitter.motion.sigma, dep.sigma, tracker.CONTACT_SHAPE_SD)
    likelihood = float(model.gap_likelihood(dist - diameter, sd_d))
    angle = float(np.arccos(np.clip(float(line @ dep.direction) / max(dist, 1e-9), -1.0, 1.0)))
    direction = float(model.angle_likelihood(angle - laws.BALL_THROW, _direction_sd(dep, sd_d, diameter)))
    likelihood *= direction
    # it left before its first sample in motion (a start holding lone samples dates
    # ``start.t`` from the motion after them, after whatever it met next)
    first_moving = float(hitter.motion.t[start.via[0]]) if start.via else start.t
    t = max(min(start.t, first_moving), join.t_lo)
    if dep.left_at is not None:
        likelihood *= float(model.time_likelihood(t - dep.left_at, dep.left_sd))
    if join.kind == "nudge":
        likelihood *= _pushed_so_little(dep, start)
    return likelihood, t, dist - diameter


def _pushed_so_little(dep: Departure, start: Join) -> float:
    """The chance that a ball set moving while touching the struck ball pushed it no
    farther than it was found moved: a push sends the struck ball at the hitter's speed
    times the cosine of the angle between its strike and the line of centres, and a
    ball sent at ``v`` rolls about ``STUN_ROLL v²``; so a push that moved it only
    millimetres needs a strike almost square to the line, a fraction of the directions
    of a strike that reaches it at all (the others leave it or drive it away). The
    usual reading of such a small move is the tracker's bias on the touching balls,
    gone when they parted."""
    after = start.after
    if after.rest or after.size < 2:
        return 1.0
    speed = float(np.hypot(*after.velocity(after.t0)))
    if speed <= 0.0:
        return 1.0
    moved = float(np.hypot(*(dep.join.after.position(dep.join.after.t1) - dep.rest)))
    allowed = sqrt(max(moved, 0.0) / STUN_ROLL)
    return min(1.0, asin(min(1.0, allowed / speed)) / (0.5 * pi))


def _near_times(hitter: BallPath, target: FloatArray, t_from: float, t_to: float,
                reach: float) -> list[FloatArray]:
    """A fine time grid over each part of ``[t_from, t_to]`` in which ``hitter``'s path
    comes within ``reach`` of ``target`` (a pass; none: it never does): the polyline
    through its samples, or either reading of its motion between two samples
    (:meth:`~carom.track.reconstruct.trajectory.BallPath.reading_segments`; a ball that
    turned at the contact, its samples around it lost, went nearer than the chord)."""
    spans = _polyline_spans(hitter, target, t_from, t_to, reach) + _reading_spans(hitter, target, t_from,
                                                                                   t_to, reach)
    spans.sort()
    merged: list[list[float]] = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return [contact_grid(a, b) for a, b in merged]


def _polyline_spans(hitter: BallPath, target: FloatArray, t_from: float, t_to: float,
                    reach: float) -> list[tuple[float, float]]:
    """The parts of ``[t_from, t_to]`` in which the polyline through ``hitter``'s
    samples and joins comes within ``reach`` of ``target``, a sample either side."""
    times, points = hitter.times, hitter.points
    last = times.shape[0] - 1
    # the path's points from the last before t_from to the first after t_to
    first_in = int(times.searchsorted(t_from, side="left"))
    last_in = int(times.searchsorted(t_to, side="right")) - 1
    if first_in <= last_in:
        lo, hi = max(first_in - 1, 0), min(last_in + 1, last)
    else:
        lo = first_in - 1
        hi = lo + 1
    lo, hi = max(lo, 0), min(max(hi, lo + 1), last)
    seg = points[lo:hi + 1]
    if seg.shape[0] < 2 or box_distance((*seg.min(axis=0).tolist(), *seg.max(axis=0).tolist()),
                                        *target.tolist()) > reach:
        return []
    # intervals of the path that pass within reach (between samples, not only at them)
    start, step = seg[:-1] - target, seg[1:] - seg[:-1]
    distance = nearest_on_segments(start[:, 0], start[:, 1], step[:, 0], step[:, 1])[1]
    near = (distance <= reach).nonzero()[0]
    if not near.size:
        return []
    spans = []
    for first, final in runs(near):
        a = max(float(times[max(lo + first - 1, 0)]), t_from)
        b = min(float(times[min(lo + final + 2, last)]), t_to)
        if b > a:
            spans.append((a, b))
    return spans


def _reading_spans(hitter: BallPath, target: FloatArray, t_from: float, t_to: float,
                   reach: float) -> list[tuple[float, float]]:
    """The sample intervals within ``[t_from, t_to]`` over which a reading of
    ``hitter``'s motion between its samples comes within ``reach`` of ``target``."""
    t = hitter.motion.t
    if t.shape[0] < 2:
        return []
    k0 = max(int(t.searchsorted(t_from, side="right")) - 1, 0)
    k1 = min(int(t.searchsorted(t_to, side="left")), t.shape[0] - 1)
    if k1 <= k0:
        return []
    first, step = hitter.reading_segments(k0, k1)
    start = first - target
    distance = nearest_on_segments(start[..., 0], start[..., 1], step[..., 0], step[..., 1])[1]
    near = np.minimum(distance[0], distance[1]) <= reach
    # each interval k0 … k1 - 1 overlaps [t_from, t_to] (k0: the last sample not after
    # t_from, k1: the first not before t_to)
    times = hitter.motion.sample_lists()[0]
    return [(max(times[k0 + i], t_from), min(times[k0 + i + 1], t_to)) for i in near.nonzero()[0].tolist()]

