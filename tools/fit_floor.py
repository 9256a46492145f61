"""How close any strike can bring the simulator to a tracked stroke (docs/fit.md, "What
limits the figures"): the strike read back by ``carom.fit`` against a global search.

For each chosen stroke, seeded differential evolution over the whole fit vector (the
launch, where the object balls lay) minimises the plain mean square of every ball's
samples — the RMSE itself — from the fitted answer, within the fit's own bounds and
side, height and elevation free over their whole range, with tens of thousands of
simulations. If it finds little better than the fit, the figures are the simulator's,
not the search's.

Usage: ``.venv/bin/python tools/fit_floor.py SHOT... [--data FILE] [--maxiter N]``.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
from fit_strokes import DATA, TABLE  # tools/fit_strokes.py, beside this script
from scipy.optimize import differential_evolution

from carom.fit.compare import Comparison
from carom.fit.observed import observe
from carom.fit.search import DEFAULT_BUDGET, DEFAULT_PRIOR, bounds_around, search
from carom.physics import DEFAULT_PARAMS
from carom.track import read_tracked


def rmse(x: np.ndarray, comparison: Comparison) -> float:
    """The root of the mean square of every ball's RMSE."""
    values = comparison.rmse(x).values()
    return math.sqrt(sum(r * r for r in values) / len(values))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shots", nargs="+", type=int)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--maxiter", type=int, default=150)
    args = ap.parse_args(argv)
    strokes = {s.shot: s for s in read_tracked(args.data)}
    for shot in args.shots:
        observed = observe(strokes[shot], TABLE)
        comparison = Comparison(observed, TABLE, DEFAULT_PARAMS)
        found = search(comparison, DEFAULT_BUDGET, DEFAULT_PRIOR)
        unweighted = Comparison(observed, TABLE, DEFAULT_PARAMS)
        low, high = bounds_around(found.x)
        low[2:5], high[2:5] = (-0.5, -0.5, 0.0), (0.5, 0.5, 45.0)
        best = differential_evolution(rmse, list(zip(low, high, strict=True)), args=(unweighted,), seed=40,
                                      popsize=12, maxiter=args.maxiter, tol=1e-9,
                                      x0=np.clip(found.x, low, high), polish=False)
        print(f"shot {shot}: the fit's RMSE (the root of every ball's mean square) "
              f"{100 * rmse(found.x, unweighted):.1f} cm in {comparison.simulations} simulations; the global "
              f"search's {100 * best.fun:.1f} cm in {unweighted.simulations} simulations", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
