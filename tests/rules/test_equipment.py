"""Equipment and venue (Q1–Q7): the rulebook's numbers, met and not met."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import pytest

from carom.rules.equipment import VenueError, inspect

VENUE = tomllib.loads((Path(__file__).resolve().parents[2] / "examples" / "venue.toml").read_text())


def checks(**changes: Any) -> dict[tuple[str, str], bool]:
    venue = copy.deepcopy(VENUE)
    for key, value in changes.items():
        section, field = key.split("__")
        venue[section][field] = value
    return {(c.rule, c.what): c.met for c in inspect(venue)}


def test_the_example_venue_meets_every_rule() -> None:
    result = checks()
    assert all(result.values())
    assert {rule for rule, _ in result} == {"Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7"}


@pytest.mark.parametrize(("rule", "what", "changes", "met"), [
    ("Q1", "playing surface", {"table__length": 2.10, "table__width": 1.05}, True),
    ("Q1", "playing surface", {"table__length": 2.30, "table__width": 1.15}, False),
    ("Q1", "playing surface", {"table__length": 2.846}, False),
    ("Q2", "cushion height at the contact point", {"table__cushion_height": 0.0349}, False),
    ("Q2", "cushion height at the contact point", {"table__cushion_height": 0.037}, True),
    ("Q3", "table height", {"table__height": 0.801}, False),
    ("Q3", "table height", {"table__height": 0.79}, True),
    ("Q4", "bed temperature", {"table__bed_temperature": 18.0}, False),
    ("Q5", "ball 1 diameter", {"balls__diameters": [0.0609, 0.0615, 0.0615]}, False),
    ("Q5", "ball 1 mass", {"balls__masses": [0.235, 0.2345, 0.234]}, True),
    ("Q5", "ball 1 mass", {"balls__discipline": "straight-rail", "balls__masses": [0.235, 0.2345, 0.234]},
     False),
    ("Q5", "mass difference in the set", {"balls__masses": [0.210, 0.2125, 0.211]}, False),
    ("Q6", "light on the bed", {"lighting__surface_lux": 500}, False),
    ("Q6", "lamps above the bed", {"lighting__lamp_height": 0.7}, False),
    ("Q6", "light around the table", {"lighting__room_lux": 40}, False),
    ("Q7", "table to wall", {"venue__wall_distance": 1.2}, False),
    ("Q7", "non-slip floor or carpet", {"venue__non_slip_floor": False}, False),
])
def test_equipment_rules(rule: str, what: str, changes: dict[str, Any], met: bool) -> None:
    assert checks(**changes)[(rule, what)] is met


def test_q4_is_checked_only_when_measured() -> None:
    venue = copy.deepcopy(VENUE)
    del venue["table"]["bed_temperature"]
    assert "Q4" not in {c.rule for c in inspect(venue)}


def test_a_missing_measurement_names_its_field() -> None:
    venue = copy.deepcopy(VENUE)
    del venue["lighting"]["room_lux"]
    with pytest.raises(VenueError, match=r"lighting.room_lux: missing"):
        inspect(venue)
    venue = copy.deepcopy(VENUE)
    venue["balls"]["masses"] = [0.21, "heavy", 0.21]
    with pytest.raises(VenueError, match=r"balls.masses: expected numbers, got 'heavy'"):
        inspect(venue)


@pytest.mark.parametrize(("change", "message"), [
    ({"table__length": 284.2}, "table.length: 284.2 is not plausible in metres (expected from 0.1 to 5 m); "
                               "it looks like centimetres: write 2.842"),
    ({"table__height": 795}, "it looks like millimetres: write 0.795"),
    ({"table__cushion_height": 36.5}, "it looks like millimetres: write 0.0365"),
    ({"balls__masses": [210.2, 211.0, 209.5]}, "balls.masses: 210.2 is not plausible in kilograms"),
    ({"balls__masses": [210.2, 211.0, 209.5]}, "it looks like grams: write 0.2102"),
    ({"table__bed_temperature": 77.0}, "it looks like degrees Fahrenheit: write 25"),
    ({"table__width": -1.42}, "table.width: -1.42 is not plausible in metres"),
    ({"lighting__surface_lux": float("inf")}, "lighting.surface_lux: expected a number, got inf"),
    ({"lighting__surface_lux": 1e9}, "lighting.surface_lux: 1e+09 is not plausible in lux"),
    ({"venue__non_slip_floor": "no"}, "venue.non_slip_floor: expected true or false, got 'no'"),
    ({"venue__non_slip_floor": 1}, "venue.non_slip_floor: expected true or false, got 1"),
    ({"balls__discipline": "pool"}, "balls.discipline: unknown 'pool' (known: straight-rail"),
    ({"balls__discipline": ["three-cushion"]}, "balls.discipline: unknown ['three-cushion']"),
    ({"venue__colour": "green"},
     "venue.colour: unknown field (known in [venue]: wall_distance, non_slip_floor)"),
    ({"balls__diameters": [0.0615, 0.0615]}, "balls.diameters: expected the three balls' measurements"),
])
def test_nonsense_is_refused_with_the_field_and_a_hint_about_the_unit(change: dict[str, Any],
                                                                      message: str) -> None:
    with pytest.raises(VenueError) as refused:
        checks(**change)
    assert message in str(refused.value)


def test_an_unknown_section_is_refused() -> None:
    venue = copy.deepcopy(VENUE)
    venue["lights"] = {"lux": 600}
    with pytest.raises(VenueError, match=r"lights: unknown section \(known: table, balls, lighting, venue\)"):
        inspect(venue)
