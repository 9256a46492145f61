"""A tracked file judged as a sequence: what consecutive strokes say about each other.

Between two strokes the balls rest. The next stroke of a recording therefore starts
where the stroke before it left the balls, unless something happened that the
recording does not hold: strokes missing from it, a recording that stopped before the
balls did, balls moved by hand or re-spotted. Then the stroke before is put before a
human (its ruling rests on a recording known to be incomplete around it, and a verdict
read from the next stroke is not the verdict on it), whatever its confidence.

A gap in the shot ids says the same thing more plainly: strokes are missing, and they
moved the balls. The balls' moves are then explained and no doubt is raised on the
stroke before the gap (its own recording may be whole); the match record bridges the
gap (:mod:`carom.track.matchrecord`).

:func:`~carom.track.judging.ruling.track_stroke` judges one stroke on its own and knows
nothing of this; the command line and the match record judge a file with
:func:`track_sequence`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from math import hypot, sqrt

from carom.core.balls import BALLS, Ball
from carom.core.table import TableSpec
from carom.notation.said import Said
from carom.rules.disciplines import Discipline
from carom.track import tracker
from carom.track.judging.confidence import Doubt
from carom.track.judging.recording import track_recording
from carom.track.judging.ruling import TrackedRuling
from carom.track.samples import TrackedStroke
from carom.track.tracker import DEFAULT_MODEL, TrackerModel

NOISE_Z = 5.0
"""How many standard deviations of the difference of two measurements of a resting
ball's position are taken as noise (a larger difference has a chance of about 4e-6)."""


def displacement_allowed(table: TableSpec) -> float:
    """How far, m, a ball may lie at the start of the next stroke from where this stroke
    left it without having been moved (about 9 cm on a match table).

    Both positions are single samples of a resting ball, so they differ by the noise of
    two measurements: each coordinate of the difference has a standard deviation of
    ``√2 σ``, and :data:`NOISE_Z` of them at the largest per-ball noise believed
    (:data:`~carom.track.tracker.POSITION_NOISE_CEILING`, 4 mm) allow 2.8 cm. To this
    comes the ball's own size, one diameter: a recording may stop while a ball rolls
    its last centimetres (the real match's tracker sends a sample only once a ball
    moved about 2 cm), the first sample of the ball about to be struck may be taken a
    few milliseconds into its motion, and a ball under the player's hand or cue at the
    address is seen in part. A ball farther than that from where it lay was moved: a
    stroke moves balls by tens of centimetres.
    """
    noise = NOISE_Z * sqrt(2.0) * tracker.POSITION_NOISE_CEILING
    return 2.0 * table.ball_radius + noise


@dataclass(frozen=True, slots=True)
class Moved:
    """The ball that lies farthest, at the start of a stroke, from where the stroke
    before left it."""

    ball: Ball
    distance: float
    """How far, m."""


def farthest_moved(before: TrackedRuling, after: TrackedRuling) -> Moved | None:
    """The ball that lies farthest at the start of ``after`` from where ``before`` left
    it, among the balls both records place (``None`` if there is none: a stroke
    without positions, or a ball that jumped and was re-spotted)."""
    end, start = before.stroke.end, after.stroke.start
    if end is None or start is None:
        return None
    moves = [Moved(ball, hypot(end[ball][0] - start[ball][0], end[ball][1] - start[ball][1]))
             for ball in BALLS if ball in end and ball in start]
    return max(moves, key=lambda m: m.distance, default=None)


def missing_between(before: TrackedStroke, after: TrackedStroke) -> int:
    """How many shot ids lie between two consecutive tracked strokes (0 when the ids
    follow each other or are not whole numbers)."""
    a, b = before.shot, after.shot
    if isinstance(a, int) and isinstance(b, int) and not isinstance(a, bool) and b > a + 1:
        return b - a - 1
    return 0


def broken_after(before: TrackedRuling, after: TrackedRuling, table: TableSpec) -> Doubt | None:
    """The doubt on ``before`` when ``after``, the next stroke of the recording, does
    not start where it ended (beyond :func:`displacement_allowed`) and no gap in the
    shot ids explains why."""
    if missing_between(before.tracked, after.tracked):
        return None
    moved = farthest_moved(before, after)
    if moved is None or moved.distance <= displacement_allowed(table):
        return None
    return Doubt(None, Said("the balls moved between this stroke's end and the next stroke's start: the "
                            "recording misses something (%(ball)s lies %(distance)s m from where this stroke "
                            "left it when shot %(shot)s starts)", ball=moved.ball,
                            distance=format(moved.distance, ".2f"), shot=repr(after.tracked.shot)))


def with_sequence_doubts(before: TrackedRuling, after: TrackedRuling | None,
                         table: TableSpec) -> TrackedRuling:
    """``before`` with the doubt :func:`broken_after` raises, if any, in front of its
    others (``after``: the next stroke of the recording, ``None`` at its end), once."""
    if after is None:
        return before
    doubt = broken_after(before, after, table)
    if doubt is None or doubt in before.doubts:
        return before
    return replace(before, doubts=(doubt, *before.doubts))


def track_sequence(strokes: Iterable[TrackedStroke], discipline: Discipline, table: TableSpec, *,
                   model: TrackerModel = DEFAULT_MODEL) -> Iterator[TrackedRuling]:
    """Judge the strokes of one recording in order, with the camera's bias and noise
    measured over all of them (:func:`~carom.track.judging.recording.track_recording`, with the
    tracker-error ``model``), each with the doubts its place in the recording raises."""
    rulings = track_recording(strokes, discipline, table, model=model)
    previous: TrackedRuling | None = None
    for ruling in rulings:
        if previous is not None:
            yield with_sequence_doubts(previous, ruling, table)
        previous = ruling
    if previous is not None:
        yield with_sequence_doubts(previous, None, table)
