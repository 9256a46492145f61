"""The real-table data of ``tests/data`` (erdo100/3cushiontool, Apache 2.0), replayed."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np

from carom.core.balls import Ball
from carom.physics.params import Params
from carom.physics.paths import sample_positions
from carom.physics.simulate import Motion, play

from .conftest import LARGE

DATA = Path(__file__).resolve().parents[1] / "data"
REPLAY = DATA / "object-ball-replay-part1.json"


def cases() -> list[dict]:  # type: ignore[type-arg]
    return json.loads(REPLAY.read_text())["cases"]  # type: ignore[no-any-return]


def cushion_times(samples: np.ndarray) -> list[float]:
    """Cushion contacts in a track: local minima, under 2 cm, of the distance to the
    nearest cushion line (at R from the nose), 80 ms apart at least."""
    R, W, L = LARGE.ball_radius, LARGE.width, LARGE.length
    x, y = samples[:, 1], samples[:, 2]
    gap = np.minimum.reduce([x - R, W - R - x, y - R, L - R - y])
    out: list[float] = []
    for i in range(len(gap)):
        lo = gap[i - 1] if i else math.inf
        hi = gap[i + 1] if i + 1 < len(gap) else math.inf
        if gap[i] < 0.02 and gap[i] <= lo and gap[i] <= hi and (not out or samples[i, 0] - out[-1] > 0.08):
            out.append(float(samples[i, 0]))
    return out


def replay_scores(params: Params) -> tuple[float, float, float]:
    """Check 15: median error 0.5 s after the first and the second cushion, median RMSE
    over the first 4 s (metres)."""
    first, second, rmse = [], [], []
    R = params.ball_radius
    for case in cases():
        s = np.array(case["samples"])
        r = (min(max(case["r"][0], R), LARGE.width - R), min(max(case["r"][1], R), LARGE.length - R))
        run = play({Ball.RED: r}, None, LARGE, params, {Ball.RED: Motion(tuple(case["v"]), (0.0, 0.0, 0.0))})

        def at(times: np.ndarray, run=run, t0=case["t0"]) -> np.ndarray:  # type: ignore[no-untyped-def]
            xy = sample_positions(run.log_t, run.log_state, run.log_mode, run.n_log,
                                  np.maximum(np.asarray(times) - t0, 0.0), run.vector)
            return xy[:, 0, :]  # type: ignore[no-any-return]

        window = s[:, 0] <= case["t0"] + 4.0
        rmse.append(math.sqrt(np.mean(np.sum((at(s[window, 0]) - s[window, 1:]) ** 2, axis=1))))
        for k, bucket in ((0, first), (1, second)):
            contacts = cushion_times(s)
            if len(contacts) > k and s[0, 0] <= contacts[k] + 0.5 <= s[-1, 0]:
                t = contacts[k] + 0.5
                seen = np.array([np.interp(t, s[:, 0], s[:, 1]), np.interp(t, s[:, 0], s[:, 2])])
                bucket.append(float(np.hypot(*(at(np.array([t]))[0] - seen))))
    return float(np.median(first)), float(np.median(second)), float(np.median(rmse))


def tracked_rolling_decelerations() -> list[float]:
    """Check 12 in the track: decelerations of stretches where the ball rolls freely
    between cushions (from 0.3 s after a contact to 0.1 s before the next) at 0.1–1.5 m/s."""
    out = []
    for case in cases():
        s = np.array(case["samples"])
        slide = 2 * math.hypot(*case["v"]) / (7 * 0.21 * 9.81)
        bounds = [case["t0"] + slide - 0.3, *cushion_times(s), s[-1, 0] + 1.0]
        for a, b in itertools.pairwise(bounds):
            sel = (s[:, 0] > a + 0.3) & (s[:, 0] < b - 0.1)
            if sel.sum() < 15 or s[sel, 0][-1] - s[sel, 0][0] <= 0.8:
                continue
            t, xy = s[sel, 0] - s[sel, 0][0], s[sel, 1:]
            path = np.concatenate(([0.0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))))
            c2, c1, _ = np.polyfit(t, path, 2)
            if c1 + 2 * c2 * t[-1] >= 0.1 and c1 <= 1.5:
                out.append(-2.0 * c2)
    return out
