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
