"""The batch spec: what to simulate, as data (JSON or TOML).

```json
{"table": "large", "discipline": "three-cushion", "ball": "white",
 "strokes": 1000000, "seed": 7, "chunk": 20000,
 "positions": {"kind": "starting"},
 "strikes": {"kind": "random", "speed": [1, 6], "direction": [0, 360],
             "side": [-0.4, 0.4], "height": [-0.4, 0.4], "elevation": [0, 0]},
 "params": {"mu_roll": 0.0045}}
```

``positions``: ``starting`` (the starting position, the struck ball on the starting
spot), ``fixed`` with a ``start`` object as in a ``carom/1`` stroke, or ``random``
(uniform over the table, balls apart, seeded). ``strikes``: ``random`` (uniform in
each range, seeded) or ``grid`` (``{"from": a, "to": b, "steps": n}`` per parameter,
a single number for a fixed one; the grid's size is the number of strokes).

The whole spec is checked before anything runs (:func:`spec_from`): unknown fields,
numbers out of their limits (cue speed 0–15 m/s and the rest of
``carom.physics.strike.LIMITS``; ``strokes`` and a grid's size up to
:data:`MAX_STROKES`; ``chunk`` up to :data:`MAX_CHUNK`; ``params`` within
``carom.physics.params.RANGES``) and red as the struck ball (O1) are refused, naming
the field.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from carom.core.balls import BALLS, Ball, cue_ball_problem
from carom.core.errors import CaromError
from carom.core.inputs import read_document
from carom.core.position import position_problems, starting_position
from carom.core.sources import Source
from carom.core.table import TABLES, TableSpec
from carom.physics import DEFAULT_PARAMS, Params
from carom.physics.strike import MISCUE_LIMIT, limit_problem
from carom.rules.disciplines import DISCIPLINES, Discipline

STRIKE_FIELDS = ("speed", "direction", "side", "height", "elevation")
DEFAULT_RANGES = {"speed": (1.0, 6.0), "direction": (0.0, 360.0), "side": (-0.4, 0.4),
                  "height": (-0.4, 0.4), "elevation": (0.0, 0.0)}
TOP_FIELDS = ("table", "discipline", "ball", "strokes", "seed", "chunk", "positions", "strikes", "params")
MAX_SPEC_BYTES = 1024 * 1024
"""A spec is a few hundred bytes; larger files are refused unread."""
MAX_STROKES = 10**9
"""A billion strokes: days of work on one core and about 600 GB of output."""
MAX_CHUNK = 200_000
"""Strokes a task simulates at once; a chunk's arrays stay under about 100 MB."""
MAX_SEED = 10**18 - 1


class SpecError(CaromError):
    """A spec that cannot be run; the message names the field."""


