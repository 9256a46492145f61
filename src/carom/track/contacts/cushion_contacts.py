"""Cushion contacts: where the motion towards a cushion turns into motion away from it,
and the two motions meet on the line ``R`` inside the cushion nose.

For each cushion the component of the velocity along its normal is followed piece by
piece. A contact lies between the last piece that approaches the cushion and the next
that leaves it, with nothing between them but samples near the cushion. Extending the
two motions, their normal distances meet at a *vertex*: at the cushion line for a
cushion contact (a few millimetres either side: compression, calibration, noise),
well inside the table when something else (a ball) turned the ball.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from math import erf, exp, hypot, sqrt

import numpy as np

from carom.core.balls import Ball, Cushion
from carom.core.table import TableSpec
from carom.track import laws, tracker
from carom.track.reconstruct.ballmotion import BallMotion, Piece, SampleLists
from carom.track.reconstruct.geometry import CushionLine, cushion_lines
from carom.track.reconstruct.numeric import interp_at
from carom.track.reconstruct.pieces import LOCAL_SPAN
from carom.track.reconstruct.trajectory import BallPath, box_distance
from carom.track.samples import FloatArray

NORMAL_SPEED_Z = 3.0
"""A normal velocity counts as approaching or leaving when it exceeds this many
standard deviations of its noise."""


@dataclass(slots=True)
class CushionHit:
    """A ball touched a cushion (or, with a low ``probability``, may have)."""
    # Not frozen, though never changed once made: the detector makes thousands of these
    # per match, and a frozen dataclass takes several times longer to construct.

    ball: Ball
    cushion: Cushion
    t: float
    t_lo: float
    t_hi: float
    depth: float
    """Normal distance of the vertex from the cushion line, metres (0: on it)."""
    depth_sd: float
    probability: float
    """Probability that the ball really touched the cushion there."""
    t_sd: float = 0.005
    """Standard deviation of ``t``, s."""

    def with_probability(self, probability: float) -> CushionHit:
        """This hit with another ``probability`` (faster than :func:`dataclasses.replace`)."""
        return CushionHit(self.ball, self.cushion, self.t, self.t_lo, self.t_hi, self.depth, self.depth_sd,
                          probability, self.t_sd)


Candidate = tuple[CushionHit, tuple[float, float]]
"""A candidate contact and the ball's centre at it."""


def normal_cdf(z: float) -> float:
    return 0.5 * (1.0 + erf(z / sqrt(2.0)))


UNSEEN_CAUSE = exp(-0.5 * 4.0 ** 2)
"""Likelihood that a ball's motion turned away from a cushion by something the tracker
did not see (nothing but a cushion or a ball can turn a ball)."""


def cushion_hits(motion: BallMotion, table: TableSpec, others: list[BallPath]) -> list[CushionHit]:
    """Every cushion contact of one ball, in time order (candidates included);
    ``others`` are the other balls, which could have turned it instead."""
    hits: list[CushionHit] = []
    diameter = 2.0 * table.ball_radius
    found = _candidates(motion, cushion_lines(table))
    if not found:
        return hits
    times = np.array([hit.t for hit, _ in found])
    points = np.array([point for _, point in found])
    rival = np.zeros(times.shape[0])
    sd = hypot(tracker.CONTACT_SHAPE_SD, tracker.CUSHION_DEPTH_SD)
    for other in others:
        if _never_near(other, points, diameter + RIVAL_Z * sd):
            continue
        x = np.interp(times, other.times, other.points[:, 0])
        y = np.interp(times, other.times, other.points[:, 1])
        clearance = np.hypot(x - points[:, 0], y - points[:, 1]) - diameter
        rival = np.maximum(rival, np.exp(-0.5 * (clearance / sd) ** 2))
    for (hit, _), against in zip(found, rival.tolist(), strict=True):
        cushion = _depth_likelihood(hit.depth, hit.depth_sd)
        probability = hit.probability * cushion / (cushion + against + UNSEEN_CAUSE)
        if probability >= 1e-3:
            hits.append(hit.with_probability(probability))
    return _one_per_turn(hits)


