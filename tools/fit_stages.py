"""Where the whole stroke's error comes from, stage by stage (docs/physics.md,
"The error by stage"): the cue ball's run to its first contact, each collision, each
cushion, in-sample and out-of-sample apart.

Each stage is an event of the recording (the auto-referee's reading of the tracks: a
ball–ball contact, a cushion contact of a ball), and its error is how far the simulated
ball(s) of the event are from the track 0.5 s after it:

* **out-of-sample**: the strike (and where the balls lay) read from every sample *before*
  the event (up to 20 ms before it, ``carom.fit.predict.predict_until``), the stroke
  simulated on: the error the event's own model (the collision, the cushion) adds to an
  approach the fit knows;
* **in-sample**: the strike read from the whole stroke (``tools/fit_strokes.py --save``).

The run to the first contact: the cue ball's error at its first event, read from its
first 0.2 s (out-of-sample) or from the whole stroke (in-sample).

Usage: ``.venv/bin/python tools/fit_stages.py --fits FITS.json [--events N]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
from fit_strokes import DATA, TABLE, THREE_CUSHION  # tools/fit_strokes.py, beside this script

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.events import BallContact, CushionContact
from carom.core.position import Position
from carom.fit.compare import Comparison
from carom.fit.launch import launch_of
from carom.fit.observed import Observed, observe
from carom.fit.predict import predict_from_cue, predict_until
from carom.physics import DEFAULT_PARAMS, Strike
from carom.track import TrackedStroke, read_tracked, track_sequence

AFTER = 0.5
"""Seconds after an event at which its error is measured."""
BEFORE = 0.02
"""Seconds before an event that the out-of-sample read stops."""


def where(observed: Observed, strike: Strike, moment: float, position: Position, ball: Ball,
          t: float) -> np.ndarray:
    """The simulated centre of ``ball`` at ``t`` (tracked clock)."""
    comparison = Comparison(observed, TABLE, DEFAULT_PARAMS)
    moves = [c for b in comparison.movable for c in np.subtract(position[b], observed.position[b])]
    x = np.concatenate([launch_of(strike, moment, DEFAULT_PARAMS).vector(), moves])
    return comparison.at(x, np.array([t]))[0, observed.balls.index(ball)]  # type: ignore[no-any-return]


def seen(tracked: TrackedStroke, ball: Ball, t: float) -> np.ndarray | None:
    track = tracked.balls.get(ball)
    if track is None or not track.t[0] <= t <= track.t[-1]:
        return None
    return np.array([np.interp(t, track.t, track.xy[:, 0]), np.interp(t, track.t, track.xy[:, 1])])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--fits", type=Path, required=True)
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--events", type=int, default=6, help="the first N events of each stroke")
    args = ap.parse_args(argv)
    rows: dict[Any, dict[str, Any]] = {r["shot"]: r for r in json.loads(args.fits.read_text())}
    strokes = [s for s in read_tracked(args.data) if s.shot in rows]
    errors: dict[str, dict[str, list[float]]] = defaultdict(lambda: {"in": [], "out": []})
    for ruling in track_sequence(iter(strokes), THREE_CUSHION, TABLE):
        tracked = ruling.tracked
        row = rows[tracked.shot]
        observed = observe(tracked, TABLE)
        whole = (Strike(tracked.cue, *row["strike"]), row["time"],
                 Position({Ball(b): tuple(p) for b, p in row["position"].items()}))
        events = [e for e in ruling.stroke.events
                  if isinstance(e, BallContact | CushionContact) and e.t is not None]
        if not events:
            continue
        first = next((e for e in events if e.ball is tracked.cue or (isinstance(e, BallContact)
                      and e.involves(tracked.cue))), None)
        try:
            early = predict_from_cue(tracked, TABLE)
        except CaromError:
            continue
        if first is not None and first.t is not None:
            track = seen(tracked, tracked.cue, first.t)
            if track is not None:
                read = (early.strike, early.strike_time, early.position)
                for label, (strike, moment, position) in (("out", read), ("in", whole)):
                    at = where(observed, strike, moment, position, tracked.cue, first.t)
                    error = float(np.hypot(*(at - track)))
                    errors["the cue ball's run to its first contact"][label].append(error)
        cushions: dict[Ball, int] = defaultdict(int)
        for event in events[: args.events]:
            assert event.t is not None
            if isinstance(event, BallContact):
                stage, balls = "a collision (both balls)", (event.ball, event.other)
            else:
                cushions[event.ball] += 1
                k = cushions[event.ball]
                stage, balls = f"a ball's cushion {k if k < 4 else '4 or later'}", (event.ball,)
            try:
                before = predict_until(tracked, event.t - BEFORE, TABLE)
            except CaromError:
                continue
            read = (before.strike, before.strike_time, before.position)
            for ball in balls:
                track = seen(tracked, ball, event.t + AFTER)
                if track is None:
                    continue
                for label, (strike, moment, position) in (("out", read), ("in", whole)):
                    at = where(observed, strike, moment, position, ball, event.t + AFTER)
                    errors[stage][label].append(float(np.hypot(*(at - track))))
        print(f"shot {tracked.shot} done", file=sys.stderr, flush=True)
    print(f"| stage | n | in-sample (whole stroke read), cm | out-of-sample (read up to "
          f"{1000 * BEFORE:.0f} ms before it), cm |\n|---|---|---|---|")
    for stage in sorted(errors, key=lambda s: (not s.startswith("the cue"), not s.startswith("a col"), s)):
        e = errors[stage]
        inside, outside = statistics.median(e["in"]), statistics.median(e["out"])
        print(f"| {stage} | {len(e['in'])} | {100 * inside:.1f} | {100 * outside:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
