"""The auto-referee: a tracked stroke in, a judged ``carom/1`` stroke and its confidence out."""

from __future__ import annotations

from dataclasses import dataclass
from math import cos

import numpy as np

from carom.core.balls import Ball
from carom.core.checks import as_flag, refuse, shown
from carom.core.events import Event
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.notation.said import Said, listed
from carom.rules.disciplines import Discipline
from carom.rules.referee import StrokeContext, Verdict, judge
from carom.rules.validity import discipline_and_table
from carom.track.contacts.departure import ball_of
from carom.track.contacts.detection import Detection, detect
from carom.track.contacts.hits import NEGLIGIBLE
from carom.track.judging.camera import CameraSeen, camera_doubts
from carom.track.judging.confidence import DOUBTFUL_BELOW, Doubt, order_parts, uncertain_parts
from carom.track.judging.explanation import Part, State, assemble, read
from carom.track.judging.frozen import frozen_reading
from carom.track.judging.record import build_stroke, candidates
from carom.track.reconstruct.ballmotion import Join
from carom.track.reconstruct.plausibility import implausible
from carom.track.samples import FloatArray, TrackedStroke
from carom.track.sampling import sending
from carom.track.tracker import DEFAULT_MODEL, CameraBias, TrackerModel


@dataclass(frozen=True, slots=True)
class TrackedRuling:
    """One tracked stroke, judged."""

    tracked: TrackedStroke
    stroke: Stroke
    verdict: Verdict
    confidence: float
    """Probability that no single measurement error changes the ruling (0 to 1)."""
    doubts: tuple[Doubt, ...]
    """The alternative readings that would change the ruling, likeliest first; when the
    stroke was judged as part of a recording, first any doubt about the recording
    (:mod:`carom.track.judging.sequence`)."""
    detection: Detection | None = None
    """The reconstructed motions and every candidate event (for inspection)."""
    camera: CameraBias | None = None
    """The camera's bias near other balls the stroke was judged with, measured over its
    recording (``None``: judged alone, or too few samples to measure it)."""

    @property
    def doubtful(self) -> bool:
        """Whether a human should look at it: a confidence below :data:`DOUBTFUL_BELOW`,
        or a recording that misses something around it."""
        return self.confidence < DOUBTFUL_BELOW or any(d.about_recording for d in self.doubts)

    @property
    def points(self) -> int:
        return self.verdict.points


def track_stroke(tracked: TrackedStroke, discipline: Discipline | str, table: TableSpec | str, *,
                 opening: bool = False, model: TrackerModel = DEFAULT_MODEL,
                 camera: CameraBias | None = None, detection: Detection | None = None) -> TrackedRuling:
    """Detect the events of ``tracked``, build its stroke record and judge it.

    The striker is taken to have played his own ball (the tracked ``cue``): a tracker
    sees which ball was struck, not who struck it. ``opening``: the opening stroke of
    a match or set (O3). ``model``: the tracker-error model the evidence is weighed by.
    ``camera``: the camera's bias near other balls, when measured over the recording
    (:func:`~carom.track.judging.recording.track_recording`), for the frozen reading of
    rule F9. ``detection``: the stroke's detection, if already made with ``model``.
    The discipline and the table may be given by name; they and ``tracked`` are checked.
    """
    if type(tracked) is not TrackedStroke:
        refuse(f"expected a TrackedStroke (carom.track.read_tracked), got {shown(tracked)}", "tracked")
    discipline, table = discipline_and_table(discipline, table)
    as_flag(opening, "opening")
    return judged(tracked, discipline, table, opening=opening, model=model, camera=camera,
                  detection=detection)