def _one_per_turn(hits: list[CushionHit]) -> list[CushionHit]:
    """Of two readings of one contact (the same cushion, between the same samples), the
    likelier, in time order."""
    kept: list[CushionHit] = []
    for hit in sorted(hits, key=lambda h: -h.probability):
        if not any(k.cushion is hit.cushion and hit.t_lo < k.t_hi and k.t_lo < hit.t_hi for k in kept):
            kept.append(hit)
    kept.sort(key=lambda h: h.t)
    return kept


RIVAL_Z = 39.0
"""A ball farther than this many standard deviations beyond ``2R`` from a contact could
not have turned the ball: ``exp(-z²/2)`` is then exactly zero in floating point."""


def _never_near(other: BallPath, points: FloatArray, reach: float) -> bool:
    """Whether every one of ``points`` lies farther than ``reach`` from the rectangle
    around ``other``'s whole path (so the ball was never that near any of them)."""
    return all(box_distance(other.box, x, y) > reach for x, y in points.tolist())


def _depth_likelihood(depth: float, depth_sd: float) -> float:
    """How well a vertex ``depth`` inside the cushion line fits a cushion contact: any
    depth between the deepest compression and the calibration margin fits; beyond, the
    fit falls off with the measurement's uncertainty."""
    excess = max(depth - tracker.CUSHION_CALIBRATION, -laws.CUSHION_COMPRESSION - depth, 0.0)
    sd = hypot(depth_sd, tracker.CUSHION_DEPTH_SD)
    return exp(-0.5 * (excess / sd) ** 2)


def _normal_sd(motion: BallMotion, piece: Piece, t: float) -> float:
    speed = hypot(*piece.speed_vector(t))
    return piece.fit_at(t).velocity_sd(t, motion.sigma_at(speed))


SIDE_SAMPLES = 4
"""Samples on each side of a turn fitted for the motion towards and away from a cushion."""

SIDE_SPAN = 0.2
"""The longest stretch, s, on each side of a turn fitted for it."""


def _candidates(motion: BallMotion,
                lines: tuple[CushionLine, ...]) -> list[Candidate]:
    """Turns of the normal distance to each cushion line: a sample nearer the cushion
    than its neighbours, with motion towards the cushion before and away after; motions
    that end at rest against a cushion; and, where no other reading holds the turn,
    motions that go on along it (:func:`_slide_candidates`)."""
    found = [*_turn_candidates(motion, lines), *_stop_candidates(motion, lines)]
    # a slide is the reading of a turn that shows no motion away from the cushion: it
    # replaces a turn of the same join that the samples after it do not bear out
    for hit, point in _slide_candidates(motion, lines):
        same = [k for k, (h, _) in enumerate(found)
                if h.cushion is hit.cushion and h.t_lo <= hit.t_hi and hit.t_lo <= h.t_hi]
        if any(found[k][0].probability >= 0.5 for k in same):
            continue
        found = [c for k, c in enumerate(found) if k not in same]
        found.append((hit, point))
    return [*found, *_crossing_candidates(motion, lines)]


def _turn_candidates(motion: BallMotion,
                     lines: tuple[CushionLine, ...]) -> list[Candidate]:
    """The turns of the normal distance to each cushion line (see :func:`_candidates`)."""
    t, xy = motion.t, motion.xy
    out: list[Candidate] = []
    if t.shape[0] < 3:
        return out
    normals = np.array([line.normal for line in lines])
    offsets = np.array([line.offset for line in lines])
    depth = xy @ normals.T - offsets
    columns = depth.T.tolist()
    found = _lowest(t, depth, columns)
    if not found:
        return out
    samples = motion.sample_lists()
    piece_of = motion.piece_of
    for k, line in enumerate(lines):
        runs = found.get(k)
        if not runs:
            continue
        depths = columns[k]
        hits: list[Candidate] = []
        for i, j in runs:
            hit = _turn_hit(motion, samples, line, depths, piece_of, i, j)
            if hit is None:
                continue
            if hits and hit[0].t - hits[-1][0].t < 2.0 * laws.CUSHION_DWELL:
                if hit[0].depth < hits[-1][0].depth:
                    hits[-1] = hit
                continue
            hits.append(hit)
        out.extend(hits)
    return out