@dataclass(frozen=True)
class BatchSpec:
    table: TableSpec
    discipline: Discipline
    ball: Ball
    strokes: int
    seed: int
    chunk: int
    positions: Mapping[str, Any]
    strikes: Mapping[str, Any]
    params: Params

    @property
    def chunks(self) -> int:
        return -(-self.strokes // self.chunk)

    def rows(self, index: int) -> range:
        """The strokes of chunk ``index``."""
        return range(index * self.chunk, min((index + 1) * self.chunk, self.strokes))

    def inputs(self, index: int) -> tuple[np.ndarray, np.ndarray]:
        """Chunk ``index``'s start positions (n × 3 × 2) and strikes (n × 5), made from the
        spec and the index alone: the same numbers on any worker."""
        rows = self.rows(index)
        rng = np.random.default_rng([self.seed, index])
        return self._positions(rng, len(rows)), self._strikes(rng, rows)

    def _positions(self, rng: np.random.Generator, n: int) -> np.ndarray:
        kind = self.positions["kind"]
        if kind == "random":
            return random_positions(rng, n, _with_balls_of(self.table, self.params))
        if kind == "starting":
            layout = starting_position(self.table, self.ball)
        else:
            layout = {Ball(b): tuple(p) for b, p in self.positions["start"].items()}
        one = np.array([layout[b] for b in BALLS], dtype=np.float64)
        return np.repeat(one[None], n, axis=0)

    def _strikes(self, rng: np.random.Generator, rows: range) -> np.ndarray:
        spec = self.strikes
        if spec["kind"] == "random":
            columns = [rng.uniform(*_range(spec, f), len(rows)) for f in STRIKE_FIELDS]
            out = np.column_stack(columns)
        else:
            axes = [_axis(spec.get(f, DEFAULT_RANGES[f][0])) for f in STRIKE_FIELDS]
            index = np.unravel_index(np.arange(rows.start, rows.stop), [len(a) for a in axes])
            out = np.column_stack([a[i] for a, i in zip(axes, index, strict=True)])
        tip = np.hypot(out[:, 2], out[:, 3])
        over = tip > MISCUE_LIMIT
        out[over, 2:4] *= (MISCUE_LIMIT / tip[over])[:, None]
        return out


def random_positions(rng: np.random.Generator, n: int, table: TableSpec) -> np.ndarray:
    """``n`` layouts of three balls, uniform over the surface, no two closer than 2R."""
    r = table.ball_radius
    out = np.empty((n, 3, 2))
    todo = np.arange(n)
    while todo.size:
        xy = np.stack([rng.uniform(r, table.width - r, (todo.size, 3)),
                       rng.uniform(r, table.length - r, (todo.size, 3))], axis=-1)
        gaps = [np.hypot(*(xy[:, a] - xy[:, b]).T) for a, b in ((0, 1), (0, 2), (1, 2))]
        ok = np.minimum.reduce(gaps) >= 2 * r + 0.001
        out[todo[ok]] = xy[ok]
        todo = todo[~ok]
    return out


def _range(spec: Mapping[str, Any], field: str) -> tuple[float, float]:
    value = spec.get(field, DEFAULT_RANGES[field])
    if isinstance(value, (int, float)):
        return (float(value), float(value))
    return (float(value[0]), float(value[1]))


def _axis(value: Any) -> np.ndarray:
    if isinstance(value, (int, float)):
        return np.array([float(value)])
    return np.linspace(float(value["from"]), float(value["to"]), int(value["steps"]))


def read_spec(path: Source) -> BatchSpec:
    """Read and check a spec file (``.json`` or ``.toml``, at most :data:`MAX_SPEC_BYTES`);
    errors name the field (or the line)."""
    try:
        raw = read_document(path, MAX_SPEC_BYTES)
    except CaromError as error:
        raise SpecError(str(error)) from None
    return spec_from(raw)


def spec_from(raw: Any) -> BatchSpec:
    """Check a whole spec (already parsed) before any stroke is simulated: every field
    known, every number whole or finite and within its limits, red never the cue ball."""
    if not isinstance(raw, Mapping):
        raise SpecError("a spec is an object")
    _known(raw, TOP_FIELDS, "the spec")
    table_name = _one_of(raw, "table", "large", TABLES)
    discipline = DISCIPLINES[_one_of(raw, "discipline", "three-cushion", DISCIPLINES)]
    table = TABLES[table_name]
    if table.name not in discipline.tables:
        raise SpecError(f"table: {discipline.id} is played on the {discipline.tables[0]} table")
    ball = Ball(_one_of(raw, "ball", "white", [b.value for b in BALLS]))
    problem = cue_ball_problem(ball)
    if problem is not None:
        raise SpecError(f"ball: {problem}")
    seed = _whole(raw, "seed", 0, 0, MAX_SEED)
    chunk = _whole(raw, "chunk", 20_000, 1, MAX_CHUNK)
    try:
        params = DEFAULT_PARAMS.with_overrides(raw.get("params", {}))
    except CaromError as error:
        raise SpecError(f"params: {error}") from None
    positions = _positions_of(raw.get("positions", {"kind": "starting"}), _with_balls_of(table, params))
    strikes = raw.get("strikes", {"kind": "random"})
    if not isinstance(strikes, Mapping) or strikes.get("kind") not in ("random", "grid"):
        raise SpecError(f'strikes: expected an object with "kind": random or grid, got {strikes!r}')
    _known(strikes, ("kind", *STRIKE_FIELDS), "strikes")
    if strikes["kind"] == "grid":
        size = _grid_size(strikes)
        if "strokes" in raw and _whole(raw, "strokes", size, 1, MAX_STROKES) != size:
            raise SpecError(f"strokes: {raw['strokes']} but the grid has {size:,} strokes "
                            "(leave strokes out for a grid)")
    else:
        for field in STRIKE_FIELDS:
            _check_range(strikes, field)
        if "strokes" not in raw:
            raise SpecError("strokes: missing: how many strokes to draw (1 to 10^9)")
        size = _whole(raw, "strokes", 0, 1, MAX_STROKES)
    return BatchSpec(table, discipline, ball, size, seed, chunk, positions, dict(strikes), params)


def _with_balls_of(table: TableSpec, params: Params) -> TableSpec:
    """``table`` with the larger of its balls and the simulated ones (``params`` may
    make them larger): positions must leave room for the balls that are played."""
    return replace(table, ball_radius=max(table.ball_radius, params.ball_radius))


def _known(obj: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
    unknown = sorted(set(obj) - set(known))
    if unknown:
        raise SpecError(f"{where}: unknown field {unknown[0]!r} (known: {', '.join(known)})")


def _one_of(raw: Mapping[str, Any], field: str, default: str, known: Iterable[str]) -> str:
    value = raw.get(field, default)
    names = list(known)
    if not isinstance(value, str) or value not in names:
        raise SpecError(f"{field}: expected one of {', '.join(names)}, got {value!r}")
    return value


def _whole(raw: Mapping[str, Any], field: str, default: int, low: int, high: int) -> int:
    value = raw.get(field, default)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SpecError(f"{field}: expected a whole number from {low:,} to {high:,}, got {value!r}")
    return value


def _positions_of(positions: Any, table: TableSpec) -> dict[str, Any]:
    kinds = ("starting", "fixed", "random")
    if not isinstance(positions, Mapping) or positions.get("kind") not in kinds:
        raise SpecError(f'positions: expected an object with "kind": starting, fixed or random, '
                        f"got {positions!r}")
    if positions["kind"] != "fixed":
        _known(positions, ("kind",), "positions")
        return dict(positions)
    _known(positions, ("kind", "start"), "positions")
    start = positions.get("start")
    shape = 'positions.start: expected {"white": [x, y], "yellow": [x, y], "red": [x, y]} in metres'
    if not isinstance(start, Mapping) or set(start) != {b.value for b in BALLS}:
        raise SpecError(shape)
    layout: dict[Ball, tuple[float, float]] = {}
    for name, point in start.items():
        if not (isinstance(point, list) and len(point) == 2 and all(_is_number(v) for v in point)):
            raise SpecError(f"{shape}; {name} is {point!r}")
        layout[Ball(name)] = (float(point[0]), float(point[1]))
    problems = position_problems(layout, table)
    if problems:
        raise SpecError(f"positions.start: {problems[0]}")
    return {"kind": "fixed", "start": {b.value: list(p) for b, p in layout.items()}}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _within(field: str, value: Any, where: str) -> float:
    if not _is_number(value):
        raise SpecError(f"{where}: expected a number, got {value!r}")
    problem = limit_problem(field, float(value))
    if problem is not None:
        raise SpecError(f"{where}: {problem}")
    return float(value)


def _check_range(strikes: Mapping[str, Any], field: str) -> None:
    value = strikes.get(field, DEFAULT_RANGES[field])
    where = f"strikes.{field}"
    if _is_number(value):
        _within(field, value, where)
        return
    if not (isinstance(value, list | tuple) and len(value) == 2):
        raise SpecError(f"{where}: expected a number or a range [low, high], got {value!r}")
    low, high = (_within(field, v, where) for v in value)
    if low > high:
        raise SpecError(f"{where}: the range [{low:g}, {high:g}] is upside down")


def _grid_size(strikes: Mapping[str, Any]) -> int:
    size = 1
    for field in STRIKE_FIELDS:
        value = strikes.get(field, DEFAULT_RANGES[field][0])
        where = f"strikes.{field}"
        if _is_number(value):
            _within(field, value, where)
            continue
        if not isinstance(value, Mapping) or set(value) != {"from", "to", "steps"}:
            raise SpecError(f'{where}: expected a number or {{"from": a, "to": b, "steps": n}}, '
                            f"got {value!r}")
        _within(field, value["from"], f"{where}.from")
        _within(field, value["to"], f"{where}.to")
        size *= _whole(value, "steps", 1, 1, MAX_STROKES)
        if size > MAX_STROKES:
            raise SpecError(f"strikes: the grid has more than {MAX_STROKES:,} strokes")
    return size
