"""The narrow interface: ``simulate(position, strike, table, params) -> Stroke``.

Builds the kernels' arrays from the core's values, runs the event loop once and writes
what happened as a ``carom/1`` stroke record (FORMAT.md): the contacts in order (each
with its time as information), the end position, optional sampled paths, and under
``extra["physics"]`` the parameters that made it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from carom.core.balls import BALLS, CUSHIONS, Ball
from carom.core.checks import as_ball, as_number, as_sequence, refuse, shown, within
from carom.core.errors import CaromError
from carom.core.events import BallContact, CushionContact, Event
from carom.core.position import Position, position_problems
from carom.core.records import Path, Stroke
from carom.core.table import TableSpec, as_table
from carom.physics import layout as L
from carom.physics.build.choice import stroke_kernels
from carom.physics.build.notice import compile_notice
from carom.physics.params import DEFAULT_PARAMS, Params, kernel_vector, record_of
from carom.physics.strike import MAX_CUE_SPEED, Strike
from carom.physics.timeline import sample_times

FIRST_LOG = 256
"""Log entries reserved at first; a longer stroke is played again with a larger log."""

MODEL_NOTE = "2-D: balls never leave the cloth, so the simulator never produces a jump"


MAX_BALL_SPEED = 2.0 * MAX_CUE_SPEED
"""m/s: a cue gives a ball at most twice its own speed (PHYSICS.md, "Cue strike")."""
MAX_SPIN = 2000.0
"""rad/s about any axis: a cue at 15 m/s with the tip 0.5 R off centre gives about 1,200."""
MIN_SAMPLE = 0.001
MAX_SAMPLE = 10.0
"""Seconds between path samples: 1 ms is a fast camera; a stroke of a minute then
holds 60,000 samples a ball."""


@dataclass(frozen=True, slots=True)
class Motion:
    """A ball already moving when the simulation starts: velocity (m/s), spin (rad/s),
    finite, at most :data:`MAX_BALL_SPEED` and :data:`MAX_SPIN`."""

    v: tuple[float, float] = (0.0, 0.0)
    w: tuple[float, float, float] = (0.0, 0.0, 0.0)

    def __post_init__(self) -> None:
        object.__setattr__(self, "v", _bounded(self.v, 2, MAX_BALL_SPEED, "m/s", "v"))
        object.__setattr__(self, "w", _bounded(self.w, 3, MAX_SPIN, "rad/s", "w"))


def _bounded(value: Any, size: int, limit: float, unit: str, field: str) -> tuple[float, ...]:
    numbers = as_sequence(value, field, f"a list of {size} numbers")
    if len(numbers) != size:
        refuse(f"expected a list of {size} numbers, got {shown(value)}", field)
    vector = tuple(as_number(n, f"{field}[{i}]") for i, n in enumerate(numbers))
    if math.hypot(*vector) > limit:
        refuse(f"{math.hypot(*vector):g} {unit} is more than the limit of {limit:g} {unit}", field)
    return vector


@dataclass(slots=True)
class Run:
    """The raw outcome of one simulation: the balls in play and the kernel's log."""

    balls: tuple[Ball, ...]
    final: np.ndarray
    log_t: np.ndarray
    log_kind: np.ndarray
    log_a: np.ndarray
    log_b: np.ndarray
    log_state: np.ndarray
    log_mode: np.ndarray
    n_log: int
    status: int
    duration: float
    vector: np.ndarray
    codes: np.ndarray
    """The ball and cushion contacts in order (``engine.contact_code``)."""
    code_t: np.ndarray
    """Their times."""


