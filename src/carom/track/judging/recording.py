"""A recording judged as a whole: what one camera's strokes say about the camera.

A camera tracker moves two close centres apart or together by an amount that is the
camera's (:mod:`carom.track.reconstruct.bias`). One stroke cannot measure it well enough
to tell two frozen balls (rule F9) from balls a centimetre apart; the strokes of one
recording together can. :func:`track_recording` detects every stroke first, pools the
bias their samples show, and then judges each stroke with it.
"""

from __future__ import annotations

from collections.abc import Iterable

from carom.core.table import TableSpec
from carom.rules.disciplines import Discipline
from carom.track.contacts.detection import Detection, detect
from carom.track.judging.ruling import TrackedRuling, track_stroke
from carom.track.reconstruct.bias import bias_samples, pooled
from carom.track.samples import TrackedStroke
from carom.track.tracker import DEFAULT_MODEL, CameraBias, TrackerModel


def camera_bias(detected: list[tuple[TrackedStroke, Detection]], table: TableSpec) -> CameraBias | None:
    """The camera's bias pooled over the ``detected`` strokes of one recording (``None``
    when they hold too few measurements of it)."""
    diameter = 2.0 * table.ball_radius
    samples = [sample for tracked, detection in detected
               for sample in bias_samples(tracked, detection.motions, detection.paths, diameter)]
    return pooled(samples)


def track_recording(strokes: Iterable[TrackedStroke], discipline: Discipline, table: TableSpec, *,
                    model: TrackerModel = DEFAULT_MODEL) -> list[TrackedRuling]:
    """Judge the strokes of one recording, each on its own (:func:`track_stroke`) but
    with the camera's bias measured over all of them (:func:`camera_bias`); the rulings
    in order, each holding that bias as its ``camera`` (``None``: not measured, and each
    stroke weighed as alone)."""
    detected = [(tracked, detect(tracked, table, model)) for tracked in strokes]
    camera = camera_bias(detected, table)
    rulings = [track_stroke(tracked, discipline, table, model=model, camera=camera, detection=detection)
               for tracked, detection in detected]
    return rulings
