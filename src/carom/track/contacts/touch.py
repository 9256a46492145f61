"""Touch: two balls passed close and nothing visible changed.

A contact moves the balls: a resting ball touched at speed ``v`` with an overlap ``δ`` of
the straight paths leaves at about ``v √(δ/R)`` and rolls about 5.8 times the square of
that, in metres; a moving ball's velocity changes by as much. A pass that changed
nothing the tracker shows was a contact only if the overlap was below what would have
shown, ``ε = R (v_visible / v)²``: a fraction of a micrometre for a ball passing at 1 m/s,
millimetres for a slow final contact. The chance is that of the true distance lying in
``[2R - ε, 2R]`` given the measured one, by the tracker-error model (its bias tail
included), and given that it did not fall below ``2R - ε``.

What shows of a resting ball is weighed at its noise (:func:`unseen_nudge`): its own, or,
when it only rests in the stroke, the noise measured on it over the recording
(:func:`~carom.track.judging.recording.ball_noise`). A camera with 3 mm of noise hides a
nudge of 8 mm: a slow thin contact that leaves one is not ruled out by a ball that shows
no move.
"""

from __future__ import annotations

from math import hypot, sqrt

import numpy as np

from carom.track import tracker
from carom.track.contacts.hits import NEGLIGIBLE, BallHit, gap_sd, velocity_at
from carom.track.contacts.turned import SETTLE
from carom.track.reconstruct.fit import TrackFitter
from carom.track.reconstruct.rests import NUDGE_Z
from carom.track.reconstruct.trajectory import BallPath
from carom.track.tracker import TrackerModel

STUN_ROLL = 5.8
"""A resting ball given speed ``v`` (m/s) by a thin hit slides, then rolls, about
``STUN_ROLL v²`` metres before it stops (PHYSICS.md friction constants)."""


def touch(pa: BallPath, pb: BallPath, t: float, distance: float, diameter: float,
          model: TrackerModel, since: float | None = None) -> BallHit | None:
    """The close pass of ``pa`` and ``pb`` at ``t`` (centres ``distance`` apart) as a
    contact that changed nothing visible, or ``None`` when that is negligible. Both at
    rest at ``t``, the pass is where one of them stopped after ``since`` (the episode's
    beginning), if one did: a ball rolled up to the other and stayed (:func:`_arrival`)."""
    moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
    if not (moving_a or moving_b):
        arrived = _arrival(pa, pb, since, t) if since is not None else None
        if arrived is None:
            return None
        t = arrived
        distance = float(np.hypot(*(pa.at(t) - pb.at(t))))
        moving_a, moving_b = pa.moving_at(t), pb.moving_at(t)
        if not (moving_a or moving_b):
            return None
    va, vb = velocity_at(pa, t), velocity_at(pb, t)
    speed_a = float(np.hypot(*va)) if moving_a else 0.0
    speed_b = float(np.hypot(*vb)) if moving_b else 0.0
    sd = gap_sd(pa, pb, t, speed_a, speed_b)
    mover, other = (pa, pb) if speed_a >= speed_b else (pb, pa)
    clearance = distance - diameter
    still = np.zeros(2)
    relative = float(np.hypot(*((va if moving_a else still) - (vb if moving_b else still))))
    if moving_a and moving_b:
        visible = tracker.DETECTABLE_SPEED_CHANGE
    else:
        visible = sqrt(unseen_nudge(other.motion.sigma) / STUN_ROLL)
    ratio = min(1.0, visible / max(relative, 1e-3))
    eps = 0.5 * diameter * ratio * ratio
    turn = None if moving_a and moving_b else turn_across(mover, other, t, diameter)
    # P(true clearance < x | measured clearance) = P(error > clearance - x)
    above = 1.0 - model.gap_beyond(clearance, sd)
    within = model.gap_beyond(clearance, sd) - model.gap_beyond(clearance + eps, sd)
    if turn is not None:  # each overlap from 0 to eps weighed by the mover's turn too
        within, above = 0.0, above * turn_fits(turn, 0.0, model)
        largest = ROLLING_KEEPS * sqrt(2.0 * eps / diameter)  # the turn a touch of eps gives
        for k in range(OVERLAP_STEPS):
            lo, hi = eps * (k / OVERLAP_STEPS) ** 2, eps * ((k + 1) / OVERLAP_STEPS) ** 2
            fits = turn_fits(turn, largest * (k + 0.5) / OVERLAP_STEPS, model)
            within += (model.gap_beyond(clearance + lo, sd) - model.gap_beyond(clearance + hi, sd)) * fits
    probability = max(within, 0.0) / max(within + above, 1e-12)
    if probability < NEGLIGIBLE:
        return None
    speed = max(speed_a, speed_b, 0.05)
    return BallHit(mover.motion.ball, other.motion.ball, t, float(np.hypot(0.002, sd / speed)), probability,
                   "touch", clearance)


def unseen_nudge(sigma: float) -> float:
    """How far, m, a contact may move a resting ball measured with noise ``sigma`` and
    leave no sign in its samples: the step its rests are not cut at
    (:data:`~carom.track.reconstruct.rests.NUDGE_Z` standard deviations of the difference
    of two measurements of it: a larger one is read as a nudge, and weighed as one), never
    less than :data:`~carom.track.tracker.VISIBLE_NUDGE` (at the noise of the real match's
    camera, what two measurements of a still ball differ by, with rare exceptions)."""
    return max(tracker.VISIBLE_NUDGE, NUDGE_Z * tracker.rayleigh_sd(max(sigma, tracker.REST_NOISE)))


