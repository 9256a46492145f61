"""The limits of docs/limits.md: every number within them gives finite results (so no
record or table ever carries NaN or infinity), and every number beyond them is refused
where it enters, naming it."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.batch.run import run_chunk
from carom.batch.spec import spec_from
from carom.core.balls import Ball
from carom.core.errors import CaromError
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.notation.writer import record_json
from carom.physics import DEFAULT_PARAMS, Strike, simulate
from carom.physics.params import RANGES
from carom.physics.strike import LIMITS, MISCUE_LIMIT
from carom.solve import ExecutionNoise

LARGE = TABLES["large"]


@st.composite
def overrides(draw: st.DrawFn) -> dict[str, float | int]:
    """Any parameters within their ranges, the ends included (the cushion nose kept between
    the ball's centre and its top)."""
    names = draw(st.lists(st.sampled_from(sorted(RANGES)), unique=True, max_size=6))
    out: dict[str, float | int] = {}
    for name in names:
        low, high, _ = RANGES[name]
        ends = st.sampled_from([low, high])
        value = draw(st.one_of(ends, st.floats(low, high)))
        out[name] = int(value) if name == "mathavan_steps" else value
    if "ball_radius" in out or "cushion_height" in out:
        radius = float(out.get("ball_radius", DEFAULT_PARAMS.ball_radius))
        out["cushion_height"] = radius * draw(st.floats(1.05, 1.5))
    return out


@st.composite
def strikes(draw: st.DrawFn) -> Strike:
    numbers = {f: draw(st.one_of(st.sampled_from([low, high]), st.floats(low, high)))
               for f, (low, high, _) in LIMITS.items()}
    tip = math.hypot(numbers["side"], numbers["height"])
    if tip > MISCUE_LIMIT:
        numbers["side"] *= MISCUE_LIMIT / tip
        numbers["height"] *= MISCUE_LIMIT / tip
    return Strike(Ball.WHITE, **numbers)


@settings(max_examples=40, deadline=None)
@given(changes=overrides(), strike=strikes(), model=st.sampled_from(["han2005", "mathavan2010"]))
def test_every_stroke_within_the_limits_is_finite(changes: dict[str, float | int], strike: Strike,
                                                  model: str) -> None:
    params = DEFAULT_PARAMS.with_overrides({**changes, "cushion_model": model})
    stroke = simulate(starting_position(LARGE, Ball.WHITE), strike, LARGE, params, sample=0.05)
    json.dumps(record_json(stroke), allow_nan=False)  # raises on NaN or infinity


@settings(max_examples=15, deadline=None)
@given(changes=overrides())
def test_every_batch_row_within_the_limits_is_finite(changes: dict[str, float | int]) -> None:
    spec = spec_from({"strokes": 64, "chunk": 64, "positions": {"kind": "random"}, "params": changes,
                      "strikes": {"kind": "random", "speed": [0, 15], "direction": [-360, 360],
                                  "side": [-0.5, 0.5], "height": [-0.5, 0.5], "elevation": [0, 89]}})
    table = run_chunk(spec, 0)
    for name in table.column_names:
        column = table.column(name).to_numpy(zero_copy_only=False)
        if column.dtype.kind == "f":
            assert np.all(np.isfinite(column)), name


@pytest.mark.parametrize("name", sorted(RANGES))
def test_each_parameter_accepts_its_range_and_refuses_beyond(name: str) -> None:
    low, high, _ = RANGES[name]
    for value in (low, high):
        # the cushion nose must also lie between the ball's centre and its top
        radius = (value if name == "ball_radius" else min(max(value / 1.2, 0.02), 0.04)
                  if name == "cushion_height" else None)
        kept = {} if radius is None else {"ball_radius": radius, "cushion_height": radius * 1.2}
        DEFAULT_PARAMS.with_overrides({**kept, name: value})
    for value in (low - abs(low) * 0.5 - 1, high + abs(high) * 0.5 + 1, math.nan, math.inf):
        with pytest.raises(CaromError, match=name):
            DEFAULT_PARAMS.with_overrides({name: value})


@pytest.mark.parametrize("field", sorted(LIMITS))
def test_a_strike_beyond_its_limits_is_refused(field: str) -> None:
    low, high, _ = LIMITS[field]
    for value in (low - 1, high + 1, math.nan, math.inf):
        numbers = {"speed": 3.0, "direction": 0.0, field: value}
        with pytest.raises(CaromError, match=f"cue {field}"):
            Strike(Ball.WHITE, **numbers)


@pytest.mark.parametrize("sigma", [{"direction": -0.1}, {"speed": 0.6}, {"tip": math.nan},
                                   {"direction": 1e9}])
def test_execution_noise_beyond_its_limits_is_refused(sigma: dict[str, float]) -> None:
    with pytest.raises(CaromError, match="σ"):
        ExecutionNoise(**sigma)
