"""A tracker that sends every frame of a resting ball: the ball was seen still through
its rest (``carom.track.contacts.struck._crept_from``), and a crawl read as a rest is
weighed as one that never stopped (``carom.track.contacts.departure.crawled_on``)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from carom.core.events import BallContact
from carom.track import BallTrack, TrackedStroke, track_stroke
from carom.track.contacts.departure import crawled_on
from carom.track.contacts.struck import _crept_from
from carom.track.reconstruct.ballmotion import BallMotion, reconstruct
from carom.track.tracker import STILL_SAMPLES
from tests.track.development import development_stroke, judged
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


def _every_frame(seed: int, x: np.ndarray, y: np.ndarray) -> BallMotion:
    """A ball sent every 30 ms at ``x``, ``y`` (one per frame), with 1.2 mm of noise, read."""
    xy = np.column_stack((x, y)) + np.random.default_rng(seed).normal(0.0, 0.0012, (x.shape[0], 2))
    return reconstruct(Y, BallTrack(np.arange(x.shape[0]) * 0.03, xy), 0.0012)


def _starts_after_stops(motion: BallMotion) -> list[float]:
    """The chance of a crawl (:func:`crawled_on`) of each start that follows a stop."""
    joins = motion.joins
    return [crawled_on(motion, j) for k, j in enumerate(joins)
            if j.kind == "start" and k and joins[k - 1].kind == "stop"]


def test_a_crawl_read_as_a_stop_and_a_start_is_no_start() -> None:
    """A ball rolling out from 5 cm/s, sent every frame: its samples stay within the
    noise's reach of each other for a tenth of a second here and there, and its crawl
    reads as stops and starts. The start leaves as the ball came in, so it never
    stopped, and no ball passing near then set it moving (the seed is one whose noise
    reads so). It was struck at the first sample: a ball lies still when a stroke begins,
    and samples that stay within the noise of the first are its rest."""
    t = np.arange(60) * 0.03
    speed = np.maximum(0.05 - 0.044 * t, 0.0)
    speed[0] = 0.3
    x = 0.7 + np.cumsum(np.r_[0.0, speed[:-1] * 0.03])
    crawls = _starts_after_stops(_every_frame(22, x, np.full(60, 1.2)))
    assert crawls and min(crawls) > 0.99


def test_a_ball_that_stops_and_leaves_across_its_line_was_set_moving() -> None:
    """The same ball crawls 12 mm at 4 cm/s, lies still for a quarter of a second, and
    leaves at right angles at 0.3 m/s: a touch, not a crawl."""
    t = np.arange(40) * 0.03
    x = 0.7 + 0.04 * np.minimum(t, 0.3)
    y = 1.2 + np.where(t > 0.54, 0.3 * (t - 0.54), 0.0)
    crawls = _starts_after_stops(_every_frame(4, x, y))
    assert crawls and max(crawls) < 0.01


def test_two_crawling_balls_side_by_side_did_not_touch() -> None:
    """A development stroke (seed 174509, in the recording of ten from 174500, whose
    camera sends every frame of every ball): at 8 s white and yellow crawl side by side
    at a few centimetres a second, their centres 11–12 cm apart. Yellow's crawl read as a
    stop and a start, twice; each start asked for a hitter, white was the only ball
    near, and a white–yellow contact was found at confidence 1.000."""
    stroke = development_stroke(174509, 174500, every_frame=True)
    assert stroke.verdict.points == 0
    ruling = judged(stroke)
    assert ruling.points == 0
    assert not any(isinstance(e, BallContact) and {e.ball, e.other} == {W, Y} and e.t > 8.0
                   for e in ruling.stroke.events)
