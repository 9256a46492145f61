"""The camera's bias taken out of a stroke's samples (:func:`carom.track.reconstruct.bias.unbiased`).

A recording measures its camera's bias near other balls; with it, each sample is moved
back by the bias at the clearance the first reading of the stroke gives, and the stroke
is read again. A bias the recording does not tell from none is left in.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedStroke, read_tracked, tracker
from carom.track.contacts.detection import detect
from carom.track.judging.recording import track_recording
from carom.track.reconstruct.bias import unbiased
from carom.track.synthetic import HarshRanges, labelled_recording

TABLE = TABLES["large"]
RULES = discipline("three-cushion")
DIAMETER = 2.0 * TABLE.ball_radius
RED = np.array([0.70, 1.40])
CLEARANCE = 0.005
"""White passes red this far beyond touching."""


def _true_stroke() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """White rolling up the table past resting red, sent every 20 ms: times, white's and
    red's true centres."""
    t = np.arange(0.0, 1.2, 0.02)
    x = RED[0] - DIAMETER - CLEARANCE
    white = np.column_stack((np.full_like(t, x), 0.8 + 1.2 * t - 0.25 * t * t))
    return t, white, np.tile(RED, (t.shape[0], 1))


def _seen(bias: float) -> tuple[TrackedStroke, np.ndarray]:
    """The stroke as a camera with ``bias`` (m on each centre at contact, the model's
    fading) sends it, with 0.5 mm of noise; and white's true centres."""
    t, white, red = _true_stroke()
    line = white - red
    gap = np.hypot(line[:, 0], line[:, 1])
    shift = (bias * np.exp(-(gap - DIAMETER) / tracker.BIAS_REACH) / gap)[:, None] * line
    rng = np.random.default_rng(7)
    seen_white = white + shift + rng.normal(0.0, 0.0005, white.shape)
    seen_red = red - shift + rng.normal(0.0, 0.0005, red.shape)
    yellow = BallTrack(np.array([0.0, 1.18]), np.array([[1.2, 2.5], [1.2, 2.5]]))
    balls = {Ball.WHITE: BallTrack(t, seen_white), Ball.RED: BallTrack(t, seen_red), Ball.YELLOW: yellow}
    stroke = TrackedStroke(1, Ball.WHITE, balls)
    return stroke, white


def test_a_passing_balls_samples_come_back_to_its_true_line() -> None:
    bias = tracker.CameraBias(0.012, 0.002, 40)
    stroke, white = _seen(bias.value)
    paths = detect(stroke, TABLE).paths
    back = unbiased(stroke, paths, bias, DIAMETER)
    near = np.abs(white[:, 1] - RED[1]) < 0.03
    before = np.abs(stroke.balls[Ball.WHITE].xy[near, 0] - white[near, 0])
    after = np.abs(back.balls[Ball.WHITE].xy[near, 0] - white[near, 0])
    assert before.max() > 0.008  # pushed 8-9 mm off its line abreast of red
    # the first reading's path carries a little of the bias, so not all of it comes out
    assert after.max() < 0.5 * before.max()
    assert after.mean() < 0.45 * before.mean()  # 7.2 mm to 2.9 mm on average
    # red, resting, comes back towards its place; yellow, far from both, is left as it was
    red_before = np.hypot(*(stroke.balls[Ball.RED].xy - RED).T).max()
    assert np.hypot(*(back.balls[Ball.RED].xy - RED).T).max() < 0.6 * red_before
    assert np.array_equal(back.balls[Ball.YELLOW].xy, stroke.balls[Ball.YELLOW].xy)
    assert back.shot == stroke.shot and back.cue is stroke.cue


def test_no_bias_leaves_the_samples() -> None:
    stroke, _ = _seen(0.0)
    back = unbiased(stroke, detect(stroke, TABLE).paths, tracker.CameraBias(0.0, 0.001, 40), DIAMETER)
    for ball, track in stroke.balls.items():
        assert np.array_equal(back.balls[ball].xy, track.xy)


@pytest.mark.parametrize(("value", "sd", "shown"), [(0.0008, 0.0023, False), (-0.0001, 0.0025, False),
                                                    (-0.004, 0.0021, False),
                                                    (-0.010, 0.0045, True), (0.015, 0.0043, True)])
def test_a_bias_is_taken_out_only_when_the_recording_shows_it(value: float, sd: float, shown: bool) -> None:
    """The real match file's camera (measured at 0.1 ± 2.5 mm, and 0.8 ± 2.3 mm before the
    rolling turns were read) is not corrected."""
    assert tracker.CameraBias(value, sd, 26).shown is shown


def test_a_thin_touch_hidden_by_the_bias_is_found_in_its_recording(monkeypatch: pytest.MonkeyPatch) -> None:
    """Development stroke 152302, in a recording of 20: its camera pulls two touching
    centres 15 mm together each (measured -15.0 ± 4.5 mm). Read with the bias left in,
    a contact that scored is lost at confidence 1.000; with it taken out, the point is
    found (as doubtful, at 0.95)."""
    strokes = labelled_recording(20, 152300, RULES, TABLE, HarshRanges())
    stroke = strokes[2]
    truth = (stroke.verdict.points, stroke.verdict.fouls)
    ruling = track_recording([s.tracked for s in strokes], RULES, TABLE)[2]
    assert ruling.camera is not None and ruling.camera.shown
    assert (ruling.points, ruling.verdict.fouls) == truth
    monkeypatch.setattr(tracker, "BIAS_SHOWN", float("inf"))
    left_in = track_recording([s.tracked for s in strokes], RULES, TABLE)[2]
    assert (left_in.points, left_in.verdict.fouls) != truth


def test_the_real_files_camera_shows_no_bias_and_is_read_as_sent(real_match: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The real match's recording measures its camera's bias (a few millimetres at most,
    within its uncertainty) and so takes nothing out: every ruling is the one given with
    the bias left in."""
    strokes = list(read_tracked(real_match))
    rulings = track_recording(strokes, RULES, TABLE)
    camera = rulings[0].camera
    assert camera is not None and not camera.shown
    monkeypatch.setattr(tracker, "BIAS_SHOWN", float("inf"))
    left_in = track_recording(strokes, RULES, TABLE)
    assert [(r.points, r.confidence) for r in rulings] == [(r.points, r.confidence) for r in left_in]
