"""``ThreeCushionVectorEnv``: N three-cushion matches played at once, for learning at
scale (``gymnasium.make_vec("carom/ThreeCushion-v0", num_envs=N)``).

The same matches as :class:`carom.gym.env.ThreeCushionEnv`, N at a time. Each round of
strokes (every agent's, then every opponent still at the table) is one call of the
simulator's batch form (``carom.physics.simulate_batch``); the verdicts are read from
the batch's contact codes at once (:mod:`carom.gym.judging`, the referee's rules for a
simulated stroke, tested equal to ``carom.rules.referee.judge``), and the match flow of
a three-cushion game (C2, C3, F1, E1–E3) runs on arrays (:class:`Matches`), tested equal
to the match engine stroke by stroke. Sub-environment i, reset with seed s, is the
single environment reset with seed s + i: same positions, same opponent strokes, same
rewards (``tests/gym``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from carom.core.balls import BALLS, Ball
from carom.core.checks import as_count, as_flag
from carom.core.errors import CaromError
from carom.core.position import starting_position
from carom.core.table import TableSpec
from carom.gym import render
from carom.gym.env import Policy, random_striker
from carom.gym.judging import verdicts
from carom.gym.logic import (
    ACTION_SIZE,
    AGENT,
    NO_WINNER,
    OBSERVATION_SIZE,
    OPPONENT,
    Settings,
    check_play,
    checked_actions,
    checked_settings,
    observation,
    strikes,
)
from carom.physics import DEFAULT_PARAMS, Params, simulate_batch
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, judge


def layout(spec: TableSpec, ball: Ball) -> np.ndarray:
    """The starting position for the player of ``ball`` (O2), as a 3 × 2 array."""
    position = starting_position(spec, ball)
    return np.array([position[b] for b in BALLS], dtype=np.float64)


@dataclass
class Matches:
    """N three-cushion matches as arrays: everything the rules need between two strokes
    (the vector form of ``carom.match.state.MatchState``, player 0 opening with white)."""

    positions: np.ndarray
    """N × 3 × 2: white, yellow, red."""
    score: np.ndarray
    innings: np.ndarray
    """N × 2: innings begun by each player."""
    striker: np.ndarray
    in_inning: np.ndarray
    last_inning: np.ndarray
    """The second player's last inning is under way or next (E2, E3)."""
    opening: np.ndarray
    """The next stroke is the opening stroke (O3)."""
    finished: np.ndarray
    winner: np.ndarray
    strokes: np.ndarray
    """Strokes played in the episode, by both players."""

    @classmethod
    def new(cls, n: int, start: np.ndarray) -> Matches:
        def counts(*shape: int) -> np.ndarray:
            return np.zeros((n, *shape), dtype=np.int64)

        def flags() -> np.ndarray:
            return np.zeros(n, dtype=bool)

        matches = cls(np.empty((n, 3, 2)), counts(2), counts(2), counts(), flags(), flags(), flags(),
                      flags(), counts(), counts())
        matches.begin(np.ones(n, dtype=bool), start)
        return matches

    def begin(self, which: np.ndarray, start: np.ndarray) -> None:
        """The matches ``which`` begin: the agent opens (O1) from the starting position (O2, O3)."""
        self.positions[which] = start
        for field in (self.score, self.innings, self.striker, self.strokes):
            field[which] = 0
        for flag in (self.in_inning, self.last_inning, self.finished):
            flag[which] = False
        self.opening[which] = True
        self.winner[which] = NO_WINNER

    def after_strokes(self, idx: np.ndarray, points: np.ndarray, end: np.ndarray, settings: Settings,
                      respot: np.ndarray) -> None:
        """Each striker of the matches ``idx`` played one stroke that scored ``points`` and
        left the balls at ``end``: begin his inning (C3), score it (C2), then he goes on
        (C3) or his inning ends (F1) and the game goes on, enters its last inning (E2,
        E3, from ``respot``, the starting position for the second player) or ends (E1,
        E3), as ``carom.match.engine`` decides."""
        p = self.striker[idx]
        self.innings[idx, p] += ~self.in_inning[idx]
        score = self.score[idx, p] + points
        self.score[idx, p] = score
        self.positions[idx] = end
        self.opening[idx] = False
        self.strokes[idx] += 1
        reached = np.zeros(idx.size, dtype=bool) if settings.points is None else score >= settings.points
        goes_on = (points > 0) & ~reached
        self.in_inning[idx] = goes_on
        ends = ~goes_on
        out = np.zeros(idx.size, dtype=bool)
        if settings.innings is not None:
            out = self.innings[idx, p] >= settings.innings
        first = ends & (p == AGENT)
        second = ends & (p == OPPONENT)
        last = self.last_inning[idx]
        to_last = first & (reached | out) & (settings.equalizing_inning | ~reached)
        won = first & reached & (not settings.equalizing_inning)
        over = second & (reached | last | out)
        self.striker[idx[first & ~won]] = OPPONENT  # the next inning, or the last (E2, E3)
        self.striker[idx[second & ~over]] = AGENT
        self.last_inning[idx[to_last]] = True
        if settings.equalizing_inning:
            self.positions[idx[to_last]] = respot  # E3: from the starting position (O2)
        done = idx[won | over]
        self.finished[done] = True
        self.last_inning[done] = False
        a, b = self.score[done, AGENT], self.score[done, OPPONENT]
        self.winner[done] = np.where(a > b, AGENT, np.where(b > a, OPPONENT, NO_WINNER))


