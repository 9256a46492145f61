"""The search for the launch (and where the object balls lay) that reproduces a tracked
stroke (docs/fit.md, "How the strike is read").

1. **The free run.** The cue ball's samples before any sign of a contact fix the ball's
   speed, heading, the moment of the strike and (where it began to roll) the tip's
   height: least squares on those samples alone, from a straight line through the
   first ones.
2. **A grid** of side, height and elevation, which the free run does not show, scored
   with a robust cost on the stroke up to half a second after the free run.
3. **Least squares on every ball's samples** (SciPy's trust-region reflective method,
   the soft-L1 loss) from the grid's best points, over a window that grows to the whole
   stroke (:data:`WINDOWS`), the speed, heading and moment held near the free run's;
   what the samples do not say comes from the :class:`Prior`.

Every simulation counts against a budget (a number of simulations, and processor time
as a guard); when it runs out, the best point found so far is the answer and says so.
The uncertainty is the Jacobian's, read where the stroke depends smoothly on the strike
(:func:`covariance`).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares  # type: ignore[import-untyped]

from carom.fit.compare import LAUNCH, Comparison

SCALE = 0.03
"""Metres: the soft-L1 loss's scale. Residuals well under it count as squares, those far
beyond it (a ball that went another way) about linearly."""
SIDES = (-0.48, -0.36, -0.24, -0.12, 0.0, 0.12, 0.24, 0.36, 0.48)
HEIGHTS = (-0.4, -0.2, 0.0, 0.2, 0.4)
"""The grid's heights, and the free run's (the run shows the height only where the
ball stopped sliding before its first contact: a sliding ball slows at μs·g whatever
its spin)."""
ELEVATIONS = (0.0, 10.0, 20.0, 35.0)
STARTS = 3
"""Grid points the least squares starts from."""
CARRIED = 2
"""Answers carried from one window to the next."""
WINDOWS = (0.5, 1.5, 3.0, 6.0, math.inf)
"""Seconds after the free run: the samples compared grow window by window, each fit
starting from the last one's answer. A whole stroke's residuals change abruptly with
the strike (a ball that just missed another goes elsewhere), a short stretch's
smoothly: the windows lead the search into the narrow valley of the whole stroke."""
SPEED_ROOM = 0.1
"""The whole-stroke search keeps the ball's speed within this fraction of the free run's,"""
HEADING_ROOM = 3.0
"""its heading within these degrees,"""
TIME_ROOM = 0.002
"""and the moment of the strike within these seconds."""
MAX_ELEVATION = 45.0
"""Degrees: the steepest cue the search tries (a massé beyond it is not a carom stroke
this fit reads)."""
ROUNDS = 15
"""Steps of each least-squares run (SciPy's ``max_nfev``: each step one simulation, and
its Jacobian one more per coordinate)."""
STEPS = (1e-3, 1e-2, 5e-3, 5e-3, 0.2, 1e-4)
"""Finite-difference steps of the uncertainty's Jacobian: m/s, degrees, R, R, degrees, s;
1e-4 m for each move of where a ball lay."""
MOVE = 0.004
"""Metres: how far from its first tracked sample the fit may move where a ball lay
(four times the tracker's noise)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How much a fit may spend: simulations, and processor seconds as a guard."""

    simulations: int = 3000
    seconds: float = 1.0


DEFAULT_BUDGET = Budget()


@dataclass(frozen=True, slots=True)
class Prior:
    """What the fit takes the side, the elevation and the height to be where the samples
    do not say (a stroke read up to its first contact shows no side): each a value and a
    spread, added to the residuals as ``SCALE·(value − prior)/spread`` (one spread away
    costs what one sample 3 cm off does). The height's value is the free run's unless
    given."""

    side: float = 0.0
    elevation: float = 0.0
    height: float | None = None
    """None: the free run's."""
    side_spread: float = 0.25
    height_spread: float = 0.25
    elevation_spread: float = 15.0

    def residuals(self, x: np.ndarray, free_height: float) -> np.ndarray:
        height = free_height if self.height is None else self.height
        return SCALE * np.array([(x[2] - self.side) / self.side_spread, (x[3] - height) / self.height_spread,
                                 (x[4] - self.elevation) / self.elevation_spread])


DEFAULT_PRIOR = Prior()


class _OutOfBudget(Exception):
    """Raised inside the search when the budget is spent."""


@dataclass(frozen=True)
class Found:
    """The search's answer."""

    x: np.ndarray
    """The fit's vector (:mod:`carom.fit.compare`): the launch, then the moves of where
    the balls lay."""
    free_run_rms: float
    """RMS (metres, per coordinate) of the cue ball's free run (the rest before it
    included) when the strike is read from it alone: how well the simulator's cue can
    launch the ball as it left. NaN when the budget ran out before."""
    cost: float
    """The robust cost of the whole stroke at the answer."""
    covariance: np.ndarray
    """Of the fit's vector, in its coordinates."""
    stopped: bool
    """Whether the budget ran out before the search ended."""


def robust_cost(residuals: np.ndarray) -> float:
    """The soft-L1 cost of SciPy's ``least_squares`` at :data:`SCALE` (without its ½)."""
    z = (residuals / SCALE) ** 2
    return float(np.sum(2.0 * (np.sqrt(1.0 + z) - 1.0)))


class _Spender:
    """Counts simulations against the budget and remembers the best point seen."""

    def __init__(self, comparison: Comparison, budget: Budget, prior: Prior) -> None:
        self.comparison = comparison
        self.budget = budget
        self.prior = prior
        self.height = 0.0
        """The free run's height, the prior's value."""
        self.start = time.process_time()
        self.best: tuple[float, np.ndarray] | None = None

    def check(self) -> None:
        if (self.comparison.simulations >= self.budget.simulations
                or time.process_time() - self.start > self.budget.seconds):
            raise _OutOfBudget

    def residuals(self, x: np.ndarray) -> np.ndarray:
        """:meth:`whole` outside the budget (the answer's own)."""
        return np.concatenate([self.comparison.residuals(x), self.prior.residuals(x, self.height)])

    def forget(self) -> None:
        """Forget the best point (the cost function changes)."""
        self.best = None

    def whole(self, x: np.ndarray) -> np.ndarray:
        """The residuals of every ball's samples in the window, and the prior's."""
        self.check()
        r = self.residuals(x)
        cost = robust_cost(r)
        if self.best is None or cost < self.best[0]:
            self.best = (cost, x.copy())
        return r


def first_guess(comparison: Comparison) -> np.ndarray:
    """A straight line through the cue ball's first samples in motion: its speed and
    heading, and the moment it passed where the ball lay (the strike's); the balls
    where the tracker saw them."""
    obs = comparison.observed
    s = obs.samples[obs.cue]
    d = obs.departure
    moving = np.arange(d, len(s.t))
    pick = moving[(s.t[moving] <= max(obs.free_until, s.t[min(d + 2, len(s.t) - 1)]))][:6]
    if len(pick) < 2:
        pick = moving[:2] if len(moving) >= 2 else np.array([d - 1, d])
    t, xy = s.t[pick], s.xy[pick]
    vx, vy = (np.polyfit(t, xy[:, k], 1)[0] for k in (0, 1))
    speed = max(math.hypot(vx, vy), 0.05)
    heading = math.degrees(math.atan2(vy, vx))
    unit = np.array([vx, vy]) / speed
    travelled = float((xy.mean(axis=0) - s.xy[0]) @ unit)
    moment = float(t.mean()) - travelled / speed
    moment = min(max(moment, float(s.t[max(d - 2, 0)])), float(s.t[d]))
    return comparison.start(np.array([speed, heading, 0.0, 0.0, 0.0, moment]))


def read_free_run(comparison: Comparison, spender: _Spender, x0: np.ndarray) -> np.ndarray:
    """Speed, heading, height and moment from the cue ball's free run (side and elevation
    held at 0: the run does not show them)."""
    obs = comparison.observed
    s = obs.samples[obs.cue]
    free = [0, 1, 3, 5]
    lo = np.array([0.05, x0[1] - 30.0, -0.5, float(s.t[max(obs.departure - 2, 0)])])
    hi = np.array([12.0, x0[1] + 30.0, 0.5, float(s.t[obs.departure])])
    x = x0.copy()

    def residuals(q: np.ndarray) -> np.ndarray:
        spender.check()
        x[free] = q
        return comparison.free_run(x)

    start = np.clip(x0[free], lo, hi)
    fit = least_squares(residuals, start, bounds=(lo, hi), x_scale=[0.1, 0.5, 0.1, 0.01], diff_step=1e-5,
                        max_nfev=30)
    x[free] = fit.x
    return x


def grid(spender: _Spender, x: np.ndarray) -> list[np.ndarray]:
    """The grid's points, best first by the whole stroke's robust cost."""
    scored: list[tuple[float, int, np.ndarray]] = []
    for side in SIDES:
        for height in (*HEIGHTS, float(x[3])):
            for elevation in ELEVATIONS:
                point = x.copy()
                point[2], point[3], point[4] = side, height, elevation
                scored.append((robust_cost(spender.whole(point)), len(scored), point))
    scored.sort(key=lambda item: (item[0], item[1]))
    return [point for _, _, point in scored]


def bounds_around(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The whole-stroke search's bounds: speed, heading and moment near the free run's,
    each ball within :data:`MOVE` of where the tracker saw it."""
    moves = len(x) - LAUNCH
    lo = np.array([x[0] * (1 - SPEED_ROOM), x[1] - HEADING_ROOM, -0.5, -0.5, 0.0, x[5] - TIME_ROOM,
                   *[-MOVE] * moves])
    hi = np.array([x[0] * (1 + SPEED_ROOM), x[1] + HEADING_ROOM, 0.5, 0.5, MAX_ELEVATION, x[5] + TIME_ROOM,
                   *[MOVE] * moves])
    return lo, hi


def search(comparison: Comparison, budget: Budget = DEFAULT_BUDGET, prior: Prior = DEFAULT_PRIOR) -> Found:
    """The launch and the position at rest that best reproduce the tracked stroke (see
    the module's text)."""
    spender = _Spender(comparison, budget, prior)
    stopped = False
    x = first_guess(comparison)
    free_rms = math.nan
    scale = np.array([0.05, 0.3, 0.1, 0.1, 5.0, 0.001, *[0.001] * (len(x) - LAUNCH)])
    try:
        x = read_free_run(comparison, spender, x)
        spender.height = float(x[3])
        free_rms = float(np.sqrt(np.mean(comparison.free_run(x) ** 2)))
        lo, hi = bounds_around(x)
        starts: list[np.ndarray] = []
        ends = sorted({min(comparison.observed.free_until + extra, comparison.limit) for extra in WINDOWS})
        for end in ends:
            comparison.window(end)
            spender.forget()
            starts = starts or grid(spender, x)[:STARTS]
            answers: list[tuple[float, int, np.ndarray]] = []
            for start in starts:
                fit = least_squares(spender.whole, np.clip(start, lo, hi), bounds=(lo, hi), loss="soft_l1",
                                    f_scale=SCALE, x_scale=scale, diff_step=1e-5, max_nfev=ROUNDS)
                answers.append((fit.cost, len(answers), fit.x))
            starts = [a[2] for a in sorted(answers, key=lambda a: (a[0], a[1]))[:CARRIED]]
    except _OutOfBudget:
        stopped = True
    if spender.best is not None:
        x = spender.best[1]
    comparison.window(comparison.observed.free_until + WINDOWS[0])
    spread = covariance(spender.residuals, x)
    comparison.window(math.inf)
    cost = robust_cost(comparison.residuals(x))
    return Found(x, free_rms, cost, spread, stopped)


def covariance(residuals: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    """The launch's covariance from the Jacobian of the residuals, each weighted as the
    soft-L1 loss weighs it at the answer: σ²·(JᵀWJ)⁻¹, σ² the weighted residuals' mean
    square per degree of freedom, times (1 + ρ)/(1 − ρ), ρ the correlation of each
    residual with the same coordinate's at the next sample: the simulator's own error
    runs along a track, so neighbouring residuals are not independent and say less
    than their number suggests."""
    r = residuals(x)
    w = 1.0 / np.sqrt(np.sqrt(1.0 + (r / SCALE) ** 2))
    jac = np.empty((len(r), len(x)))
    for k, step in enumerate((*STEPS, *[1e-4] * (len(x) - len(STEPS)))):
        moved = x.copy()
        moved[k] += step
        jac[:, k] = (residuals(moved) - r) / step
    jw, rw = jac * w[:, None], r * w
    dof = max(len(r) - len(x), 1)
    sigma2 = float(rw @ rw) / dof * correlation_inflation(rw)
    return sigma2 * np.linalg.pinv(jw.T @ jw)


def correlation_inflation(r: np.ndarray) -> float:
    """(1 + ρ)/(1 − ρ) for the lag-one correlation ρ of each coordinate's residuals
    (held to 0–0.99): the variance of a mean of AR(1) terms against independent ones."""
    if len(r) < 6:
        return 1.0
    a, b = r[:-2], r[2:]
    denominator = float(np.sqrt((a @ a) * (b @ b)))
    rho = min(max(float(a @ b) / denominator if denominator > 0 else 0.0, 0.0), 0.99)
    return (1.0 + rho) / (1.0 - rho)
