"""The narrow interface: ``simulate`` and ``simulate_batch``, the parameter set, the record."""

from __future__ import annotations

import numpy as np
import pytest

from carom.core.balls import BALLS, Ball
from carom.core.events import BallContact, CushionContact
from carom.core.position import starting_position
from carom.core.records import Header
from carom.notation.reader import record_from_json
from carom.notation.writer import record_json
from carom.physics import DEFAULT_PARAMS, PARAMS_VERSION, Motion, Params, Strike, simulate, simulate_batch
from carom.physics.params import CUSHION_MODELS

from .conftest import LARGE, SMALL, R

START = starting_position(LARGE, Ball.WHITE)


def test_the_defaults_are_those_of_physics_md_and_the_fit() -> None:
    p = DEFAULT_PARAMS
    assert (p.ball_radius, p.ball_mass, p.mu_slide, p.spin_decay, p.e_ball, p.cushion_height) == (
        0.03075, 0.210, 0.21, 10.0, 0.95, 0.037)
    assert 0.004 <= p.mu_roll <= 0.006
    assert 0.80 <= p.han_e <= 0.95 and 0.15 <= p.han_mu <= 0.30
    assert p.cushion_model in CUSHION_MODELS


def test_params_are_frozen_validated_and_overridable() -> None:
    with pytest.raises(AttributeError):
        DEFAULT_PARAMS.mu_roll = 0.1  # type: ignore[misc]
    assert DEFAULT_PARAMS.with_overrides({"mu_roll": 0.005}).mu_roll == 0.005
    assert DEFAULT_PARAMS.with_overrides({"cushion_model": "mathavan2010"}).cushion_model == "mathavan2010"
    for bad in ({"mu_rol": 0.1}, {"mu_roll": "x"}, {"e_ball": 1.5}, {"cushion_model": "rubber"},
                {"cushion_height": 0.02}, {"mu_slide": -0.1}):
        with pytest.raises(ValueError):
            DEFAULT_PARAMS.with_overrides(bad)


def test_every_record_carries_its_parameters() -> None:
    params = DEFAULT_PARAMS.replace(mu_roll=0.005, han_e=0.9)
    stroke = simulate(START, Strike(Ball.WHITE, 3.0, 80.0), LARGE, params)
    physics = stroke.extra["physics"]
    assert physics["params"]["version"] == PARAMS_VERSION
    assert physics["params"]["mu_roll"] == 0.005 and physics["params"]["han_e"] == 0.9
    assert Params(**{k: v for k, v in physics["params"].items() if k != "version"}) == params
    assert "never produces a jump" in physics["model"]
    assert physics["table"] == "large"


def test_the_record_reads_back_as_written() -> None:
    stroke = simulate(START, Strike(Ball.WHITE, 4.0, 100.0, 0.2, -0.1), LARGE, sample=0.05)
    back = record_from_json(record_json(stroke), Header("three-cushion", "large", ("A", "B"), 10, None))
    assert back == stroke


def test_the_record_has_start_events_in_time_order_end_and_paths() -> None:
    stroke = simulate(START, Strike(Ball.WHITE, 5.0, 60.0, 0.3), LARGE, sample=0.05)
    assert stroke.start == START
    times = [e.t for e in stroke.events]
    assert times == sorted(times)  # type: ignore[type-var]
    assert all(isinstance(e, BallContact | CushionContact) for e in stroke.events)
    assert stroke.end is not None and set(stroke.end) == set(BALLS)
    assert stroke.paths is not None
    for ball in BALLS:
        path = stroke.paths[ball]
        assert path[0] == (0.0, *START[ball])
        assert path[-1][1:] == stroke.end[ball]