def initial_state(position: Position, strike: Strike | None, table: TableSpec, params: Params,
                  motion: Mapping[Ball, Motion] | None = None) -> tuple[tuple[Ball, ...], np.ndarray, int,
                                                                          np.ndarray]:
    """The balls on the table, their states before the strike (n × 7), the row of the
    struck ball (−1: none) and the strike as the kernel reads it."""
    balls = tuple(b for b in BALLS if b in position)
    values: list[float] = []
    for ball in balls:
        x, y = position[ball]
        m = motion.get(ball) if motion else None
        values += (x, y, *m.v, *m.w) if m is not None else (x, y, 0.0, 0.0, 0.0, 0.0, 0.0)
    if not math.isfinite(math.fsum(map(abs, values))):
        raise CaromError("positions, velocities and spins must be finite numbers")
    if not _plainly_possible(values, len(balls), table):
        problems = position_problems(position, table)
        if problems:
            raise CaromError("; ".join(problems))
    state = np.array(values).reshape(len(balls), L.STATE_WIDTH)
    cue = -1
    given = _NO_STRIKE
    if strike is not None:
        if strike.ball not in position:
            raise CaromError(f"the struck ball {strike.ball} is not on the table")
        cue = balls.index(strike.ball)
        given = np.array((strike.speed, strike.direction, strike.side, strike.height, strike.elevation))
    return balls, state, cue, given


_NO_STRIKE = np.zeros(5)


def _plainly_possible(values: list[float], n: int, table: TableSpec) -> bool:
    """A quick test that passes every position :func:`position_problems` accepts with room
    to spare (it alone explains a refusal)."""
    r = table.ball_radius
    w = L.STATE_WIDTH
    for i in range(n):
        x, y = values[i * w], values[i * w + 1]
        if not (r <= x <= table.width - r and r <= y <= table.length - r):
            return False
        for j in range(i + 1, n):
            if math.hypot(x - values[j * w], y - values[j * w + 1]) < 2.0 * r:
                return False
    return True


def play(position: Position, strike: Strike | None, table: TableSpec, params: Params = DEFAULT_PARAMS,
         motion: Mapping[Ball, Motion] | None = None) -> Run:
    """Run the event loop for one stroke, keeping its whole log."""
    balls, state, cue, given = initial_state(position, strike, table, params, motion)
    p = kernel_vector(params, table)
    if _warm:
        return _play(balls, state, cue, given, p)
    with compile_notice("a stroke"):
        out = _play(balls, state, cue, given, p)
    _warm.append(True)
    return out


_warm: list[bool] = []


def _play(balls: tuple[Ball, ...], state: np.ndarray, cue: int, given: np.ndarray, p: np.ndarray) -> Run:
    strike_and_run, _ = stroke_kernels()
    n = len(balls)
    capacity = FIRST_LOG
    while True:
        s = state.copy()
        # two allocations: the floats (times, states, contact times) and the integers
        floats = np.empty(capacity * (2 + n * L.STATE_WIDTH))
        ints = np.empty(capacity * (3 + n), dtype=np.int64)
        codes = np.empty(capacity, dtype=np.uint8)
        log_t = floats[:capacity]
        code_t = floats[capacity:2 * capacity]
        log_state = floats[2 * capacity:].reshape(capacity, n, L.STATE_WIDTH)
        log_kind = ints[:capacity]
        log_a = ints[capacity:2 * capacity]
        log_b = ints[2 * capacity:3 * capacity]
        log_mode = ints[3 * capacity:].reshape(capacity, n)
        n_log, n_codes, status, end = strike_and_run(s, cue, given, p, log_t, log_kind, log_a, log_b,
                                                     log_state, log_mode, codes, code_t)
        if status != L.STATUS_LOG_FULL:
            return Run(balls, s, log_t, log_kind, log_a, log_b, log_state, log_mode, n_log, status, end, p,
                       codes[:n_codes], code_t[:n_codes])
        capacity *= 4


def events_of(result: Run) -> tuple[Event, ...]:
    """The ball and cushion contacts of a run, in order, with their times."""
    balls = result.balls
    events: list[Event] = []
    for code, t in zip(result.codes.tolist(), result.code_t.tolist(), strict=True):
        kind, a, b = code >> 4, (code >> 2) & 3, code & 3
        if kind == L.EVENT_BALL:
            events.append(BallContact(balls[a], balls[b], t))
        else:
            events.append(CushionContact(balls[a], CUSHIONS[b], t))
    return tuple(events)


def paths_of(result: Run, every: float) -> dict[Ball, Path]:
    """Each ball's centre every ``every`` seconds and at every event."""
    times = sample_times(result.log_t[1:result.n_log], result.duration, every)
    _, sample_positions = stroke_kernels()
    xy = sample_positions(result.log_t, result.log_state, result.log_mode, result.n_log, times,
                          result.vector)
    rows = np.empty((len(times), 3))
    rows[:, 0] = times
    paths: dict[Ball, Path] = {}
    for row, ball in enumerate(result.balls):
        rows[:, 1:] = xy[:, row, :]
        paths[ball] = tuple(map(tuple, rows.tolist()))  # Python floats, converted in C
    return paths