def _stop_candidates(motion: BallMotion,
                     lines: tuple[CushionLine, ...]) -> list[Candidate]:
    """Motions that end at rest against a cushion (see :func:`_candidates`): coming
    towards it, at rest within :data:`~carom.track.laws.CUSHION_NEAR` of it, and either
    near enough to reach it rolling on (a ball stops within ``v² / 2a``, ``a``
    :data:`~carom.track.laws.ROLL_DECELERATION`; the velocity fitted over the last samples
    is their mean, higher than the last, so the bound is loose) or at rest on its line."""
    out: list[Candidate] = []
    for a, b in itertools.pairwise(motion.pieces):
        if a.rest or not b.rest:
            continue
        rest = b.point(b.t0)
        velocity, last = a.speed_vector(a.t1), a.point(a.t1)
        speed = hypot(*velocity)
        noise = NORMAL_SPEED_Z * _normal_sd(motion, a, a.t1)
        sd = hypot(motion.sigma, tracker.POSITION_NOISE_FLOOR)
        for line in lines:
            if line.depth(rest) > laws.CUSHION_NEAR:
                continue
            into = -line.along_normal(velocity)
            if into <= noise:
                continue
            towards = laws.run_out(speed) * into / max(speed, 1e-12)  # its run-out's part into the cushion
            if line.depth(last) > towards + NORMAL_SPEED_Z * sd and line.depth(rest) > NORMAL_SPEED_Z * sd:
                continue  # rolling on, it stopped short of the cushion, and lies off it
            out.append(_reached_hit(motion, line, a, b, sd))
    return out


def _slide_candidates(motion: BallMotion,
                      lines: tuple[CushionLine, ...]) -> list[Candidate]:
    """Motions towards a cushion that turn, on its line, into motion along it: the
    cushion took the ball's speed into it (only a cushion or a ball can), and the ball
    slid along the cushion, not leaving it (see :func:`_candidates`): its speed across the
    line within the noise, or into the cushion by no more than a ball lying on the line
    shows when its end is fitted (the line's margin over the span it is fitted on)."""
    out: list[Candidate] = []
    sd = hypot(motion.sigma, tracker.CUSHION_DEPTH_SD)
    # a ball on the line, within its calibration, fitted over the span a piece's end is
    # fitted on, seems to move into the cushion by up to this much
    pressed = (tracker.CUSHION_CALIBRATION + 3.0 * sd) / LOCAL_SPAN
    for join in motion.joins:
        a, b = join.before, join.after
        if join.kind != "turn" or a.rest or b.rest:
            continue
        point = b.point(b.t0)
        # on the line, within its calibration; farther off, another ball turned it
        on = [line for line in lines if line.depth(point) <= tracker.CUSHION_CALIBRATION + 3.0 * sd]
        if not on:
            continue
        before, after = a.speed_vector(a.t1), b.speed_vector(b.t0)
        for line in on:
            coming = line.along_normal(before)
            if coming >= 0.0 or coming >= -NORMAL_SPEED_Z * _normal_sd(motion, a, a.t1):
                continue
            noise = NORMAL_SPEED_Z * _normal_sd(motion, b, b.t0)
            if not -noise - pressed <= line.along_normal(after) <= noise:
                continue
            out.append(_reached_hit(motion, line, a, b, sd))
    return out


