"""The simulator against the tracked samples: the residuals the fit minimises and the
RMSE it reports (docs/fit.md, "What the fit compares").

The fit's vector holds the launch (:mod:`carom.fit.launch`, :data:`~carom.fit.launch.NAMES`)
and then, for each object ball on the table, how far it lay from its first tracked
sample (x, y; metres): the tracker saw each ball at rest once or twice, about 1 mm off,
and a millimetre where the cue ball meets a ball turns the cut by a degree. The first
samples are compared like any other, so they hold these moves to what the noise allows.
The cue ball lies where the tracker saw it: its line is read from its whole free run.

The stroke is played from that position with ``carom.physics``; every ball's simulated
centre is taken at its tracked sample times, the simulator's clock starting at the
strike (before it, every ball lies where it lay).
"""

from __future__ import annotations

import math

import numpy as np

from carom.core.balls import Ball
from carom.core.position import Position
from carom.core.table import TableSpec
from carom.fit.launch import NAMES, Launch, strike_of
from carom.fit.observed import Observed, on_cloth_and_apart
from carom.physics.build.choice import stroke_kernels
from carom.physics.params import Params
from carom.physics.simulate import Run, play

LAUNCH = len(NAMES)
"""The launch's share of the fit's vector; the moves of where the balls lay follow."""
CONTACT_SPAN = 0.08
CONTACT_GRID = np.linspace(-CONTACT_SPAN, CONTACT_SPAN, 41)
"""Seconds about a contact the tracks show (``Observed.contacts``) in which the simulated
balls must meet,"""
CONTACT_WEIGHT = 4.0
"""and the weight of the residual that says by how much they missed each other (metres
between their surfaces at their closest): a stroke read back should meet the balls the
tracks met, whatever else it gets wrong."""
NEAR_GAP = 0.02
"""Metres: a sample whose ball is this close to touching another ball's tracked centre
lies at a contact or a near miss,"""
NEAR_WEIGHT = 4.0
"""and its residual counts this many times over in the fit: whether a ball met another
decides the ruling, and a stroke read back should meet the balls the tracks met."""


