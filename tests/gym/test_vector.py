"""The vector environment plays the single one's matches, step by step, and its fast
path judges every simulated stroke as the referee does."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import carom.gym  # noqa: F401  (registers the environment)
from carom.core.balls import BALLS
from carom.core.table import TABLES
from carom.gym import ENV_ID
from carom.gym.judging import verdicts
from carom.gym.logic import strikes
from carom.physics import simulate_batch
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, judge

LARGE = TABLES["large"]
R = LARGE.ball_radius

MATCHES = [
    pytest.param({"points": 3, "innings": 6}, id="E1-E3-points-and-innings-with-equalizing-inning"),
    pytest.param({"points": 2, "innings": 4, "equalizing_inning": False},
                 id="E1-E2-without-equalizing-inning"),
    pytest.param({"points": None, "innings": 3}, id="E1-innings-limit-only"),
    pytest.param({"points": 15, "innings": 50, "max_strokes": 7}, id="truncated-after-max-strokes"),
]


@pytest.mark.parametrize("kwargs", MATCHES)
def test_the_vector_environment_plays_the_single_one_step_by_step(kwargs: dict[str, Any]) -> None:
    """Sub-environment i with seed s is the single environment with seed s + i (run here
    inside Gymnasium's SyncVectorEnv, which seeds and autoresets its copies so); the fast
    path is checked against the referee on every stroke."""
    n = 6
    vector = gymnasium.make_vec(ENV_ID, num_envs=n, check_referee=True, **kwargs)
    single = gymnasium.make_vec(ENV_ID, num_envs=n, vectorization_mode="sync", **kwargs)
    assert type(vector).__name__ == "ThreeCushionVectorEnv"
    seen, _ = vector.reset(seed=11)
    expected, _ = single.reset(seed=11)
    assert np.array_equal(seen, expected)
    rng = np.random.default_rng(3)
    ended = 0
    for _ in range(60):
        actions = rng.uniform(-1.0, 1.0, (n, 4)).astype(np.float32)
        got, want = vector.step(actions), single.step(actions)
        for a, b in zip(got[:4], want[:4], strict=True):
            assert np.array_equal(a, b)
        for key in ("score", "innings", "winner", "finished"):
            assert np.array_equal(got[4][key], want[4][key]), key
        ended += int(got[2].sum() + got[3].sum())
    assert ended >= n  # episodes ended and were reset on the next step


def frozen_positions(rng: np.random.Generator, n: int) -> np.ndarray:
    """Positions with ball 1 often frozen to another ball (F9), all on the table."""
    out = np.empty((n, 3, 2))
    for k in range(n):
        while True:
            p = rng.uniform([0.2, 0.2], [LARGE.width - 0.2, LARGE.length - 0.2], (3, 2))
            if rng.random() < 0.5:  # freeze white to yellow or red
                other = int(rng.integers(1, 3))
                angle = rng.uniform(0, 2 * np.pi)
                p[other] = p[0] + 2 * R * np.array([np.cos(angle), np.sin(angle)])
            gaps = [np.hypot(*(p[a] - p[b])) for a, b in ((0, 1), (0, 2), (1, 2))]
            inside = np.all(p > R) and np.all(p < [LARGE.width - R, LARGE.length - R])
            if min(gaps) >= 2 * R - 1e-9 and inside:
                out[k] = p
                break
    return out


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_fast_path_judges_as_the_referee_c1_3c1_f9_o3(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = 128
    start = frozen_positions(rng, n)
    rows = strikes(rng.uniform(-1.0, 1.0, (n, 4)))
    towards = rng.random(n) < 0.5  # half the strokes aim at the ball they are frozen to
    rows[towards, 1] = np.degrees(np.arctan2(*(start[towards, 1] - start[towards, 0]).T[::-1])) % 360
    cue = np.zeros(n, dtype=np.int64)
    opening = rng.random(n) < 0.3
    rules = discipline("three-cushion")
    outcome = simulate_batch(start, rows, cue, LARGE, max_events=256)
    fast = verdicts(outcome.codes, outcome.n_codes, start, cue, opening, rules, LARGE)
    seen = {"F9": 0, "O3": 0, "point": 0}
    for k in range(n):
        stroke = outcome.stroke(k, start, cue)
        verdict = judge(StrokeContext.of(rules, LARGE, cue_ball=BALLS[0], opening=bool(opening[k]),
                                         position=stroke.start), stroke)
        assert (int(fast.points[k]), fast.fouls(k)) == (verdict.points, verdict.fouls)
        seen["F9"] += "F9" in verdict.fouls
        seen["O3"] += "O3" in verdict.fouls
        seen["point"] += verdict.points
    assert seen["F9"] and seen["O3"]
