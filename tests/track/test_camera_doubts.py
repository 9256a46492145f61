"""Doubts about what the camera let the auto-referee see (``carom.track.judging.camera``):
balls that moved unseen, a camera noisier than any it was checked on."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedStroke, read_tracked, track_recording, track_stroke
from carom.track.judging.camera import VALIDATED_NOISE
from carom.track.sampling import measure_sampling
from tests.track.synthetic import stroke

W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]


def _white_into_both() -> TrackedStroke:
    """White struck into yellow, which runs into red: they move 44, 44 and 78 cm."""
    tracked, _ = stroke({W: (0.7, 0.5), Y: (0.70, 1.0), RED: (0.66, 1.6)}, {W: (0.0, 1.6)}, W,
                        decimate=0.015, seed=3)
    return tracked


def test_two_balls_that_moved_with_no_sample_between_start_and_end_are_flagged() -> None:
    """The issue's stroke: two balls moved 24 and 63 cm and the tracker sent nothing of them
    between the stroke's first and last sample. The ruling rests on what no sample shows."""
    tracked = _white_into_both()
    seen = dict(tracked.balls)
    for ball in (Y, RED):
        track = seen[ball]
        assert float(np.hypot(*(track.xy[-1] - track.xy[0]))) > 0.2
        seen[ball] = BallTrack(track.t[[0, -1]], track.xy[[0, -1]])
    lost = TrackedStroke(tracked.shot, W, seen)
    ruling = track_stroke(lost, THREE_CUSHION, LARGE)
    unseen = [d.what for d in ruling.doubts if d.about_recording and "with no sample" in d.what]
    assert ruling.doubtful and len(unseen) == 2
    assert {w.split()[0] for w in unseen} == {"yellow", "red"}
    assert not any("with no sample" in d.what for d in track_stroke(tracked, THREE_CUSHION, LARGE).doubts)


def test_a_ball_lost_for_a_while_on_a_straight_run_is_not_flagged() -> None:
    """The real file's tracker lost a rolling ball for up to 0.9 s five times; its motion on
    either side carries it across the gap, and nothing of it is in doubt."""
    tracked = _white_into_both()
    seen = dict(tracked.balls)
    track = seen[RED]
    keep = (track.t < 2.6) | (track.t > 3.3)  # red rolls straight from 2.07 s to 4.21 s
    seen[RED] = BallTrack(track.t[keep], track.xy[keep])
    lost = TrackedStroke(tracked.shot, W, seen)
    assert measure_sampling([lost]).hidden == 1
    ruling = track_stroke(lost, THREE_CUSHION, LARGE)
    assert not any("with no sample" in d.what for d in ruling.doubts)


def test_the_real_file_raises_no_doubt_about_its_camera(real_match: Path) -> None:
    rulings = track_recording(read_tracked(real_match), THREE_CUSHION, LARGE)
    assert not any(d.about_recording for r in rulings for d in r.doubts)


def test_a_camera_noisier_than_any_checked_on_is_flagged() -> None:
    tracked, _ = stroke({W: (0.7, 0.5), Y: (0.70, 1.0), RED: (0.66, 1.6)}, {W: (0.0, 1.6)}, W,
                        noise=2.0 * VALIDATED_NOISE, seed=4)
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert ruling.doubtful and any("scatter by" in d.what for d in ruling.doubts)
