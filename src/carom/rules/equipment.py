"""Equipment and venue (rules Q1–Q7): the rulebook's numbers as data, and the checks
of a venue's measurements against them.

A venue is a mapping (read from TOML by the command line) of measurements in SI
units: metres, kilograms, lux, degrees Celsius. A missing measurement that a rule
needs, an unknown field, a value that is not a number (or not true/false), an
unknown discipline and a number that cannot be a measurement in its unit are input
errors naming the field; a number that fits another unit (284 for a length: in
centimetres) says so. Q4 and the advisory parts of Q7 are checked only when measured.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from carom.core.errors import CaromError
from carom.rules.disciplines import DISCIPLINES


@dataclass(frozen=True, slots=True)
class Range:
    low: float | None
    high: float | None
    unit: str
    scale: float = 1.0
    """Factor from SI to the unit shown (1000 for mm and g)."""

    def holds(self, value: float, eps: float = 1e-9) -> bool:
        return ((self.low is None or value >= self.low - eps)
                and (self.high is None or value <= self.high + eps))

    def show(self, value: float) -> str:
        return f"{value * self.scale:g} {self.unit}"

    def __str__(self) -> str:
        lo = None if self.low is None else self.low * self.scale
        hi = None if self.high is None else self.high * self.scale
        if lo is not None and hi is not None:
            return f"{lo:g}–{hi:g} {self.unit}" if lo != hi else f"{lo:g} {self.unit}"
        return f"≥ {lo:g} {self.unit}" if lo is not None else f"≤ {hi:g} {self.unit}"


SIZE_TOLERANCE = 0.005
"""Q1 names the sizes; **Decision**: a surface within 5 mm of one of them meets it."""

TABLE_SIZES = {"small": (2.10, 1.05), "large": (2.84, 1.42)}
"""Q1: the playing surface between the cushion noses, length × width, metres."""
CUSHION_HEIGHT = Range(0.035, 0.037, "mm", 1000)
"""Q2: about 35–37 mm above the bed at the point of contact (4–5 mm above the radius)."""
TABLE_HEIGHT = Range(0.79, 0.80, "cm", 100)
"""Q3: floor to the top of the frame."""
BED_TEMPERATURE = Range(22.0, 28.0, "°C")
"""Q4: "usually heated to about 25 °C"; **Decision**: 25 ± 3 °C, checked only when measured."""
BALL_DIAMETER = Range(0.0610, 0.0615, "mm", 1000)
"""Q5: 61.5 mm; **Decision**: measured diameters from 61.0 mm meet it (the international tolerance)."""
BALL_MASS = Range(0.205, 0.220, "g", 1000)
BALL_MASS_THREE_CUSHION = Range(0.205, 0.240, "g", 1000)
"""Q5: 205–220 g, up to 240 g for three-cushion."""
BALL_MASS_SPREAD = Range(None, 0.002, "g", 1000)
"""Q5: the balls of a set differ by at most 2 g."""
SURFACE_LIGHT = Range(520.0, None, "lx")
LAMP_HEIGHT = Range(0.80, None, "cm", 100)
ROOM_LIGHT = Range(50.0, None, "lx")
"""Q6: at least 520 lx on the bed, lamps at least 80 cm above it, 50 lx around."""
WALL_DISTANCE = Range(1.5, None, "m")
"""Q7: at least 1.5 m from the table to a wall."""


class VenueError(CaromError):
    """A measurement is missing, not a number, or not plausible in its unit; ``field``
    names it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field


@dataclass(frozen=True, slots=True)
class Check:
    rule: str
    what: str
    measured: str
    allowed: str
    met: bool


@dataclass(frozen=True, slots=True)
class Unit:
    """The unit a measurement is given in, the values that are plausible in it (wider
    than what the rules allow: a value outside cannot be a measurement in this unit),
    and the units people might have used instead, each with its conversion."""

    words: str
    symbol: str
    low: float
    high: float
    others: tuple[tuple[str, Callable[[float], float]], ...] = ()

    def problem(self, value: float) -> str | None:
        if self.low <= value <= self.high:
            return None
        reason = (f"{value:g} is not plausible in {self.words} (expected from {self.low:g} to "
                  f"{self.high:g} {self.symbol})")
        for name, convert in self.others:
            if self.low <= convert(value) <= self.high:
                return f"{reason}; it looks like {name}: write {convert(value):.6g}"
        return reason


def _scaled(factor: float) -> Callable[[float], float]:
    return lambda value: value * factor


_FROM_CM_MM = (("centimetres", _scaled(0.01)), ("millimetres", _scaled(0.001)))
METRES = Unit("metres", "m", 0.1, 5.0, _FROM_CM_MM)
SMALL_METRES = Unit("metres", "m", 0.01, 0.2, _FROM_CM_MM)
"""Heights of a cushion and diameters of a ball: centimetres, not metres."""
DISTANCE = Unit("metres", "m", 0.0, 100.0)
KILOGRAMS = Unit("kilograms", "kg", 0.05, 1.0, (("grams", _scaled(0.001)),))
CELSIUS = Unit("degrees Celsius", "°C", -10.0, 60.0,
               (("degrees Fahrenheit", lambda f: (f - 32.0) * 5.0 / 9.0), ("kelvins", lambda k: k - 273.15)))
LUX = Unit("lux", "lx", 0.0, 200_000.0)
"""Up to about full sunlight."""

