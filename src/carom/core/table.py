"""Tables, spots and the tolerances every comparison uses (GEOMETRY.md, rule Q1).

Coordinates: origin at the bottom-left corner of the playing surface, measured at
the cushion noses; ``x`` across the table (0 … W), ``y`` along it (0 … L), metres.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carom.core.balls import BALL_RADIUS
from carom.core.checks import as_name, as_number, refuse, shown
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

LAG_INSET = 0.30
"""Metres from each long cushion to the lag balls' starting spots (rule L1)."""


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

    def __post_init__(self) -> None:
        """A table its balls can be set up on: finite sizes, every spot on the surface,
        the balls on the starting spots apart (O2), the lag's spots 0.30 m from the long
        cushions apart (L1)."""
        object.__setattr__(self, "name", as_name(self.name, "name"))
        for field in ("width", "length", "start_offset", "ball_radius"):
            value = as_number(getattr(self, field), field)
            if not value > 0.0:
                refuse(f"{value:g} m is not a size", field)
            object.__setattr__(self, field, value)
        r = self.ball_radius
        if self.width < LAG_INSET * 2.0 + 2.0 * r:
            refuse(f"{self.width:g} m leaves no room for the lag: its balls start {LAG_INSET:g} m from "
                   f"each long cushion (L1), so at least {LAG_INSET * 2.0 + 2.0 * r:g} m", "width")
        if self.length < 4.0 * r:
            refuse(f"{self.length:g} m leaves no room between the top and bottom spots (at least "
                   f"4R = {4.0 * r:g} m)", "length")
        if not 2.0 * r <= self.start_offset <= self.width / 2.0 - r:
            refuse(f"{self.start_offset:g} m must put the starting spots at least 2R = {2.0 * r:g} m from "
                   f"the bottom spot and on the surface (at most {self.width / 2.0 - r:g} m) (O2)",
                   "start_offset")

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
        return ((LAG_INSET, y), (self.width - LAG_INSET, y))


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
    except (KeyError, TypeError):  # TypeError: a name that cannot be a key (a list)
        raise UnknownName("table", name, TABLES) from None


def known_table(name: Any) -> TableSpec:
    """The registered table called ``name``; anything else is refused naming the known ones."""
    found = TABLES.get(name) if isinstance(name, str) else None
    if found is None:
        refuse(f"table: unknown {shown(name)} (known: {', '.join(TABLES)})")
    return found


def as_table(value: Any) -> TableSpec:
    """A table, given as a :class:`TableSpec` or by its name (:func:`known_table`)."""
    return value if isinstance(value, TableSpec) else known_table(value)
