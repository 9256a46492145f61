"""Tables, spots and the tolerances every comparison uses (GEOMETRY.md, rule Q1).

Coordinates: origin at the bottom-left corner of the playing surface, measured at
the cushion noses; ``x`` across the table (0 … W), ``y`` along it (0 … L), metres.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.balls import BALL_RADIUS
from carom.core.errors import UnknownName

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Tolerances:
    """Settings for "on", "touching" and "equal" (GEOMETRY.md)."""

    touch: float = 0.0005
    """Two balls touch (are frozen) when ``|d - 2R| <= touch``; closer is an overlap."""
    cushion: float = 0.001
    """A centre may lie this far beyond ``[R, W - R]`` and still be on the surface."""
    line: float = 1e-9
    """Floating-point slack for lines, spots and equal distances."""


TOLERANCES = Tolerances()


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table: the playing surface between the cushion noses (rule Q1)."""

    name: str
    width: float
    length: float
    start_offset: float
    """Distance ``d`` of the two starting spots from the bottom spot."""
    ball_radius: float = BALL_RADIUS
    """The balls played on it (rule Q5)."""

    @property
    def diamond(self) -> float:
        """The distance between diamonds: ``L/8 = W/4``."""
        return self.length / 8.0

    @property
    def top_spot(self) -> Point:
        """Red's spot (rules L1, O2)."""
        return _nm(self.width / 2.0, 3.0 * self.length / 4.0)

    @property
    def centre_spot(self) -> Point:
        return _nm(self.width / 2.0, self.length / 2.0)

    @property
    def bottom_spot(self) -> Point:
        return _nm(self.width / 2.0, self.length / 4.0)

    @property
    def starting_spots(self) -> tuple[Point, Point]:
        """The left and the right starting spot beside the bottom spot (rule O2)."""
        x, y = self.bottom_spot
        return (_nm(x - self.start_offset, y), _nm(x + self.start_offset, y))

    @property
    def lag_spots(self) -> tuple[Point, Point]:
        """Where the two lag balls start: on y = L/4, 0.30 m from each long cushion (L1)."""
        y = self.length / 4.0
        return ((0.30, y), (self.width - 0.30, y))


def _nm(x: float, y: float) -> Point:
    """A spot rounded to the nanometre, so that it prints as the number it is."""
    return (round(x, 9), round(y, 9))


TABLES: dict[str, TableSpec] = {
    t.name: t
    for t in (
        TableSpec("large", 1.420, 2.840, 0.182),
        TableSpec("small", 1.050, 2.100, 0.135),
        TableSpec("half-match", 1.150, 2.300, 0.148),
    )
}
"""The competition tables of rule Q1, and the Dutch and German 2.30 m table; the first
is the default. Adding a table is adding a row: every list of tables (the header's
check, the forms, the commands' choices) is read from here."""


def table(name: str) -> TableSpec:
    """The table called ``name``; :class:`UnknownName` (a ``KeyError``) names the known ones."""
    try:
        return TABLES[name]
    except KeyError:
        raise UnknownName("table", name, TABLES) from None