MEASURES: dict[str, dict[str, Unit | None]] = {
    "table": {"length": METRES, "width": METRES, "height": METRES, "cushion_height": SMALL_METRES,
              "bed_temperature": CELSIUS},
    "balls": {"discipline": None, "diameters": SMALL_METRES, "masses": KILOGRAMS},
    "lighting": {"surface_lux": LUX, "lamp_height": METRES, "room_lux": LUX},
    "venue": {"wall_distance": DISTANCE, "non_slip_floor": None},
}
"""Every field a venue file may hold, with its unit (``None``: not a number)."""
BALLS_IN_A_SET = 3


def _known_fields(venue: Mapping[str, Any]) -> None:
    for section, part in venue.items():
        if section not in MEASURES:
            raise VenueError(section, f"unknown section (known: {', '.join(MEASURES)})")
        if not isinstance(part, Mapping):
            raise VenueError(section, "expected a table of measurements")
        for key in part:
            if key not in MEASURES[section]:
                raise VenueError(f"{section}.{key}", f"unknown field (known in [{section}]: "
                                 f"{', '.join(MEASURES[section])})")


def _measured(section: str, key: str, value: Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise VenueError(f"{section}.{key}", f"expected a number, got {value!r}")
    unit = MEASURES[section][key]
    assert unit is not None
    problem = unit.problem(float(value))
    if problem is not None:
        raise VenueError(f"{section}.{key}", problem)
    return float(value)


def _number(venue: Mapping[str, Any], section: str, key: str, required: bool = True) -> float | None:
    value = venue.get(section, {}).get(key)
    if value is None:
        if required:
            raise VenueError(f"{section}.{key}", "missing: this rule needs the measurement")
        return None
    return _measured(section, key, value)


def _numbers(venue: Mapping[str, Any], section: str, key: str) -> list[float]:
    values = venue.get(section, {}).get(key)
    if not isinstance(values, list) or len(values) != BALLS_IN_A_SET:
        raise VenueError(f"{section}.{key}", "expected the three balls' measurements as a list")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise VenueError(f"{section}.{key}", f"expected numbers, got {v!r}")
    return [_measured(section, key, v) for v in values]


def _discipline(venue: Mapping[str, Any]) -> str | None:
    name: str | None = venue.get("balls", {}).get("discipline")
    if name is not None and (not isinstance(name, str) or name not in DISCIPLINES):
        raise VenueError("balls.discipline", f"unknown {name!r} (known: {', '.join(DISCIPLINES)})")
    return name


def _floor(venue: Mapping[str, Any]) -> bool | None:
    floor = venue.get("venue", {}).get("non_slip_floor")
    if floor is not None and not isinstance(floor, bool):
        raise VenueError("venue.non_slip_floor", f"expected true or false, got {floor!r}")
    return floor


def _range(rule: str, what: str, value: float, allowed: Range) -> Check:
    return Check(rule, what, allowed.show(value), str(allowed), allowed.holds(value))


def inspect(venue: Mapping[str, Any]) -> list[Check]:
    """Check a venue's measurements against Q1–Q7, one line per requirement."""
    _known_fields(venue)
    discipline = _discipline(venue)
    floor = _floor(venue)
    checks: list[Check] = []
    length = _number(venue, "table", "length")
    width = _number(venue, "table", "width")
    assert length is not None and width is not None
    size = min(TABLE_SIZES, key=lambda k: abs(TABLE_SIZES[k][0] - length) + abs(TABLE_SIZES[k][1] - width))
    want = TABLE_SIZES[size]
    ok = abs(want[0] - length) <= SIZE_TOLERANCE and abs(want[1] - width) <= SIZE_TOLERANCE
    checks.append(Check("Q1", "playing surface", f"{length * 100:g} × {width * 100:g} cm",
                        f"{want[0] * 100:g} × {want[1] * 100:g} cm ± {SIZE_TOLERANCE * 1000:g} mm ({size})",
                        ok))
    cushion = _number(venue, "table", "cushion_height")
    assert cushion is not None
    checks.append(_range("Q2", "cushion height at the contact point", cushion, CUSHION_HEIGHT))
    height = _number(venue, "table", "height")
    assert height is not None
    checks.append(_range("Q3", "table height", height, TABLE_HEIGHT))
    temperature = _number(venue, "table", "bed_temperature", required=False)
    if temperature is not None:
        checks.append(_range("Q4", "bed temperature", temperature, BED_TEMPERATURE))
    diameters = _numbers(venue, "balls", "diameters")
    masses = _numbers(venue, "balls", "masses")
    mass_range = BALL_MASS_THREE_CUSHION if discipline == "three-cushion" else BALL_MASS
    for i, d in enumerate(diameters, start=1):
        checks.append(_range("Q5", f"ball {i} diameter", d, BALL_DIAMETER))
    for i, m in enumerate(masses, start=1):
        checks.append(_range("Q5", f"ball {i} mass", m, mass_range))
    checks.append(_range("Q5", "mass difference in the set", max(masses) - min(masses), BALL_MASS_SPREAD))
    for key, what, allowed in (("surface_lux", "light on the bed", SURFACE_LIGHT),
                               ("lamp_height", "lamps above the bed", LAMP_HEIGHT),
                               ("room_lux", "light around the table", ROOM_LIGHT)):
        value = _number(venue, "lighting", key)
        assert value is not None
        checks.append(_range("Q6", what, value, allowed))
    wall = _number(venue, "venue", "wall_distance")
    assert wall is not None
    checks.append(_range("Q7", "table to wall", wall, WALL_DISTANCE))
    if floor is not None:
        checks.append(Check("Q7", "non-slip floor or carpet", "yes" if floor else "no", "yes", bool(floor)))
    return checks
