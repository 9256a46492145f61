"""Auto-referee on every family of simulated cameras, against the targets of docs/auto-referee.md.

    .venv/bin/python benchmarks/track_families.py [--strokes 1000] [--family NAME ...] [--recording 50]
        [--seed 20000000] [--cache DIR]

For each family (:data:`carom.track.synthetic.CAMERAS`; all by default), plays ``--strokes``
labelled strokes from its own block of fresh seeds (``track_sets.first_seed``), in
recordings of ``--recording`` seen by one camera on one table, judges each recording as
``carom track`` judges a file, and prints the agreement, the wrong rulings and how many
were flagged, the doubtful strokes, the rulings at confidence 0.99 or more and how many
were right, each share with its 95 % interval, the Brier score and the reliability table.
Then the real match file (in-sample: it was looked at while the detector was written).

The targets: every test-only family at least 98.5 % agreement and at least
99.5 % right among the rulings at confidence 0.99 or more. The test-only families measure;
nothing of the detector is chosen on them.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from track_sets import FRESH, cached, judged_real, judged_recording, real_rulings, recordings, score

from carom.track.judging.calibration import reliability_lines
from carom.track.synthetic import CAMERAS, Family

AGREEMENT_TARGET = 0.985
SURE_TARGET = 0.995


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--strokes", type=int, default=1000)
    parser.add_argument("--family", nargs="*", choices=tuple(CAMERAS), default=list(CAMERAS))
    parser.add_argument("--recording", type=int, default=50)
    parser.add_argument("--seed", type=int, default=FRESH, help="the first seed of the first family's block")
    parser.add_argument("--table", action="store_true", help="print each family's reliability table")
    parser.add_argument("--cache", type=Path, default=None,
                        help="a directory to keep each family's strokes in between runs (a file per "
                             "family and size, made when missing): one set judged before and after a change")
    args = parser.parse_args()
    for name in args.family:
        started = time.perf_counter()
        kept = None if args.cache is None else \
            args.cache / f"{name}-{args.strokes}-{args.recording}-{args.seed}.pkl"
        sets = cached(kept, lambda name=name: list(recordings(name, args.strokes, args.recording, args.seed)))
        judged = [j for cases in sets for j in judged_recording(cases)]
        found = score(judged)
        family = CAMERAS[name]
        test_only = isinstance(family, Family) and family.test_only
        met = (found.right >= AGREEMENT_TARGET * found.count
               and found.sure_right >= SURE_TARGET * found.sure)
        verdict = ("targets met" if met else "targets NOT met") if test_only else "development family"
        print(f"{name:14s} {found.line()}  [{verdict}; {time.perf_counter() - started:.0f} s]", flush=True)
        if args.table:
            for line in reliability_lines(judged):
                print(f"    {line}")
    real = judged_real(real_rulings())
    print(f"{'real file':14s} {score(real).line()}  [in-sample]")
    if args.table:
        for line in reliability_lines(real):
            print(f"    {line}")


if __name__ == "__main__":
    main()