def _crossing_candidates(motion: BallMotion,
                         lines: tuple[CushionLine, ...]) -> list[Candidate]:
    """Cushions the ball's straight motion would have crossed before its next sample, or
    came off since its sample before, where the samples around the turn are too few
    to show it (the ball met a cushion and, a few centimetres away, another ball; or
    samples were lost): a ball cannot go through a cushion, so it met it, unless
    something else turned it first. Each join of two moving pieces is looked at from
    both sides; a join where a ball started that holds lone samples (it met something
    soon after leaving) from the side after it (without lone samples, the way a ball
    left its rest through a cushion is the departure's, by the mirror image). Between
    two lone samples neither side's motion holds (a ball turned it before the first, a
    cushion after the second, as in a corner): there the chord that led to the first,
    carried on, is the ball's way to the second."""
    out: list[Candidate] = []
    samples = motion.sample_lists()
    t, xs, ys = samples
    for join in motion.joins:
        if join.kind not in ("turn", "stop", "restart") and not (join.kind == "start" and join.via):
            continue
        a, b = join.before, join.after
        chain = [a.i1, *join.via, b.i0]
        found: list[Candidate] = []
        if not a.rest:
            velocity = a.tail.speed_vector(t[a.i1])
            found.extend(_crossing(motion, lines, a.i1, chain[1], velocity, samples))
        if not b.rest and join.kind != "stop":
            vx, vy = b.head.speed_vector(t[b.i0])
            # backwards in time: the motion after, run back, and the sample before it
            found.extend(_crossing(motion, lines, b.i0, chain[-2], (-vx, -vy), samples, backwards=True))
        # between lone samples: the chord that led to each, carried on to the next
        for before, k, k_next in zip(chain[:-2], chain[1:-1], chain[2:], strict=True):
            dt = t[k] - t[before]
            chord = ((xs[k] - xs[before]) / dt, (ys[k] - ys[before]) / dt)
            found.extend(_crossing(motion, lines, k, k_next, chord, samples))
        out.extend(_one_per_cushion(found))
    return out


def _one_per_cushion(found: list[Candidate]) -> list[Candidate]:
    """Of the crossings of one join, one per cushion: the motion before carried on and
    the motion after run back are two readings of one contact, though a lone sample
    between them may set them apart in time (a second contact of the same cushion
    within one join is the chatter of a ball caught against it, weighed apart), the
    likelier kept (on a tie the earlier)."""
    if len(found) < 2:
        return found
    kept: list[Candidate] = []
    for hit, point in found:
        twin = next((i for i, (k, _) in enumerate(kept) if k.cushion is hit.cushion), None)
        if twin is None:
            kept.append((hit, point))
        elif hit.probability > kept[twin][0].probability:
            kept[twin] = (hit, point)
    return kept


def _crossing(motion: BallMotion, lines: tuple[CushionLine, ...], k: int, k_next: int,
              velocity: tuple[float, float], samples: SampleLists,
              backwards: bool = False) -> list[Candidate]:
    """The cushions the straight motion from sample ``k`` at ``velocity`` crosses before
    sample ``k_next`` (earlier when ``backwards``), which lies where a reflection puts it
    (``samples``: the ball's, :meth:`~carom.track.reconstruct.ballmotion.BallMotion.sample_lists`)."""
    out: list[Candidate] = []
    t, xs, ys = samples
    t0, t1 = t[k], t[k_next]
    dt = abs(t1 - t0)
    vx, vy = velocity
    x0, y0, x1, y1 = xs[k], ys[k], xs[k_next], ys[k_next]
    sd = 0.0
    for line in lines:
        nx, ny = line.unit
        normal_speed = nx * vx + ny * vy
        depth0 = nx * x0 + ny * y0 - line.offset
        if normal_speed >= 0.0 or depth0 < -laws.CUSHION_COMPRESSION:
            continue
        reach = depth0 / -normal_speed
        if reach >= dt:
            continue  # it had not come to the cushion by the other sample
        # how far beyond the cushion the straight motion would be at the other sample,
        # which shows the ball on the table side
        beyond = -(depth0 + normal_speed * dt)
        seen = nx * x1 + ny * y1 - line.offset
        if seen < -laws.CUSHION_COMPRESSION:
            continue
        sd = sd or hypot(motion.sigma_at(hypot(vx, vy)), tracker.CUSHION_DEPTH_SD)
        turned = normal_cdf((beyond + seen - laws.CUSHION_COMPRESSION) / sd)
        if turned < 1e-3 or not _reflected(line, (x0, y0), (vx, vy), dt, reach, (x1, y1), sd, backwards):
            continue
        when = max(reach, 0.0)
        t_hit = t0 - when if backwards else t0 + when
        point = (x0 + vx * when, y0 + vy * when)
        lo, hi = (t1, t0) if backwards else (t0, t1)
        hit = CushionHit(motion.ball, line.cushion, t_hit, lo, hi, 0.0, sd, turned,
                         hypot(sd / max(-normal_speed, 0.05), laws.CUSHION_DWELL))
        out.append((hit, point))
    return out