class RandomStrikes:
    """The random opponent's actions (:func:`carom.gym.env.random_striker`), drawn ahead:
    ``AHEAD`` actions from each match's generator at a time, which gives the numbers
    that many draws of one action would (a generator's uniform numbers come one after
    the other however many are asked for at once)."""

    AHEAD = 64

    def __init__(self, n: int) -> None:
        self._drawn = np.empty((n, self.AHEAD, ACTION_SIZE), dtype=np.float32)
        self._used = np.full(n, self.AHEAD)

    def next(self, idx: np.ndarray, generators: list[np.random.Generator]) -> np.ndarray:
        for i in idx[self._used[idx] == self.AHEAD].tolist():
            draws = generators[i].uniform(-1.0, 1.0, self.AHEAD * ACTION_SIZE)
            self._drawn[i] = draws.reshape(self.AHEAD, ACTION_SIZE).astype(np.float32)
            self._used[i] = 0
        actions: np.ndarray = self._drawn[idx, self._used[idx]]
        self._used[idx] += 1
        return actions


class ThreeCushionVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """N matches of :class:`carom.gym.env.ThreeCushionEnv` at once; the same arguments,
    plus ``num_envs``, ``check_referee`` (judge every stroke with the referee too and
    stop at any difference from the fast path) and ``max_events`` (contacts kept per
    stroke in the batch; a stroke with more is simulated again with room for them).

    Observations (N × 10), actions (N × 4; another shape, NaN or an infinity is refused,
    numbers beyond [-1, 1] clipped), rewards, terminations and truncations are the single
    environment's, batched; ``info`` holds ``score``, ``innings`` (N × 2),
    ``winner`` (0, 1, or -1 for none) and ``finished``. A sub-environment that ended is
    reset at the next step (``AutoresetMode.NEXT_STEP``): that step ignores its action
    and returns its first observation with reward 0.
    """

    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 1,  # noqa: RUF012  (Gymnasium's)
                "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, points: int | None = 15, innings: int | None = 50,
                 equalizing_inning: bool = True, opponent: Policy = random_striker,
                 params: Params = DEFAULT_PARAMS, max_strokes: int = 500, render_mode: str | None = None,
                 table: TableSpec | str = "large", check_referee: bool = False, max_events: int = 32) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise CaromError(f"render_mode: {render_mode!r} is not one of ansi, rgb_array")
        self.num_envs = as_count(num_envs, "num_envs", 1)
        self.settings, self.table = checked_settings(points, innings, equalizing_inning, table)
        check_play(opponent, params, max_strokes)
        as_flag(check_referee, "check_referee")
        as_count(max_events, "max_events", 1)
        self.rules = discipline("three-cushion")
        self.opponent = opponent
        self.params = params
        self.max_strokes = max_strokes
        self.render_mode = render_mode
        self.check_referee = check_referee
        self.max_events = max_events
        self.single_observation_space = spaces.Box(0.0, 1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32)
        self.single_action_space = spaces.Box(-1.0, 1.0, shape=(ACTION_SIZE,), dtype=np.float32)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._start = layout(self.table, Ball.WHITE)
        self._respot = layout(self.table, Ball.YELLOW)
        self.matches = Matches.new(num_envs, self._start)
        self._generators: list[np.random.Generator] | None = None
        self._random_strikes = RandomStrikes(num_envs)
        self._reset_next = np.zeros(num_envs, dtype=bool)

    # --- Gymnasium's interface ----------------------------------------------------------

    def reset(self, *, seed: int | list[int | None] | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        """Begin every match (or those of ``options["reset_mask"]``). Seed s seeds
        sub-environment i with s + i, as ``SyncVectorEnv`` seeds its copies."""
        super().reset(seed=seed if isinstance(seed, int) else None)
        seeds = [None if seed is None else seed + i for i in range(self.num_envs)] if not isinstance(
            seed, list) else seed
        if self._generators is None or seed is not None:
            self._generators = [seeding.np_random(s)[0] for s in seeds]
            self._random_strikes = RandomStrikes(self.num_envs)
        mask = np.ones(self.num_envs, dtype=bool)
        if options is not None and "reset_mask" in options:
            mask = np.asarray(options["reset_mask"], dtype=bool)
        self.matches.begin(mask, self._start)
        self._reset_next[mask] = False
        return self._observe(), self._info()

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                                 dict[str, Any]]:
        m = self.matches
        again = self._reset_next
        if again.any():
            m.begin(again, self._start)
        playing = ~again
        rewards = np.zeros(self.num_envs)
        agents = np.flatnonzero(playing)
        if agents.size:
            assert not m.finished[agents].any() and (m.striker[agents] == AGENT).all()
            given = checked_actions(actions, self.num_envs, "actions")
            rewards[agents] = self._play(agents, strikes(given[agents]))
        while True:
            at_table = playing & ~m.finished & (m.striker == OPPONENT)
            turn = np.flatnonzero(at_table & (m.strokes < self.max_strokes))
            if turn.size == 0:
                break
            self._play(turn, strikes(self._opponent_actions(turn)))
        terminated = playing & m.finished
        truncated = playing & ~m.finished & (m.strokes >= self.max_strokes)
        self._reset_next = terminated | truncated
        return self._observe(), rewards, terminated, truncated, self._info()

    def render(self) -> tuple[Any, ...] | None:
        """Each match's picture in the render mode: text (``ansi``) or an image (``rgb_array``)."""
        m = self.matches
        if self.render_mode == "rgb_array":
            return tuple(render.rgb_array(m.positions[i], self.table) for i in range(self.num_envs))
        if self.render_mode == "ansi":
            return tuple(render.ansi(m.positions[i], (int(m.score[i, 0]), int(m.score[i, 1])),
                                     (int(m.innings[i, 0]), int(m.innings[i, 1])), int(m.striker[i]),
                                     bool(m.finished[i]), self.table) for i in range(self.num_envs))
        return None

    # --- the strokes --------------------------------------------------------------------

    def _play(self, idx: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The strikers of the matches ``idx`` play ``rows``; the points of each stroke."""
        m = self.matches
        start = m.positions[idx]
        cue = m.striker[idx]  # player 0 plays white (ball 0), player 1 yellow (ball 1): O1
        outcome = simulate_batch(start, rows, cue, self.table, self.params, max_events=self.max_events)
        codes, n_codes = outcome.codes, outcome.n_codes
        cut = np.flatnonzero(n_codes > self.max_events)
        if cut.size:
            room = int(n_codes[cut].max())
            again = simulate_batch(start[cut], rows[cut], cue[cut], self.table, self.params, max_events=room)
            codes = np.zeros((idx.size, room), dtype=np.uint8)
            codes[:, :self.max_events] = outcome.codes
            codes[cut] = again.codes
        opening = m.opening[idx]
        judged = verdicts(codes, n_codes, start, cue, opening, self.rules, self.table)
        if self.check_referee:
            fouls = [judged.fouls(k) for k in range(idx.size)]
            self._check(idx, judged.points, fouls, start, rows, cue, opening)
        m.after_strokes(idx, judged.points, outcome.end, self.settings, self._respot)
        return judged.points

    def _check(self, idx: np.ndarray, points: np.ndarray, fouls: list[tuple[str, ...]], start: np.ndarray,
               rows: np.ndarray, cue: np.ndarray, opening: np.ndarray) -> None:
        """Judge every stroke with the referee too; a difference is a bug of the fast path."""
        outcome = simulate_batch(start, rows, cue, self.table, self.params, max_events=1024)
        for k in range(idx.size):
            stroke = outcome.stroke(k, start, cue)
            verdict = judge(StrokeContext.of(self.rules, self.table, cue_ball=stroke.ball,
                                             opening=bool(opening[k]), position=stroke.start), stroke)
            if (verdict.points, verdict.fouls) != (int(points[k]), fouls[k]):
                raise AssertionError(f"sub-environment {idx[k]}: the referee rules {verdict.points} "
                                     f"{verdict.fouls}, the fast path {int(points[k])} {fouls[k]}")

    def _opponent_actions(self, idx: np.ndarray) -> np.ndarray:
        """The opponent's actions in the matches ``idx``, each drawn from its own match's
        generator in the order the single environment draws them."""
        assert self._generators is not None, "call reset() before step()"
        if self.opponent is random_striker:
            return self._random_strikes.next(idx, self._generators)
        seen = self._observe()
        return np.array([self.opponent(seen[i], self._generators[i]) for i in idx.tolist()])

    def _observe(self) -> np.ndarray:
        m = self.matches
        return observation(m.positions, m.score, m.innings[:, AGENT], m.last_inning, self.settings,
                           self.table)

    def _info(self) -> dict[str, Any]:
        m = self.matches
        info = {"score": m.score.copy(), "innings": m.innings.copy(), "winner": m.winner.copy(),
                "finished": m.finished.copy()}
        every = np.ones(self.num_envs, dtype=bool)
        return {**info, **{f"_{key}": every for key in info}}
