"""``POSITION.json`` for ``carom solve``: the table, the ball to play and the balls.

``{"table": "large", "ball": "white", "start": {"white": [x, y], "yellow": [x, y],
"red": [x, y]}}`` in the coordinates of GEOMETRY.md; ``"opening": true`` (our
addition) makes it the opening stroke of a match or set, which must hit red first (O3).
The file is read by ``carom.core.inputs`` (JSON, or TOML when it ends in ``.toml``)
and is at most :data:`MAX_POSITION_BYTES`; the ball to play is white or yellow (O1).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carom.core.balls import BALLS, Ball, cue_ball_problem
from carom.core.errors import CaromError
from carom.core.inputs import read_document
from carom.core.position import Position, position_problems
from carom.core.sources import Source
from carom.core.table import TABLES, TableSpec

MAX_POSITION_BYTES = 64 * 1024
"""A position file is about 150 bytes; larger ones are refused unread."""
FIELDS = ("table", "ball", "start", "opening")


class PositionError(CaromError):
    """A position file that cannot be solved; the message names the field."""


@dataclass(frozen=True, slots=True)
class PositionFile:
    table: TableSpec
    ball: Ball
    start: Position
    opening: bool = False


def read_position(path: Source) -> PositionFile:
    """Read and check a position file; every error names the field (or the line)."""
    try:
        raw = read_document(path, MAX_POSITION_BYTES)
    except CaromError as error:
        raise PositionError(str(error)) from None
    return position_from(raw)


def position_from(raw: Any) -> PositionFile:
    """A position from its parsed document."""
    if not isinstance(raw, dict):
        raise PositionError("a position file is a JSON object")
    unknown = sorted(set(raw) - set(FIELDS))
    if unknown:
        raise PositionError(f"{unknown[0]}: unknown field (known: {', '.join(FIELDS)})")
    table = raw.get("table", "large")
    if not isinstance(table, str) or table not in TABLES:
        raise PositionError(f"table: unknown {table!r} (known: {', '.join(TABLES)})")
    ball = raw.get("ball", "white")
    if not isinstance(ball, str) or ball not in {b.value for b in BALLS}:
        raise PositionError(f"ball: unknown {ball!r} (white or yellow)")
    problem = cue_ball_problem(Ball(ball))
    if problem is not None:
        raise PositionError(f"ball: {problem}")
    opening = raw.get("opening", False)
    if not isinstance(opening, bool):
        raise PositionError(f"opening: expected true or false, got {opening!r}")
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
    return PositionFile(TABLES[table], Ball(ball), position, opening)
