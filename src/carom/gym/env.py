"""``ThreeCushionEnv``: a three-cushion match against an opponent, one agent stroke a step.

The class is a thin shell around the pure functions of :mod:`carom.gym.logic`; the
vector form, N matches at once, is :class:`carom.gym.vector.ThreeCushionVectorEnv`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium as gym
import numpy as np

from carom.core.errors import CaromError
from carom.core.table import TableSpec
from carom.gym import render
from carom.gym.logic import (
    ACTION_SIZE,
    AGENT,
    NO_WINNER,
    OBSERVATION_SIZE,
    OPPONENT,
    check_play,
    checked_actions,
    checked_settings,
    observe,
    positions_of,
    reward,
    start,
    strikes,
    transition,
)
from carom.match.state import MatchState
from carom.physics import DEFAULT_PARAMS, Params

Policy = Callable[[np.ndarray, np.random.Generator], np.ndarray]
"""An opponent: the observation and the environment's generator in, an action out."""

def random_striker(observation: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A weak opponent: any speed, any direction, any tip."""
    return rng.uniform(-1.0, 1.0, ACTION_SIZE).astype(np.float32)


class ThreeCushionEnv(gym.Env[np.ndarray, np.ndarray]):
    """
    ## Description

    The agent plays a three-cushion match (RULES.md 3C) against an opponent, on a large
    table unless told otherwise. The match engine keeps the match: the innings, the
    series (C2, C3), the equalizing inning from the starting position (E2, E3), the
    faults (F9, O3) and the end of the game (E1); the simulator (PHYSICS.md) plays
    every stroke and the referee judges it. The agent opens the match and plays white
    (O1); the opponent plays yellow, its strokes played between the agent's.

    ## Action Space

    A `Box(-1, 1, (4,), float32)`: cue speed from 0.5 to 7 m/s, cue direction from 0° to
    360° (counter-clockwise from the +x axis, GEOMETRY.md), side and height of the tip
    from -0.5 R to 0.5 R, a level cue. A number beyond [-1, 1] is clipped to it; a tip
    offset beyond the miscue limit (0.5 R) is pulled back onto it. An action of another
    shape, or holding NaN or an infinity, is refused (a `CaromError` naming it), and so
    is a step after the episode ended: `reset()` first.

    ## Observation Space

    A `Box(0, 1, (10,), float32)`: x/W and y/L of white, yellow and red; the agent's and
    the opponent's scores as fractions of the points limit; the agent's innings as a
    fraction of the innings limit (of 100 without one); 1 during the last inning.

    ## Rewards

    The points of the agent's stroke: 1 for a carom the referee counts (3C1), 0 for a
    miss or a fault. The opponent's points are not rewarded; they shorten the game.

    ## Starting State

    The starting position (O2): white on the right-hand starting spot, yellow on the
    bottom spot, red on the top spot; 0 points, no innings. The first stroke is the
    opening stroke and must hit red first (O3).

    ## Episode End

    The episode terminates when the game ends (E1, E3): a player reaches the points
    limit, or the innings limit is played out, the second player having had his last
    inning. It is truncated when `max_strokes` strokes (both players') were played.

    ## Arguments

    `gymnasium.make("carom/ThreeCushion-v0", points=15, innings=50, equalizing_inning=True,
    opponent=random_striker, params=DEFAULT_PARAMS, max_strokes=500, render_mode=None,
    table="large")`: the points and innings limits (`None`: none), the equalizing
    inning (E3), the opponent's policy (observation and generator in, action out), the
    simulator's parameters, the truncation, `"ansi"` or `"rgb_array"` rendering, and
    the table (any of `carom.core.table.TABLES`). `gymnasium.make_vec(...,
    num_envs=N)` gives the vector form on the simulator's batch form.

    ## Version History

    * v0: the first version. Its `info` holds `score`, `innings` (arrays of two),
      `winner` (0, 1, or -1 for none) and `finished`; render modes `ansi` and
      `rgb_array`.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1}  # noqa: RUF012  (Gymnasium's)

    def __init__(self, points: int | None = 15, innings: int | None = 50, equalizing_inning: bool = True,
                 opponent: Policy = random_striker, params: Params = DEFAULT_PARAMS,
                 max_strokes: int = 500, render_mode: str | None = None,
                 table: TableSpec | str = "large") -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CaromError(f"render_mode: {render_mode!r} is not one of ansi, rgb_array")
        self.settings, self.table = checked_settings(points, innings, equalizing_inning, table)
        check_play(opponent, params, max_strokes)
        self.opponent = opponent
        self.params = params
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.observation_space = gym.spaces.Box(0.0, 1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
        self.action_space = gym.spaces.Box(-1.0, 1.0, shape=(ACTION_SIZE,), dtype=np.float32)
        self.state: MatchState = start(self.settings)
        self.strokes = 0
        self.line = 3
        self.ended = False
        """The episode terminated or was truncated: a step needs a reset first."""

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None
              ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        self.state = start(self.settings)
        self.strokes = 0
        self.line = 3
        self.ended = False
        return observe(self.state, self.settings), self._info()

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The agent's stroke (``action``: four numbers, clipped to [-1, 1]), then the
        opponent's until the agent is at the table again or the episode ends. A step after
        the end (terminated or truncated) is refused: ``reset()`` first."""
        if self.ended:
            raise CaromError("step: the episode has ended (terminated or truncated): call reset() first")
        earned = reward(self._play(checked_actions(action, None)))
        while not self.state.finished and self.state.striker == OPPONENT and self.strokes < self.max_strokes:
            move = self.opponent(observe(self.state, self.settings), self.np_random)
            self._play(checked_actions(move, None, "the opponent's action"))
        terminated = self.state.finished
        truncated = not terminated and self.strokes >= self.max_strokes
        self.ended = terminated or truncated
        return observe(self.state, self.settings), earned, terminated, truncated, self._info()

    def render(self) -> str | np.ndarray | None:
        """The match as text (``ansi``) or as an image (``rgb_array``)."""
        s = self.state
        if self.render_mode == "rgb_array":
            return render.rgb_array(positions_of(s)[0], self.table)
        if self.render_mode == "ansi":
            return render.ansi(positions_of(s)[0], s.score, s.innings, s.striker, s.finished, self.table)
        return None

    def _play(self, action: np.ndarray) -> Any:
        """One stroke by whoever is at the table; its ruling."""
        assert self.state.striker == AGENT or not self.state.finished
        self.state, ruling = transition(self.state, strikes(action)[0], self.params, self.line)
        self.line += 1
        self.strokes += 1
        return ruling

    def _info(self) -> dict[str, Any]:
        s = self.state
        return {"score": np.array(s.score), "innings": np.array(s.innings),
                "winner": NO_WINNER if s.winner is None else s.winner, "finished": s.finished}