class Comparison:
    """One tracked stroke, ready to be compared with any fit vector, many times over."""

    def __init__(self, observed: Observed, table: TableSpec, params: Params, until: float = math.inf) -> None:
        self.observed = observed
        self.table = table
        self.params = params
        self.limit = until
        """Seconds of the tracked clock: no later sample is ever compared (the tracks
        "up to" a moment of the prediction protocols)."""
        self.simulations = 0
        """How many strokes have been simulated so far."""
        self._weights = {b: near_weights(observed, b, table.ball_radius) for b in observed.balls}
        self.window(until)

    def window(self, until: float) -> None:
        """Compare the samples up to ``until`` (seconds of the tracked clock; never beyond
        :attr:`limit`) from now on."""
        until = min(until, self.limit)
        self.until = until
        times = self.observed.times()
        contacts = [c for c in self.observed.contacts if c[2] + CONTACT_SPAN <= until]
        grids = [c[2] + CONTACT_GRID for c in contacts]
        self._times = np.unique(np.concatenate([times[times <= until], *grids]))
        self._rows = {b: np.searchsorted(self._times, s.t[s.thinned][s.t[s.thinned] <= until])
                      for b, s in self.observed.samples.items()}
        balls = self.observed.balls
        self._contacts = [(balls.index(a), balls.index(b), np.searchsorted(self._times, grid))
                          for (a, b, _), grid in zip(contacts, grids, strict=True)]

    @property
    def movable(self) -> tuple[Ball, ...]:
        """The balls whose place at rest the fit reads: the object balls."""
        return tuple(b for b in self.observed.balls if b is not self.observed.cue)

    @property
    def size(self) -> int:
        """The length of the fit's vector."""
        return LAUNCH + 2 * len(self.movable)

    def start(self, launch: np.ndarray) -> np.ndarray:
        """A fit vector: ``launch`` (6 numbers), the balls where the tracker saw them."""
        return np.concatenate([launch, np.zeros(self.size - LAUNCH)])

    def position(self, x: np.ndarray) -> Position:
        """Where the balls lay, moved as ``x`` says."""
        at = dict(self.observed.position)
        for ball, d in zip(self.movable, x[LAUNCH:].reshape(-1, 2), strict=True):
            at[ball] = (at[ball][0] + float(d[0]), at[ball][1] + float(d[1]))
        return on_cloth_and_apart(at, self.table)

    def run(self, x: np.ndarray) -> Run:
        """The simulator's run of ``x`` (its whole event log)."""
        self.simulations += 1
        strike = strike_of(Launch.of(x[:LAUNCH]), self.observed.cue, self.params)
        return play(self.position(x), strike, self.table, self.params)

    def at(self, x: np.ndarray, times: np.ndarray, run: Run | None = None) -> np.ndarray:
        """Every ball's simulated centre at ``times`` (seconds of the tracked clock,
        ascending): len(times) × balls × 2, balls in :attr:`Observed.balls` order."""
        run = self.run(x) if run is None else run
        _, sample_positions = stroke_kernels()
        since = np.ascontiguousarray(np.maximum(np.asarray(times, dtype=float) - x[NAMES.index("time")], 0.0))
        return sample_positions(run.log_t, run.log_state, run.log_mode, run.n_log, since,  # type: ignore[no-any-return]
                                run.vector)

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """Simulated minus tracked centres (metres, x and y of each thinned sample up to
        :attr:`until`, ball after ball)."""
        xy = self.at(x, self._times)
        parts = []
        for m, ball in enumerate(self.observed.balls):
            s = self.observed.samples[ball]
            rows = self._rows[ball]
            weight = self._weights[ball][:len(rows), None]
            parts.append((weight * (xy[rows, m, :] - s.xy[s.thinned][:len(rows)])).ravel())
        reach = 2.0 * self.table.ball_radius
        missed = [float(np.min(np.hypot(*(xy[rows, a] - xy[rows, b]).T))) - reach
                  for a, b, rows in self._contacts]
        parts.append(CONTACT_WEIGHT * np.maximum(np.array(missed), 0.0))
        return np.concatenate(parts)

    def free_run(self, x: np.ndarray) -> np.ndarray:
        """The cue ball's residuals over every sample of its free run (before any sign of
        a contact), the samples at rest before the strike included."""
        s = self.observed.samples[self.observed.cue]
        keep = s.t <= min(self.observed.free_until, self.limit)
        m = self.observed.balls.index(self.observed.cue)
        xy = self.at(x, s.t[keep])
        return (xy[:, m, :] - s.xy[keep]).ravel()  # type: ignore[no-any-return]

    def rmse(self, x: np.ndarray) -> dict[Ball, float]:
        """Each ball's RMSE (metres) over every one of its samples."""
        run = self.run(x)
        out = {}
        for m, ball in enumerate(self.observed.balls):
            s = self.observed.samples[ball]
            xy = self.at(x, s.t, run)
            out[ball] = math.sqrt(float(np.mean(np.sum((xy[:, m, :] - s.xy) ** 2, axis=1))))
        return out


def near_weights(observed: Observed, ball: Ball, radius: float) -> np.ndarray:
    """Each thinned sample's weight: :data:`NEAR_WEIGHT` where ``ball`` is within
    :data:`NEAR_GAP` of touching another ball (its track interpolated), else 1."""
    s = observed.samples[ball]
    t, xy = s.t[s.thinned], s.xy[s.thinned]
    near = np.zeros(len(t), dtype=bool)
    for other, o in observed.samples.items():
        if other is ball:
            continue
        ox, oy = np.interp(t, o.t, o.xy[:, 0]), np.interp(t, o.t, o.xy[:, 1])
        near |= np.hypot(xy[:, 0] - ox, xy[:, 1] - oy) < 2.0 * radius + NEAR_GAP
    return np.where(near, NEAR_WEIGHT, 1.0)
