"""Fit the free physics parameters to a real table, and score them out of sample
(PHYSICS.md, checks 12–15; docs/physics.md, "Calibration against the real table").

Reads a replay file (default ``tests/data/object-ball-replay-part1.json``: 54 object
balls of a tracked match, erdo100/3cushiontool, Apache 2.0) and the match's tracks
(``real-3c-match-part1.jsonl``, for the ball that struck each object ball), and scores
check 15 with ``carom.physics.replay``: the median error 0.5 s after the first and the
second cushion, and the median RMSE over the first 4 s.

**Cross-validated figures first.** The cases are split by shot into k folds (seeded);
for each fold the parameters are fitted on the other k − 1 and the fold is scored with
them, so every case is scored once by parameters that never saw it; the medians over
all cases are the cross-validated figures. Then the parameters are fitted on every
case: those are the candidates for the defaults, and their figures on the same cases
are *in-sample* (labelled so).

Two protocols are scored. **Spinless starts** (``"w": [0, 0, 0]``, as the published file
gives them and as the cases held back from the same match are run through ``carom
simulate``) and **starts with the start model's spin** (``carom.physics.object_ball_start``:
backspin b and the cut's side spin κ, from the match's tracks). With ``--starts both`` (the
default) the simulator's values — μr, the cushion model's restitution, friction and (Han)
tangential restitution along the cushion — are fitted to spinless starts, then b and κ with
those values fixed: one set of defaults, both protocols scored out of sample, every fold
fitted exactly as the defaults are. ``--starts spin`` fits everything at once to starts with
spin (version 2's procedure), ``--starts zero`` the simulator's values alone to spinless
starts. The fit minimises check 15's three medians in units of their targets (3, 8 and
7.5 cm) by differential evolution (seeded), bounded to PHYSICS.md's ranges, μr to within
0.0025 m/s² of the deceleration the training cases' tracks show (check 12), with a penalty
once the rebound of a rolling ball leaves 80 % of the tolerances of checks 13 (square on:
0.57 ± 0.03 of its speed) and 14 (45° in: 57.6° ± 4° out) at 0.3, 1 and 3 m/s, and once
check 16's corner-5 strokes leave its tolerances (the third cushion at diamond 2 ± 0.5,
the fourth within a diamond of the opposite corner): every fold's values, not only the
defaults, keep the players' system. Medians,
not means of squares: a few badly tracked cases would steer the latter. Deterministic; a
few minutes.

Usage: ``.venv/bin/python tools/calibrate.py [--model han2005|mathavan2010] [--starts
both|spin|zero] [--folds K] [--seed S] [--free NAME] [--fix NAME=VALUE] [--no-fit] [--data PATH
--match PATH]``. ``--free cushion_height|mu_slide|spin_decay`` fits that value too (within
:data:`BOUNDS`); ``--fix NAME=VALUE`` holds one of the cushion model's values instead of
fitting it (the variants of docs/physics.md's tables of changes tried).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from scipy.optimize import differential_evolution

from carom.core.balls import Ball
from carom.physics.object_ball_start import BACKSPIN, SIDE, approach, cut_sense, read_match, start_spin
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.replay import (
    TABLE,
    Case,
    CaseScore,
    Scores,
    load_cases,
    rolling_decelerations,
    score_case,
    summarise,
)
from carom.physics.simulate import Motion, Run, play
from carom.physics.strike import Strike

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
REPLAY = DATA / "object-ball-replay-part1.json"
MATCH = DATA / "real-3c-match-part1.jsonl"
G = DEFAULT_PARAMS.gravity
TARGETS = (0.03, 0.08, 0.075)
"""Check 15's targets of this calibration (metres): after cushion 1, after cushion 2, RMSE."""

BOUNDS: dict[str, tuple[float, float]] = {
    "han_e": (0.80, 0.95), "han_mu": (0.15, 0.30),
    "mathavan_e": (0.80, 0.95), "mathavan_mu": (0.15, 0.30),
    "backspin": (0.0, 0.2), "side": (-0.3, 0.3),
    "cushion_height": (0.035, 0.038), "mu_slide": (0.18, 0.25), "spin_decay": (5.0, 15.0),
    "han_grip": (0.0, 0.8),
}
"""PHYSICS.md's ranges of the cushion's values; the start model's plausible ones."""
MODEL_FREE = {"han2005": ("han_e", "han_mu", "han_grip"), "mathavan2010": ("mathavan_e", "mathavan_mu")}
START = ("backspin", "side")
EXTRA = ("cushion_height", "mu_slide", "spin_decay")
"""Values that ``--free`` may add to the fit (each tried: docs/physics.md)."""


@dataclasses.dataclass(frozen=True)
class Fitted:
    """Fitted values: the simulator's parameters and the start model's."""

    params: Params
    backspin: float = 0.0
    side: float = 0.0


