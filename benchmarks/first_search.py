"""The first search of the shot finder in a fresh process, once ``make setup`` (``python -m
carom.solve.build``) has compiled and cached its kernels; and, with ``--empty-cache``,
the same in a numba cache of its own that starts empty, as an installation without the
build step would (docs/search.md, "The first search").

    .venv/bin/python benchmarks/first_search.py [--runs 5] [--empty-cache]

Each run is a fresh interpreter that imports carom and runs ``find_shots`` from the
starting position (seed 1, one stroke); it prints the wall time of the call and the CPU
time of the process (on a busy machine the second is the steadier). The last line is the
median.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = r"""
import json, time
wall, cpu = time.perf_counter(), time.process_time()
import carom
start = carom.starting_position("large", "white")
carom.find_shots(start, "white", "three-cushion", "large", seed=1, count=1)
print(json.dumps({"wall": time.perf_counter() - wall, "cpu": time.process_time() - cpu}))
"""


def run_once(env: dict[str, str]) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True, env=env)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--empty-cache", action="store_true", help="one run in an empty numba cache")
    args = parser.parse_args()
    env = dict(os.environ)
    if args.empty_cache:
        with tempfile.TemporaryDirectory() as cache:
            first = run_once({**env, "NUMBA_CACHE_DIR": cache})
        print(f"first search, empty numba cache: {first['wall']:.1f} s ({first['cpu']:.1f} s of CPU)")
        return
    run_once(env)  # the kernels cached, should the build step not have run
    runs = [run_once(env) for _ in range(args.runs)]
    for r in runs:
        print(f"  {r['wall']:.2f} s ({r['cpu']:.2f} s of CPU)")
    wall = statistics.median(r["wall"] for r in runs)
    cpu = statistics.median(r["cpu"] for r in runs)
    print(f"first search in a fresh process, kernels cached: median {wall:.2f} s ({cpu:.2f} s of CPU)")


if __name__ == "__main__":
    main()
