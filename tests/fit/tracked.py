"""Tracked strokes made by the simulator for the fit's tests: every ball's centre every
``every`` seconds from a strike at ``strike_time``, with seeded noise of the tracker's
size (1 mm), a ball that never moves sampled at the start and at the end only."""

from __future__ import annotations

import dataclasses
import json

import numpy as np

from carom.core.balls import Ball
from carom.core.position import Position
from carom.core.table import TABLES
from carom.physics import Strike, simulate
from carom.track import BallTrack, TrackedStroke

LARGE = TABLES["large"]
POSITION = Position({Ball.WHITE: (0.70, 0.55), Ball.YELLOW: (0.95, 1.60), Ball.RED: (0.40, 2.20)})
STRIKE = Strike(Ball.WHITE, 3.2, 76.0, 0.25, 0.15, 5.0)
"""White onto yellow, then on round the table (about 8 s)."""


def tracked_stroke(position: Position = POSITION, strike: Strike = STRIKE, *, strike_time: float = 0.013,
                   every: float = 0.02, noise: float = 0.001, seed: int = 7,
                   shot: object = 1) -> TrackedStroke:
    stroke = simulate(position, strike, LARGE, sample=0.001)
    assert stroke.paths is not None
    rng = np.random.default_rng(seed)
    balls = {}
    for ball, path in stroke.paths.items():
        rows = np.array(path)
        end = rows[-1, 0] + strike_time + 0.5
        t = np.arange(0.0, end, every)
        since = np.maximum(t - strike_time, 0.0)
        xy = np.column_stack([np.interp(since, rows[:, 0], rows[:, k]) for k in (1, 2)])
        moving = np.hypot(*(xy - xy[0]).T) > 1e-9
        if not moving.any():
            t, xy = t[[0, -1]], xy[[0, -1]]
        balls[ball] = BallTrack(t, xy + rng.normal(0.0, noise, xy.shape))
    return TrackedStroke(shot, strike.ball, balls)


def as_line(tracked: TrackedStroke) -> str:
    """The stroke as a line of a tracked file (the ``balls-jsonl`` format)."""
    balls = {ball.value: {"t": track.t.tolist(), "x": track.xy[:, 0].tolist(), "y": track.xy[:, 1].tolist()}
             for ball, track in tracked.balls.items()}
    return json.dumps({"shot": tracked.shot, "cue": tracked.cue.value, "balls": balls})


def with_samples_cut(tracked: TrackedStroke, ball: Ball, keep: np.ndarray) -> TrackedStroke:
    """The stroke with only the samples ``keep`` (a mask) of ``ball``'s track: a ball the
    tracker lost for a while, or for good."""
    track = tracked.balls[ball]
    cut = BallTrack(track.t[keep], track.xy[keep])
    return dataclasses.replace(tracked, balls={**tracked.balls, ball: cut})
