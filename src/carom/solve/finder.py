"""Search cue strikes for points, and rank them by how forgiving they are.

The search runs in rounds, each one call of the simulator's batch form:

1. **Explore**: strikes drawn at random (seeded) over direction, speed and tip offsets
   (and elevation when allowed); the referee judges each; the scoring ones are candidates.
2. **Screen**: every candidate is played again a few times with a player's execution
   error (direction, speed and tip, normal errors); the most forgiving go on.
3. **Settle**: around each survivor, nearby strikes are tried, keeping the one whose
   perturbed strokes score most often: a player aims at the middle of the window.
4. **Rank**: the finalists are played many times under the same perturbations (common
   random numbers, so the comparison is fair) and sorted by their chance of scoring.

Every stroke of every round is judged by ``carom.rules.referee.judge``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from carom.core.balls import BALLS, Ball, cue_ball_problem
from carom.core.checks import as_ball, as_flag, as_number, refuse, shown
from carom.core.errors import CaromError
from carom.core.position import Position
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.physics import DEFAULT_PARAMS, Params, Strike, simulate
from carom.physics.batch import simulate_batch
from carom.physics.strike import MAX_CUE_SPEED, MISCUE_LIMIT
from carom.rules.disciplines import Discipline
from carom.rules.validity import check_position, discipline_and_table
from carom.solve.judging import points, route

SPEED_RANGE = (1.0, 6.0)
"""Cue speeds searched, m/s."""
TIP_LIMIT = 0.45
"""Tip offsets searched, as a fraction of R (inside the miscue limit of 0.5 R)."""
ELEVATION_RANGE = (0.0, 30.0)
"""Cue elevations searched when elevation is allowed, degrees."""
NOISE_LIMITS = {"direction": (10.0, "degrees"), "speed": (0.5, "of the speed"), "tip": (0.2, "R")}
"""The largest σ of each execution error: beyond them a player does not aim at all."""
MAX_COUNT = 20
"""At most this many strokes are returned (each distinct route once)."""
MAX_SEED = 10**18 - 1
SOLVABLE = ("three-cushion", "one-cushion", "straight-rail")
"""The disciplines the finder searches (``carom solve``, ``POST /api/solve``)."""


@dataclass(frozen=True, slots=True)
class ExecutionNoise:
    """How unsteady the player is: the standard deviations of the normal errors added to
    every strike the finder plays to estimate a stroke's chance (a description, not an
    exception)."""

    direction: float = 0.3
    """Degrees."""
    speed: float = 0.04
    """A fraction of the cue speed."""
    tip: float = 0.03
    """A fraction of R, on each of side and height."""

    def __post_init__(self) -> None:
        for field, (high, unit) in NOISE_LIMITS.items():
            value = as_number(getattr(self, field), f"{field} σ")
            if not 0.0 <= value <= high:
                raise CaromError(f"{field} σ: {value:g} is out of range: from 0 to {high:g} {unit}")
            object.__setattr__(self, field, value)


@dataclass(frozen=True, slots=True)
class Shot:
    """A strike the referee judges a point, and its chance under execution error."""

    strike: Strike
    chance: float
    route: tuple[str, ...]
    stroke: Stroke
    """The strike simulated as played, as a ``carom/1`` stroke record (with paths)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """How many strokes each round may simulate."""

    explore: int = 2048
    explore_rounds: int = 4
    screen_candidates: int = 96
    screen_trials: int = 12
    settle_shots: int = 4
    settle_steps: int = 6
    rank_trials: int = 96


class _Table:
    """One position, one table, one discipline: simulate and judge arrays of strikes."""

    def __init__(self, position: Position, ball: Ball, discipline: Discipline, table: TableSpec,
                 params: Params, opening: bool) -> None:
        self.start = np.array([position[b] for b in BALLS], dtype=np.float64)
        self.cue_index = BALLS.index(ball)
        self.discipline = discipline
        self.table = table
        self.params = params
        self.opening = opening
        self.simulated = 0

    def score(self, strikes: np.ndarray) -> np.ndarray:
        n = strikes.shape[0]
        positions = np.broadcast_to(self.start, (n, 3, 2))
        cue = np.full(n, self.cue_index, dtype=np.int64)
        outcome = simulate_batch(positions, strikes, cue, self.table, self.params)
        self.simulated += n
        return points(outcome, positions, cue, self.discipline, self.table, opening=self.opening)