def _arrival(pa: BallPath, pb: BallPath, since: float, until: float) -> float | None:
    """When the later of ``pa`` and ``pb`` to come to rest between ``since`` and ``until``
    stopped (``None``: neither did): the nearest two balls come, when one rolls up to the
    other and stays there, is the place it stopped, and the moment of a slow last touch."""
    stops = [j for path in (pa, pb) for j in path.joins if j.kind == "stop" and since <= j.t <= until]
    if not stops:
        return None
    last = max(stops, key=lambda j: j.t)
    return max(last.t - ARRIVAL_LEAD, last.t_lo)  # still rolling, a moment before it stopped


ARRIVAL_LEAD = 0.001
"""How long, s, before a ball's estimated stop its arrival is weighed (it still rolls)."""


ROLLING_KEEPS = 5.0 / 7.0
"""The share of a contact's turn a rolling ball keeps once it rolls again: the contact takes
its velocity along the line of centres while its spin still rolls it the old way, and the
cloth brings the two together at 5/7 of the change (a solid sphere; PHYSICS.md: a stun ball
rolls on at 5/7 of its speed). A touch of 0.2 mm turns a rolling ball by 4.6° at the contact
and 3.3° on its next leg; the simulator's contacts, 3.2° (docs/auto-referee.md, the bound)."""

OVERLAP_STEPS = 8
"""How many overlaps from 0 to ``ε`` a touch is weighed at (evenly in ``√δ``, as its turn)."""

Turn = tuple[float, float]
"""A ball's turn away from a resting ball it passed, radians, and its standard deviation."""


def turn_across(mover: BallPath, other: BallPath, t: float, diameter: float) -> Turn | None:
    """How ``mover`` turned across its pass of the resting ``other`` at ``t``: the direction
    of its leg after less that of its leg before (the two halves of the piece the pass falls
    in, or the pieces on either side of a turn at it), along the line of centres. Each leg is
    fitted as a line (a rolling ball runs straight, its deceleration along it), without its
    samples within :data:`~carom.track.tracker.BIAS_REACH` of the other ball (the bias moves a
    centre along the line to it). ``None``: a leg of fewer than two samples."""
    motion = mover.motion
    k = int(motion.t.searchsorted(t, side="right")) - 1
    legs = [((p.i0, k), (k + 1, p.i1)) for p in motion.pieces if not p.rest and p.i0 <= k < p.i1]
    legs += [((j.before.i0, k), (j.after.i0, j.after.i1)) for j in motion.joins if j.kind == "turn"
             and j.before.i1 == k and not j.via and j.t_lo - SETTLE <= t <= j.t_hi + SETTLE]
    if not legs:
        return None
    rest = other.at(t)
    near = np.hypot(*(motion.xy - rest).T) < diameter + tracker.BIAS_REACH
    (a, b), (c, d) = legs[0]
    while b > a + 1 and near[b]:
        b -= 1
    while c < d - 1 and near[c]:
        c += 1
    if b <= a or d <= c:
        return None
    fitter = TrackFitter(motion.t, motion.xy, motion.sample_lists())
    headings, sds = [], []
    for lo, hi in ((a, b), (c, d)):
        fit = fitter.fit(lo, hi, 1)
        v = fit.velocity(t)
        speed = float(np.hypot(*v))
        sigma = motion.sigma_at(speed)
        # a leg that bends (a sliding ball's curve, a lens's) fits a line worse than the noise:
        # its direction is the less sure by the root of its reduced chi-square
        tau, (x0, y0, vx, vy) = motion.t[lo:hi + 1] - fit.tm, fit.c[:4]
        off = motion.xy[lo:hi + 1] - np.column_stack((x0 + tau * vx, y0 + tau * vy))
        misfit = float(np.sum(off * off)) / (2.0 * max(hi - lo - 1, 1) * sigma * sigma)
        headings.append(v / max(speed, 1e-9))
        sds.append(fit.velocity_sd(t, sigma) * sqrt(max(misfit, 1.0)) / max(speed, 1e-9))
    away = mover.at(t) - rest
    return float((headings[1] - headings[0]) @ away) / max(float(np.hypot(*away)), 1e-9), hypot(*sds)


def turn_fits(turn: Turn, expected: float, model: TrackerModel) -> float:
    """How well a measured turn fits an ``expected`` one (radians), against a perfect fit of
    no turn; a turn no contact made (the tracker's bias, a cause it did not see,
    :attr:`~carom.track.tracker.TrackerModel.unseen_turn`) comes on top. Some of it is the curve
    spin gives the turned ball afterwards (a quarter, as :mod:`~carom.track.contacts.turned`)."""
    across, sd = turn
    spread = hypot(sd, 0.25 * expected)
    return model.response_likelihood((across - expected) / spread) * sd / spread + model.unseen_turn


def hitter_turn_ratio(hitter: BallPath, moved: BallPath, t: float, displacement: float, diameter: float,
                      model: TrackerModel) -> float:
    """How much likelier ``hitter``'s turn across its pass of ``moved`` at ``t`` is if it
    touched it and moved it ``displacement`` (m) than if it missed (1 when it cannot be read):
    the ball left at ``√(displacement / STUN_ROLL)`` m/s, ``√(δ/R)`` of the hitter's speed,
    and the hitter turned by :data:`ROLLING_KEEPS` of that ratio."""
    speed = float(np.hypot(*velocity_at(hitter, t)))
    turn = turn_across(hitter, moved, t, diameter) if hitter.moving_at(t) and speed > 0.0 else None
    if turn is None:
        return 1.0
    expected = ROLLING_KEEPS * min(sqrt(displacement / STUN_ROLL) / speed, 1.0)
    return turn_fits(turn, expected, model) / turn_fits(turn, 0.0, model)
