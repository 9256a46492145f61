"""Read back every stroke of a tracked file and print the figures of the stroke read back
(docs/physics.md, "The whole stroke from the cue"): the re-simulated stroke's RMSE per
ball, its first contact, cushions before ball 3 and ruling against the recording's (the
auto-referee's), with 95 % intervals, and the processor time per stroke.

Every figure is **in-sample** in one sense and in no other: the strike is fitted to the
stroke it is scored on (what "read back" means); the simulator's parameters are its
defaults, fitted to the object balls of the same match (``tools/calibrate.py``).

Usage: ``.venv/bin/python tools/fit_strokes.py [--data FILE] [--save FITS.json]
[--simulations N] [--seconds S] [--param NAME=VALUE]``; ``--save`` keeps each stroke's fit (strike, where the
balls lay, RMSE, readings) for ``tools/predict_from_cue.py`` and ``tools/fit_stages.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from carom.core.errors import CaromError
from carom.core.table import TABLES
from carom.fit import Budget, agreement, fit_stroke
from carom.physics.params import DEFAULT_PARAMS
from carom.rules.disciplines import DISCIPLINES
from carom.track import read_tracked, track_sequence

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"
TABLE = TABLES["large"]
THREE_CUSHION = DISCIPLINES["three-cushion"]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion k/n (95 % by default)."""
    if n == 0:
        return math.nan, math.nan
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def share(k: int, n: int) -> str:
    low, high = wilson(k, n)
    return f"{k}/{n} = {100 * k / n:.1f} % (95 % interval {100 * low:.1f}–{100 * high:.1f} %)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--save", type=Path)
    ap.add_argument("--simulations", type=int, default=Budget().simulations)
    ap.add_argument("--seconds", type=float, default=Budget().seconds)
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="a simulator value other than its default (e.g. throw_a=0.03)")
    args = ap.parse_args(argv)
    params = DEFAULT_PARAMS.with_overrides({n: float(v) for n, v in (p.split("=", 1) for p in args.param)})
    strokes = list(read_tracked(args.data))
    recorded = list(track_sequence(iter(strokes), THREE_CUSHION, TABLE))
    budget = Budget(args.simulations, args.seconds)
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    for tracked, ruling in zip(strokes, recorded, strict=True):
        try:
            fitted = fit_stroke(tracked, TABLE, params, budget=budget)
        except CaromError as error:
            print(f"shot {tracked.shot}: not fitted: {error}", flush=True)
            continue
        agreed = agreement(fitted.stroke, ruling.verdict, THREE_CUSHION, TABLE)
        s = fitted.strike
        rows.append({
            "shot": tracked.shot, "cue": tracked.cue.value, "played": fitted.played,
            "problems": fitted.problems,
            "strike": [s.speed, s.direction, s.side, s.height, s.elevation], "time": fitted.strike_time,
            "position": {b.value: list(p) for b, p in fitted.position.items()},
            "rmse": {b.value: r for b, r in fitted.rmse.items()},
            "moved": [b.value for b in fitted.moved],
            "free_run_rms": fitted.free_run_rms, "seconds": fitted.seconds, "simulations": fitted.simulations,
            "same": [agreed.same_first_contact, agreed.same_cushions, agreed.same_ruling, agreed.same],
            "recorded": [str(agreed.recorded.first_contact), agreed.recorded.cushions,
                         agreed.recorded.words()],
            "fitted": [str(agreed.fitted.first_contact), agreed.fitted.cushions, agreed.fitted.words()],
        })
        r = rows[-1]
        errors = ", ".join(f"{b} {100 * r['rmse'][b]:.1f} cm" for b in r["moved"])
        same = "/".join("yes" if x else "no" for x in r["same"][:3])
        print(f"shot {tracked.shot}: RMSE {errors}; same {same}; {fitted.seconds:.2f} s", flush=True)
    if args.save:
        args.save.write_text(json.dumps(rows))
    n = len(rows)
    moved = [r["rmse"][b] for r in rows for b in r["moved"]]
    pooled = [math.sqrt(statistics.fmean(r["rmse"][b] ** 2 for b in r["moved"])) for r in rows if r["moved"]]
    print(f"\n{n} strokes read back of {len(strokes)} ({time.perf_counter() - started:.0f} s of wall time)")
    low, _, high = statistics.quantiles(moved, n=4)
    print(f"median RMSE of the balls that moved: {100 * statistics.median(moved):.1f} cm "
          f"over {len(moved)} balls "
          f"(quartiles {100 * low:.1f}–{100 * high:.1f})")
    print(f"median over strokes of the RMSE of the balls that moved, taken together: "
          f"{100 * statistics.median(pooled):.1f} cm")
    every = [r["rmse"][b] for r in rows for b in r["rmse"]]
    print(f"median RMSE of every ball (the balls at rest too): {100 * statistics.median(every):.1f} cm")
    for k, name in enumerate(("first contact", "cushions before ball 3", "ruling", "all three")):
        print(f"same {name} as the recording: {share(sum(r['same'][k] for r in rows), n)}")
    print(f"offered as what was played: {sum(r['played'] for r in rows)}/{n}")
    out = sum("the fit ran out of its time before it ended" in r["problems"] for r in rows)
    print(f"ran out of budget: {out}")
    seconds = sorted(r["seconds"] for r in rows)
    print(f"processor seconds per stroke: median {statistics.median(seconds):.2f}, 90th percentile "
          f"{seconds[int(0.9 * (n - 1))]:.2f}, most {seconds[-1]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
