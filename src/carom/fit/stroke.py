"""The stroke read back: ``fit_stroke(tracked, table) -> FittedStroke`` and
``what_if(fitted, **change) -> Stroke`` (docs/fit.md).

A fitted stroke holds the strike read back, its uncertainty, the re-simulated stroke and
how well it follows the tracked one. It is **played** (offered as what was played) only
when nothing is wrong with it: every ball tracked throughout, the cue ball's free run
within the tracker's noise, and every ball's RMSE within :data:`FOLLOWS`; otherwise
:attr:`FittedStroke.problems` says what, with the residual.
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from dataclasses import dataclass, field, fields

import numpy as np

from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.position import Position
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.fit.compare import LAUNCH, Comparison
from carom.fit.launch import Launch, strike_of
from carom.fit.observed import Observed, observe
from carom.fit.search import DEFAULT_BUDGET, DEFAULT_PRIOR, Budget, Found, Prior, search
from carom.notation.said import Said
from carom.physics.params import DEFAULT_PARAMS, Params
from carom.physics.simulate import simulate
from carom.physics.strike import Strike
from carom.track import TrackedStroke

NOISE = 0.003
"""Metres: the RMS (per coordinate) the cue ball's free run may keep, three times the
tracker's noise of about 1 mm; beyond it the strike did not launch the ball the way the
simulator's cue does (a jump, a massé, a ball already moving)."""
FOLLOWS = 0.05
"""Metres: the largest RMSE of any ball over its samples for the re-simulated stroke to
stand for what was played (docs/fit.md says why this figure)."""
STRIKE_FIELDS = ("speed", "direction", "side", "height", "elevation")


@dataclass(frozen=True)
class FittedStroke:
    """A tracked stroke read back: the strike and how well its simulation follows it."""

    shot: object
    position: Position
    """Where the balls lay, read back with the strike (within a few millimetres of the
    tracked first samples)."""
    strike: Strike
    strike_time: float
    """When the cue struck, in seconds of the tracked stroke's clock."""
    uncertainty: Mapping[str, float]
    """One standard deviation of each strike field and of ``time``, from the fit's
    Jacobian (the simulator taken as exact: the real uncertainty is larger)."""
    rmse: Mapping[Ball, float]
    """Each ball's RMSE (metres) between its tracked samples and the re-simulated stroke."""
    free_run_rms: float
    """RMS (metres, per coordinate) of the cue ball's free run read alone
    (:attr:`carom.fit.search.Found.free_run_rms`)."""
    stroke: Stroke
    """The re-simulated stroke (event times on the simulator's clock, from the strike)."""
    reasons: tuple[Said, ...]
    """Why this is not what was played; empty when it is."""
    moved: tuple[Ball, ...]
    """The balls that moved in the tracked stroke."""
    simulations: int
    seconds: float
    """Processor seconds the fit took."""
    table: TableSpec = field(repr=False)
    params: Params = field(repr=False)

    @property
    def played(self) -> bool:
        """Whether the re-simulated stroke may be offered as what was played."""
        return not self.reasons

    @property
    def problems(self) -> tuple[str, ...]:
        """:attr:`reasons` in English."""
        return tuple(map(str, self.reasons))


def read(tracked: TrackedStroke, table: TableSpec, params: Params, *, until: float = math.inf,
         prior: Prior = DEFAULT_PRIOR, budget: Budget = DEFAULT_BUDGET) -> tuple[Observed, Comparison, Found]:
    """The search on ``tracked``'s samples up to ``until``: the stroke as the fit reads it,
    its comparison with the simulator and the search's answer. Raises
    :class:`~carom.core.errors.CaromError` when there is nothing to read (the cue ball
    has no samples or never moved)."""
    observed = observe(tracked, table)
    if tracked.cue not in observed.samples or observed.departure == 0:
        raise CaromError(f"shot {tracked.shot}: nothing to fit: " + "; ".join(observed.problems))
    comparison = Comparison(observed, table, params, until)
    return observed, comparison, search(comparison, budget, prior)


