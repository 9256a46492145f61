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
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.errors import CaromError
from carom.core.position import position_problems, starting_position
from carom.core.table import TABLES, TableSpec
from carom.physics import DEFAULT_PARAMS, Params
from carom.physics.strike import MISCUE_LIMIT
from carom.rules.disciplines import DISCIPLINES, Discipline

STRIKE_FIELDS = ("speed", "direction", "side", "height", "elevation")
DEFAULT_RANGES = {"speed": (1.0, 6.0), "direction": (0.0, 360.0), "side": (-0.4, 0.4),
                  "height": (-0.4, 0.4), "elevation": (0.0, 0.0)}


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
            return random_positions(rng, n, self.table)
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


def read_spec(path: str | Path) -> BatchSpec:
    """Read and check a spec file (``.json`` or ``.toml``); errors name the field."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        raw = tomllib.loads(text) if path.suffix == ".toml" else json.loads(text)
    except (OSError, ValueError) as error:
        raise SpecError(f"{path}: {error}") from None
    if not isinstance(raw, dict):
        raise SpecError(f"{path}: a spec is an object")
    return spec_from(raw)


def spec_from(raw: Mapping[str, Any]) -> BatchSpec:
    def need(field: str, ok: bool, what: str) -> None:
        if not ok:
            raise SpecError(f"{field}: expected {what}, got {raw.get(field)!r}")

    need("table", raw.get("table", "large") in TABLES, f"one of {', '.join(TABLES)}")
    need("discipline", raw.get("discipline", "three-cushion") in DISCIPLINES, "a discipline of carom/1")
    need("ball", raw.get("ball", "white") in {b.value for b in BALLS}, "white, yellow or red")
    table = TABLES[raw.get("table", "large")]
    discipline = DISCIPLINES[raw.get("discipline", "three-cushion")]
    if table.name not in discipline.tables:
        raise SpecError(f"table: {discipline.id} is played on the {discipline.tables[0]} table")
    for field, default in (("seed", 0), ("chunk", 20_000)):
        value = raw.get(field, default)
        need(field, isinstance(value, int) and not isinstance(value, bool) and value >= (field == "chunk"),
             "a whole number" + (" >= 1" if field == "chunk" else ""))
    positions = raw.get("positions", {"kind": "starting"})
    kinds = ("starting", "fixed", "random")
    need("positions", isinstance(positions, dict) and positions.get("kind") in kinds,
         'an object with "kind": starting, fixed or random')
    if positions["kind"] == "fixed":
        start = positions.get("start")
        try:
            layout = {Ball(b): (float(p[0]), float(p[1])) for b, p in start.items()}
        except (AttributeError, TypeError, ValueError, IndexError):
            raise SpecError('positions.start: expected {"white": [x, y], "yellow": …, "red": …}') from None
        problems = position_problems(layout, table)
        if problems or len(layout) != 3:
            raise SpecError(f"positions.start: {problems[0] if problems else 'all three balls are needed'}")
    strikes = raw.get("strikes", {"kind": "random"})
    need("strikes", isinstance(strikes, dict) and strikes.get("kind") in ("random", "grid"),
         'an object with "kind": random or grid')
    unknown = set(strikes) - {"kind", *STRIKE_FIELDS}
    if unknown:
        raise SpecError(f"strikes: unknown field {sorted(unknown)[0]!r} (known: {', '.join(STRIKE_FIELDS)})")
    try:
        if strikes["kind"] == "grid":
            size = int(np.prod([len(_axis(strikes.get(f, DEFAULT_RANGES[f][0]))) for f in STRIKE_FIELDS]))
        else:
            [_range(strikes, f) for f in STRIKE_FIELDS]
            size = raw.get("strokes", 0)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise SpecError(f"strikes: {error!r} (a range is [low, high]; a grid axis "
                        '{"from": a, "to": b, "steps": n})') from None
    need("strokes", isinstance(size, int) and not isinstance(size, bool) and size >= 1,
         "a whole number >= 1 (for a grid: its size)")
    try:
        params = DEFAULT_PARAMS.with_overrides(raw.get("params", {}))
    except (TypeError, ValueError) as error:
        raise SpecError(f"params: {error}") from None
    return BatchSpec(table, discipline, Ball(raw.get("ball", "white")), size, raw.get("seed", 0),
                     raw.get("chunk", 20_000), positions, strikes, params)