REFLECTION_SLACK = 0.3
"""How much of its speed along a cushion a ball may gain or lose at the cushion
(friction, spin), as a fraction."""


def _reflected(line: CushionLine, p0: tuple[float, float], v: tuple[float, float], dt: float, reach: float,
               p1: tuple[float, float], sd: float, backwards: bool = False) -> bool:
    """Whether the next sample ``p1`` lies where a reflection in the cushion would put the
    ball (the method of images): no farther from the cushion than the mirror image of
    the straight motion (a ball comes off a cushion slower than it went in; run back
    from the motion after it, ``backwards``, up to 1 / :data:`~carom.track.laws.CUSHION_REBOUND_MIN`
    times farther), and as far along it as the motion carried it, within the noise
    and what spin and friction change at a cushion (a share of the speed along it, or the
    friction impulse the speed into it allows, :data:`~carom.track.laws.CUSHION_ALONG_CHANGE`,
    whichever is larger). A ball that another ball turned
    away before the cushion lies elsewhere."""
    qx, qy = p0[0] + v[0] * dt, p0[1] + v[1] * dt
    nx, ny = line.unit
    depth_q = qx * nx + qy * ny - line.offset
    depth_p = p1[0] * nx + p1[1] * ny - line.offset
    along_q = qx * -ny + qy * nx
    along_p = p1[0] * -ny + p1[1] * nx
    speed_along = abs(v[0] * -ny + v[1] * nx)
    speed_in = abs(v[0] * nx + v[1] * ny)
    change = max(REFLECTION_SLACK * speed_along, laws.CUSHION_ALONG_CHANGE * speed_in)
    slack = change * max(dt - reach, 0.0)
    farthest = -depth_q / laws.CUSHION_REBOUND_MIN if backwards else -depth_q
    return depth_p <= farthest + 3.0 * sd and abs(along_p - along_q) <= 3.0 * sd + slack


def _lowest(t: FloatArray, depth: FloatArray, columns: list[list[float]]) -> dict[int, list[tuple[int, int]]]:
    """Per cushion (column of ``depth``; ``columns``: the same as lists), the runs
    ``i … j`` of samples nearer it than the samples on either side (a tracker that clips
    centres at the cushion line gives several equal ones)."""
    n = int(depth.shape[0])
    mid, before, after = depth[1:-1], depth[:-2], depth[2:]
    dt_before, dt_after = (t[1:-1] - t[:-2])[:, None], (t[2:] - t[1:-1])[:, None]
    # a sample far from the cushion can still be the nearest one to a contact when
    # samples around the contact are missing: the reach grows with the gap
    speed = np.maximum(np.abs(after - mid) / dt_after, np.abs(mid - before) / dt_before)
    reach = laws.CUSHION_NEAR + 0.5 * np.maximum(dt_before, dt_after) * speed
    rows, cols = ((mid < reach) & (mid <= before) & (mid <= after)).nonzero()
    out: dict[int, list[tuple[int, int]]] = {}
    for row, col in zip(rows.tolist(), cols.tolist(), strict=True):
        i = row + 1
        runs = out.setdefault(col, [])
        if runs and i <= runs[-1][1]:
            continue
        d = columns[col]
        j = i
        while j + 1 < n - 1 and d[j + 1] == d[i]:
            j += 1
        if d[i] < d[i - 1] and d[j] < d[j + 1]:
            runs.append((i, j))
    return out


