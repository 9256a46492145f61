"""Auto-referee speed: tracked strokes judged per second on one core.

    .venv/bin/python benchmarks/track_speed.py [FILE] [--repeat 5] [--synthetic N]

Reads the strokes once, then times detection, stroke record, ruling and confidence
(``track_stroke``) over all of them ``--repeat`` times in one process pinned to one CPU, and
prints the best rate (CPU time) with the median; then the same for the file judged as one
recording (``track_recording``, as ``carom track`` judges it: every stroke detected, the
camera's bias measured over all of them, every stroke judged with it; where the recording
shows a bias, it is taken out of the samples and every stroke read again, which the real
file's camera does not need). ``--synthetic N`` times simulated recordings too, whose
cameras mostly do. The machine may be shared, and a loaded core runs everything slower:
between the timed passes the same process times a plain Python loop step (about 30 ns on an
unloaded current desktop core), and the rate is also given scaled to a 30 ns step (rate ×
step / 30 ns), a figure that moves less with the load than the rate itself. The scaled
figure is printed last.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import read_tracked, track_recording, track_stroke

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
    parser.add_argument("--synthetic", type=int, default=0, metavar="N",
                        help="also time N simulated strokes (seeds 3,000,000 on) judged in recordings of 50, "
                             "with the camera's bias taken out of the samples and left in")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
    rules, table = discipline("three-cushion"), TABLES["large"]
    strokes = list(read_tracked(args.file))
    for tracked in strokes[:5]:
        track_stroke(tracked, rules, table)
    rates, steps, recorded = [], [], []
    for _ in range(args.repeat):
        start = time.process_time()
        for tracked in strokes:
            track_stroke(tracked, rules, table)
        rates.append(len(strokes) / (time.process_time() - start))
        steps.append(loop_step_ns())
        start = time.process_time()
        track_recording(strokes, rules, table)
        recorded.append(len(strokes) / (time.process_time() - start))
    samples = sum(len(t) for s in strokes for t in s.balls.values())
    best = max(rates)
    step = statistics.median(steps)
    print(f"file: {args.file} ({len(strokes)} strokes, {samples} samples)")
    print(f"machine: load average {os.getloadavg()[0]:.2f}, Python loop step {step:.0f} ns "
          f"(from {min(steps):.0f} to {max(steps):.0f} between the passes)")
    print(f"tracked strokes per second, one core: best {best:.0f}, median {statistics.median(rates):.0f} "
          f"({1000.0 / best:.1f} ms a stroke)")
    print(f"judged as one recording (the camera's bias measured over it): best {max(recorded):.0f}, "
          f"median {statistics.median(recorded):.0f} strokes per second")
    print(f"scaled to a 30 ns loop step: {best * step / REFERENCE_STEP_NS:.0f} strokes per second")
    if args.synthetic:
        synthetic_recordings(args.synthetic)


def synthetic_recordings(count: int) -> None:
    """Simulated recordings of 50 judged as ``carom track`` judges a file, in alternation
    with the camera's bias taken out of the samples (every stroke read twice where the
    recording shows a bias) and left in: strokes per second of each (CPU time, best of 3)."""
    from carom.track import tracker
    from carom.track.synthetic import labelled_recordings

    rules, table = discipline("three-cushion"), TABLES["large"]
    recordings = [[s.tracked for s in strokes]
                  for strokes in labelled_recordings(count, 3_000_000, 50, rules, table)]
    shown = tracker.BIAS_SHOWN
    rates: dict[str, list[float]] = {"taken out": [], "left in": []}
    for _ in range(3):
        for name, threshold in (("taken out", shown), ("left in", float("inf"))):
            tracker.BIAS_SHOWN = threshold
            start = time.process_time()
            for strokes in recordings:
                track_recording(strokes, rules, table)
            rates[name].append(count / (time.process_time() - start))
    tracker.BIAS_SHOWN = shown
    print(f"{count} simulated strokes in recordings of 50, strokes per second: "
          + ", ".join(f"bias {name} {max(r):.0f}" for name, r in rates.items()))


REFERENCE_STEP_NS = 30.0
"""The loop step of an unloaded current desktop core, ns."""


if __name__ == "__main__":
    main()
