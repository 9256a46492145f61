"""Prediction from the cue, the strict protocol (docs/fit.md, "Prediction
from the cue").

* :func:`predict_from_cue`: given only where the balls lay and the strike read back
  from the cue ball's first 0.2 s (before any contact), the whole stroke simulated.
* :func:`object_ball_start`: given the tracks up to the moment an object ball is struck,
  its start — velocity and spin — from the simulated collision, with no sample of the
  object ball in motion.

Both read the strike exactly as :func:`~carom.fit.fit_stroke` does, on the samples up to
a moment (:class:`~carom.fit.compare.Comparison`'s limit); what the samples do not show
(the side, before any cushion) comes from the :class:`~carom.fit.search.Prior`.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.position import Position
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.fit.compare import LAUNCH
from carom.fit.launch import Launch, strike_of
from carom.fit.observed import observe
from carom.fit.search import DEFAULT_BUDGET, DEFAULT_PRIOR, Budget, Prior
from carom.fit.stroke import read
from carom.physics import layout as L
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.simulate import simulate
from carom.physics.strike import Strike
from carom.track import TrackedStroke

FIRST_RUN = 0.2
"""Seconds of the cue ball's run the first protocol reads, from its last sample at rest."""


@dataclass(frozen=True)
class Prediction:
    """A stroke predicted from the cue ball's first samples."""

    strike: Strike
    strike_time: float
    position: Position
    stroke: Stroke
    """The whole stroke, simulated."""
    until: float
    """The last moment (tracked clock) whose samples were read."""


def predict_until(tracked: TrackedStroke, until: float, table: TableSpec, params: Params = DEFAULT_PARAMS,
                  *, prior: Prior = DEFAULT_PRIOR, budget: Budget = DEFAULT_BUDGET) -> Prediction:
    """The whole stroke simulated from the strike (and where the balls lay) read from
    every ball's samples up to ``until`` (seconds of the tracked clock)."""
    _, comparison, found = read(tracked, table, params, until=until, prior=prior, budget=budget)
    launch = Launch.of(found.x[:LAUNCH])
    strike = strike_of(launch, tracked.cue, params)
    position = comparison.position(found.x)
    stroke = simulate(position, strike, table, params)
    return Prediction(strike, launch.time, position, stroke, comparison.limit)


def predict_from_cue(tracked: TrackedStroke, table: TableSpec, params: Params = DEFAULT_PARAMS, *,
                     window: float = FIRST_RUN, prior: Prior = DEFAULT_PRIOR,
                     budget: Budget = DEFAULT_BUDGET) -> Prediction:
    """The stroke simulated from where the balls lay and the strike read from the cue
    ball's first ``window`` seconds (from its last sample at rest, and never past the
    first sign of a contact)."""
    observed = observe(tracked, table)
    cue = observed.samples.get(tracked.cue)
    if cue is None or observed.departure == 0:
        raise CaromError(f"shot {tracked.shot}: nothing to read: " + "; ".join(observed.problems))
    until = min(observed.free_until, float(cue.t[observed.departure - 1]) + window)
    return predict_until(tracked, until, table, params, prior=prior, budget=budget)


@dataclass(frozen=True)
class ObjectBallStart:
    """An object ball's start read from the simulated collision."""

    ball: Ball
    struck_by: Ball
    t0: float
    """When it was struck (tracked clock)."""
    r: tuple[float, float]
    v: tuple[float, float]
    w: tuple[float, float, float]
    striker_v: tuple[float, float] = (0.0, 0.0)
    """The striking ball's velocity as the simulated collision leaves it."""


def object_ball_start(tracked: TrackedStroke, ball: Ball, until: float, table: TableSpec,
                      params: Params = DEFAULT_PARAMS, *, prior: Prior = DEFAULT_PRIOR,
                      budget: Budget = DEFAULT_BUDGET) -> ObjectBallStart | None:
    """``ball``'s velocity and spin as the simulated collision leaves it, the strike read
    from every ball's samples up to ``until`` (the moment it was struck); None when the
    simulated stroke never reaches it."""
    observed, comparison, found = read(tracked, table, params, until=until, prior=prior, budget=budget)
    if ball not in observed.balls:
        raise CaromError(f"shot {tracked.shot}: {ball} is not tracked")
    run = comparison.run(found.x)
    m = observed.balls.index(ball)
    for k in range(1, run.n_log):
        if run.log_kind[k] == L.EVENT_BALL and m in (run.log_a[k], run.log_b[k]):
            other = int(run.log_b[k] if run.log_a[k] == m else run.log_a[k])
            s, h = run.log_state[k, m], run.log_state[k, other]
            return ObjectBallStart(ball, observed.balls[other], float(run.log_t[k]) + float(found.x[5]),
                                   (float(s[L.X]), float(s[L.Y])), (float(s[L.VX]), float(s[L.VY])),
                                   (float(s[L.WX]), float(s[L.WY]), float(s[L.WZ])),
                                   (float(h[L.VX]), float(h[L.VY])))
    return None
