"""The batch form: three-cushion strokes per second per core, and the memory of a
1,000,000-stroke batch (docs/physics.md, "Speed and size").

Strokes from the starting position as in ``vs_pooltool.py`` (cue 1–6 m/s, any direction,
tip within 0.5 R, level cue). The rate is measured on one thread (``numba`` threads = 1),
which is what one core does, after a warm-up call; then on all threads for information.
The memory is the peak resident size of this process after simulating a batch of
1,000,000 strokes, with the sizes of its input and outcome arrays.
``--against-version V`` also measures the one-thread rate with the default parameters of
version V, alternating with today's in the same run, and prints the ratio (a shared
machine's load hits both alike). Prints, last, ``strokes per second per core: N``.

Usage: ``.venv/bin/python benchmarks/batch.py [--strokes 200000] [--big 1000000]
[--against-version 1]``.
"""

from __future__ import annotations

import argparse
import math
import resource
import sys
import time

import numba
import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.physics import DEFAULT_PARAMS, Params, simulate_batch
from carom.physics.params import defaults_of

TABLE = TABLES["large"]


def strokes(n: int, seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    start = starting_position(TABLE, Ball.WHITE)
    positions = np.empty((n, 3, 2))
    positions[:] = np.array([start[b] for b in BALLS])
    radius = 0.5 * np.sqrt(rng.uniform(size=n))
    angle = rng.uniform(0, 2 * math.pi, n)
    strikes = np.column_stack([rng.uniform(1.0, 6.0, n), rng.uniform(0.0, 360.0, n),
                               radius * np.cos(angle), radius * np.sin(angle), np.zeros(n)])
    return positions, strikes, np.zeros(n, dtype=np.int64)


def rate(n: int, threads: int, seed: int, params: Params = DEFAULT_PARAMS) -> tuple[float, float]:
    numba.set_num_threads(threads)
    positions, strikes, cue = strokes(n, seed)
    start = time.perf_counter()
    outcome = simulate_batch(positions, strikes, cue, TABLE, params)
    seconds = time.perf_counter() - start
    return n / seconds, float(outcome.n_codes.mean())


def compare(n: int, seed: int, version: int, rounds: int = 4) -> None:
    """One thread, today's defaults and those of ``version`` in turn, ``rounds`` times each."""
    earlier = defaults_of(version)
    now, then = [], []
    for k in range(rounds):   # who goes first alternates
        if k % 2:
            then.append(rate(n, 1, seed, earlier)[0])
        now.append(rate(n, 1, seed)[0])
        if not k % 2:
            then.append(rate(n, 1, seed, earlier)[0])
    ratio = float(np.median(now)) / float(np.median(then))
    print(f"1 thread, alternating: version {DEFAULT_PARAMS.version} {np.median(now):,.0f}, version {version} "
          f"{np.median(then):,.0f} strokes per second: ratio {ratio:.3f} (medians of {rounds})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="carom's batch form: speed and memory")
    ap.add_argument("--strokes", type=int, default=200_000)
    ap.add_argument("--big", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--against-version", type=int, help="also time the defaults of this physics version")
    args = ap.parse_args(argv)
    cores = numba.config.NUMBA_NUM_THREADS
    warm = strokes(100, args.seed)
    simulate_batch(*warm, TABLE)
    one, contacts = rate(args.strokes, 1, args.seed)
    print(f"{args.strokes} three-cushion strokes from the starting position, cue 1–6 m/s, any direction, "
          f"tip within 0.5 R (mean {contacts:.1f} ball/cushion contacts per stroke)")
    print(f"1 thread: {one:,.0f} strokes per second")
    if args.against_version is not None:
        compare(args.strokes, args.seed, args.against_version)
    every, _ = rate(args.strokes, cores, args.seed)
    print(f"{cores} threads: {every:,.0f} strokes per second ({every / cores:,.0f} per thread; "
          "the machine is shared, so this is a lower bound)")
    if args.big:
        numba.set_num_threads(cores)
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        positions, strikes, cue = strokes(args.big, args.seed + 1)
        start = time.perf_counter()
        outcome = simulate_batch(positions, strikes, cue, TABLE)
        seconds = time.perf_counter() - start
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        inputs = positions.nbytes + strikes.nbytes + cue.nbytes
        outputs = sum(a.nbytes for a in (outcome.codes, outcome.n_codes, outcome.end, outcome.duration,
                                         outcome.status))
        print(f"{args.big:,} strokes in {seconds:.1f} s on {cores} threads: inputs {inputs / 2**20:.0f} MiB, "
              f"outcome arrays {outputs / 2**20:.0f} MiB, peak resident size of the process "
              f"{peak:.0f} MiB (before: {before:.0f} MiB)")
    print(f"strokes per second per core: {one:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
