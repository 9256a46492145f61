"""The cushion's response to spin and speed, fitted one bounce at a time on whole strokes
read back (docs/physics.md, "Fidelity: what was tried").

``tools/calibrate.py`` fits the cushion to object balls, which leave their impact with
little spin. A stroke read back (``tools/fit_strokes.py --save``) says what spin every
ball carried into every cushion, the cue ball's side spin included. Each cushion contact
of the recording (the auto-referee's) whose ball has no other contact from 0.35 s before
to 0.5 s after it is a **bounce**: the ball is started 0.12 s before it from its tracked
position and velocity (a quadratic through its samples of the 0.32 s before) with the
spin the read-back stroke gives it there (rolling spin from the tracked velocity where
the stroke rolls), alone on the table, and its error is how far it is from the track
0.5 s after the contact. Changing the cushion's values cannot make whole strokes
diverge here: each bounce starts from the track.

**Cross-validated by halves** (by shot, seeded): the cushion's values minimise the
median error of one half's bounces (seeded differential evolution, checks 13, 14 and 16
kept by ``calibrate.py``'s penalties), the other half's bounces are scored with them and
with the defaults. ``--free`` chooses the values (default: Han's e, μ and grip).

Usage: ``.venv/bin/python tools/calibrate_bounces.py --fits FITS.json [--free NAME]... [--seed S]``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from calibrate import corner_penalty, rebound_penalty  # tools/calibrate.py, beside this script
from calibrate_strokes import BOUNDS  # tools/calibrate_strokes.py
from fit_strokes import DATA, TABLE, THREE_CUSHION  # tools/fit_strokes.py
from scipy.optimize import differential_evolution

from carom.core.balls import Ball
from carom.core.events import BallContact, CushionContact
from carom.core.position import Position
from carom.physics import DEFAULT_PARAMS, Params, Strike
from carom.physics.motion import evolve
from carom.physics.simulate import Motion, play
from carom.track import read_tracked, track_sequence

LEAD = 0.12
"""Seconds before the contact that a bounce starts."""
AFTER = 0.5
"""Seconds after the contact that its error is measured."""
R = DEFAULT_PARAMS.ball_radius


@dataclass(frozen=True)
class Bounce:
    shot: object
    ball: Ball
    t: float
    r: tuple[float, float]
    v: tuple[float, float]
    w: tuple[float, float, float]
    target: np.ndarray
    side_spin: float
    """R·|ωz|/|v| at the start."""

    def error(self, params: Params) -> float:
        run = play({Ball.RED: self.r}, None, TABLE, params, {Ball.RED: Motion(self.v, self.w)})
        k = int(np.searchsorted(run.log_t[:run.n_log], LEAD + AFTER, side="right") - 1)
        state, _ = evolve(run.log_state[k, 0].copy(), int(run.log_mode[k, 0]), LEAD + AFTER - run.log_t[k],
                          run.vector)
        return float(np.hypot(state[0] - self.target[0], state[1] - self.target[1]))


def bounces_of(fits: Path, data: Path) -> list[Bounce]:
    rows = {r["shot"]: r for r in json.loads(fits.read_text())}
    strokes = [s for s in read_tracked(data) if s.shot in rows]
    out = []
    for ruling in track_sequence(iter(strokes), THREE_CUSHION, TABLE):
        tracked, row = ruling.tracked, rows[ruling.tracked.shot]
        strike = Strike(tracked.cue, *row["strike"])
        position = Position({Ball(b): tuple(p) for b, p in row["position"].items()})
        run = play(position, strike, TABLE, DEFAULT_PARAMS)
        events = [e for e in ruling.stroke.events
                  if e.t is not None and isinstance(e, BallContact | CushionContact)]
        for e in events:
            if not isinstance(e, CushionContact) or e.t is None:
                continue
            t = e.t
            near = [f for f in events if f is not e and f.t is not None and t - 0.35 <= f.t <= t + AFTER
                    and (f.ball is e.ball or (isinstance(f, BallContact) and f.involves(e.ball)))]
            track = tracked.balls[e.ball]
            before = (track.t >= t - 0.35) & (track.t <= t - 0.03)
            if near or before.sum() < 5 or not track.t[0] <= t + AFTER <= track.t[-1]:
                continue
            tt = track.t[before] - (t - LEAD)
            px, py = (np.polyfit(tt, track.xy[before, k], 2) for k in (0, 1))
            r = (float(np.polyval(px, 0.0)), float(np.polyval(py, 0.0)))
            v = (float(np.polyval(np.polyder(px), 0.0)), float(np.polyval(np.polyder(py), 0.0)))
            if not (R < r[0] < TABLE.width - R and R < r[1] < TABLE.length - R) or math.hypot(*v) < 0.05:
                continue
            m = run.balls.index(e.ball)
            since = t - LEAD - row["time"]
            k = int(np.searchsorted(run.log_t[:run.n_log], since, side="right") - 1)
            state, mode = evolve(run.log_state[k, m].copy(), int(run.log_mode[k, m]), since - run.log_t[k],
                                 run.vector)
            w = (float(state[4]), float(state[5]), float(state[6]))
            if mode == 3:  # rolling: the tracked velocity's rolling spin
                w = (-v[1] / R, v[0] / R, w[2])
            target = np.array([np.interp(t + AFTER, track.t, track.xy[:, k]) for k in (0, 1)])
            out.append(Bounce(tracked.shot, e.ball, t, r, v, w, target, R * abs(w[2]) / math.hypot(*v)))
    return out


def objective(values: np.ndarray, names: Sequence[str], bounces: Sequence[Bounce]) -> float:
    params = DEFAULT_PARAMS.replace(**dict(zip(names, map(float, values), strict=True)))
    return statistics.median(b.error(params) for b in bounces) * (
        1.0 + 10.0 * (rebound_penalty(params) + corner_penalty(params)))


def summary(bounces: Sequence[Bounce], params: Params) -> str:
    spun = [b for b in bounces if b.side_spin >= 0.3]
    plain = [b for b in bounces if b.side_spin < 0.3]

    def median(chosen: Sequence[Bounce]) -> str:
        return f"{100 * statistics.median(b.error(params) for b in chosen):.1f}" if chosen else "–"

    return (f"median error 0.5 s after the bounce {median(bounces)} cm ({len(bounces)}); with side spin "
            f"R·|ωz|/|v| ≥ 0.3: {median(spun)} cm ({len(spun)}); less: {median(plain)} cm ({len(plain)})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fits", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--free", action="append", choices=tuple(BOUNDS))
    ap.add_argument("--seed", type=int, default=40)
    args = ap.parse_args(argv)
    names = tuple(args.free or ("han_e", "han_mu", "han_grip"))
    bounces = bounces_of(args.fits, args.data)
    print(f"{len(bounces)} bounces; the defaults (the strikes were read with them): "
          f"{summary(bounces, DEFAULT_PARAMS)}", flush=True)
    shots = sorted({b.shot for b in bounces}, key=str)
    order = np.random.default_rng(args.seed).permutation(len(shots))
    half = {shots[i]: int(q >= len(shots) // 2) for q, i in enumerate(order)}
    scored: list[tuple[Bounce, Params]] = []
    for k in (0, 1):
        train = [b for b in bounces if half[b.shot] != k]
        test = [b for b in bounces if half[b.shot] == k]
        low, high = [BOUNDS[n][0] for n in names], [BOUNDS[n][1] for n in names]
        best = differential_evolution(objective, list(zip(low, high, strict=True)), args=(names, train),
                                      seed=args.seed, popsize=10, maxiter=40, tol=1e-7, polish=False,
                                      x0=np.clip([getattr(DEFAULT_PARAMS, n) for n in names], low, high))
        params = DEFAULT_PARAMS.replace(**dict(zip(names, map(float, best.x), strict=True)))
        print(f"half {k + 1}: fitted on the other half's {len(train)} bounces: "
              + ", ".join(f"{n} {getattr(params, n):.4g}" for n in names), flush=True)
        print(f"  OUT-OF-SAMPLE, fitted values: {summary(test, params)}")
        print(f"  the same bounces, defaults:   {summary(test, DEFAULT_PARAMS)}", flush=True)
        scored += [(b, params) for b in test]
    errors = [b.error(p) for b, p in scored]
    print(f"\nCROSS-VALIDATED (halves by shot, seed {args.seed}): median error 0.5 s after the bounce "
          f"{100 * statistics.median(errors):.1f} cm over {len(errors)} bounces (defaults: "
          f"{100 * statistics.median(b.error(DEFAULT_PARAMS) for b, _ in scored):.1f} cm)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
