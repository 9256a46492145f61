"""Fit the simulator's values to whole strokes read back, and score them out of sample
(docs/physics.md, "Fidelity: what was tried").

The object balls of ``tools/calibrate.py`` leave their impact with little spin; a
three-cushion cue ball carries side spin round the table. Here the values are fitted to
whole tracked strokes (``tools/fit_strokes.py --save`` gives each stroke's strike read
back with the defaults): with every stroke's strike and where its balls lay held, the
values minimise the soft-L1 cost of every ball's samples of the training strokes
(seeded differential evolution, checks 13, 14 and 16 kept by ``calibrate.py``'s
penalties); the training strokes are read back again with the new values, and the
values fitted again (``--rounds``). **Cross-validated by halves**: the strokes are split
by shot (seeded), the values fitted on one half and the other half read back with them
— its RMSE, first contact, cushions before ball 3 and ruling against the recording's —
beside the same half read back with the defaults.

Usage: ``.venv/bin/python tools/calibrate_strokes.py --fits FITS.json [--free NAME]...
[--seed S] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
from calibrate import corner_penalty, rebound_penalty  # tools/calibrate.py, beside this script
from fit_strokes import DATA, TABLE, THREE_CUSHION, share  # tools/fit_strokes.py
from scipy.optimize import differential_evolution

from carom.core.balls import Ball
from carom.fit import agreement, fit_stroke
from carom.fit.compare import Comparison
from carom.fit.launch import launch_of
from carom.fit.observed import observe
from carom.fit.search import robust_cost
from carom.physics import DEFAULT_PARAMS, Params, Strike
from carom.rules.referee import Verdict
from carom.track import TrackedStroke, read_tracked, track_sequence

BOUNDS = {"mu_roll": (0.0040, 0.0054), "han_e": (0.78, 0.95), "han_mu": (0.12, 0.35), "han_grip": (0.0, 0.8),
          "spin_decay": (3.0, 20.0), "mu_slide": (0.17, 0.25), "e_ball": (0.90, 0.98),
          "throw_b": (0.05, 0.3), "cushion_height": (0.035, 0.038)}
"""The ranges each value may take: PHYSICS.md's, a little wider where the fit may say so."""
FREE = ("mu_roll", "han_e", "han_mu", "han_grip", "spin_decay")


class Training:
    """One training stroke: its comparison with the simulator and its fit's vector."""

    def __init__(self, tracked: TrackedStroke, row: dict[str, Any]) -> None:
        self.tracked = tracked
        self.observed = observe(tracked, TABLE)
        position = {Ball(b): tuple(p) for b, p in row["position"].items()}
        self.set(Strike(tracked.cue, *row["strike"]), row["time"], position)

    def set(self, strike: Strike, moment: float, position: dict[Ball, Any]) -> None:
        comparison = Comparison(self.observed, TABLE, DEFAULT_PARAMS)
        moves = [c for b in comparison.movable for c in np.subtract(position[b], self.observed.position[b])]
        self.x = np.concatenate([launch_of(strike, moment, DEFAULT_PARAMS).vector(), moves])

    def cost(self, params: Params) -> tuple[float, int]:
        r = Comparison(self.observed, TABLE, params).residuals(self.x)
        return robust_cost(r), len(r)


def objective(values: np.ndarray, names: Sequence[str], strokes: Sequence[Training]) -> float:
    params = DEFAULT_PARAMS.replace(**dict(zip(names, map(float, values), strict=True)))
    total = n = 0.0
    for stroke in strokes:
        c, k = stroke.cost(params)
        total, n = total + c, n + k
    return total / n * (1.0 + 10.0 * (rebound_penalty(params) + corner_penalty(params)))


def fit_values(strokes: Sequence[Training], names: Sequence[str], rounds: int, seed: int) -> Params:
    params = DEFAULT_PARAMS
    for r in range(rounds):
        low, high = [BOUNDS[n][0] for n in names], [BOUNDS[n][1] for n in names]
        best = differential_evolution(objective, list(zip(low, high, strict=True)), args=(names, strokes),
                                      seed=seed + r, popsize=8, maxiter=25, tol=1e-7, polish=False,
                                      x0=np.clip([getattr(params, n) for n in names], low, high))
        params = DEFAULT_PARAMS.replace(**dict(zip(names, map(float, best.x), strict=True)))
        defaults = objective(np.array([getattr(DEFAULT_PARAMS, n) for n in names]), names, strokes)
        print(f"  round {r + 1}: " + ", ".join(f"{n} {getattr(params, n):.4g}" for n in names)
              + f"; cost {best.fun:.4f} (the defaults' {defaults:.4f})", flush=True)
        if r + 1 < rounds:
            for stroke in strokes:
                fitted = fit_stroke(stroke.tracked, TABLE, params)
                stroke.set(fitted.strike, fitted.strike_time, dict(fitted.position))
    return params


def scored(strokes: Sequence[TrackedStroke], recorded: dict[object, Verdict],
           params: Params) -> dict[str, Any]:
    moved, same = [], np.zeros(4, dtype=int)
    for tracked in strokes:
        fitted = fit_stroke(tracked, TABLE, params)
        moved += [fitted.rmse[b] for b in fitted.moved]
        a = agreement(fitted.stroke, recorded[tracked.shot], THREE_CUSHION, TABLE)
        same += [a.same_first_contact, a.same_cushions, a.same_ruling, a.same]
    return {"moved": moved, "same": same, "n": len(strokes)}


def report(label: str, s: dict[str, Any]) -> None:
    print(f"{label}: median RMSE of the balls that moved {100 * statistics.median(s['moved']):.1f} cm "
          f"({len(s['moved'])} balls); same first contact {share(s['same'][0], s['n'])}; cushions "
          f"{share(s['same'][1], s['n'])}; ruling {share(s['same'][2], s['n'])}; "
          f"all three {share(s['same'][3], s['n'])}", flush=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fits", type=Path, required=True, help="tools/fit_strokes.py --save's file")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--free", action="append", choices=tuple(BOUNDS))
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args(argv)
    names = tuple(args.free or FREE)
    rows = {r["shot"]: r for r in json.loads(args.fits.read_text())}
    tracked = [s for s in read_tracked(args.data) if s.shot in rows]
    recorded = {r.tracked.shot: r.verdict for r in track_sequence(iter(tracked), THREE_CUSHION, TABLE)}
    order = np.random.default_rng(args.seed).permutation(len(tracked))
    middle = len(tracked) // 2
    halves = [[tracked[i] for i in order[:middle]], [tracked[i] for i in order[middle:]]]
    totals: dict[str, dict[str, Any]] = {"fitted": {"moved": [], "same": np.zeros(4, dtype=int), "n": 0},
                                          "defaults": {"moved": [], "same": np.zeros(4, dtype=int), "n": 0}}
    for k, test in enumerate(halves):
        train = [Training(t, rows[t.shot]) for t in halves[1 - k]]
        print(f"half {k + 1}: fitting {', '.join(names)} on the other {len(train)} strokes", flush=True)
        params = fit_values(train, names, args.rounds, args.seed)
        for label, p in (("fitted", params), ("defaults", DEFAULT_PARAMS)):
            s = scored(test, recorded, p)
            report(f"half {k + 1}, {label} values, OUT-OF-SAMPLE", s)
            totals[label]["moved"] += s["moved"]
            totals[label]["same"] += s["same"]
            totals[label]["n"] += s["n"]
    print()
    report(f"CROSS-VALIDATED (halves by shot, seed {args.seed}), values fitted to strokes", totals["fitted"])
    report("the same strokes read back with the defaults", totals["defaults"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
