"""A recording judged as a whole: what one camera's strokes say about the camera.

A camera tracker moves two close centres apart or together by an amount that is the
camera's (:mod:`carom.track.reconstruct.bias`). One stroke cannot measure it well enough
to tell two frozen balls (rule F9) from balls a centimetre apart; the strokes of one
recording together can. :func:`track_recording` reads every stroke's motion first, pools
the bias their samples show, takes it out of every sample and reads each stroke again
(:func:`carom.track.reconstruct.bias.unbiased`), and judges each stroke with it. The camera's
noise on each ball is pooled too: a ball that only rests in a stroke shows none of its
own there.
"""

from __future__ import annotations

from collections.abc import Iterable
from statistics import median

from carom.core.balls import Ball
from carom.core.table import TableSpec
from carom.rules.disciplines import Discipline
from carom.track.contacts.detection import Reading, detect, own_noise, read_motion, stroke_noise
from carom.track.judging.camera import CameraSeen
from carom.track.judging.ruling import TrackedRuling, judged
from carom.track.reconstruct.bias import bias_samples, pooled, unbiased
from carom.track.samples import TrackedStroke
from carom.track.sampling import sending
from carom.track.tracker import DEFAULT_MODEL, CameraBias, TrackerModel


def camera_bias(read: list[tuple[TrackedStroke, Reading]], table: TableSpec) -> CameraBias | None:
    """The camera's bias pooled over the strokes of one recording, each with its motion
    ``read`` (``None`` when they hold too few measurements of it)."""
    diameter = 2.0 * table.ball_radius
    samples = [sample for tracked, reading in read
               for sample in bias_samples(tracked, reading.motions, reading.paths, diameter)]
    return pooled(samples)


NOISE_STROKES = 3
"""The fewest strokes of a recording whose samples measured a ball's noise for their median
to stand for the ball's noise in the others."""


def ball_noise(own: list[dict[Ball, float | None]]) -> dict[Ball, float]:
    """Each ball's position noise over a recording, from each stroke's ``own`` estimates
    (:func:`~carom.track.contacts.detection.own_noise`): the median of a ball's estimates
    in the strokes where it moved enough to give one (at least :data:`NOISE_STROKES`). One
    camera sees a ball alike from stroke to stroke (its colour, its contrast with the
    cloth), and a ball that only rests in a stroke, sent at its first and last sample, has
    no noise of its own there; with this, it is not given the largest of the other balls'."""
    found: dict[Ball, list[float]] = {}
    for estimates in own:
        for ball, sigma in estimates.items():
            if sigma is not None:
                found.setdefault(ball, []).append(sigma)
    return {ball: median(values) for ball, values in found.items() if len(values) >= NOISE_STROKES}


def track_recording(strokes: Iterable[TrackedStroke], discipline: Discipline, table: TableSpec, *,
                    model: TrackerModel = DEFAULT_MODEL) -> list[TrackedRuling]:
    """Judge the strokes of one recording, each on its own (:func:`track_stroke`) but with
    what the recording shows of its camera (see the module): the bias measured over all of
    them (:func:`camera_bias`; where the recording shows it,
    :attr:`~carom.track.tracker.CameraBias.shown`, taken out of every stroke's samples and
    the motion read again, the contacts found from the last reading), each ball's noise
    where a stroke does not show it (:func:`ball_noise`), and the way its tracker sends the
    balls (:func:`~carom.track.sampling.sending`, for the doubts about the camera and a
    resting ball's samples). The frozen reading (F9) and the record's positions keep the
    samples as sent; the frozen reading weighs the bias itself. The rulings in order, each
    holding that bias as its ``camera`` (``None``: not measured, each stroke weighed as alone)."""
    strokes = list(strokes)
    own = [own_noise(tracked) for tracked in strokes]
    measured = ball_noise(own)
    noise = [stroke_noise(estimates, measured) for estimates in own]
    sent = sending(strokes)
    rule = sent.rule
    read = [read_motion(tracked, table, sigma, rule) for tracked, sigma in zip(strokes, noise, strict=True)]
    camera = camera_bias(list(zip(strokes, read, strict=True)), table)
    if camera is not None and camera.shown:
        diameter = 2.0 * table.ball_radius
        read = [read_motion(unbiased(tracked, reading.paths, camera, diameter), table, sigma, rule)
                for tracked, reading, sigma in zip(strokes, read, noise, strict=True)]
    seen = CameraSeen(sent, max(measured.values(), default=0.0))
    return [judged(tracked, discipline, table, model=model, camera=camera,
                   detection=detect(tracked, table, model, reading=reading),
                   seen=seen if measured else None)
            for tracked, reading in zip(strokes, read, strict=True)]