def _clip_tips(strikes: np.ndarray, limit: float = MISCUE_LIMIT) -> np.ndarray:
    """Tip offsets pulled back inside ``limit`` (a perturbed stroke cannot miscue here)."""
    r = np.hypot(strikes[:, 2], strikes[:, 3])
    over = r > limit
    strikes[over, 2:4] *= (limit / r[over])[:, None]
    return strikes


def _explore(rng: np.random.Generator, n: int, elevation: bool) -> np.ndarray:
    angle = rng.uniform(0.0, 2.0 * math.pi, n)
    radius = TIP_LIMIT * np.sqrt(rng.uniform(0.0, 1.0, n))
    return np.column_stack([
        rng.uniform(*SPEED_RANGE, n),
        rng.uniform(0.0, 360.0, n),
        radius * np.cos(angle),
        radius * np.sin(angle),
        rng.uniform(*ELEVATION_RANGE, n) if elevation else np.zeros(n),
    ])


def _errors(rng: np.random.Generator, trials: int, noise: ExecutionNoise) -> np.ndarray:
    """``trials`` execution errors: direction (deg), relative speed, side, height."""
    return np.column_stack([
        rng.normal(0.0, noise.direction, trials),
        rng.normal(0.0, noise.speed, trials),
        rng.normal(0.0, noise.tip, trials),
        rng.normal(0.0, noise.tip, trials),
    ])


def _perturbed(strikes: np.ndarray, errors: np.ndarray) -> np.ndarray:
    """Every strike played with every error: ``len(strikes) * len(errors)`` rows."""
    base = np.repeat(strikes, errors.shape[0], axis=0)
    errs = np.tile(errors, (strikes.shape[0], 1))
    base[:, 0] = np.clip(base[:, 0] * (1.0 + errs[:, 1]), 0.05, MAX_CUE_SPEED)
    base[:, 1] = np.mod(base[:, 1] + errs[:, 0], 360.0)
    base[:, 2] += errs[:, 2]
    base[:, 3] += errs[:, 3]
    return _clip_tips(base)


def _chances(table: _Table, strikes: np.ndarray, errors: np.ndarray) -> np.ndarray:
    if strikes.shape[0] == 0:
        return np.zeros(0)
    hits = table.score(_perturbed(strikes, errors))
    return hits.reshape(strikes.shape[0], errors.shape[0]).mean(axis=1)


