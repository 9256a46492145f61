"""The table as the detector sees it: the lines a ball's centre reaches at a cushion."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import numpy as np

from carom.core.balls import Cushion
from carom.core.table import TableSpec
from carom.track.samples import FloatArray


@dataclass(frozen=True, slots=True)
class CushionLine:
    """The line a ball's centre touches at a cushion: ``R`` inside the cushion nose.

    ``depth(p) = normal · p - offset`` is how far a centre ``p`` lies inside the
    playing area from that line (negative: the ball is pressing into the cushion).
    """

    cushion: Cushion
    normal: FloatArray
    """Unit vector pointing into the table."""
    offset: float

    unit: tuple[float, float] = field(init=False)
    """The normal in plain floats (for scalar work)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "unit", (float(self.normal[0]), float(self.normal[1])))

    def depth(self, p: FloatArray | tuple[float, float]) -> float:
        nx, ny = self.unit
        return float(nx * p[0] + ny * p[1]) - self.offset

    def along_normal(self, v: tuple[float, float]) -> float:
        """The component of ``v`` along the normal (into the table)."""
        nx, ny = self.unit
        return nx * v[0] + ny * v[1]


@cache
def cushion_lines(table: TableSpec) -> tuple[CushionLine, ...]:
    """The four cushion lines of ``table`` (GEOMETRY.md: bottom y = 0, left x = 0),
    made once per table."""
    r, w, length = table.ball_radius, table.width, table.length
    return (
        CushionLine(Cushion.BOTTOM, np.array([0.0, 1.0]), r),
        CushionLine(Cushion.TOP, np.array([0.0, -1.0]), r - length),
        CushionLine(Cushion.LEFT, np.array([1.0, 0.0]), r),
        CushionLine(Cushion.RIGHT, np.array([-1.0, 0.0]), r - w),
    )
