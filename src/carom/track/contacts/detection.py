"""Detection: from one tracked stroke to every candidate event with its probability."""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball
from carom.core.table import TableSpec
from carom.track import tracker
from carom.track.contacts.ball_contacts import BallHit, ball_hits
from carom.track.contacts.cushion_contacts import CushionHit, cushion_hits
from carom.track.contacts.departure import Departure, ball_of, departure
from carom.track.contacts.momentum import momentum_cushions
from carom.track.reconstruct.ballmotion import BallMotion, estimate_noise, reconstruct_all
from carom.track.reconstruct.geometry import cushion_lines
from carom.track.reconstruct.trajectory import BallPath
from carom.track.samples import TrackedStroke
from carom.track.tracker import DEFAULT_MODEL, SendRule, TrackerModel


def own_noise(stroke: TrackedStroke) -> dict[Ball, float | None]:
    """Each ball's position noise estimated from its own samples in ``stroke`` (``None``:
    too few to tell, a ball that hardly moved)."""
    return {ball: estimate_noise(track.t, track.xy) for ball, track in stroke.balls.items()}


def stroke_noise(own: dict[Ball, float | None],
                 measured: dict[Ball, float] | None = None) -> dict[Ball, float]:
    """Each ball's position noise: its ``own`` estimate, or for a ball with too few samples
    to tell, its noise ``measured`` over the recording, else the largest estimate among
    the others (one tracker, one camera)."""
    known = [s for s in own.values() if s is not None]
    fallback = max(known) if known else tracker.POSITION_NOISE_FLOOR
    out: dict[Ball, float] = {}
    for ball, sigma in own.items():
        if sigma is None and measured is not None:
            sigma = measured.get(ball)
        out[ball] = sigma if sigma is not None else fallback
    return out


@dataclass(frozen=True, slots=True)
class Reading:
    """Stage 1 of one stroke: each ball's motion reconstructed, and its path."""

    motions: dict[Ball, BallMotion]
    paths: dict[Ball, BallPath]


@dataclass(frozen=True, slots=True)
class Detection(Reading):
    """Everything the tracker's samples say happened, before any ruling: the
    :class:`Reading` and every candidate event."""

    departures: list[Departure]
    cushions: list[CushionHit]
    balls: list[BallHit]


def read_motion(stroke: TrackedStroke, table: TableSpec, noise: dict[Ball, float] | None = None,
                rule: SendRule | None = None) -> Reading:
    """Reconstruct every ball's motion (stage 1); ``noise``: each ball's position noise
    (:func:`stroke_noise`, as a recording reads it:
    :func:`~carom.track.judging.recording.track_recording`), by default from the stroke's
    own samples; ``rule``: the recording's send-on-move rule, if measured."""
    sigma = noise if noise is not None else stroke_noise(own_noise(stroke))
    motions = reconstruct_all([(ball, track, sigma[ball]) for ball, track in stroke.balls.items()],
                              2.0 * table.ball_radius, rule)
    return Reading(motions, {ball: BallPath(motion) for ball, motion in motions.items()})


def detect(stroke: TrackedStroke, table: TableSpec, model: TrackerModel = DEFAULT_MODEL,
           noise: dict[Ball, float] | None = None, reading: Reading | None = None) -> Detection:
    """Reconstruct every ball's motion (:func:`read_motion`, with ``noise``, unless its
    ``reading`` is given) and find every candidate event with its chance."""
    lines = cushion_lines(table)
    reading = reading or read_motion(stroke, table, noise)
    motions, paths = reading.motions, reading.paths
    departures: list[Departure] = []
    for ball, motion in motions.items():
        starts = [j for j in motion.joins if j.kind in ("start", "nudge", "restart")]
        if ball is stroke.cue and starts and starts[0].kind == "start":
            starts = starts[1:]  # the cue's own strike
        others = tuple(p for b, p in paths.items() if b is not ball)
        departures.extend(departure(motion, join, lines, model, others, 2.0 * table.ball_radius)
                          for join in starts)
    cushions: list[CushionHit] = []
    for ball, motion in motions.items():
        cushions.extend(cushion_hits(motion, table, [p for b, p in paths.items() if b is not ball]))
    for dep in departures:
        if dep.bounce is not None:
            ball = ball_of(dep, motions)
            cushions.append(CushionHit(ball, dep.bounce.cushion, dep.bounce_t, dep.join.t_lo, dep.join.t_hi,
                                       0.0, motions[ball].sigma, dep.moved, dep.left_sd))
    cushions.sort(key=lambda h: h.t)
    balls = ball_hits(paths, departures, cushions, table, model)
    cushions = momentum_cushions(balls, departures, motions, cushions, lines)
    cushions.sort(key=lambda h: h.t)
    return Detection(motions, paths, departures, cushions, balls)
