"""What the stroke's protocols can reach when the physics is exact: the simulator's own strokes,
seen by a camera of the real match's family, read back and predicted with the very values
they were played with (docs/physics.md, "What the protocols can reach").

For each stroke (``open`` strokes of ``carom.track.synthetic``: a random position, a strike
at ball 2 of 1–5 m/s with a random cut, side and height, the simulator's defaults):

* **the object ball's start predicted from the collision**: the strike read from every
  ball's samples up to the moment the cue ball met its first object ball
  (``carom.fit.predict.object_ball_start``), the collision simulated, and the object ball
  replayed from the start it gives and scored on its own tracked samples as the real cases
  are (``carom.physics.replay``: 0.5 s after its first and second cushion, RMSE over 4 s);
* **the strike read back** (``carom.fit.fit_stroke``): the RMSE of each ball that moved,
  and whether the re-simulated stroke has the ruling, the first contact and the cushions
  before ball 3 of the stroke as it was played.

(Prediction from the cue's first 0.2 s is not measured here: these strokes are random, and
3 in 150 score, so "the same ruling" would count no-points.) The medians carry 95 %
intervals from a bootstrap over the cases (2,000 draws, seeded).

Two cameras see the same strokes: ``exact`` (every sample where the ball was; sent as the
real tracker sends them) and ``real`` (the real match's camera family: 0.25–0.33 mm of
noise, its losses, its send steps, a bias near other balls of up to 1 mm). Nothing is fitted
here; every figure is of the simulator against itself, so what is left is what the camera
and the protocol lose, a floor under what real physics can reach on real tracks.

``--no-side`` plays every stroke with its side spin taken out (the tip on the cue ball's
vertical line), to show what the side, which no sample before the first contact shows,
costs each protocol.

Usage: ``.venv/bin/python tools/protocol_floor.py [--strokes N] [--seed S] [--no-side]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import numpy as np
from fit_strokes import share  # tools/fit_strokes.py, beside this script

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.events import BallContact
from carom.core.table import TABLES
from carom.fit import agreement, fit_stroke
from carom.fit.predict import object_ball_start
from carom.physics.params import DEFAULT_PARAMS
from carom.physics.replay import Case, CaseScore, score_case, tracked_cushions
from carom.physics.strike import Strike
from carom.rules.disciplines import DISCIPLINES
from carom.track.synthetic import strokes as synthetic
from carom.track.synthetic.camera import REAL, Family
from carom.track.synthetic.strokes import LabelledStroke, labelled_stroke

TABLE = TABLES["large"]
THREE_CUSHION = DISCIPLINES["three-cushion"]
EXACT = dataclasses.replace(REAL, name="exact", noise=(0.0, 0.0), drop=(0.0, 0.0), whole=(0.0, 0.0),
                            hidden=0.0, bias=(0.0, 0.0), stamp_jitter=0.0, stamp_resolution=1e-9)
"""The real family's camera with nothing lost and nothing wrong: each sample where the ball was."""


def first_collision(stroke: LabelledStroke) -> tuple[Ball, float] | None:
    """The object ball the cue ball met first, and when."""
    for event in stroke.truth.events:
        cue = stroke.truth.ball
        if isinstance(event, BallContact) and event.t is not None and cue in (event.ball, event.other):
            return (event.other if event.ball is cue else event.ball), float(event.t)
    return None


def collision_case(stroke: LabelledStroke) -> CaseScore | str:
    """The object ball's start predicted from the collision, scored on its tracked samples
    (or why there is none)."""
    met = first_collision(stroke)
    if met is None:
        return "no object ball met"
    ball, t0 = met
    track = stroke.tracked.balls[ball]
    after = track.t >= t0
    t, xy = track.t[after], track.xy[after]
    if len(t) < 5:
        return "the object ball sent too few samples"
    start = object_ball_start(stroke.tracked, ball, t0, TABLE, stroke.params)
    if start is None:
        return "the simulated stroke never reached it"
    case = Case(stroke.tracked.shot, ball.value, start.t0, start.r, start.v, t, xy,
                tracked_cushions(t, xy, TABLE), start.w)
    return score_case(case, stroke.params, TABLE)