def physics_record(params: Params, table: TableSpec, strike: Strike | None, result: Run) -> dict[str, Any]:
    """What ``extra["physics"]`` of a simulated stroke says: the parameters and the model."""
    out: dict[str, Any] = {
        "simulator": "carom.physics",
        "params": record_of(params),
        "table": table.name,
        "model": MODEL_NOTE,
        "duration": float(result.duration),
    }
    if strike is not None:
        out["strike"] = {"ball": strike.ball.value, "speed": strike.speed, "direction": strike.direction,
                         "side": strike.side, "height": strike.height, "elevation": strike.elevation}
    if result.status == L.STATUS_TOO_MANY_EVENTS:
        out["stopped"] = f"the balls were stopped after {L.MAX_STEPS} events"
    return out


def simulate(position: Position | Mapping[Ball | str, Any], strike: Strike | None, table: TableSpec | str,
             params: Params = DEFAULT_PARAMS, *, motion: Mapping[Ball | str, Motion] | None = None,
             sample: float | None = None) -> Stroke:
    """Play ``strike`` from ``position`` on ``table`` (a table or its name) and record
    what happened. Every argument is checked first; a refusal is a
    :class:`~carom.core.errors.CaromError` naming it.

    ``motion`` gives balls already moving (added to what the strike gives). ``sample``
    (seconds) adds every ball's path, sampled at that interval and at every event. The
    record's ``ball`` is the struck ball (without a strike: the first moving one, else
    white); ``extra["physics"]`` holds the parameters (PHYSICS.md)."""
    position, table, motion = _arguments(position, strike, table, params, motion)
    if sample is not None:
        sample = as_number(sample, "sample")
        if not MIN_SAMPLE <= sample <= MAX_SAMPLE:
            refuse(f"{sample:g} is out of range: from {MIN_SAMPLE:g} to {MAX_SAMPLE:g} seconds", "sample")
    result = play(position, strike, table, params, motion)
    final = result.final[:, :2].tolist()
    paths = paths_of(result, sample) if sample is not None else None
    return Stroke(
        ball=_record_ball(strike, motion),
        events=events_of(result),
        start={ball: (float(position[ball][0]), float(position[ball][1])) for ball in result.balls},
        end={ball: (xy[0], xy[1]) for ball, xy in zip(result.balls, final, strict=True)},
        paths=paths,
        extra={"physics": physics_record(params, table, strike, result)},
    )


def _arguments(position: Any, strike: Any, table: Any, params: Any, motion: Any
               ) -> tuple[Position, TableSpec, Mapping[Ball, Motion] | None]:
    """The arguments of :func:`simulate`, checked: each of its kind (a position or a
    mapping of balls to points, a table or its name), a refusal naming the argument."""
    with within("position"):
        checked = position if type(position) is Position else Position(position)
    if not checked:
        refuse("no ball on the table", "position")
    if strike is not None and type(strike) is not Strike:
        refuse(f"expected a Strike or None, got {shown(strike)}", "strike")
    spec = as_table(table)
    if type(params) is not Params:
        refuse(f"expected Params, got {shown(params)}", "params")
    if motion is None:
        return checked, spec, None
    if not isinstance(motion, Mapping):
        refuse(f"expected a mapping of balls to Motion, got {shown(motion)}", "motion")
    moving = {as_ball(ball, "motion"): m for ball, m in motion.items()}
    for ball, m in moving.items():
        if type(m) is not Motion:
            refuse(f"expected a Motion, got {shown(m)}", f"motion: {ball}")
    return checked, spec, moving


def _record_ball(strike: Strike | None, motion: Mapping[Ball, Motion] | None) -> Ball:
    if strike is not None:
        return strike.ball
    for ball in BALLS:
        if motion and ball in motion and any(math.fabs(c) > 0 for c in (*motion[ball].v, *motion[ball].w)):
            return ball
    return Ball.WHITE
