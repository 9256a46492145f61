"""How long ``carom fit`` takes per stroke on one core (docs/fit.md, "Speed"; the
target: at most 1 s per stroke).

Reads back every stroke of the real file (``tests/data/real-3c-match-part1.jsonl``, 91
strokes) with ``carom.fit.fit_stroke`` and its default budget (3,000 simulations, 1
processor second as a guard), one after the other in this process, after one warm-up
stroke (the compiled kernels loaded). Each stroke's time is the processor time of its
fit (one core: the fit runs on one thread), so other jobs on the machine change it
little. Prints the median, the 90th percentile and the most, how many strokes the guard
stopped, and last ``per stroke: S s`` (the median).

Usage: ``.venv/bin/python benchmarks/fit_speed.py [--strokes N]``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from carom.core.errors import CaromError
from carom.core.table import TABLES
from carom.fit import fit_stroke
from carom.track import read_tracked

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"
STOPPED = "the fit ran out of its time before it ended"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strokes", type=int, default=91)
    args = ap.parse_args(argv)
    table = TABLES["large"]
    strokes = list(read_tracked(DATA))[: args.strokes]
    fit_stroke(strokes[0], table)  # warm-up: the kernels loaded
    seconds, simulations, stopped = [], [], 0
    wall = time.perf_counter()
    for tracked in strokes:
        started = time.process_time()
        try:
            fitted = fit_stroke(tracked, table)
        except CaromError:
            continue
        seconds.append(time.process_time() - started)
        simulations.append(fitted.simulations)
        stopped += STOPPED in fitted.problems
    wall = time.perf_counter() - wall
    seconds.sort()
    tail = seconds[int(0.9 * (len(seconds) - 1))]
    print(f"{len(seconds)} strokes read back in {wall:.1f} s of wall time; processor seconds per stroke: "
          f"median {statistics.median(seconds):.3f}, 90th percentile {tail:.3f}, "
          f"most {seconds[-1]:.3f}; simulations per stroke: median {statistics.median(simulations):.0f}; "
          f"stopped by the 1 s guard: {stopped}")
    print(f"per stroke: {statistics.median(seconds):.3f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