def test_a_ball_may_be_left_out_and_tables_differ() -> None:
    stroke = simulate({Ball.WHITE: (0.5, 0.5), Ball.RED: (0.5, 1.5)}, Strike(Ball.WHITE, 2.0, 90.0), SMALL)
    assert stroke.end is not None and set(stroke.end) == {Ball.WHITE, Ball.RED}
    assert stroke.events[0] == BallContact(Ball.WHITE, Ball.RED, stroke.events[0].t)


def test_nothing_struck_nothing_moves() -> None:
    stroke = simulate(START, None, LARGE)
    assert stroke.events == () and stroke.end == START and stroke.ball is Ball.WHITE


def test_balls_given_motion_move_without_a_strike() -> None:
    stroke = simulate({Ball.RED: (0.7, 1.0)}, None, LARGE, motion={Ball.RED: Motion((0.0, 2.0))})
    assert stroke.ball is Ball.RED
    assert isinstance(stroke.events[0], CushionContact)


def test_impossible_inputs_are_refused() -> None:
    with pytest.raises(ValueError, match="overlap"):
        simulate({Ball.WHITE: (0.5, 0.5), Ball.RED: (0.5 + R, 0.5)}, None, LARGE)
    with pytest.raises(ValueError, match="off the"):
        simulate({Ball.WHITE: (0.01, 0.5)}, None, LARGE)
    with pytest.raises(ValueError, match="not on the table"):
        simulate({Ball.WHITE: (0.5, 0.5)}, Strike(Ball.YELLOW, 1.0, 0.0), LARGE)
    with pytest.raises(ValueError, match="red is never a cue ball"):
        Strike(Ball.RED, 1.0, 0.0)
    with pytest.raises(ValueError, match="miscue"):
        Strike(Ball.WHITE, 3.0, 0.0, 0.4, 0.4)
    with pytest.raises(ValueError):
        Strike(Ball.WHITE, -1.0, 0.0)


def test_the_batch_refuses_impossible_inputs() -> None:
    positions = np.array([[START[b] for b in BALLS]])
    strikes = np.array([[3.0, 90.0, 0.0, 0.0, 0.0]])
    with pytest.raises(ValueError):
        simulate_batch(positions, strikes, np.array([3]), LARGE)
    with pytest.raises(ValueError):
        simulate_batch(positions, np.array([[3.0, 90.0, 0.5, 0.5, 0.0]]), np.array([0]), LARGE)
    overlapping = positions.copy()
    overlapping[0, 1] = overlapping[0, 0] + [R, 0.0]
    with pytest.raises(ValueError):
        simulate_batch(overlapping, strikes, np.array([0]), LARGE)


def test_the_batch_keeps_the_first_events_and_counts_them_all() -> None:
    n = 8
    positions = np.broadcast_to(np.array([START[b] for b in BALLS]), (n, 3, 2)).copy()
    strikes = np.column_stack([np.full(n, 6.0), np.linspace(0, 315, n), np.full(n, 0.3), np.zeros(n),
                               np.zeros(n)])
    full = simulate_batch(positions, strikes, np.zeros(n, dtype=np.int64), LARGE)
    short = simulate_batch(positions, strikes, np.zeros(n, dtype=np.int64), LARGE, max_events=3)
    assert np.array_equal(full.n_codes, short.n_codes)
    assert np.array_equal(full.codes[:, :3], short.codes)
    assert np.array_equal(full.end, short.end)
    for k in range(n):
        assert short.events(k) == full.events(k)[:3]
    assert full.codes.dtype == np.uint8 and full.end.shape == (n, 3, 2)


def test_the_defaults_of_an_earlier_version_are_at_hand() -> None:
    from carom.physics.params import defaults_of

    assert defaults_of(PARAMS_VERSION) is DEFAULT_PARAMS
    first = defaults_of(1)
    assert (first.mu_roll, first.han_e, first.han_mu) == (0.00475, 0.842, 0.230)
    assert first.replace(mu_roll=DEFAULT_PARAMS.mu_roll) != DEFAULT_PARAMS
    with pytest.raises(ValueError, match="version 99"):
        defaults_of(99)
