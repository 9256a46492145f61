"""Steps per second of the Gymnasium environment: the vector form against the single one.

    .venv/bin/python benchmarks/gym_vector.py [--envs 1024] [--steps 30] [--single-steps 1000]

Both play ``carom/ThreeCushion-v0`` with its defaults (15 points, 50 innings, the random
opponent) and random actions, on one core (numba runs one thread). The vector form
(``gymnasium.make_vec``, ``num_envs`` matches at once) is timed over ``--steps`` calls of
``step``, each ``num_envs`` environment steps; the single one (``gymnasium.make``) over
``--single-steps`` steps, resetting when an episode ends. An environment step is one
agent stroke and every opponent stroke until the agent is at the table again. The
strokes simulated per step are printed too: the simulator's batch form is most of the
cost. The last line is the vector form's figure.
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numba
import numpy as np

import carom.gym
from carom.gym import ENV_ID


def vector_rate(envs: int, steps: int) -> tuple[float, float]:
    env = gymnasium.make_vec(ENV_ID, num_envs=envs)
    env.reset(seed=1)
    rng = np.random.default_rng(2)
    env.step(rng.uniform(-1, 1, (envs, 4)).astype(np.float32))  # the kernels load
    matches = env.unwrapped.matches if hasattr(env, "unwrapped") else env.matches
    before = int(matches.strokes.sum())
    t = time.perf_counter()
    for _ in range(steps):
        env.step(rng.uniform(-1, 1, (envs, 4)).astype(np.float32))
    elapsed = time.perf_counter() - t
    strokes = max(int(matches.strokes.sum()) - before, 0)
    return envs * steps / elapsed, strokes / (envs * steps)


def single_rate(steps: int) -> float:
    env = gymnasium.make(ENV_ID)
    env.reset(seed=1)
    env.action_space.seed(2)
    env.step(env.action_space.sample())
    t = time.perf_counter()
    for _ in range(steps):
        _, _, terminated, truncated, _ = env.step(env.action_space.sample())
        if terminated or truncated:
            env.reset()
    return steps / (time.perf_counter() - t)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--envs", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--single-steps", type=int, default=1000)
    args = parser.parse_args()
    numba.set_num_threads(1)
    del carom.gym
    single = single_rate(args.single_steps)
    vector, per_step = vector_rate(args.envs, args.steps)
    print(f"single environment (gymnasium.make): {single:,.0f} steps per second")
    print(f"strokes simulated per environment step: {per_step:.2f} (the agent's and the opponent's)")
    print(f"vector environment (gymnasium.make_vec, num_envs={args.envs}, one core): "
          f"{vector:,.0f} steps per second ({vector / single:.1f}× the single one)")


if __name__ == "__main__":
    main()