def composite(s: Scores) -> float:
    """Check 15's three medians in units of their targets, summed."""
    return s.after_first / TARGETS[0] + s.after_second / TARGETS[1] + s.rmse / TARGETS[2]


def rebound(params: Params, angle: float, speed: float = 1.0) -> tuple[float, float]:
    """A rolling ball meets the right cushion at ``angle`` degrees from the normal: its
    speed, as a fraction of the incoming one, and its angle from the normal once it
    rolls again (checks 13 and 14)."""
    R = params.ball_radius
    a = math.radians(angle)
    vx, vy = speed * math.cos(a), speed * math.sin(a)
    run = play({Ball.WHITE: (TABLE.width - R - 1e-4, 0.5)}, None, TABLE, params,
               {Ball.WHITE: Motion((vx, vy), (-vy / R, vx / R, 0.0))})
    kinds, news = run.log_kind[:run.n_log], run.log_b[:run.n_log]
    hit = int(np.argmax(kinds == 2))
    rolls = hit + 1 + int(np.argmax((kinds[hit + 1:] == 3) & (news[hit + 1:] == 3)))
    out = run.log_state[rolls, 0]
    angle = math.degrees(math.atan2(abs(out[3]), abs(out[2])))
    return float(math.hypot(out[2], out[3]) / speed), float(angle)


def rebound_penalty(params: Params) -> float:
    """0 inside 80 % of the tolerances of checks 13 and 14 (at 0.3–3 m/s), growing outside."""
    worst = 0.0
    for speed in (0.3, 1.0, 3.0):
        ratio, _ = rebound(params, 0.0, speed)
        _, angle = rebound(params, 45.0, speed)
        worst = max(worst, max(0.0, abs(ratio - 0.57) - 0.024) / 0.03
                    + max(0.0, abs(angle - 57.6) - 3.2) / 4.0)
    return worst


CORNER_FIVE = ((3.0, 0.3, 0.0), (3.0, 0.3, 0.2), (3.5, 0.3, 0.2), (4.0, 0.3, 0.2), (4.0, 0.4, 0.0),
               (3.0, 0.2, 0.2))
"""Check 16's strokes (tests/physics/test_checks_real_table.py): cue speed, side, height."""


def corner_five(params: Params, speed: float, side: float, height: float,
                aim: float = 3.0) -> list[tuple[float, float]]:
    """Check 16: the cue ball from the top-left corner through diamond ``aim`` of the right
    long cushion; where it meets each cushion, (x, y) in diamonds."""
    d = TABLE.diamond
    run = corner_run(params, speed, side, height, aim)
    hits = np.flatnonzero(run.log_kind[:run.n_log] == 2)
    return [(float(run.log_state[k, 0, 0]) / d, float(run.log_state[k, 0, 1]) / d) for k in hits]


def corner_run(params: Params, speed: float, side: float, height: float, aim: float = 3.0) -> Run:
    """The run of :func:`corner_five`'s stroke."""
    d = TABLE.diamond
    R = params.ball_radius
    corner = (0.0, TABLE.length)
    heading = math.atan2(aim * d - corner[1], TABLE.width - corner[0])
    start = (max(corner[0] + 0.5 * d * math.cos(heading), R + 0.01),
             min(corner[1] + 0.5 * d * math.sin(heading), TABLE.length - R - 0.01))
    heading = math.atan2(aim * d - start[1], TABLE.width - start[0])
    return play({Ball.WHITE: start}, Strike(Ball.WHITE, speed, math.degrees(heading), side, height), TABLE,
                params)


def corner_penalty(params: Params) -> float:
    """0 while check 16's strokes keep within the test's tolerances (the third cushion at
    diamond 2 ± 0.5, the fourth within a diamond of the opposite corner), growing outside."""
    worst = 0.0
    for speed, side, height in CORNER_FIVE:
        hits = corner_five(params, speed, side, height)
        if len(hits) < 4:
            return 10.0
        third, fourth = hits[2][1], hits[3]
        worst = max(worst, max(0.0, abs(third - 2.0) - 0.5) / 0.5
                    + max(0.0, 7.0 - fourth[1]) / 0.5 + max(0.0, 3.0 - fourth[0]) / 0.5)
    return worst


def spun(cases: Sequence[Case], senses: Sequence[float], backspin: float, side: float) -> list[Case]:
    """The cases with the start model's spin."""
    return [dataclasses.replace(c, w=start_spin(c.v, s, backspin, side))
            for c, s in zip(cases, senses, strict=True)]


def scored(cases: Sequence[Case], senses: Sequence[float], fitted: Fitted) -> list[CaseScore]:
    return [score_case(c, fitted.params) for c in spun(cases, senses, fitted.backspin, fitted.side)]