def read_back(stroke: LabelledStroke) -> tuple[list[float], tuple[bool, bool, bool]] | None:
    """The RMSE of each ball that moved, and (same first contact, cushions, ruling)."""
    try:
        fitted = fit_stroke(stroke.tracked, TABLE, stroke.params)
    except CaromError:
        return None
    agreed = agreement(fitted.stroke, stroke.verdict, THREE_CUSHION, TABLE)
    return ([fitted.rmse[b] for b in fitted.moved],
            (agreed.same_first_contact, agreed.same_cushions, agreed.same_ruling))


def median_interval(values: list[float], draws: int = 2000) -> str:
    """The median (cm) and its 95 % bootstrap interval."""
    rng = np.random.default_rng(0)
    data = np.asarray(values) * 100.0
    medians = np.median(rng.choice(data, size=(draws, len(data))), axis=1)
    low, high = np.percentile(medians, [2.5, 97.5])
    return f"{np.median(data):.1f} cm ({low:.1f}–{high:.1f}, n={len(data)})"


def without_side(aim: Callable[..., Strike]) -> Callable[..., Strike]:
    """The generator's strikes with the side taken out."""
    return lambda *args, **kwargs: dataclasses.replace(aim(*args, **kwargs), side=0.0)


def report(family: Family, seeds: range) -> None:
    started = time.process_time()
    collisions: list[CaseScore] = []
    without: Counter[str] = Counter()
    rmse: list[float] = []
    same: list[tuple[bool, bool, bool]] = []
    for seed in seeds:
        stroke = labelled_stroke(seed, THREE_CUSHION, TABLE, "open", family, params=DEFAULT_PARAMS)
        scored = collision_case(stroke)
        if isinstance(scored, str):
            without[scored] += 1
        else:
            collisions.append(scored)
        back = read_back(stroke)
        if back is not None:
            rmse += back[0]
            same.append(back[1])
        print(f"  {family.name}: stroke {seed - seeds.start + 1}/{len(seeds)}", end="\r", flush=True,
              file=sys.stderr)
    print(f"{family.name} camera, {len(seeds)} strokes (seeds {seeds.start}–{seeds.stop - 1}), "
          f"{time.process_time() - started:.0f} processor s")
    first = [c.after[0] for c in collisions if c.after[0] is not None]
    second = [c.after[1] for c in collisions if c.after[1] is not None]
    print(f"  object ball, start predicted from the collision ({len(collisions)} cases), medians: "
          f"0.5 s after cushion 1 {median_interval(first)}, after cushion 2 {median_interval(second)}, "
          f"RMSE over 4 s {median_interval([c.rmse for c in collisions])}")
    print("  no case: " + (", ".join(f"{why} {n}" for why, n in without.items()) or "none"))
    if rmse:
        low, _, high = statistics.quantiles(rmse, n=4)
        print(f"  strike read back: median RMSE of the balls that moved "
              f"{100 * statistics.median(rmse):.1f} cm (quartiles {100 * low:.1f}–{100 * high:.1f}, "
              f"{len(rmse)} balls)")
    n = len(same)
    for k, name in enumerate(("first contact", "cushions before ball 3", "ruling")):
        print(f"  same {name}: {share(sum(s[k] for s in same), n)}")
    print(f"  all three: {share(sum(all(s) for s in same), n)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strokes", type=int, default=60)
    ap.add_argument("--seed", type=int, default=95_000_000)
    ap.add_argument("--no-side", action="store_true", help="strokes played without side spin")
    args = ap.parse_args(argv)
    if args.no_side:
        synthetic._strike_at = without_side(synthetic._strike_at)  # the generator's own aim, side out
    seeds = range(args.seed, args.seed + args.strokes)
    for family in (EXACT, REAL):
        report(family, seeds)
    return 0


if __name__ == "__main__":
    sys.exit(main())
