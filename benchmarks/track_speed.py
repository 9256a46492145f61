"""Auto-referee speed (docs/speed.md): tracked strokes judged per second on one core.

    .venv/bin/python benchmarks/track_speed.py [FILE] [--repeat 5]

Reads the strokes once, then times detection, stroke record, ruling and confidence
(``track_stroke``) over all of them ``--repeat`` times in one process pinned to one CPU,
and prints the best rate (CPU time) with the median. The machine may be shared: it
also prints the load average and how long this Python takes for a simple loop step, to
compare runs across machines (about 30 ns on an unloaded current desktop core).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import read_tracked, track_stroke

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"


def loop_step_ns(count: int = 2_000_000) -> float:
    start = time.process_time()
    x = 0.0
    for _ in range(count):
        x = x * 0.5 + 1.0
    return (time.process_time() - start) / count * 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules, table = discipline("three-cushion"), TABLES["large"]
    strokes = list(read_tracked(args.file))
    for tracked in strokes[:5]:
        track_stroke(tracked, rules, table)
    rates = []
    for _ in range(args.repeat):
        start = time.process_time()
        for tracked in strokes:
            track_stroke(tracked, rules, table)
        rates.append(len(strokes) / (time.process_time() - start))
    samples = sum(len(t) for s in strokes for t in s.balls.values())
    print(f"file: {args.file} ({len(strokes)} strokes, {samples} samples)")
    print(f"tracked strokes per second, one core: best {max(rates):.0f}, "
          f"median {statistics.median(rates):.0f} ({1000.0 / max(rates):.1f} ms a stroke)")
    print(f"machine: load average {os.getloadavg()[0]:.2f}, Python loop step {loop_step_ns():.0f} ns")


if __name__ == "__main__":
    main()