def fit(cases: Sequence[Case], senses: Sequence[float], base: Params, starts: bool, seed: int = 1,
        free: Sequence[str] | None = None, params_free: bool = True) -> Fitted:
    """The free values that minimise :func:`composite` on ``cases``: μr and ``free`` (by
    default the cushion model's values, :data:`MODEL_FREE`; unless not ``params_free``:
    then ``base`` stays), and the start model's two values if ``starts``."""
    decel = float(np.median([d for _, d in rolling_decelerations(cases)]))
    if free is None:
        free = MODEL_FREE[base.cushion_model]
    names = (*(free if params_free else ()), *(START if starts else ()))
    bounds = [*([((decel - 0.0025) / G, (decel + 0.0025) / G)] if params_free else []),
              *(BOUNDS[n] for n in names)]

    def make(x: np.ndarray) -> Fitted:
        values = dict(zip(names, (float(v) for v in (x[1:] if params_free else x)), strict=True))
        start = {n: values.pop(n) for n in START if n in values}
        params = base.replace(mu_roll=float(x[0]), **values) if params_free else base
        return Fitted(params, **start)

    def objective(x: np.ndarray) -> float:
        fitted = make(x)
        penalty = (10.0 * (rebound_penalty(fitted.params) + corner_penalty(fitted.params))
                   if params_free else 0.0)
        return composite(summarise(scored(cases, senses, fitted))) * (1.0 + penalty)

    best = differential_evolution(objective, bounds, seed=seed, popsize=10, maxiter=40, tol=1e-6,
                                  polish=False)
    return make(best.x)


def fit_both(cases: Sequence[Case], senses: Sequence[float], base: Params,
             free: Sequence[str] | None = None) -> Fitted:
    """The simulator's values fitted to spinless starts (the published file's, and the
    protocol of the cases held back), then the start model's two values fitted with those
    values fixed: one set of defaults for both protocols."""
    params = fit(cases, [0.0] * len(cases), base, False, free=free).params
    return fit(cases, senses, params, True, params_free=False)


def folds(cases: Sequence[Case], k: int, seed: int) -> list[list[int]]:
    """Indices of ``cases`` in ``k`` folds, whole shots together, shuffled with ``seed``."""
    shots = sorted({c.shot for c in cases})
    order = np.random.default_rng(seed).permutation(len(shots))
    fold_of = {shots[i]: q % k for q, i in enumerate(order)}
    return [[i for i, c in enumerate(cases) if fold_of[c.shot] == f] for f in range(k)]


def cross_validate(cases: Sequence[Case], senses: Sequence[float], base: Params, starts: str, k: int,
                   seed: int, free: Sequence[str] | None = None
                   ) -> tuple[list[CaseScore], list[CaseScore], list[Fitted]]:
    """Every case scored by values fitted on the folds without it (``starts``: ``both``,
    :func:`fit_both`; ``spin``, everything fitted at once to starts with the start model's
    spin; ``zero``, fitted to spinless starts): with the start model's spin (as fitted)
    and without spin; and each fold's fitted values."""
    held: list[CaseScore | None] = [None] * len(cases)
    spinless: list[CaseScore | None] = [None] * len(cases)
    per_fold = []
    for fold in folds(cases, k, seed):
        rest = [i for i in range(len(cases)) if i not in fold]
        train, train_senses = [cases[i] for i in rest], [senses[i] for i in rest]
        if starts == "both":
            fitted = fit_both(train, train_senses, base, free)
        else:
            spin = starts == "spin"
            fitted = fit(train, train_senses if spin else [0.0] * len(rest), base, spin, free=free)
        mine = [cases[i] for i in fold]
        for i, a, b in zip(fold, scored(mine, [senses[i] for i in fold], fitted),
                           scored(mine, [0.0] * len(fold), Fitted(fitted.params)), strict=True):
            held[i], spinless[i] = a, b
        per_fold.append(fitted)
    return [s for s in held if s is not None], [s for s in spinless if s is not None], per_fold