def _settle(table: _Table, rng: np.random.Generator, shots: np.ndarray, chances: np.ndarray,
            errors: np.ndarray, noise: ExecutionNoise, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Move each shot towards the middle of its scoring window: try ``steps`` nearby
    strikes (a few errors away) and keep any that scores more often."""
    best, best_chance = shots.copy(), chances.copy()
    scale = np.array([noise.speed * 2.0, noise.direction * 2.5, noise.tip * 2.5, noise.tip * 2.5])
    for _ in range(2):
        moves = rng.normal(0.0, 1.0, (best.shape[0], steps, 4)) * scale
        tries = np.repeat(best, steps, axis=0)
        tries[:, 0] *= 1.0 + moves[..., 0].ravel()
        tries[:, 1] = np.mod(tries[:, 1] + moves[..., 1].ravel(), 360.0)
        tries[:, 2] += moves[..., 2].ravel()
        tries[:, 3] += moves[..., 3].ravel()
        tries[:, 0] = np.clip(tries[:, 0], *SPEED_RANGE)
        tries = _clip_tips(tries, TIP_LIMIT)
        got = _chances(table, tries, errors).reshape(best.shape[0], steps)
        pick = np.argmax(got, axis=1)
        better = got[np.arange(best.shape[0]), pick] > best_chance
        best[better] = tries.reshape(best.shape[0], steps, 5)[better, pick[better]]
        best_chance[better] = got[better, pick[better]]
    return best, best_chance


def _whole_within(value: object, field: str, low: int, high: int, unit: str = "") -> None:
    if type(value) is not int:
        refuse(f"expected a whole number, got {shown(value)}", field)
    if not low <= value <= high:
        refuse(f"{value} is out of range: from {low} to {high}{unit}", field)


def find_shots(position: Position | Mapping[Ball | str, Any], ball: Ball | str, discipline: Discipline | str,
               table: TableSpec | str, *,
               noise: ExecutionNoise | None = None, params: Params = DEFAULT_PARAMS, seed: int = 0,
               count: int = 3, elevation: bool = False, opening: bool = False,
               budget: Budget | None = None, sample: float | None = 0.01) -> list[Shot]:
    """The ``count`` most forgiving strikes from ``position`` that the referee judges a
    point, best first (an empty list when none was found).

    ``noise``: the player's execution error (default: direction σ 0.3°, speed σ 4 %,
    tip σ 0.03 R). ``elevation``: also search cue elevations up to 30°. ``opening``: the
    opening stroke of a match or set, which must hit red first (O3). ``seed`` makes
    the search and the chances reproducible. ``sample``: the returned strokes carry
    paths sampled every ``sample`` seconds (``None``: none). The discipline, the table
    and the ball may be given by name; every argument is checked first, and a refusal
    is a :class:`~carom.core.errors.CaromError` naming it. The first search of an
    installation compiles the judging kernels unless ``make setup`` (or
    ``python -m carom.solve.build``) did.
    """
    discipline, table = discipline_and_table(discipline, table)
    if discipline.id not in SOLVABLE:
        refuse(f"the finder searches {', '.join(SOLVABLE)}, not {discipline.id}", "discipline")
    position = check_position(position, table, BALLS, "position")
    ball = as_ball(ball)
    problem = cue_ball_problem(ball)
    if problem is not None:
        refuse(problem, "ball")
    _whole_within(count, "count", 1, MAX_COUNT, " strokes")
    _whole_within(seed, "seed", 0, MAX_SEED)
    for name, value, kind in (("noise", noise, ExecutionNoise), ("params", params, Params),
                              ("budget", budget, Budget)):
        if value is not None and type(value) is not kind:
            refuse(f"expected {kind.__name__}, got {shown(value)}", name)
    as_flag(elevation, "elevation")
    as_flag(opening, "opening")
    noise = noise or ExecutionNoise()
    budget = budget or Budget()
    rng = np.random.default_rng(seed)
    judge_table = _Table(position, ball, discipline, table, params, opening)

    found = np.empty((0, 5))
    for _ in range(budget.explore_rounds):
        strikes = _explore(rng, budget.explore, elevation)
        found = np.vstack([found, strikes[judge_table.score(strikes) > 0]])
        if found.shape[0] >= budget.screen_candidates // 2:
            break
    if found.shape[0] == 0:
        return []
    if found.shape[0] > budget.screen_candidates:
        found = found[rng.choice(found.shape[0], budget.screen_candidates, replace=False)]

    rough = _chances(judge_table, found, _errors(rng, budget.screen_trials, noise))
    order = np.argsort(-rough, kind="stable")[:max(budget.settle_shots, count)]
    settled, _ = _settle(judge_table, rng, found[order], rough[order],
                         _errors(rng, budget.screen_trials * 2, noise), noise, budget.settle_steps)
    finalists = np.vstack([settled, found[order]])
    finalists = finalists[judge_table.score(finalists) > 0]  # the aim itself must score
    chances = _chances(judge_table, finalists, _errors(rng, budget.rank_trials, noise))

    shots: list[Shot] = []
    seen: set[tuple[str, ...]] = set()
    for k in np.argsort(-chances, kind="stable"):
        speed, direction, side, height, elev = (float(v) for v in finalists[k])
        strike = Strike(ball, speed, direction, side, height, elev)
        stroke = simulate(position, strike, table, params, sample=sample)
        way = route(stroke)
        if way in seen:
            continue
        seen.add(way)
        shots.append(Shot(strike, float(chances[k]), way, stroke))
        if len(shots) == count:
            break
    return shots
