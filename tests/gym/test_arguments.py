"""The Gymnasium environments from a notebook: registered by ``import carom`` (which loads
no numpy), their keyword arguments checked at ``make``, actions of the wrong shape or not
finite refused (numbers beyond [-1, 1] clipped), a step after the end refused."""

from __future__ import annotations

import json
import subprocess
import sys

import gymnasium
import numpy as np
import pytest

import carom
from carom.core.errors import CaromError
from carom.gym import ENV_ID, ThreeCushionEnv, ThreeCushionVectorEnv


def test_import_carom_registers_the_environments_without_loading_numpy() -> None:
    code = ("import sys, json, carom\n"
            "light = [m for m in ('numpy', 'gymnasium', 'numba') if m in sys.modules]\n"
            "import gymnasium\n"
            "env = gymnasium.make('carom/ThreeCushion-v0', points=3)\n"
            "vec = gymnasium.make_vec('carom/ThreeCushion-v0', num_envs=2)\n"
            "print(json.dumps([light, type(env.unwrapped).__name__, type(vec).__name__]))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          check=True)
    assert json.loads(done.stdout) == [[], "ThreeCushionEnv", "ThreeCushionVectorEnv"]


def test_import_carom_after_gymnasium_registers_at_once() -> None:
    code = ("import gymnasium, carom, sys\n"
            "print('carom/ThreeCushion-v0' in gymnasium.registry, 'carom.gym' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          check=True)
    assert done.stdout.split() == ["True", "False"]


@pytest.mark.parametrize(("keywords", "words"), [
    ({"points": 0}, "points: expected a whole number >= 1 or null, got 0"),
    ({"points": None, "innings": None}, "points and innings are both null"),
    ({"innings": "x"}, 'innings: expected a whole number >= 1 or null, got "x"'),
    ({"equalizing_inning": "yes"}, 'equalizing_inning: expected true or false, got "yes"'),
    ({"table": "huge"}, 'table: unknown "huge"'),
    ({"opponent": 3}, "opponent: expected a policy"),
    ({"params": {"mu_roll": 0.01}}, "params: expected Params"),
    ({"max_strokes": 0}, "max_strokes: expected a whole number >= 1, got 0"),
    ({"render_mode": "video"}, "render_mode: 'video' is not one of ansi, rgb_array"),
])
def test_make_checks_every_keyword(keywords: dict[str, object], words: str) -> None:
    with pytest.raises(CaromError) as refused:
        gymnasium.make(ENV_ID, **keywords)
    assert words in str(refused.value)
    with pytest.raises(CaromError):
        ThreeCushionVectorEnv(num_envs=2, **keywords)  # type: ignore[arg-type]


def test_the_vector_form_checks_its_own_keywords() -> None:
    for keywords, words in (({"num_envs": 0}, "num_envs: expected a whole number >= 1"),
                            ({"check_referee": 1}, "check_referee: expected true or false"),
                            ({"max_events": 0}, "max_events: expected a whole number >= 1")):
        with pytest.raises(CaromError, match=words):
            ThreeCushionVectorEnv(**keywords)  # type: ignore[arg-type]


def test_a_table_is_given_by_name_or_value() -> None:
    small = carom.table("small")
    assert ThreeCushionEnv(table=small).table is small and ThreeCushionEnv(table="small").table is small


@pytest.mark.parametrize(("action", "words"), [
    (np.zeros(3), "action: expected the shape (4,), got (3,)"),
    (np.array([0.0, np.nan, 0.0, 0.0]), "action: holds a number that is not finite"),
    ("fast", "action: expected numbers of shape (4,)"),
])
def test_an_action_of_another_shape_or_not_finite_is_refused(action: object, words: str) -> None:
    env = ThreeCushionEnv()
    env.reset(seed=1)
    with pytest.raises(CaromError) as refused:
        env.step(action)  # type: ignore[arg-type]
    assert words in str(refused.value)


def test_numbers_beyond_the_box_are_clipped() -> None:
    beyond, clipped = ThreeCushionEnv(), ThreeCushionEnv()
    beyond.reset(seed=3)
    clipped.reset(seed=3)
    a = beyond.step(np.array([5.0, 0.3, -9.0, 0.0]))
    b = clipped.step(np.array([1.0, 0.3, -1.0, 0.0]))
    assert np.array_equal(a[0], b[0]) and a[1:4] == b[1:4]


def test_a_step_after_the_end_is_refused_until_reset() -> None:
    env = ThreeCushionEnv(max_strokes=1)
    env.reset(seed=2)
    _, _, terminated, truncated, _ = env.step(np.zeros(4))
    assert terminated or truncated
    with pytest.raises(CaromError, match=r"the episode has ended \(terminated or truncated\): call reset"):
        env.step(np.zeros(4))
    env.reset(seed=2)
    env.step(np.zeros(4))


def test_the_vector_form_refuses_actions_of_another_shape() -> None:
    envs = ThreeCushionVectorEnv(num_envs=3)
    envs.reset(seed=1)
    with pytest.raises(CaromError, match=r"actions: expected the shape \(3, 4\), got \(2, 4\)"):
        envs.step(np.zeros((2, 4)))
    with pytest.raises(CaromError, match="actions: holds a number that is not finite"):
        envs.step(np.full((3, 4), np.inf))
    envs.step(np.zeros((3, 4)))
