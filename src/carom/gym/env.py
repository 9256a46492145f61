"""``ThreeCushionEnv``: the agent plays white in a three-cushion match; the engine keeps
the innings, the equalizing inning and the faults; the simulator plays the strokes.

Observation: the three balls' positions (x/W, y/L for white, yellow, red), both
players' scores as fractions of the points limit, the innings played as a fraction
of the innings limit, and 1 when the current inning is the equalizing one.
Action: four numbers in [-1, 1] (as Gymnasium recommends): the cue speed from 0.5 to
7 m/s, the direction from 0° to 360°, side and height from -0.5 R to 0.5 R, a level
cue; tip offsets beyond the miscue limit are pulled back onto it.
Reward: the points the agent's stroke scored. The opponent's strokes are played
between the agent's by ``opponent`` (default: a seeded random striker).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar

import gymnasium as gym
import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.records import Header, Opener
from carom.core.table import TABLES
from carom.match.engine import apply
from carom.match.state import MatchState, initial_state
from carom.physics import DEFAULT_PARAMS, Params, Strike, simulate
from carom.physics.strike import MISCUE_LIMIT

Policy = Callable[[np.ndarray, np.random.Generator], np.ndarray]


SPEED = (0.5, 7.0)


def random_striker(observation: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A weak opponent: any speed, any direction, any tip."""
    return rng.uniform(-1.0, 1.0, 4).astype(np.float32)


class ThreeCushionEnv(gym.Env[np.ndarray, np.ndarray]):
    metadata: ClassVar[dict[str, Any]] = {"render_modes": ["svg"], "render_fps": 1}

    def __init__(self, points: int = 15, innings: int | None = 50, equalizing_inning: bool = True,
                 opponent: Policy = random_striker, params: Params = DEFAULT_PARAMS,
                 max_strokes: int = 500, render_mode: str | None = None) -> None:
        self.header = Header("three-cushion", "large", ("agent", "opponent"), points, innings,
                             None, equalizing_inning)
        self.table = TABLES["large"]
        self.opponent = opponent
        self.params = params
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(10,), dtype=np.float32)
        self.action_space = gym.spaces.Box(-1.0, 1.0, shape=(4,), dtype=np.float32)
        self.state: MatchState = initial_state(self.header)
        self.strokes = 0
        self.line = 2

    def _observe(self) -> np.ndarray:
        s = self.state
        assert s.position is not None
        w, length = self.table.width, self.table.length
        xy = [v for b in BALLS for v in (s.position[b][0] / w, s.position[b][1] / length)]
        limit = self.header.points or 1
        innings = self.header.innings or 100
        return np.clip(np.array([*xy, s.score[0] / limit, s.score[1] / limit,
                                 s.innings[0] / innings, float(s.last_inning)], dtype=np.float32), 0.0, 1.0)

    def _strike(self, action: np.ndarray, ball: Ball) -> Strike:
        a = np.clip(np.asarray(action, dtype=np.float64), -1.0, 1.0)
        speed = SPEED[0] + (a[0] + 1.0) / 2.0 * (SPEED[1] - SPEED[0])
        direction = (a[1] + 1.0) * 180.0 % 360.0
        side, height = a[2] * MISCUE_LIMIT, a[3] * MISCUE_LIMIT
        tip = math.hypot(side, height)
        if tip > MISCUE_LIMIT:
            side, height = side * MISCUE_LIMIT / tip, height * MISCUE_LIMIT / tip
        return Strike(ball, float(speed), float(direction), float(side), float(height), 0.0)

    def _play(self, action: np.ndarray) -> int:
        """One stroke by whoever is at the table; the points it scored."""
        s = self.state
        assert s.position is not None
        stroke = simulate(s.position, self._strike(action, s.striker_ball), self.table, self.params)
        self.state, ruling = apply(s, stroke, self.line)
        self.line += 1
        self.strokes += 1
        return 0 if ruling is None else ruling.points

    def _opponent_plays(self) -> None:
        while not self.state.finished and self.state.striker == 1 and self.strokes < self.max_strokes:
            self._play(self.opponent(self._observe(), self.np_random))

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.state, _ = apply(initial_state(self.header), Opener(0), 2)
        self.strokes = 0
        self.line = 3
        return self._observe(), self._info()

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        reward = self._play(action)
        self._opponent_plays()
        terminated = self.state.finished
        truncated = not terminated and self.strokes >= self.max_strokes
        return self._observe(), float(reward), terminated, truncated, self._info()

    def _info(self) -> dict[str, Any]:
        s = self.state
        return {"score": s.score, "innings": s.innings, "winner": s.winner, "finished": s.finished}

    def render(self) -> str | None:  # type: ignore[override]
        if self.render_mode != "svg":
            return None
        from carom.notation.svg import svg_table

        return svg_table(self.table, self.state.position)
