"""``POSITION.json`` for ``carom solve``: the table, the ball to play and the balls.

``{"table": "large", "ball": "white", "start": {"white": [x, y], "yellow": [x, y],
"red": [x, y]}}`` in the coordinates of GEOMETRY.md; ``"opening": true`` (our
addition) makes it the opening stroke of a match or set, which must hit red first (O3).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from carom.core.balls import BALLS, Ball
from carom.core.errors import CaromError
from carom.core.position import Position, position_problems
from carom.core.table import TABLES, TableSpec


class PositionError(CaromError):
    """A position file that cannot be solved; the message names the field."""


@dataclass(frozen=True, slots=True)
class PositionFile:
    table: TableSpec
    ball: Ball
    start: Position
    opening: bool = False


def read_position(path: str | Path) -> PositionFile:
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PositionError(f"{path}: {error}") from None
    if not isinstance(raw, dict):
        raise PositionError("a position file is a JSON object")
    table = raw.get("table", "large")
    if table not in TABLES:
        raise PositionError(f"table: unknown {table!r} (known: {', '.join(TABLES)})")
    ball = raw.get("ball", "white")
    if ball not in {b.value for b in BALLS}:
        raise PositionError(f"ball: unknown {ball!r} (white, yellow or red)")
    start = raw.get("start")
    if not isinstance(start, dict) or set(start) != {b.value for b in BALLS}:
        raise PositionError('start: expected {"white": [x, y], "yellow": [x, y], "red": [x, y]}')
    position: dict[Ball, tuple[float, float]] = {}
    for name, point in start.items():
        if (not isinstance(point, list) or len(point) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in point)):
            raise PositionError(f"start: {name}: expected [x, y] in metres, got {point!r}")
        position[Ball(name)] = (float(point[0]), float(point[1]))
    problems = position_problems(position, TABLES[table])
    if problems:
        raise PositionError(f"start: {problems[0]}")
    return PositionFile(TABLES[table], Ball(ball), position, bool(raw.get("opening", False)))