def judged(tracked: TrackedStroke, discipline: Discipline, table: TableSpec, *, opening: bool = False,
           model: TrackerModel = DEFAULT_MODEL, camera: CameraBias | None = None,
           detection: Detection | None = None, seen: CameraSeen | None = None) -> TrackedRuling:
    """:func:`track_stroke`, with ``seen`` what the recording's camera does (by default
    measured on the stroke alone), for the doubts about the camera
    (:func:`~carom.track.judging.camera.camera_doubts`)."""
    if detection is None:
        detection = detect(tracked, table, model)
    cands = candidates(detection, tracked, table)
    base, parts = uncertain_parts(cands, tracked.cue)
    likeliest, _ = assemble(base, parts, tuple(0 for _ in parts))
    stroke = build_stroke(tracked, likeliest, table, discipline, detection)
    raw = {b: track.first for b, track in tracked.balls.items()}
    sigma = max(m.sigma for m in detection.motions.values())
    frozen = frozen_reading(stroke, raw, sigma, table, model.bias_scale, _leaving(detection),
                            _first_line(detection, tracked.cue), camera)
    if frozen is not None:
        stroke = frozen.likely
        if frozen.other_chance >= NEGLIGIBLE:
            likely_frozen = frozen.probability >= 0.5
            parts.append(Part((State(1.0 - frozen.other_chance, words=frozen.describe(likely_frozen),
                                     start=frozen.likely),
                               State(frozen.other_chance, words=frozen.describe(not likely_frozen),
                                     start=frozen.other))))
    parts.extend(order_parts(base, parts, tracked.cue))
    context = StrokeContext.of(discipline, table, cue_ball=tracked.cue, opening=opening,
                               position=stroke.start)

    def ruling(events: list[Event], start: Stroke | None) -> tuple[object, ...]:
        read_as = start or stroke
        verdict = judge(context, Stroke(stroke.ball, tuple(events), read_as.start, stroke.end, stroke.exits,
                                        stroke.fouls))
        return (verdict.points, verdict.fouls)

    reading = read(base, parts, ruling)
    read_as = reading.best.start or stroke
    stroke = Stroke(stroke.ball, tuple(reading.best.events), read_as.start, stroke.end, stroke.exits,
                    stroke.fouls, stroke.paths, stroke.extra)
    verdict = judge(context, stroke)
    if seen is None:
        seen = CameraSeen(sending([tracked]), sigma)
    found = [*camera_doubts(tracked, detection.motions, seen),
             *(Doubt(e.probability, e.words(parts, reading.best)) for e in reading.others)]
    confidence = reading.confidence
    wrong = implausible(tracked, table)
    if wrong:
        # not a recording the tracker-error model explains: nothing in it is sure
        found = [Doubt(None, Said("the recording cannot be right: %(why)s", why=listed(wrong))), *found]
        confidence = 0.0
    return TrackedRuling(tracked, stroke, verdict, confidence, tuple(found), detection, camera)


def _leaving(detection: Detection) -> dict[Ball, tuple[float, float]]:
    """The direction each ball set moving from its first rest left in, where its samples
    show it: the velocity of its first piece of motion (measured over the whole piece,
    away from the hitter's bias). Left out: a ball that met a cushion or a ball before
    it was seen moving cleanly, or whose first piece points elsewhere than its first
    sample does (it met something in between)."""
    out: dict[Ball, tuple[float, float]] = {}
    for dep in detection.departures:
        ball = ball_of(dep, detection.motions)
        v = _clean_start(dep.join)
        if ball in out or v is None or dep.bounce is not None:
            continue  # it met something before its first clean motion: the way it left is not seen
        speed = float(np.hypot(*v))
        # the chord from its rest to its first sample and its first motion agree, or
        # that motion came after another event (a ball, a cushion) too soon to be seen
        if float(v @ dep.direction) / speed < cos(LEAVING_AGREE):
            continue
        out[ball] = (float(v[0] / speed), float(v[1] / speed))
    return out


def _clean_start(join: Join) -> FloatArray | None:
    """The velocity a ball left its rest with at ``join``, where its first piece of
    motion shows it cleanly (no lone samples in the join, a piece of three samples or
    more, some speed); ``None`` otherwise."""
    after = join.after
    if join.kind != "start" or join.via or after.rest or after.size < 3:
        return None
    v = after.velocity(after.t0)
    return v if float(np.hypot(*v)) > 0.0 else None


def _first_line(detection: Detection, cue: Ball) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Ball 1's first motion after the strike, as a line (a point on it and a unit
    direction), where its samples show it: the start of its first clean piece of motion
    and the velocity there. ``None`` when ball 1 never moved cleanly from its first rest
    (lone samples in the join, a piece of fewer than three samples)."""
    motion = detection.motions.get(cue)
    if motion is None or not motion.joins:
        return None
    v, after = _clean_start(motion.joins[0]), motion.joins[0].after
    if v is None or any(hit.ball is cue and hit.t <= after.t0 for hit in detection.cushions):
        return None  # or it met a cushion before its first clean motion
    speed = float(np.hypot(*v))
    p = after.position(after.t0)
    return (float(p[0]), float(p[1])), (float(v[0] / speed), float(v[1] / speed))


LEAVING_AGREE = 0.25
"""Largest angle, radians, between the chord from a ball's rest to its first moving
sample and the velocity of its first piece of motion, for that piece to be taken as the
way it left (the chord's own error is that of the resting centre, under the bias)."""
