"""The sampling model measured from a recording's samples (``carom.track.sampling``), on the
real match file and on simulated cameras whose settings are known."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import BallTrack, TrackedStroke, read_tracked
from carom.track.sampling import measure_sampling
from carom.track.synthetic import CAMERAS, Camera, labelled_recording

THREE_CUSHION, LARGE = discipline("three-cushion"), TABLES["large"]


def test_the_real_files_camera_is_measured_from_its_samples(real_match: Path) -> None:
    """The figures docs/auto-referee.md gives for the real file's camera."""
    found = measure_sampling(list(read_tracked(real_match)))
    assert found.frame_period == pytest.approx(0.01991, abs=0.00005)
    assert found.stamp_resolution == 0.0005
    assert found.stamp_sd is not None and found.stamp_sd < 0.0002
    assert found.send_step == pytest.approx(0.0146, abs=0.0005)
    assert 0.02 <= found.send_step_top <= 0.03
    assert found.moving_noise == pytest.approx(0.00035, abs=0.00003)
    assert found.rest_jitter == pytest.approx(0.0005, abs=0.00005)
    assert found.loss_rate is not None and found.loss_rate < 0.005
    assert found.hidden >= 4 and found.longest_hidden == pytest.approx(0.88, abs=0.2)
    assert any("frame period: 19.91 ms" in line for line in found.lines())


@pytest.mark.parametrize("name", ["real", "frame-rates", "noisy", "half-lost", "video"])
def test_a_simulated_cameras_settings_are_measured_back(name: str) -> None:
    strokes = labelled_recording(12, 6_100_000, THREE_CUSHION, LARGE, CAMERAS[name])
    camera = strokes[0].camera
    assert isinstance(camera, Camera)
    found = measure_sampling([s.tracked for s in strokes])
    assert found.frame_period == pytest.approx(camera.frame_period, rel=0.01)
    assert found.moving_noise is not None and found.across_noise is not None and found.along_noise is not None
    assert found.across_noise == pytest.approx(float(np.mean(camera.noise)), rel=0.3)
    if camera.every_frame:
        assert found.send_step == 0.0
        assert found.along_noise > 1.2 * found.across_noise  # the streak along the motion
    else:
        assert found.send_step == pytest.approx(camera.send_step, abs=0.002)
    assert found.loss_rate == pytest.approx(camera.drop, abs=0.05)


def test_a_ball_that_moved_unseen_for_a_while_is_counted_hidden() -> None:
    t = np.arange(0.0, 1.0, 0.02)
    xy = np.column_stack((0.5 + 1.0 * t, np.full(t.shape, 0.7)))
    keep = (t < 0.3) | (t > 0.7)  # 40 cm unseen at 1 m/s
    ends = np.array([0.0, 1.0])
    stroke = TrackedStroke(1, Ball.WHITE, {Ball.WHITE: BallTrack(t[keep], xy[keep]),
                                           Ball.YELLOW: BallTrack(ends, np.array([[1.0, 2.0]] * 2)),
                                           Ball.RED: BallTrack(ends, np.array([[0.3, 2.0]] * 2))})
    found = measure_sampling([stroke])
    assert found.hidden == 1 and found.longest_hidden == pytest.approx(0.42, abs=0.03)
