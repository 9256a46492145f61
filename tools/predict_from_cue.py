"""Prediction from the cue's first 0.2 s, the strict protocol (docs/fit.md, "Prediction
from the cue"; the figures in docs/physics.md): every stroke of a tracked file simulated
from where the balls lay and the strike read from the cue ball's first 0.2 s only
(before any contact), its first contact, cushions before ball 3 and ruling against the
recording's (the auto-referee's), **cross-validated by halves**.

The first 0.2 s show the ball's speed, heading and (where it began to roll) the tip's
height, never the side. What stands for the side is fitted: side ``s·m·σ`` with σ the
running sense at the cue ball's first cushion (the sense of English that carries it on
along that cushion, read from the stroke simulated without side), m its size and s its
sign (+1 running, −1 reverse), and the cue's elevation e. The strokes are split into two
halves by shot (seeded); for each half, (m, s, e) is the candidate that gives the most
same rulings on the other half, and the half is scored with it: every stroke is scored
by values fitted without it. The figure is the share of same rulings over both halves,
with its 95 % interval (Wilson).

Usage: ``.venv/bin/python tools/predict_from_cue.py [--data FILE] [--seed S] [--window 0.2]``.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

import numpy as np
from fit_strokes import DATA, TABLE, THREE_CUSHION, share  # tools/fit_strokes.py, beside this script

from carom.core.errors import CaromError
from carom.fit.agreement import Agreement, agreement
from carom.fit.launch import Launch, launch_of, strike_of
from carom.fit.predict import FIRST_RUN, Prediction, predict_from_cue
from carom.physics import DEFAULT_PARAMS, simulate
from carom.physics import layout as L
from carom.physics.simulate import play
from carom.rules.referee import Verdict
from carom.track import TrackedStroke, read_tracked, track_sequence

SIZES = (0.0, 0.1, 0.2, 0.3, 0.4)
SIGNS = (1.0, -1.0)
ELEVATIONS = (0.0, 10.0, 20.0)
NORMALS = {L.BOTTOM: (0.0, -1.0), L.TOP: (0.0, 1.0), L.LEFT: (-1.0, 0.0), L.RIGHT: (1.0, 0.0)}
Candidate = tuple[float, float, float]


def running_sense(prediction: Prediction, tracked: TrackedStroke) -> float:
    """σ: the sense of the side (+1 right English) that runs along the cue ball's first
    cushion in the stroke simulated as read (0 when it meets none). Right English spins
    the ball counter-clockwise seen from above; a ball meeting a cushion with normal n
    at velocity v runs on with the spin whose sense is that of −(n × v)."""
    run = play(prediction.position, prediction.strike, TABLE, DEFAULT_PARAMS)
    cue = run.balls.index(tracked.cue)
    for k in range(1, run.n_log):
        if run.log_kind[k] == L.EVENT_CUSHION and run.log_a[k] == cue:
            nx, ny = NORMALS[int(run.log_b[k])]
            vx, vy = run.log_state[k - 1, cue, L.VX], run.log_state[k - 1, cue, L.VY]
            return -float(np.sign(nx * vy - ny * vx))
    return 0.0


def reading(prediction: Prediction, tracked: TrackedStroke, candidate: Candidate, sense: float,
            recorded: Verdict) -> Agreement:
    size, sign, elevation = candidate
    launch = launch_of(prediction.strike, prediction.strike_time, DEFAULT_PARAMS)
    strike = strike_of(Launch(launch.speed, launch.heading, sign * size * sense, launch.height, elevation,
                              launch.time), tracked.cue, DEFAULT_PARAMS)
    return agreement(simulate(prediction.position, strike, TABLE), recorded, THREE_CUSHION, TABLE)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--window", type=float, default=FIRST_RUN)
    args = ap.parse_args(argv)
    strokes = list(read_tracked(args.data))
    recorded = {r.tracked.shot: r.verdict for r in track_sequence(iter(strokes), THREE_CUSHION, TABLE)}
    candidates = list(itertools.product(SIZES, SIGNS, ELEVATIONS))
    same: dict[object, dict[Candidate, Agreement]] = {}
    for tracked in strokes:
        try:
            prediction = predict_from_cue(tracked, TABLE, window=args.window)
        except CaromError as error:
            print(f"shot {tracked.shot}: not read: {error}")
            continue
        sense = running_sense(prediction, tracked)
        verdict = recorded[tracked.shot]
        same[tracked.shot] = {c: reading(prediction, tracked, c, sense, verdict) for c in candidates}
    shots = sorted(same, key=str)
    order = np.random.default_rng(args.seed).permutation(len(shots))
    halves = [[shots[i] for i in order[: len(shots) // 2]], [shots[i] for i in order[len(shots) // 2:]]]

    def rulings(chosen: list[object], candidate: Candidate) -> int:
        return sum(same[shot][candidate].same_ruling for shot in chosen)

    def best(chosen: list[object]) -> Candidate:
        return max(candidates, key=lambda c: (rulings(chosen, c), -c[0], -c[2]))

    scored = points_kept = misses_kept = 0
    agreed = {"first contact": 0, "cushions before ball 3": 0, "ruling": 0}
    for k, test in enumerate(halves):
        train = halves[1 - k]
        chosen = best(train)
        size, sign, elevation = chosen
        print(f"half {k + 1} ({len(test)} strokes): fitted on the other half: side {sign * size:+.1f}·σ, "
              f"elevation {elevation:.0f}° ({rulings(train, chosen)}/{len(train)} same rulings there); "
              f"on this half: {share(rulings(test, chosen), len(test))}")
        for shot in test:
            a = same[shot][chosen]
            points_kept += bool(a.recorded.points and a.same_ruling)
            misses_kept += bool(not a.recorded.points and a.same_ruling)
            agreed["first contact"] += a.same_first_contact
            agreed["cushions before ball 3"] += a.same_cushions
            agreed["ruling"] += a.same_ruling
        scored += len(test)
    print(f"\nread from the cue ball's first {args.window:g} s; halves by shot, seed {args.seed}")
    for name, k in agreed.items():
        print(f"CROSS-VALIDATED same {name} as the recording: {share(k, scored)}")
    points = [shot for shot in shots if same[shot][candidates[0]].recorded.points]
    others = len(shots) - len(points)
    print(f"  of them, the recording's {len(points)} points predicted points: {points_kept}/{len(points)}; "
          f"its {others} strokes without one predicted without one: {misses_kept}/{others} "
          f"(always 'no point' would be right on {share(others, len(shots))})")
    plain = (0.0, 1.0, 0.0)
    print(f"no side, level cue (nothing fitted): same ruling {share(rulings(shots, plain), len(shots))}")
    overall = best(shots)
    print(f"IN-SAMPLE, the best candidate on every stroke (side {overall[1] * overall[0]:+.1f}·σ, elevation "
          f"{overall[2]:.0f}°): same ruling {share(rulings(shots, overall), len(shots))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
