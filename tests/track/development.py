"""Development strokes the auto-referee's tests cite: simulated strokes, seen by the harsh
cameras of the first nineteen rounds (``carom.track.synthetic.harsh``), that a round of
development looked at."""

from __future__ import annotations

from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import TrackedRuling, track_recording, track_stroke
from carom.track.synthetic import HARSH_EVERY_FRAME, HarshRanges, LabelledStroke, labelled_recording

THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]


def development_stroke(shot: int, first: int, *, every_frame: bool = False) -> LabelledStroke:
    """Stroke ``shot`` of the recording that begins at seed ``first`` (one camera for all
    its strokes; ``every_frame``: a camera that sends every frame of every ball)."""
    ranges = HARSH_EVERY_FRAME if every_frame else HarshRanges()
    stroke = labelled_recording(shot - first + 1, first, THREE_CUSHION, LARGE, ranges)[-1]
    assert stroke.tracked.shot == shot
    return stroke


def judged(stroke: LabelledStroke) -> TrackedRuling:
    """``stroke`` judged alone, as ``carom track`` judges a stroke."""
    return track_stroke(stroke.tracked, THREE_CUSHION, LARGE)


def judged_in_recording(shot: int, first: int, *,
                        every_frame: bool = False) -> tuple[LabelledStroke, TrackedRuling]:
    """Stroke ``shot`` of the recording of 50 that begins at seed ``first``, and its ruling
    with the recording judged together, as ``carom track`` judges a file (the camera's
    bias and noise measured over all 50; ``every_frame``: as :func:`development_stroke`)."""
    ranges = HARSH_EVERY_FRAME if every_frame else HarshRanges()
    strokes = labelled_recording(50, first, THREE_CUSHION, LARGE, ranges)
    k = shot - first
    assert strokes[k].tracked.shot == shot
    return strokes[k], track_recording([s.tracked for s in strokes], THREE_CUSHION, LARGE)[k]
