"""The Gymnasium environment: registered with a vector entry point, passes Gymnasium's
own checker, seeded determinism, the match's rules (E1–E3), the render modes."""

from __future__ import annotations

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

import carom.gym
from carom.core.errors import CaromError
from carom.gym import ENV_ID
from carom.gym.logic import SPEED, Settings, observe, start, strikes
from carom.gym.render import BALL_COLOURS


def test_registered_with_a_versioned_id_and_a_vector_entry_point_and_passes_the_checker() -> None:
    assert ENV_ID == "carom/ThreeCushion-v0" and ENV_ID in gymnasium.registry
    assert gymnasium.registry[ENV_ID].vector_entry_point == "carom.gym.vector:ThreeCushionVectorEnv"
    check_env(gymnasium.make(ENV_ID, render_mode="rgb_array").unwrapped)
    assert isinstance(gymnasium.make_vec(ENV_ID, num_envs=2), carom.gym.ThreeCushionVectorEnv)


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


def test_the_logic_is_pure_functions_of_the_match_o2() -> None:
    settings = Settings(points=15, innings=50)
    first, again = start(settings), start(settings)
    assert first == again and np.array_equal(observe(first, settings), observe(again, settings))
    assert observe(first, settings).tolist() == pytest.approx(
        [0.892 / 1.42, 0.25, 0.5, 0.25, 0.5, 0.75, 0, 0, 0, 0])  # the starting position (O2)
    rows = strikes(np.array([[-1, -1, 0, 0], [1, 1, 1, 1], [0, 0, 2, 0]]))
    assert rows[:, 0].tolist() == [SPEED[0], SPEED[1], sum(SPEED) / 2]
    assert rows[:, 1].tolist() == [0.0, 0.0, 180.0]
    assert np.hypot(rows[1, 2], rows[1, 3]) == pytest.approx(0.5) and rows[2, 2] == 0.5  # the miscue limit


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_the_standard_render_modes_draw_the_match(mode: str) -> None:
    env = gymnasium.make(ENV_ID, render_mode=mode)
    env.reset(seed=2)
    env.action_space.seed(2)  # reset's seed does not reach the action space: one action, every run
    env.step(env.action_space.sample())
    picture = env.render()
    if mode == "ansi":
        assert isinstance(picture, str) and picture.startswith("agent ") and "W" in picture
    else:
        assert isinstance(picture, np.ndarray) and picture.dtype == np.uint8 and picture.shape[2] == 3
        colours = {tuple(c) for c in picture.reshape(-1, 3).tolist()}
        assert all(c in colours for c in BALL_COLOURS)
    vector = gymnasium.make_vec(ENV_ID, num_envs=3, render_mode=mode)
    vector.reset(seed=2)
    assert len(vector.render()) == 3


def test_an_unknown_render_mode_is_refused() -> None:
    with pytest.raises(CaromError, match="render_mode: 'svg'"):
        carom.gym.ThreeCushionEnv(render_mode="svg")
