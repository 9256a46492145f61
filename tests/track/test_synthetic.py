"""Strokes the auto-referee has never seen: simulated (``carom.physics``), degraded by a
simulated camera tracker (``carom.track.synthetic``), judged. The detector was written
looking at seeds below 200,000 and, from its eighteenth round, 300,000–319,999 only; these
tests use seeds from 200,000 (a few hundred)."""

from __future__ import annotations

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import track_stroke
from carom.track.judging.calibration import Judged, reliability
from carom.track.synthetic import HARSH_EVERY_FRAME, KINDS, Camera, labelled_stroke
from carom.track.synthetic.strokes import THIN_TRAVEL

THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]
FIRST_SEED = 200_000


@pytest.mark.parametrize("kind", list(KINDS))
def test_each_kind_of_stroke_is_played_and_labelled(kind: str) -> None:
    stroke = labelled_stroke(FIRST_SEED, THREE_CUSHION, LARGE, kind)
    assert stroke.kind == kind and stroke.tracked.label == (stroke.verdict.points > 0)
    assert set(stroke.tracked.balls) == {Ball.WHITE, Ball.YELLOW, Ball.RED}
    assert stroke.truth.events, "every stroke has at least its first contact"


def test_a_thin_cut_moves_the_object_ball_5_to_50_mm() -> None:
    for seed in range(FIRST_SEED, FIRST_SEED + 5):
        stroke = labelled_stroke(seed, THREE_CUSHION, LARGE, "thin")
        assert stroke.truth.paths is not None
        travels = []
        for rows in stroke.truth.paths.values():
            xy = np.array(rows)[:, 1:]
            travels.append(float(np.hypot(*np.diff(xy, axis=0).T).sum()))
        assert any(THIN_TRAVEL[0] <= d <= THIN_TRAVEL[1] for d in travels)


def test_the_real_camera_sends_a_resting_ball_twice_and_a_moving_ball_once_it_moved() -> None:
    """As the real match's tracker does: a first and a last sample of a ball that never
    moved; a moving ball sent again once it moved the camera's step."""
    for seed in range(FIRST_SEED, FIRST_SEED + 10):
        stroke = labelled_stroke(seed, THREE_CUSHION, LARGE, "open")
        assert stroke.truth.paths is not None and isinstance(stroke.camera, Camera)
        for ball, track in stroke.tracked.balls.items():
            true = np.array(stroke.truth.paths[ball])[:, 1:]
            if float(np.ptp(true, axis=0).max()) == 0.0:
                assert len(track) == 2
            steps = np.hypot(*np.diff(track.xy[:-1], axis=0).T)[1:]
            assert bool(np.all(steps >= stroke.camera.send_step - 0.002))  # the step, less the noise


def test_a_harsh_every_frame_camera_sends_every_frame_of_a_resting_ball_not_lost() -> None:
    for seed in range(FIRST_SEED, FIRST_SEED + 5):
        stroke = labelled_stroke(seed, THREE_CUSHION, LARGE, "open", HARSH_EVERY_FRAME)
        frames = int(np.ceil(stroke.tracked.balls[stroke.tracked.cue].t[-1] / stroke.camera.frame_period))
        for track in stroke.tracked.balls.values():
            assert len(track) >= 0.5 * frames  # up to 15 % lost at random, more beside a ball


def test_agreement_on_150_unseen_degraded_strokes_is_at_least_95_percent_and_confidence_means_it() -> None:
    judged = []
    for seed in range(FIRST_SEED, FIRST_SEED + 150):
        stroke = labelled_stroke(seed, THREE_CUSHION, LARGE)
        ruling = track_stroke(stroke.tracked, THREE_CUSHION, LARGE)
        right = (ruling.points, ruling.verdict.fouls) == (stroke.verdict.points, stroke.verdict.fouls)
        judged.append(Judged(ruling.confidence, right, ruling.doubtful))
    assert sum(j.right for j in judged) >= 0.95 * len(judged)
    sure = [j for j in judged if j.confidence >= 0.99]
    assert sum(not j.right for j in sure) <= 1
    # a table of bins: every stroke in one
    assert sum(n for _, _, n, _ in reliability(judged)) == len(judged)