Line = tuple[float, float, float, float]


def _side_line(times: list[float], depth: list[float], first: int, last: int) -> tuple[Line, float] | None:
    """Straight fit ``d = d0 + v (t - tc)`` through the samples ``first … last``: ``(tc,
    d0, v, Stt)`` and the squared misfit (``None`` for fewer than two samples)."""
    if last <= first:
        return None
    t, d = times[first:last + 1], depth[first:last + 1]
    m = len(t)
    tc = sum(t) / m
    d0 = sum(d) / m
    stt = std = sdd = 0.0
    for x, y in zip(t, d, strict=True):
        dx, dy = x - tc, y - d0
        stt += dx * dx
        std += dx * dy
        sdd += dy * dy
    v = std / stt
    return (tc, d0, v, stt), max(sdd - v * std, 0.0)


def _side(t: list[float], i: int, step: int, piece_of: list[int]) -> int:
    """How far, sample by sample, a side reaches from ``i`` going ``step`` (±1): up to
    :data:`SIDE_SAMPLES` samples, all of the same piece of motion (a side must not reach
    across another event or a rest). The side is the samples from ``i`` to the index
    returned, both included."""
    n = len(t)
    count = 1
    k = i + step
    while (0 <= k < n and count < SIDE_SAMPLES and abs(t[k] - t[i]) <= SIDE_SPAN
           and piece_of[k] == piece_of[i] and piece_of[k] >= 0):
        count += 1
        k += step
    return k - step


def _best_sides(t: list[float], depth: list[float], i: int, j: int,
                piece_of: list[int]) -> tuple[Line, Line] | None:
    """Lines through the samples before ``i`` and after ``j`` (the lowest run), the run's
    end samples on whichever side fits best (taken before or after the contact)."""
    if piece_of[i - 1] < 0 and piece_of[j + 1] < 0:
        return None
    before_from, after_to = _side(t, i - 1, -1, piece_of), _side(t, j + 1, +1, piece_of)
    # each side with or without the run's end sample, fitted once; both ends may move
    # only when the run is one sample (it cannot lie on both sides otherwise)
    lefts = (_side_line(t, depth, before_from, i - 1), _side_line(t, depth, before_from, i))
    rights = (_side_line(t, depth, j + 1, after_to), _side_line(t, depth, j, after_to))
    options = ((0, 0), (1, 0), (0, 1), (1, 1)) if i == j else ((0, 0), (1, 0), (0, 1))
    best: tuple[float, Line, Line] | None = None
    for k_left, k_right in options:
        left, right = lefts[k_left], rights[k_right]
        if left is None or right is None:
            continue
        (a, miss_a), (b, miss_b) = left, right
        if best is None or miss_a + miss_b < best[0]:
            best = (miss_a + miss_b, a, b)
    return None if best is None else (best[1], best[2])


FAR = 0.1
"""A rough vertex this far inside the table, m, cannot be a cushion contact."""


def _far_vertex(t: list[float], d: list[float], i: int, j: int) -> bool:
    """A quick look before the fits: the lines through the two samples on each side of
    the turn meet farther than :data:`FAR` from the cushion line."""
    va = (d[i - 1] - d[i - 2]) / (t[i - 1] - t[i - 2])
    vb = (d[j + 2] - d[j + 1]) / (t[j + 2] - t[j + 1])
    if va >= 0.0 or vb <= 0.0:
        return False
    tv = (d[j + 1] - d[i - 1] + va * t[i - 1] - vb * t[j + 1]) / (va - vb)
    return d[i - 1] + va * (tv - t[i - 1]) > FAR


