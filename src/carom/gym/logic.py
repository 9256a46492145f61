"""The environment's logic as pure functions of the match state: what the agent sees
(:func:`observe`), what an action strikes (:func:`strikes`), what a stroke does to the
match (:func:`transition`) and what it earns (:func:`reward`).

The single environment (:mod:`carom.gym.env`) and the vector one (:mod:`carom.gym.vector`)
share :func:`strikes` and :func:`observation`, which work on arrays of any number of
matches, so that the same action gives the same strike, and the same match the same
observation, in both, bit for bit. The match itself is the match engine's
(``carom.match.engine.apply``): the single environment applies it stroke by stroke, the
vector one runs its three-cushion flow on arrays and is tested equal to it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.checks import as_whole, refuse, shown
from carom.core.records import Header, Opener
from carom.core.table import TABLES, TableSpec, as_table
from carom.match.engine import apply
from carom.match.state import MatchState, Ruling, initial_state
from carom.physics import Params, Strike, simulate
from carom.physics.strike import MISCUE_LIMIT
from carom.rules.validity import check_header

SPEED = (0.5, 7.0)
"""The cue speeds an action spans, m/s."""
OBSERVATION_SIZE = 10
ACTION_SIZE = 4
AGENT, OPPONENT = 0, 1
"""The agent is player 0, who opens and plays white (O1); the opponent plays yellow."""
NO_WINNER = -1
"""``info["winner"]`` while no one has won, and after a draw."""
INNINGS_SCALE = 100
"""The innings divide by this in the observation when the match has no innings limit."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What kind of match the environment plays: three-cushion on a large table."""

    points: int | None = 15
    innings: int | None = 50
    equalizing_inning: bool = True
    table: str = "large"

    def header(self) -> Header:
        return Header("three-cushion", self.table, ("agent", "opponent"), self.points, self.innings,
                      None, self.equalizing_inning)


def checked_settings(points: int | None, innings: int | None, equalizing_inning: bool,
                     table: TableSpec | str) -> tuple[Settings, TableSpec]:
    """The match an environment plays, its keyword arguments checked as a header is (the
    limits, E1; a registered table, by name or value): a refusal names the argument."""
    spec = as_table(table)
    if TABLES.get(spec.name) != spec:
        refuse(f"expected a table of carom.core.table.TABLES ({', '.join(TABLES)}), got {spec.name!r}")
    settings = Settings(points, innings, equalizing_inning, spec.name)
    check_header(settings.header())
    return settings, spec


def check_play(opponent: object, params: object, max_strokes: object) -> None:
    """The opponent a policy, the parameters :class:`Params`, ``max_strokes`` a whole number >= 1."""
    if not callable(opponent):
        refuse(f"expected a policy (observation, generator) -> action, got {shown(opponent)}", "opponent")
    if type(params) is not Params:
        refuse(f"expected Params, got {shown(params)}", "params")
    as_whole(max_strokes, "max_strokes", 1)


def checked_actions(actions: object, rows: int | None, field: str = "action") -> np.ndarray:
    """``actions`` as numbers: ``ACTION_SIZE`` of them (``rows`` × ``ACTION_SIZE`` for the
    vector form), finite; beyond [-1, 1] they are clipped (:func:`strikes`)."""
    shape = (ACTION_SIZE,) if rows is None else (rows, ACTION_SIZE)
    try:
        given = np.asarray(actions, dtype=np.float64)
    except (TypeError, ValueError):
        refuse(f"expected numbers of shape {shape}, got {shown(actions)}", field)
    if given.shape != shape:
        refuse(f"expected the shape {shape}, got {given.shape}", field)
    if not np.isfinite(given).all():
        refuse("holds a number that is not finite (NaN or infinity)", field)
    return given


def strikes(actions: np.ndarray) -> np.ndarray:
    """Actions (k × 4 numbers in [-1, 1], clipped) as strikes (k × 5: the columns of
    ``carom.physics.batch.STRIKE_COLUMNS``): cue speed from 0.5 to 7 m/s, direction from
    0° to 360°, side and height from -0.5 R to 0.5 R, a level cue; a tip offset beyond
    the miscue limit is pulled back onto it (PHYSICS.md, "Cue strike")."""
    a = np.clip(np.asarray(actions, dtype=np.float64).reshape(-1, ACTION_SIZE), -1.0, 1.0)
    speed = SPEED[0] + (a[:, 0] + 1.0) / 2.0 * (SPEED[1] - SPEED[0])
    direction = (a[:, 1] + 1.0) * 180.0 % 360.0
    side, height = a[:, 2] * MISCUE_LIMIT, a[:, 3] * MISCUE_LIMIT
    tip = np.hypot(side, height)
    pull = np.where(tip > MISCUE_LIMIT, MISCUE_LIMIT / np.maximum(tip, MISCUE_LIMIT), 1.0)
    return np.column_stack((speed, direction, side * pull, height * pull, np.zeros(a.shape[0])))


def observation(positions: np.ndarray, score: np.ndarray, innings: np.ndarray, last_inning: np.ndarray,
                settings: Settings, table: TableSpec) -> np.ndarray:
    """Observations (k × 10, float32 in [0, 1]) of k matches: the three balls' centres
    (x/W, y/L for white, yellow, red), both scores as fractions of the points limit, the
    agent's innings as a fraction of the innings limit, and 1 during the last inning
    (the equalizing inning, E2, E3)."""
    xy = (positions / np.array([table.width, table.length])).reshape(-1, 6)
    limit = settings.points or 1
    scale = settings.innings or INNINGS_SCALE
    columns = (xy, score / limit, (innings / scale)[:, None], last_inning.astype(np.float64)[:, None])
    return np.clip(np.concatenate(columns, axis=1).astype(np.float32), 0.0, 1.0)


def positions_of(state: MatchState) -> np.ndarray:
    """The match's ball positions as an array (1 × 3 × 2, white, yellow, red)."""
    assert state.position is not None
    return np.array([[state.position[b] for b in BALLS]], dtype=np.float64)


def observe(state: MatchState, settings: Settings) -> np.ndarray:
    """What the agent sees of one match (:func:`observation`)."""
    seen: np.ndarray = observation(positions_of(state), np.array([state.score]),
                                   np.array([state.innings[AGENT]]), np.array([state.last_inning]),
                                   settings, state.rules.table)[0]
    return seen


def start(settings: Settings) -> MatchState:
    """A match about to begin: the agent opens (O1) from the starting position (O2)."""
    state, _ = apply(initial_state(settings.header()), Opener(AGENT), 2)
    return state


def transition(state: MatchState, strike: np.ndarray, params: Params, line: int) -> tuple[MatchState, Ruling]:
    """The striker plays ``strike`` (one row of :func:`strikes`) with his own ball: the
    simulator plays it, the match engine judges it and moves the match on."""
    assert state.position is not None
    ball = state.striker_ball
    stroke = simulate(state.position, Strike(ball, *map(float, strike)), state.rules.table, params)
    next_state, ruling = apply(state, stroke, line)
    assert ruling is not None
    return next_state, ruling


def reward(ruling: Ruling) -> float:
    """The points of the agent's stroke (C2): 1 for a carom, else 0."""
    return float(ruling.points) if ruling.player == AGENT else 0.0


def cue_ball(player: int) -> Ball:
    """The ball ``player`` strikes: the agent opens and plays white (O1)."""
    return Ball.WHITE if player == AGENT else Ball.YELLOW
