"""A tracker that sends every frame of a resting ball: the ball was seen still through
its rest (``carom.track.contacts.struck._crept_from``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from carom.track import BallTrack, TrackedStroke, track_stroke
from carom.track.contacts.struck import _crept_from
from carom.track.tracker import STILL_SAMPLES
from tests.track.test_evidence import LARGE, RED, THREE_CUSHION, W, Y, _contact, _noisy, _pass, _recorded


def _join(samples: int) -> SimpleNamespace:
    """A rest from 1.0 s to 3.0 s in ``samples`` evenly spaced samples, then a move."""
    return SimpleNamespace(before=SimpleNamespace(size=samples, t0=1.0, t1=3.0))


def test_a_ball_sent_only_once_it_moved_may_have_crept_any_time_during_its_rest() -> None:
    assert _crept_from(_join(2)) == 1.0  # type: ignore[arg-type]


def test_a_ball_sent_every_frame_crept_only_over_its_last_samples() -> None:
    """101 samples 20 ms apart, all still but the last few: a ball passing at 1.5 s, long
    before the move was seen, did not set it moving."""
    assert _crept_from(_join(101)) == pytest.approx(3.0 - 0.02 * STILL_SAMPLES)  # type: ignore[arg-type]


@pytest.mark.parametrize("gap", [0.003, 0.006, -0.003], ids=["3 mm apart", "6 mm apart", "3 mm overlapping"])
@pytest.mark.parametrize("seed", range(5))
def test_a_close_pass_at_a_still_ball_sent_every_frame_is_no_contact(gap: float, seed: int) -> None:
    """White passes the resting red at 1.5 m/s; the tracker sends all three balls every
    20 ms, red's 150 samples within 0.8 mm of noise of its spot. Before the tracker's
    every-frame rests were read as seen still, a step in the noise's tail a second after
    the pass read as red crept from its place unseen, touched by white (0.86–0.98 at
    some of these seeds)."""
    t, white, spot, _ = _pass(gap)
    noise = np.random.default_rng(seed).normal(0.0, 0.0008, (t.shape[0], 2))
    yellow = np.array((1.2, 2.5)) + np.random.default_rng(seed + 50).normal(0.0, 0.0008, (t.shape[0], 2))
    tracked = TrackedStroke(2, W, {W: BallTrack(t, _noisy(white, 4 + seed)), Y: BallTrack(t, yellow),
                                   RED: BallTrack(t, np.array(spot) + noise)})
    ruling = track_stroke(tracked, THREE_CUSHION, LARGE)
    assert _contact(ruling, W, RED) < 0.1
    assert not _recorded(ruling, W, RED)