def describe(fitted: Fitted) -> str:
    p = fitted.params
    han = p.cushion_model == "han2005"
    more = "".join(f", {n} = {getattr(p, n):g}" for n in EXTRA if getattr(p, n) != getattr(DEFAULT_PARAMS, n))
    cushion = (f"e = {p.han_e:.4f}, mu = {p.han_mu:.4f}, grip = {p.han_grip:.4f}" if han
               else f"e = {p.mathavan_e:.4f}, mu = {p.mathavan_mu:.4f}")
    ratio, _ = rebound(p, 0.0)
    _, angle = rebound(p, 45.0)
    return (f"mu_roll = {p.mu_roll:.5f} ({p.mu_roll * G:.4f} m/s²), {cushion}{more}, "
            f"start backspin = {fitted.backspin:.3f}, side = {fitted.side:.3f}; check 13: {ratio:.3f} "
            f"(0.57 ± 0.03), check 14: {angle:.1f}° (57.6 ± 4)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=REPLAY)
    ap.add_argument("--match", type=Path, default=MATCH, help="the match's tracks (for the striking balls)")
    ap.add_argument("--model", choices=tuple(MODEL_FREE), default=DEFAULT_PARAMS.cushion_model)
    ap.add_argument("--starts", choices=("both", "spin", "zero"), default="both",
                    help="both (default): the simulator's values fitted to spinless starts, then the start "
                         "model's spin with them fixed; spin: everything fitted at once to starts with the "
                         "start model's spin; zero: fitted to spinless starts only")
    ap.add_argument("--folds", type=int, default=6, help="k of the k-fold cross-validation (default 6)")
    ap.add_argument("--seed", type=int, default=15, help="seed of the split into folds")
    ap.add_argument("--no-fit", action="store_true", help="only score the defaults (no fit)")
    ap.add_argument("--free", action="append", default=[], choices=EXTRA,
                    help="fit this value too, within its range of BOUNDS (repeatable)")
    ap.add_argument("--fix", action="append", default=[], metavar="NAME=VALUE",
                    help="hold one of the cushion model's fitted values at VALUE instead (repeatable)")
    args = ap.parse_args(argv)
    cases = load_cases(args.data)
    strokes = read_match(args.match)
    senses = [cut_sense(c.v, approach(strokes[c.shot], c.ball, c.r, c.t0) if c.shot in strokes else None)
              for c in cases]
    print(f"{len(cases)} cases ({len({c.shot for c in cases})} shots) from {args.data.name}; "
          f"the striking ball found for {sum(s != 0 for s in senses)}")
    decel = np.array([d for _, d in rolling_decelerations(cases)])
    print(f"check 12, tracked rolling deceleration: median {np.median(decel):.4f} m/s² (quartiles "
          f"{np.percentile(decel, 25):.4f}–{np.percentile(decel, 75):.4f}, {len(decel)} stretches; "
          "target 0.041–0.052)")
    base = DEFAULT_PARAMS.replace(cushion_model=args.model)
    held: dict[str, float] = {}
    for item in args.fix:
        name, _, value = item.partition("=")
        if name not in MODEL_FREE[args.model]:
            ap.error(f"--fix {item}: {name!r} is not one of {', '.join(MODEL_FREE[args.model])}")
        try:
            held[name] = float(value)
        except ValueError:
            ap.error(f"--fix {item}: {value!r} is not a number")
    try:
        base = base.replace(**held)
    except ValueError as error:
        ap.error(f"--fix: {error}")
    free = (*(n for n in MODEL_FREE[args.model] if n not in held), *dict.fromkeys(args.free))
    defaults = Fitted(base, BACKSPIN, SIDE)
    print(f"defaults (version {base.version}, {args.model}): {describe(defaults)}")
    print(f"defaults, start spin: {summarise(scored(cases, senses, defaults)).line()}")
    print(f"defaults, no start spin: {summarise(scored(cases, [0.0] * len(cases), Fitted(base))).line()}")
    if any(c.w != (0.0, 0.0, 0.0) for c in cases):
        print(f"defaults, the starts as {args.data.name} gives them: "
              f"{summarise(score_case(c, base) for c in cases).line()}")
    if args.no_fit:
        return 0
    scored_held, spinless, per_fold = cross_validate(cases, senses, base, args.starts, args.folds, args.seed,
                                                     free)
    for f, fitted in enumerate(per_fold):
        print(f"fold {f + 1}/{args.folds}, fitted on the others: {describe(fitted)}")
    how = f"{args.folds}-fold by shot, seed {args.seed}, fitted with starts {args.starts}"
    if args.starts != "zero":
        print(f"CROSS-VALIDATED ({how}), scored with the start model's spin: {summarise(scored_held).line()}")
    print(f"CROSS-VALIDATED ({how}), scored with spinless starts (w = 0): {summarise(spinless).line()}")
    if args.starts == "both":
        fitted = fit_both(cases, senses, base, free)
    else:
        spin = args.starts == "spin"
        fitted = fit(cases, senses if spin else [0.0] * len(cases), base, spin, free=free)
    print(f"fitted on every case: {describe(fitted)}")
    if args.starts != "zero":
        print(f"fitted on every case, IN-SAMPLE (scored on the cases it was fitted to), start model's spin: "
              f"{summarise(scored(cases, senses, fitted)).line()}")
    print(f"fitted on every case, IN-SAMPLE (scored on the cases it was fitted to), spinless starts: "
          f"{summarise(scored(cases, [0.0] * len(cases), Fitted(fitted.params))).line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
