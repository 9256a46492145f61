"""A match to film: strokes played one after another by the simulator, each from where the
last left the balls, with the innings of three-cushion (a player goes on after a point).

Every stroke keeps its truth: the simulator's record (its events with their times), the
referee's ruling on it, when it starts in the clip, its cue ball and who played it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from carom.core.balls import BALLS, Ball, object_balls
from carom.core.errors import CaromError
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.physics import Strike, simulate
from carom.rules.disciplines import Discipline
from carom.rules.referee import StrokeContext, Verdict, judge

Array = npt.NDArray[np.float64]
Position = dict[Ball, tuple[float, float]]

PATH_STEP = 0.002
"""The simulator's paths are sampled this often (and at every event), s."""


@dataclass(frozen=True, slots=True)
class PlayedStroke:
    """One stroke of the clip and its truth."""

    number: int
    start: float
    """Clip time of the cue's contact, s."""
    cue: Ball
    player: int
    """1 plays white, 2 yellow."""
    inning: int
    """Counted from 1: a new inning whenever the other player comes to the table."""
    direction: float
    """The cue's direction, degrees counter-clockwise from +x."""
    truth: Stroke
    verdict: Verdict
    times: Array
    """Clip times of the paths' samples (shared by the three balls), s."""
    paths: dict[Ball, Array]
    """Per ball, its centre at :attr:`times` (n × 2)."""

    @property
    def end(self) -> float:
        return float(self.times[-1])


@dataclass(frozen=True, slots=True)
class Match:
    """The strokes of a clip, the pauses between them, and where the balls lie at any time."""

    table: TableSpec
    first: Position
    strokes: tuple[PlayedStroke, ...]
    duration: float

    def positions(self, t: float) -> Position:
        """Every ball's centre at clip time ``t``."""
        before = self.first
        for stroke in self.strokes:
            if t < stroke.start:
                return before
            if t <= stroke.end:
                return {ball: _interpolate(stroke.times, stroke.paths[ball], t) for ball in BALLS}
            before = {ball: (float(stroke.paths[ball][-1, 0]), float(stroke.paths[ball][-1, 1]))
                      for ball in BALLS}
        return before

    def stroke_at(self, t: float, lead: float) -> PlayedStroke | None:
        """The stroke being played at ``t``, or about to be (within ``lead`` seconds)."""
        for stroke in self.strokes:
            if stroke.start - lead <= t <= stroke.end:
                return stroke
        return None


def _interpolate(times: Array, path: Array, t: float) -> tuple[float, float]:
    return (float(np.interp(t, times, path[:, 0])), float(np.interp(t, times, path[:, 1])))


def play_match(seed: int, count: int, discipline: Discipline, table: TableSpec, lead: float = 2.0,
               pause: float = 1.2, speeds: tuple[float, float] = (1.5, 5.0)) -> Match:
    """``count`` strokes from a random position; each is struck ``lead`` seconds after the
    balls of the one before stopped, ``pause`` of them after the clip's first rest (the
    time the player needs to come to the table and aim), the cue's speed drawn from
    ``speeds`` (m/s)."""
    rng = np.random.default_rng(seed)
    position = random_position(rng, table)
    first = dict(position)
    cue, player, inning = Ball.WHITE, 1, 1
    t = lead + pause
    strokes: list[PlayedStroke] = []
    for number in range(1, count + 1):
        truth = None
        for _ in range(50):
            strike = random_strike(rng, cue, position, table, speeds)
            try:
                truth = simulate(position, strike, table, sample=PATH_STEP)
            except ValueError:
                continue
            break
        if truth is None or truth.paths is None:
            raise CaromError(f"no stroke could be played from seed {seed}, stroke {number}")
        verdict = judge(StrokeContext.of(discipline, table, cue_ball=cue, position=position), truth)
        times, paths = _arrays(truth, t)
        strokes.append(PlayedStroke(number, t, cue, player, inning, strike.direction, truth, verdict,
                                    times, paths))
        position = {ball: (float(paths[ball][-1, 0]), float(paths[ball][-1, 1])) for ball in BALLS}
        if verdict.points <= 0:
            cue = Ball.YELLOW if cue is Ball.WHITE else Ball.WHITE
            player, inning = 3 - player, inning + 1
        t = float(times[-1]) + lead
    return Match(table, first, tuple(strokes), t + pause)


def _arrays(truth: Stroke, start: float) -> tuple[Array, dict[Ball, Array]]:
    assert truth.paths is not None
    grid: Array | None = None
    out: dict[Ball, Array] = {}
    rows = {ball: np.asarray(truth.paths[ball], dtype=float) for ball in BALLS}
    end = max(float(r[-1, 0]) for r in rows.values())
    grid = np.unique(np.concatenate([r[:, 0] for r in rows.values()] + [np.array([0.0, end])]))
    for ball, r in rows.items():
        out[ball] = np.column_stack((np.interp(grid, r[:, 0], r[:, 1]), np.interp(grid, r[:, 0], r[:, 2])))
    return grid + start, out


def random_position(rng: np.random.Generator, table: TableSpec) -> Position:
    """Three balls anywhere on the surface, at least a few centimetres apart."""
    r = table.ball_radius
    out: Position = {}
    for ball in BALLS:
        while True:
            x = float(rng.uniform(r + 0.01, table.width - r - 0.01))
            y = float(rng.uniform(r + 0.01, table.length - r - 0.01))
            if all(math.hypot(x - p[0], y - p[1]) >= 2.0 * r + 0.03 for p in out.values()):
                out[ball] = (x, y)
                break
    return out


def random_strike(rng: np.random.Generator, cue: Ball, position: Position, table: TableSpec,
                  speeds: tuple[float, float] = (1.5, 5.0)) -> Strike:
    """A strike of ``cue`` at one of its object balls, with a random cut, speed and spin."""
    target = object_balls(cue)[int(rng.integers(2))]
    (x0, y0), (x1, y1) = position[cue], position[target]
    d = math.hypot(x1 - x0, y1 - y0)
    cut = float(rng.uniform(-0.9, 0.9))
    aim = math.atan2(y1 - y0, x1 - x0) + math.asin(max(-1.0, min(1.0, cut * 2.0 * table.ball_radius / d)))
    side, height = float(rng.uniform(-0.35, 0.35)), float(rng.uniform(-0.3, 0.35))
    return Strike(cue, float(rng.uniform(*speeds)), math.degrees(aim), side, height)
