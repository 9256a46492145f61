"""``tools/observer_bound.py``: the ideal observer's counterfactuals flip the contact they are
built for, and its separability is nothing for the same paths and grows with the shift."""

from __future__ import annotations

import math
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest

from carom.core.balls import Ball
from carom.track.synthetic import CAMERAS, labelled_recordings
from tests.helpers import script_module

TOOL = Path(__file__).resolve().parents[2] / "tools" / "observer_bound.py"
FIRST, COUNT = 200_000, 10


@pytest.fixture(scope="module")
def bound() -> ModuleType:
    return script_module(TOOL, "carom_tools_observer_bound")


@pytest.fixture(scope="module")
def played(bound: ModuleType) -> dict[int, object]:
    return {p.seed: p for p in bound.play_recording(CAMERAS["noisy"], FIRST, COUNT)}


def near(bound: ModuleType, p: object, ball: Ball) -> object:
    return next(n for n in bound.near_contacts(p.truth) if n.ball is ball)  # type: ignore[attr-defined]


def test_it_plays_the_benchmarks_strokes_sample_for_sample(bound: ModuleType,
                                                          played: dict[int, object]) -> None:
    (recording,) = labelled_recordings(COUNT, FIRST, COUNT, bound.RULES, bound.TABLE, CAMERAS["noisy"])
    for stroke in recording:
        mine = played[stroke.tracked.shot]
        for ball, track in stroke.tracked.balls.items():
            assert np.array_equal(track.t, mine.tracks[ball].t)  # type: ignore[attr-defined]
            assert np.array_equal(track.xy, mine.tracks[ball].xy)  # type: ignore[attr-defined]


def test_a_thin_touch_becomes_a_miss(bound: ModuleType, played: dict[int, object]) -> None:
    p = played[200_001]
    thin = near(bound, p, Ball.RED)
    assert thin.touched and thin.margin < 0.0001  # type: ignore[attr-defined]
    cf, shift, reason = bound.flipped(p, thin)
    assert reason == "" and shift == pytest.approx(thin.margin + bound.PAST)  # type: ignore[attr-defined]
    assert bound.first_contact(p.truth, p.truth.ball, Ball.RED) == thin.t  # type: ignore[attr-defined]
    later = bound.first_contact(cf, p.truth.ball, Ball.RED)  # type: ignore[attr-defined]
    assert later is None or later > thin.t + 1.0  # type: ignore[attr-defined]


def test_a_near_miss_becomes_a_touch_and_the_ruling_changes(bound: ModuleType,
                                                            played: dict[int, object]) -> None:
    p = played[200_002]
    miss = near(bound, p, Ball.RED)
    assert not miss.touched and 0.004 < miss.margin < 0.005  # type: ignore[attr-defined]
    cf, _, reason = bound.flipped(p, miss)
    hit = bound.first_contact(cf, p.truth.ball, Ball.RED)  # type: ignore[attr-defined]
    assert reason == "" and abs(hit - miss.t) <= bound.SAME_MOMENT  # type: ignore[attr-defined]
    (touch,) = (n for n in bound.near_contacts(cf) if n.ball is Ball.RED)  # type: ignore[attr-defined]
    assert touch.touched and touch.margin == pytest.approx(bound.PAST, abs=0.00002)
    scored = bound.counterfactual(played[200_006], near(bound, played[200_006], Ball.RED))
    assert scored.reason == "" and scored.dprime > scored.local > 0.0


def test_d_prime_is_nothing_for_the_same_paths(bound: ModuleType, played: dict[int, object]) -> None:
    for p in played.values():
        assert bound.separability(p, p.truth)[0] == 0.0


def test_d_prime_grows_with_the_shift(bound: ModuleType, played: dict[int, object]) -> None:
    p = played[200_002]
    miss = near(bound, p, Ball.RED)  # red never moves; moved away from ball 1's path it stays missed
    found = []
    for shift in (0.0005, 0.001, 0.002):
        start = bound.moved_start(p, Ball.RED, (-shift * miss.away[0], -shift * miss.away[1]))  # type: ignore[attr-defined]
        other = bound.simulate(start, bound.strike_of(p.truth), bound.TABLE, p.params,  # type: ignore[attr-defined]
                               sample=bound.SAMPLE)
        found.append(bound.separability(p, other)[0])
    assert 0.0 < found[0] < found[1] < found[2]
    sigma = p.camera.noise[p.balls.index(Ball.RED)]  # type: ignore[attr-defined]
    samples = len(p.tracks[Ball.RED].t)  # type: ignore[attr-defined]
    assert found[1] == pytest.approx(0.001 * math.sqrt(samples) / sigma, rel=0.05)


def test_the_means_are_where_the_camera_put_its_samples(bound: ModuleType, played: dict[int, object]) -> None:
    """The frames and the clock's start the observer is told put each sample within its
    ball's noise of the mean: the pooled scatter is σ."""
    scaled = []
    for p in played.values():
        period = p.camera.frame_period  # type: ignore[attr-defined]
        for i, ball in enumerate(p.balls):  # type: ignore[attr-defined]
            track = p.tracks[ball]  # type: ignore[attr-defined]
            frames = np.rint(np.asarray(track.t) / period).astype(int)
            mean = bound.means(p, p.truth, frames)[i]  # type: ignore[attr-defined]
            scaled.append((np.asarray(track.xy) - mean) / p.camera.noise[i])  # type: ignore[attr-defined]
    pooled = np.concatenate(scaled)
    assert pooled.std() == pytest.approx(1.0, abs=0.1)
    assert np.abs(pooled).max() < 6.0
