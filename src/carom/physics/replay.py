"""Tracked object balls replayed by the simulator and scored (PHYSICS.md, check 15).

A replay file (``tests/data/object-ball-replay-part1.json``, and the cases of the same
match held back to judge the simulator) holds object balls of a tracked match, each from
the moment the cue ball struck it until just before it met another ball: its start
``r``, ``v`` (fitted to the first 0.3 s of its track) and ``w`` (spin; zero in the
published file, see ``tools/object_ball_starts.py`` for the spin the impact gives) and its
tracked samples ``[t, x, y]``. Each case is replayed alone on the large table, exactly as
``carom simulate`` would with that ``r``, ``v`` and ``w``, and compared with its track:

* the error 0.5 s after the first and after the second cushion contact, the contacts
  found in the track itself (:func:`tracked_cushions`), and
* the RMSE over the first 4 s (or the track, if shorter).

Check 15 takes the median of each over the cases. Whoever fits parameters with these
scores must score them on cases the fit did not see (``tools/calibrate.py`` does, by
k-fold cross-validation); a figure on the cases it was fitted to is in-sample.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from carom.core.balls import Ball
from carom.core.inputs import read_document
from carom.core.table import TABLES, TableSpec
from carom.physics.build.choice import stroke_kernels
from carom.physics.params import Params
from carom.physics.simulate import Motion, play

TABLE = TABLES["large"]
WINDOW = 4.0
"""Seconds of track the RMSE covers."""
AFTER = 0.5
"""Seconds after a cushion contact at which the error is measured."""
NEAR = 0.02
"""Metres: a tracked ball this close to a cushion line, at a local minimum, met it."""
APART = 0.08
"""Seconds: two tracked cushion contacts are at least this far apart."""


@dataclass(frozen=True)
class Case:
    """One tracked object ball."""

    shot: int
    ball: str
    t0: float
    """When the cue ball struck it (seconds of the stroke)."""
    r: tuple[float, float]
    v: tuple[float, float]
    t: np.ndarray
    xy: np.ndarray
    """Tracked centres, len(t) × 2."""
    cushions: tuple[float, ...]
    """Times of the cushion contacts found in the track."""
    w: tuple[float, float, float] = (0.0, 0.0, 0.0)
    """Spin at the start (rad/s)."""


def load_cases(path: str | Path, table: TableSpec = TABLE) -> list[Case]:
    """The cases of a replay file (``{"cases": [{"shot", "ball", "t0", "r", "v", "w",
    "samples"}, …]}``; ``w`` may be left out: no spin)."""
    out = []
    for c in read_document(path)["cases"]:
        s = np.array(c["samples"], dtype=float)
        w = c.get("w", (0.0, 0.0, 0.0))
        out.append(Case(int(c["shot"]), str(c.get("ball", "")), float(c["t0"]),
                        (float(c["r"][0]), float(c["r"][1])), (float(c["v"][0]), float(c["v"][1])),
                        s[:, 0], s[:, 1:3], tracked_cushions(s[:, 0], s[:, 1:3], table),
                        (float(w[0]), float(w[1]), float(w[2]))))
    return out


def cushion_gap(xy: np.ndarray, table: TableSpec = TABLE) -> np.ndarray:
    """Distance of each centre from the nearest cushion line (at R from the nose)."""
    R, W, L = table.ball_radius, table.width, table.length
    x, y = xy[:, 0], xy[:, 1]
    return np.minimum.reduce([x - R, W - R - x, y - R, L - R - y])  # type: ignore[no-any-return]


def tracked_cushions(t: np.ndarray, xy: np.ndarray, table: TableSpec = TABLE) -> tuple[float, ...]:
    """Times at which a tracked ball touched a cushion: local minima, closer than
    :data:`NEAR`, of its distance to the nearest cushion line, :data:`APART` apart."""
    gap = cushion_gap(xy, table)
    times: list[float] = []
    for i in range(len(gap)):
        lo = gap[i - 1] if i > 0 else math.inf
        hi = gap[i + 1] if i + 1 < len(gap) else math.inf
        if gap[i] < NEAR and gap[i] <= lo and gap[i] <= hi and (not times or t[i] - times[-1] > APART):
            times.append(float(t[i]))
    return tuple(times)


def start_of(case: Case, params: Params, table: TableSpec = TABLE) -> tuple[float, float]:
    """The case's start, moved onto the table's surface where the fit put it a hair off."""
    R = params.ball_radius
    return (min(max(case.r[0], R), table.width - R), min(max(case.r[1], R), table.length - R))


def replay(case: Case, params: Params, times: np.ndarray, table: TableSpec = TABLE) -> np.ndarray:
    """Where the simulated ball is at ``times`` (ascending seconds of the stroke), len × 2."""
    run = play({Ball.RED: start_of(case, params, table)}, None, table, params,
               {Ball.RED: Motion(case.v, case.w)})
    _, sample_positions = stroke_kernels()
    since = np.ascontiguousarray(np.maximum(np.asarray(times, dtype=float) - case.t0, 0.0))
    xy = sample_positions(run.log_t, run.log_state, run.log_mode, run.n_log, since, run.vector)
    return xy[:, 0, :]  # type: ignore[no-any-return]


def tracked_at(case: Case, t: float) -> np.ndarray | None:
    """The tracked centre at ``t``, interpolated; None outside the track."""
    if not case.t[0] <= t <= case.t[-1]:
        return None
    return np.array([np.interp(t, case.t, case.xy[:, 0]), np.interp(t, case.t, case.xy[:, 1])])


@dataclass(frozen=True)
class CaseScore:
    """One case's errors (metres); None where the track has no such cushion."""

    after: tuple[float | None, float | None]
    """The error 0.5 s after the first and after the second tracked cushion contact."""
    rmse: float