def _turn_hit(motion: BallMotion, samples: SampleLists, line: CushionLine, depth: list[float],
              piece_of: list[int], i: int, j: int) -> Candidate | None:
    """The contact at the turn around samples ``i … j``: where the lines of the normal
    distance before and after them meet (the vertex)."""
    times, xs, ys = samples
    if i >= 2 and j + 2 < len(times) and _far_vertex(times, depth, i, j):
        return None
    sides = _best_sides(times, depth, i, j, piece_of)
    if sides is None:
        return None
    (ta, da, va, sa), (tb, db, vb, sb) = sides
    step = hypot(xs[i] - xs[i - 1], ys[i] - ys[i - 1])
    sigma = motion.sigma_at(step / max(times[i] - times[i - 1], 1e-3))
    # the ball came towards the cushion and went away from it: certain when both
    # normal speeds stand out of their noise, less so for a ball grazing along it
    sd_a, sd_b = sigma / sqrt(sa), sigma / sqrt(sb)
    turned = normal_cdf(-va / sd_a) * normal_cdf(vb / sd_b)
    # and its normal velocity changed by more than the noise of the two fits shows (a
    # ball rolling along a cushion, its normal speed within the noise, turns its sign
    # back and forth from sample to sample without touching it)
    turned *= normal_cdf((vb - va) / hypot(sd_a, sd_b) - NORMAL_SPEED_Z)
    if turned < 1e-3:
        return None
    va, vb = min(va, -1e-3), max(vb, 1e-3)
    t_vertex = (db - da + va * ta - vb * tb) / (va - vb)
    t_vertex = min(max(t_vertex, times[i - 1] - laws.CUSHION_DWELL), times[j + 1] + laws.CUSHION_DWELL)
    vertex_depth = 0.5 * (da + va * (t_vertex - ta) + db + vb * (t_vertex - tb))
    sd = hypot(sigma * sqrt(0.25 + (t_vertex - ta) ** 2 / sa),
               sigma * sqrt(0.25 + (t_vertex - tb) ** 2 / sb), tracker.POSITION_NOISE_FLOOR)
    t_touch = min(ta + da / -va, t_vertex) if da > 0.0 else t_vertex
    t_sd = hypot(sd / max(-va, 0.05), laws.CUSHION_DWELL)
    # the tracked centre at the vertex's time, moved along the normal onto the vertex
    x, y = interp_at(times, xs, t_vertex), interp_at(times, ys, t_vertex)
    nx, ny = line.unit
    shift = x * nx + y * ny - line.offset - vertex_depth
    point = (x - shift * nx, y - shift * ny)
    hit = CushionHit(motion.ball, line.cushion, t_touch, times[i - 1], times[j + 1], vertex_depth,
                     sd, turned, t_sd)
    return hit, point


def _reached_hit(motion: BallMotion, line: CushionLine, a: Piece, b: Piece,
                 depth_sd: float) -> Candidate:
    """A ball that ran into the cushion after piece ``a`` and stayed on its line in piece
    ``b``: stopped against it (``b`` a rest) or slid along it; ``depth_sd``: how sure
    ``b``'s depth is."""
    ta = a.t1
    point = b.point(b.t0)
    t_touch = ta + max(line.depth(a.point(ta)), 0.0) / max(-line.along_normal(a.speed_vector(ta)), 1e-6)
    t_touch = min(max(t_touch, ta), b.t0)
    t_sd = max(0.25 * (b.t0 - ta), laws.CUSHION_DWELL)
    hit = CushionHit(motion.ball, line.cushion, t_touch, ta, b.t0, line.depth(point), depth_sd, 1.0, t_sd)
    return hit, point
