"""The Gymnasium environment: registered, passes Gymnasium's own checker, seeded determinism."""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium.utils.env_checker import check_env

import carom.gym
from carom.gym import ENV_ID


def test_registered_with_a_versioned_id_and_passes_the_checker() -> None:
    assert ENV_ID == "carom/ThreeCushion-v0" and ENV_ID in gymnasium.registry
    check_env(gymnasium.make(ENV_ID).unwrapped, skip_render_check=True)


def test_seeded_episodes_are_identical() -> None:
    def episode(seed: int) -> list[np.ndarray]:
        env = gymnasium.make(ENV_ID, points=3, innings=6)
        obs, _ = env.reset(seed=seed)
        env.action_space.seed(seed)
        seen = [obs]
        for _ in range(8):
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            seen.append(np.append(obs, reward))
            if terminated or truncated:
                break
        return seen

    a, b = episode(4), episode(4)
    assert len(a) == len(b) and all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def test_a_whole_match_ends_by_the_rules_e1_e2() -> None:
    env = carom.gym.ThreeCushionEnv(points=2, innings=3)
    env.reset(seed=1)
    env.action_space.seed(1)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(env.action_space.sample())
        done = terminated or truncated
    assert info["finished"] and info["innings"][0] == info["innings"][1]  # E2: equal innings
