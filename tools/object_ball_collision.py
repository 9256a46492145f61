"""The object ball's start predicted from the collision, the strict protocol (docs/fit.md,
"Prediction from the cue"; docs/physics.md, "The whole stroke from the cue"): for every
object ball of a replay file, the strike read from the tracks up to the moment it was
struck (``carom.fit.predict``), the collision simulated, and the ball replayed from the
start it gives — velocity and spin, no sample of the object ball in motion — scored as
PHYSICS.md's check 15 scores a replay (``carom.physics.replay``: the error 0.5 s after
the first and the second cushion, the RMSE over the first 4 s; medians, cm).

**Cross-validated by halves**: the cases are split into two halves by shot (seeded); the
simulator's values that ``tools/calibrate.py`` fits (μr, the cushion's e, μ and grip;
spinless starts, checks 13, 14 and 16 kept) are fitted on one half and the other half is
predicted and scored with them, and the other way round. ``--defaults`` scores every case
with the released defaults instead (in-sample: they were fitted to these cases).

**The collision's friction** (``--friction K …``): the ball–ball friction law of PHYSICS.md
(Alciatore's, measured on pool balls) scaled by ``K`` (``throw_a`` and ``throw_b`` times
``K``); each half's ``K`` is the one among those given whose predictions of its own
training half have the smallest median RMSE over 4 s, and the held-out half is scored
with it. The direction's error is also given signed by the cut: positive where the
tracked ball left turned further toward the side the striking ball went off than the
simulated collision sent it (the sense a stronger throw takes out).

Usage: ``.venv/bin/python tools/object_ball_collision.py [--seed S] [--defaults]
[--param NAME=VALUE] [--friction K …]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from collections.abc import Sequence

import numpy as np
from calibrate import MATCH, REPLAY, fit  # tools/calibrate.py, beside this script

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.fit.predict import ObjectBallStart, object_ball_start
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.replay import Case, CaseScore, load_cases, score_case, summarise
from carom.track import TrackedStroke, read_tracked

TABLE = TABLES["large"]


def predicted(cases: Sequence[Case], strokes: dict[object, TrackedStroke],
              params: Params) -> list[tuple[Case, ObjectBallStart | None]]:
    return [(c, object_ball_start(strokes[c.shot], Ball(c.ball), c.t0, TABLE, params)) for c in cases]


def with_friction(params: Params, scale: float) -> Params:
    """The ball–ball friction law scaled by ``scale`` (1: PHYSICS.md's, Alciatore's)."""
    return dataclasses.replace(params, throw_a=DEFAULT_PARAMS.throw_a * scale,
                               throw_b=DEFAULT_PARAMS.throw_b * scale)


def chosen_friction(train: Sequence[Case], strokes: dict[object, TrackedStroke], params: Params,
                    scales: Sequence[float]) -> float:
    """The scale whose predictions of ``train`` have the smallest median RMSE over 4 s."""
    def cost(scale: float) -> float:
        p = with_friction(params, scale)
        return summarise(score_case(started(c, s), p) for c, s in predicted(train, strokes, p)
                         if s is not None).rmse
    costs = {k: cost(k) for k in scales}
    print("  training half's RMSE by friction scale: " + ", ".join(f"{k:g}: {v * 100:.1f} cm"
                                                                   for k, v in costs.items()))
    return min(costs, key=costs.__getitem__)


def toward_the_striker(case: Case, start: ObjectBallStart) -> float:
    """The tracked direction's turn from the simulated one (degrees), positive toward the
    side the striking ball went off (its velocity after the collision, the simulated)."""
    turn = math.remainder(math.atan2(case.v[1], case.v[0]) - math.atan2(start.v[1], start.v[0]), math.tau)
    vx, vy = start.v
    hx, hy = start.striker_v
    return math.degrees(turn) * math.copysign(1.0, vx * hy - vy * hx)


def started(case: Case, start: ObjectBallStart) -> Case:
    """The case replayed from the predicted start (its samples unchanged)."""
    return dataclasses.replace(case, r=start.r, v=start.v, w=start.w, t0=start.t0)


def describe(pairs: Sequence[tuple[Case, ObjectBallStart | None]], params: Params,
             label: str) -> list[CaseScore]:
    scores, speed, turn, spin, cut = [], [], [], [], []
    for case, start in pairs:
        if start is None:
            continue
        scores.append(score_case(started(case, start), params))
        speed.append(math.hypot(*start.v) / math.hypot(*case.v))
        turn.append(math.degrees(math.remainder(math.atan2(start.v[1], start.v[0])
                                                - math.atan2(case.v[1], case.v[0]), math.tau)))
        spin.append(params.ball_radius * start.w[2] / math.hypot(*start.v))
        cut.append(toward_the_striker(case, start))
    missed = sum(start is None for _, start in pairs)
    print(f"{label}: {summarise(scores).line()}; {missed} case(s) the simulated stroke never reached")
    print(f"  the start against the track's (the replay file's v): speed ratio median "
          f"{statistics.median(speed):.3f}, direction median {statistics.median(turn):+.2f}° (median size "
          f"{statistics.median(map(abs, turn)):.2f}°), side spin R·ωz/|v| median size "
          f"{statistics.median(map(abs, spin)):.3f}")
    print(f"  signed by the cut: median {statistics.median(cut):+.2f}° toward the striking ball's side, "
          f"{sum(t > 0 for t in cut)} of {len(cut)} turned that way")
    return scores


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--defaults", action="store_true", help="score with the released defaults (in-sample)")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE")
    ap.add_argument("--friction", type=float, nargs="+", default=None, metavar="K",
                    help="scales of the ball-ball friction law to choose from on each training half")
    args = ap.parse_args(argv)
    base = DEFAULT_PARAMS.with_overrides({n: float(v) for n, v in (p.split("=", 1) for p in args.param)})
    cases = load_cases(REPLAY)
    strokes = {s.shot: s for s in read_tracked(MATCH)}
    if args.defaults:
        describe(predicted(cases, strokes, base), base, "IN-SAMPLE (the defaults, fitted to these cases)")
        return 0
    shots = sorted({c.shot for c in cases})
    order = np.random.default_rng(args.seed).permutation(len(shots))
    half = {shots[i]: int(q >= len(shots) // 2) for q, i in enumerate(order)}
    every: list[CaseScore] = []
    for k in (0, 1):
        train = [c for c in cases if half[c.shot] != k]
        test = [c for c in cases if half[c.shot] == k]
        params = fit(train, [0.0] * len(train), base, False).params
        if args.friction:
            scale = chosen_friction(train, strokes, params, args.friction)
            params = with_friction(params, scale)
            print(f"half {k + 1}: the ball-ball friction law times {scale:g}, chosen on the other half")
        print(f"half {k + 1}: {len(test)} cases; fitted on the other {len(train)}: mu_roll "
              f"{params.mu_roll:.5f}, han_e {params.han_e:.3f}, han_mu {params.han_mu:.3f}, "
              f"han_grip {params.han_grip:.3f}")
        every += describe(predicted(test, strokes, params), params, f"half {k + 1}, OUT-OF-SAMPLE")
    print(f"\nCROSS-VALIDATED (halves by shot, seed {args.seed}), starts from the collision: "
          f"{summarise(every).line()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
