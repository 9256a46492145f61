"""Steps per second of the Gymnasium environment: the vector form against the single one.

    .venv/bin/python benchmarks/gym_vector.py [--envs 1024] [--steps 30] [--single-steps 1000]

Both play ``carom/ThreeCushion-v0`` with its defaults (15 points, 50 innings, the random
opponent) and random actions, on one core (numba runs one thread). The vector form
(``gymnasium.make_vec``, ``num_envs`` matches at once) is timed over ``--steps`` calls of
``step``, each ``num_envs`` environment steps; the single one (``gymnasium.make``) over
``--single-steps`` steps, resetting when an episode ends. An environment step is one
agent stroke and every opponent stroke until the agent is at the table again. The
strokes simulated per step are printed too, and the simulator's batch form alone on the
same positions and strikes (recorded during each step and replayed right after it, so
that both meet the same load; in processor time): the vector form cannot be faster than
that rate divided by the strokes per step. The vector form's steps per second of
processor time are printed too: on a shared machine the elapsed time counts the others'
work as well. The last line is the vector form's figure (elapsed time).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import gymnasium
import numba
import numpy as np

import carom.gym  # noqa: F401  (registers the environment)
from carom.core.table import TABLES
from carom.gym import ENV_ID, vector


def vector_rate(envs: int, steps: int) -> tuple[float, float, float, float]:
    """Steps per second, strokes per step, the simulator's batch form alone on the same
    strokes (timed right after each step so that both meet the same load, in processor
    time), and the steps per second of processor time."""
    env = gymnasium.make_vec(ENV_ID, num_envs=envs)
    env.reset(seed=1)
    rng = np.random.default_rng(2)
    env.step(rng.uniform(-1, 1, (envs, 4)).astype(np.float32))  # the kernels load
    table = TABLES["large"]
    simulate = vector.simulate_batch
    given: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []

    def recording(positions: np.ndarray, strikes: np.ndarray, cue: np.ndarray, *args: Any,
                  **kwargs: Any) -> Any:
        given.append((positions.copy(), strikes.copy(), cue.copy()))
        return simulate(positions, strikes, cue, *args, **kwargs)

    vector.simulate_batch = recording
    in_env = in_simulator = cpu = 0.0
    strokes = 0
    for _ in range(steps):
        actions = rng.uniform(-1, 1, (envs, 4)).astype(np.float32)
        given.clear()
        t, c = time.perf_counter(), time.process_time()
        env.step(actions)
        in_env += time.perf_counter() - t
        cpu += time.process_time() - c
        t = time.process_time()
        for positions, strikes, cue in given:
            simulate(positions, strikes, cue, table)
        in_simulator += time.process_time() - t
        strokes += sum(p.shape[0] for p, _, _ in given)
    vector.simulate_batch = simulate
    return envs * steps / in_env, strokes / (envs * steps), strokes / in_simulator, envs * steps / cpu


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
    single = single_rate(args.single_steps)
    rate, per_step, simulator, per_cpu = vector_rate(args.envs, args.steps)
    print(f"single environment (gymnasium.make): {single:,.0f} steps per second")
    print(f"strokes simulated per environment step: {per_step:.2f} (the agent's and the opponent's)")
    print(f"the simulator's batch form alone on those strokes: {simulator:,.0f} strokes per second of "
          f"processor time, at most {simulator / per_step:,.0f} environment steps per second")
    print(f"vector environment per second of processor time: {per_cpu:,.0f} steps (what one core "
          f"does when other processes share it; numba runs one thread)")
    print(f"vector environment (gymnasium.make_vec, num_envs={args.envs}, one core): "
          f"{rate:,.0f} steps per second ({rate / single:.1f}× the single one)")


if __name__ == "__main__":
    main()