def fit_stroke(tracked: TrackedStroke, table: TableSpec, params: Params = DEFAULT_PARAMS, *,
               budget: Budget = DEFAULT_BUDGET) -> FittedStroke:
    """Read the cue strike back from ``tracked`` by fitting the simulator to every ball's
    samples. Raises :class:`~carom.core.errors.CaromError` only when there is nothing to
    fit (the cue ball has no samples or never moved); a stroke fitted badly comes back
    with its :attr:`~FittedStroke.problems`."""
    started = time.process_time()
    observed, comparison, found = read(tracked, table, params, budget=budget)
    launch = Launch.of(found.x[:LAUNCH])
    strike = strike_of(launch, observed.cue, params)
    position = comparison.position(found.x)
    rmse = comparison.rmse(found.x)
    problems = list(observed.reasons)
    if not found.free_run_rms <= NOISE:
        problems.append(Said("the cue ball's run before any contact is %(mm)s mm from the simulated one "
                             "(RMS), beyond the tracker's noise (%(noise)s mm)",
                             mm=format(1000 * found.free_run_rms, ".1f"), noise=format(1000 * NOISE, ".0f")))
    worst = max(rmse, key=lambda b: rmse[b])
    if rmse[worst] > FOLLOWS:
        problems.append(Said("the re-simulated stroke is %(cm)s cm from the tracked one (%(ball)s, RMSE), "
                             "beyond %(most)s cm", cm=format(100 * rmse[worst], ".1f"), ball=worst,
                             most=format(100 * FOLLOWS, ".0f")))
    if found.stopped:
        problems.append(Said("the fit ran out of its time before it ended"))
    return FittedStroke(
        shot=tracked.shot, position=position, strike=strike, strike_time=launch.time,
        uncertainty=_uncertainty(launch, found.covariance[:LAUNCH, :LAUNCH], observed.cue, params), rmse=rmse,
        free_run_rms=found.free_run_rms, stroke=simulate(position, strike, table, params),
        reasons=tuple(problems), moved=tuple(b for b in observed.balls if observed.samples[b].moved),
        simulations=comparison.simulations, seconds=time.process_time() - started, table=table, params=params)


def _uncertainty(launch: Launch, covariance: np.ndarray, ball: Ball, params: Params) -> dict[str, float]:
    """The launch's covariance carried over to the strike's fields (through the
    derivative of :func:`strike_of`), as standard deviations."""
    x = launch.vector()

    def strike_vector(v: np.ndarray) -> np.ndarray:
        s = strike_of(Launch.of(v), ball, params)
        return np.array([s.speed, s.direction, s.side, s.height, s.elevation, v[5]])

    base = strike_vector(x)
    g = np.empty((6, 6))
    for k in range(6):
        step = 1e-6 * max(1.0, abs(x[k]))
        moved = x.copy()
        moved[k] += step
        g[:, k] = (strike_vector(moved) - base) / step
    spread = np.sqrt(np.maximum(np.diag(g @ covariance @ g.T), 0.0))
    return {name: float(s) for name, s in zip((*STRIKE_FIELDS, "time"), spread, strict=True)}


def what_if(fitted: FittedStroke, *, sample: float | None = None, **change: float) -> Stroke:
    """The fitted stroke played again with some of the strike's fields changed (``speed``,
    ``direction``, ``side``, ``height``, ``elevation``): "what if" on the review page.
    ``sample`` (seconds) adds every ball's path, as :func:`carom.physics.simulate` does;
    with no change, the stroke read back is played again. An unknown field, or a value
    the strike refuses, is a :class:`~carom.core.errors.CaromError` naming it."""
    unknown = sorted(set(change) - set(STRIKE_FIELDS))
    if unknown:
        raise CaromError(f"what if: unknown strike field(s) {', '.join(unknown)} "
                         f"(known: {', '.join(STRIKE_FIELDS)})")
    for name, value in change.items():
        if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
            raise CaromError(f"what if: {name} must be a finite number, not {value!r}")
    values = {f.name: getattr(fitted.strike, f.name) for f in fields(Strike)}
    values.update({name: float(value) for name, value in change.items()})
    return simulate(fitted.position, Strike(**values), fitted.table, fitted.params, sample=sample)