def score_case(case: Case, params: Params, table: TableSpec = TABLE) -> CaseScore:
    window = case.t <= case.t0 + WINDOW
    times = case.t[window]
    checks = [case.cushions[k] + AFTER if len(case.cushions) > k else math.nan for k in (0, 1)]
    seen = [tracked_at(case, t) if math.isfinite(t) else None for t in checks]
    wanted = [t for t, s in zip(checks, seen, strict=True) if s is not None]
    order = np.argsort(np.concatenate((times, wanted)), kind="stable")
    sim = np.empty((len(order), 2))
    sim[order] = replay(case, params, np.concatenate((times, wanted))[order], table)
    rmse = math.sqrt(float(np.mean(np.sum((sim[:len(times)] - case.xy[window]) ** 2, axis=1))))
    after: list[float | None] = []
    q = len(times)
    for s in seen:
        if s is None:
            after.append(None)
        else:
            after.append(float(np.hypot(*(sim[q] - s))))
            q += 1
    return CaseScore((after[0], after[1]), rmse)


@dataclass(frozen=True)
class Scores:
    """Check 15's three medians (metres) and how many cases each covers."""

    after_first: float
    after_second: float
    rmse: float
    n_first: int
    n_second: int
    n_rmse: int

    def line(self) -> str:
        return (f"median error 0.5 s after cushion 1: {100 * self.after_first:.1f} cm (n={self.n_first}), "
                f"after cushion 2: {100 * self.after_second:.1f} cm (n={self.n_second}), "
                f"median RMSE first 4 s: {100 * self.rmse:.1f} cm (n={self.n_rmse})")


def summarise(case_scores: Iterable[CaseScore]) -> Scores:
    """The medians of check 15 over some scored cases."""
    listed = list(case_scores)
    first = [c.after[0] for c in listed if c.after[0] is not None]
    second = [c.after[1] for c in listed if c.after[1] is not None]
    rmse = [c.rmse for c in listed]
    return Scores(_median(first), _median(second), _median(rmse), len(first), len(second), len(rmse))


def _median(values: Sequence[float]) -> float:
    return float(np.median(values)) if values else math.nan


def scores(cases: Sequence[Case], params: Params, table: TableSpec = TABLE) -> Scores:
    """Check 15 for ``params`` on ``cases``."""
    return summarise(score_case(c, params, table) for c in cases)


def rolling_decelerations(cases: Sequence[Case], mu_slide: float = 0.21,
                          gravity: float = 9.81) -> list[tuple[float, float]]:
    """Check 12 in the track: (mean speed, deceleration) of the stretches where a ball
    rolls freely between contacts (from 0.3 s after a cushion, or after its first slide,
    to 0.1 s before the next contact), at 0.1–1.5 m/s and at least 0.8 s long, each
    fitted with a parabola along the path."""
    out = []
    for case in cases:
        slide = 2.0 * math.hypot(*case.v) / (7.0 * mu_slide * gravity)
        bounds = [case.t0 + slide - 0.3, *case.cushions, case.t[-1] + 1.0]
        for a, b in itertools.pairwise(bounds):
            sel = (case.t > a + 0.3) & (case.t < b - 0.1)
            if sel.sum() < 15 or case.t[sel][-1] - case.t[sel][0] <= 0.8:
                continue
            t, xy = case.t[sel] - case.t[sel][0], case.xy[sel]
            path = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))))
            c2, c1, _ = np.polyfit(t, path, 2)
            end = c1 + 2.0 * c2 * t[-1]
            if end >= 0.1 and c1 <= 1.5:
                out.append((float(c1 + end) / 2.0, -2.0 * float(c2)))
    return out
