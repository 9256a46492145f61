"""The fit's coordinates: how the ball leaves the cue, and the strike that launches it so."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.fit.launch import Launch, launch_of, strike_of, within_miscue
from carom.physics import DEFAULT_PARAMS, Strike
from carom.physics import layout as L
from carom.physics.simulate import play

LARGE = TABLES["large"]


@st.composite
def strikes(draw: st.DrawFn) -> Strike:
    side, height = within_miscue(draw(st.floats(-0.5, 0.5)), draw(st.floats(-0.5, 0.5)))
    return Strike(Ball.WHITE, draw(st.floats(0.5, 8.0)), draw(st.floats(-179.0, 179.0)), side, height,
                  draw(st.floats(0.0, 60.0)))


@settings(max_examples=80, deadline=None)
@given(strikes())
def test_the_strike_of_a_launch_is_the_strike_that_gave_it(strike: Strike) -> None:
    back = strike_of(launch_of(strike, 0.0, DEFAULT_PARAMS), Ball.WHITE, DEFAULT_PARAMS)
    for name in ("speed", "direction", "side", "height", "elevation"):
        assert math.isclose(getattr(back, name), getattr(strike, name), rel_tol=1e-9, abs_tol=1e-9), name


@settings(max_examples=40, deadline=None)
@given(strikes())
def test_a_launch_is_how_the_simulators_cue_sends_the_ball_off(strike: Strike) -> None:
    """Speed on the cloth and heading, squirt and elevation included (PHYSICS.md, "Cue strike")."""
    run = play({Ball.WHITE: (0.71, 1.42)}, strike, LARGE, DEFAULT_PARAMS)
    vx, vy = run.log_state[0, 0, L.VX], run.log_state[0, 0, L.VY]
    launch = launch_of(strike, 0.0, DEFAULT_PARAMS)
    assert math.isclose(launch.speed, math.hypot(vx, vy), rel_tol=1e-9)
    assert abs(math.remainder(launch.heading - math.degrees(math.atan2(vy, vx)), 360.0)) < 1e-7


def test_tip_offsets_beyond_the_miscue_limit_are_brought_onto_it() -> None:
    strike = strike_of(Launch(2.0, 30.0, 0.5, 0.5, 0.0, 0.0), Ball.WHITE, DEFAULT_PARAMS)
    assert math.isclose(math.hypot(strike.side, strike.height), 0.5)
    assert math.isclose(strike.side, strike.height)
