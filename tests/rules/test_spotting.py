"""Frozen and jumped balls, and where the referee puts them (S3, S4, K3, K4, 1C3, 1C4,
3C3–3C6, O2), through the match engine."""

from __future__ import annotations

from typing import Any

import pytest

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.table import TABLES
from tests.helpers import header, play, stroke_json

LARGE = TABLES["large"]
R2 = 2 * LARGE.ball_radius
W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
START_WHITE = {W: LARGE.starting_spots[1], Y: LARGE.bottom_spot, RED: LARGE.top_spot}
START_YELLOW = {Y: LARGE.starting_spots[1], W: LARGE.bottom_spot, RED: LARGE.top_spot}

FROZEN_END = {"white": [0.5, 1.0], "yellow": [0.5 + R2, 1.0], "red": [1.0, 2.0]}
"""White (player 0's ball) frozen to yellow after the stroke."""
LOOSE_END = {"white": [0.5, 1.0], "yellow": [0.9, 1.2], "red": [1.0, 2.0]}


def scored(end: dict[str, Any], discipline: str = "straight-rail") -> dict[str, Any]:
    lead = {"one-cushion": "left ", "three-cushion": "left top right "}.get(discipline, "")
    return stroke_json("white", lead + "red yellow", end=end)


def test_s3_straight_rail_frozen_ball_1_all_to_the_starting_position_same_player() -> None:
    r = play(header("straight-rail"), "opener 0", scored(FROZEN_END))
    ruling = r.rulings[0]
    assert ruling.points == 1 and ruling.next == 0
    assert ruling.spot == START_WHITE and "S3" in ruling.cites


def test_s3_frozen_ball_of_the_incoming_player_is_respotted_for_him() -> None:
    miss = stroke_json("white", "red", end={"white": [0.5, 1.0], "yellow": [0.5 + R2, 1.0],
                                            "red": [1.0, 2.0]})
    r = play(header("straight-rail"), "opener 0", miss)
    assert r.rulings[0].next == 1 and r.rulings[0].spot == START_YELLOW


def test_s3_no_respot_when_nothing_is_frozen() -> None:
    r = play(header("straight-rail"), "opener 0", scored(LOOSE_END))
    assert r.rulings[0].spot is None


@pytest.mark.parametrize(("discipline", "rule"), [
    ("balkline-47/2", "K3"), ("balkline-71/2", "K3"), ("one-cushion", "1C3")])
def test_k3_1c3_frozen_ball_respot_on_request_all_three_to_the_starting_position(
        discipline: str, rule: str) -> None:
    r = play(header(discipline, points=50), "opener 0", scored(FROZEN_END, discipline))
    assert r.rulings[0].spot is None  # no automatic re-spot
    r = play(header(discipline, points=50), "opener 0", scored(FROZEN_END, discipline), "respot")
    ruling = r.rulings[-1]
    table = r.state.rules.table
    assert ruling.player == 0 and ruling.next == 0 and ruling.points == 0 and rule in ruling.cites
    assert ruling.spot == {W: table.starting_spots[1], Y: table.bottom_spot, RED: table.top_spot}


@pytest.mark.parametrize("discipline", ["balkline-47/2", "one-cushion", "three-cushion"])
def test_k3_1c3_3c5_respot_refused_when_nothing_is_frozen(discipline: str) -> None:
    refusal = r"line 4: a respot, but the striker's ball \(white\) touches no ball"
    with pytest.raises(RecordError, match=refusal):
        play(header(discipline, points=50), "opener 0", scored(LOOSE_END, discipline), "respot")


def test_k3_option_d_play_first_onto_the_ball_not_touching() -> None:
    start = {"white": [0.5, 1.0], "yellow": [0.5 + R2, 1.0], "red": [0.3, 2.0]}
    r = play(header("balkline-47/2", points=50), "opener 0",
             stroke_json("white", "red yellow", start=start, end=LOOSE_END))
    assert r.rulings[0].points == 1


def test_3c5_only_the_touching_balls_go_to_the_long_string() -> None:
    r = play(header("three-cushion"), "opener 0", scored(FROZEN_END, "three-cushion"), "respot")
    ruling = r.rulings[-1]
    assert ruling.spot == {W: LARGE.bottom_spot, Y: LARGE.centre_spot, RED: (1.0, 2.0)}
    assert {"3C5", "3C3"} <= set(ruling.cites)


@pytest.mark.rule("3C4", "3C5")
def test_3c4_covered_spot_sends_the_ball_to_the_covering_balls_spot() -> None:
    """3C4: red lies on the bottom spot: white (who plays next) goes to red's spot, the top spot."""
    x, y = LARGE.bottom_spot
    end = {"white": [0.3, 1.5], "yellow": [0.3 + R2, 1.5], "red": [x + 0.01, y]}
    r = play(header("three-cushion"), "opener 0", scored(end, "three-cushion"), "respot")
    assert r.rulings[-1].spot == {W: LARGE.top_spot, Y: LARGE.centre_spot, RED: (x + 0.01, y)}


@pytest.mark.rule("3C4")
def test_3c4_decision_when_the_covering_balls_spot_is_taken_too() -> None:
    """3C4 decision: yellow (to be spotted on the centre spot) finds red there; red's own spot, the top
    spot, is taken by white, already placed on it... so the free spot is used."""
    from carom.rules.spotting import spot_on_long_string

    cx, cy = LARGE.centre_spot
    tx, ty = LARGE.top_spot
    position = {RED: (cx, cy), W: (tx, ty - 0.01)}
    layout = spot_on_long_string(LARGE, {**position, Y: (0.2, 0.2)}, (Y,), W)
    assert layout[Y] == LARGE.bottom_spot


@pytest.mark.parametrize(("discipline", "rule"), [
    ("straight-rail", "S4"), ("balkline-47/1", "K4"), ("one-cushion", "1C4")])
def test_s4_k4_1c4_jump_all_three_to_the_starting_position_opponent_plays(discipline: str,
                                                                            rule: str) -> None:
    jumped = stroke_json("white", "red jump:red", end={"white": [0.5, 1.0], "yellow": [0.9, 1.2]})
    r = play(header(discipline, points=50), "opener 0", jumped)
    ruling = r.rulings[0]
    table = r.state.rules.table
    assert ruling.fouls == ("F2",) and ruling.next == 1 and rule in ruling.cites
    assert ruling.spot == {Y: table.starting_spots[1], W: table.bottom_spot, RED: table.top_spot}


def test_3c6_only_the_jumped_ball_is_spotted_and_3c3_decision_on_whose_ball() -> None:
    """White (the striker's) jumps: the opponent plays next, so white is now "the other
    ball" and goes on the centre spot (3C3 decision); yellow and red stay."""
    jumped = stroke_json("white", "red jump:white", end={"yellow": [0.9, 1.2], "red": [1.0, 2.0]})
    r = play(header("three-cushion"), "opener 0", jumped)
    ruling = r.rulings[0]
    assert ruling.fouls == ("F2",) and ruling.next == 1
    assert ruling.spot == {W: LARGE.centre_spot, Y: (0.9, 1.2), RED: (1.0, 2.0)}
    assert "3C6" in ruling.cites


def test_3c6_all_three_jumped_go_on_the_long_string_never_the_starting_position() -> None:
    jumped = stroke_json("white", "jump:white jump:yellow jump:red", end={})
    r = play(header("three-cushion"), "opener 0", jumped)
    assert r.rulings[0].spot == {W: LARGE.centre_spot, Y: LARGE.bottom_spot, RED: LARGE.top_spot}


def test_3c3_called_jump_without_positions_leaves_the_layout_unknown() -> None:
    r = play(header("three-cushion"), "opener 0", "foul F2")
    assert r.rulings[0].spot is None and r.rulings[0].next == 1


def test_s4_called_jump_in_straight_rail_sets_the_starting_position() -> None:
    r = play(header("straight-rail"), "opener 0", "carom", "foul F2")
    assert r.rulings[-1].spot == START_YELLOW


def test_o2_starting_position_the_next_players_ball_on_the_starting_spot() -> None:
    r = play(header(points=1), "opener 0", "carom")
    assert r.rulings[0].spot == START_YELLOW and "O2" in r.rulings[0].cites


def test_o3_equalizing_inning_first_stroke_may_hit_either_ball() -> None:
    """O3 decision: only the first stroke of the match and of a set must hit red first."""
    r = play(header(points=1), "opener 0", "carom",
             stroke_json("yellow", "left top right white red"))
    assert r.rulings[-1].points == 1 and r.state.winner is None


@pytest.mark.rule("F16")
def test_f16_a_third_persons_disturbance_is_no_fault() -> None:
    """F16: the referee puts the balls back; the next stroke's ``start`` differs from the
    tracked position, and play goes on with the same striker, no fault."""
    moved = {"white": [0.5, 1.0], "yellow": [0.9, 1.2], "red": [1.0, 2.0]}
    put_back = {"white": [0.3, 0.5], "yellow": [0.8, 1.1], "red": [1.1, 2.1]}
    r = play(header("straight-rail"), "opener 0",
             stroke_json("white", "red yellow", end=put_back),
             stroke_json("white", "red yellow", start=put_back, end=moved),
             stroke_json("white", "red yellow", start=put_back, end=moved))
    assert [x.points for x in r.rulings] == [1, 1, 1]
    assert all(not x.fouls for x in r.rulings)


@pytest.mark.rule("F16", "F9")
def test_f16_the_stroke_after_the_balls_are_put_back_is_judged_where_they_were_put() -> None:
    """The tracked rest has white and yellow apart; a spectator moved them, the referee put
    them back frozen as they were: the stroke straight into yellow is judged from there
    (F9), not from the disturbed layout, and the disturbance itself is no fault."""
    disturbed = {"white": [0.5, 1.0], "yellow": [0.9, 1.2], "red": [1.0, 2.0]}
    put_back = {"white": [0.5, 1.0], "yellow": [0.5 + R2, 1.0], "red": [1.0, 2.0]}
    r = play(header("one-cushion", points=50), "opener 0",
             stroke_json("white", "left red yellow", end=disturbed),
             stroke_json("white", "yellow left red", start=put_back, end=disturbed))
    assert [(x.points, x.fouls) for x in r.rulings] == [(1, ()), (0, ("F9",))]
    unmoved = play(header("one-cushion", points=50), "opener 0",
                   stroke_json("white", "left red yellow", end=disturbed),
                   stroke_json("white", "yellow left red", end=disturbed))
    assert [(x.points, x.fouls) for x in unmoved.rulings] == [(1, ()), (1, ())]


# --- a jump the referee called on a stroke with no jump event (F2) ----------------------

REST = {"white": [0.5, 1.0], "yellow": [0.9, 1.2], "red": [1.0, 2.0]}


@pytest.mark.rule("F2", "S4", "K4", "1C4", "O2")
@pytest.mark.parametrize(("discipline", "rule"), [
    ("straight-rail", "S4"), ("balkline-47/2", "K4"), ("balkline-35/1", "K4"), ("one-cushion", "1C4")])
@pytest.mark.parametrize("end", [REST, {"white": [0.5, 1.0], "yellow": [0.9, 1.2]}, None],
                         ids=["all-three-at-rest", "red-left-out", "no-end"])
def test_a_called_jump_on_a_stroke_puts_all_three_on_the_starting_position(
        discipline: str, rule: str, end: dict[str, Any] | None) -> None:
    called = stroke_json("white", "red yellow", end=end, fouls=("F2",))
    r = play(header(discipline, points=50), "opener 0", "carom", called)
    ruling = r.rulings[-1]
    table = r.state.rules.table
    assert (ruling.points, ruling.fouls, ruling.next) == (0, ("F2",), 1) and rule in ruling.cites
    assert ruling.spot == {Y: table.starting_spots[1], W: table.bottom_spot, RED: table.top_spot}
    assert r.state.position == ruling.spot


@pytest.mark.rule("F2", "3C6", "3C3")
def test_3c6_a_called_jump_spots_the_ball_the_end_leaves_out() -> None:
    called = stroke_json("white", "left top right red yellow",
                         end={"white": [0.5, 1.0], "yellow": [0.9, 1.2]}, fouls=("F2",))
    r = play(header("three-cushion"), "opener 0", called)
    assert r.rulings[0].spot == {W: (0.5, 1.0), Y: (0.9, 1.2), RED: LARGE.top_spot}
    assert "3C6" in r.rulings[0].cites and r.rulings[0].next == 1


@pytest.mark.rule("F2", "3C6", "3C3")
def test_3c6_a_called_jump_with_every_ball_at_rest_spots_ball_1() -> None:
    """Decision (docs/rules.md): no event and no end says which ball jumped (it touched the
    frame and came back): ball 1, the ball the striker drove, is spotted. The opponent plays
    next, so white is "the other ball" and goes on the centre spot (3C3 decision)."""
    called = stroke_json("white", "left top right red yellow", end=REST, fouls=("F2",))
    r = play(header("three-cushion"), "opener 0", called)
    assert r.rulings[0].spot == {W: LARGE.centre_spot, Y: (0.9, 1.2), RED: (1.0, 2.0)}
    yellow_struck = stroke_json("yellow", "left top right red white", end=REST, fouls=("F2",))
    r = play(header("three-cushion"), "opener 0", "miss", yellow_struck)
    assert r.rulings[-1].spot == {W: (0.5, 1.0), Y: LARGE.centre_spot, RED: (1.0, 2.0)}


@pytest.mark.rule("F2", "3C6")
def test_3c6_a_called_jump_without_an_end_leaves_the_layout_unknown() -> None:
    r = play(header("three-cushion"), "opener 0", stroke_json("white", "red", fouls=("F2",)))
    assert (r.rulings[0].fouls, r.rulings[0].next, r.rulings[0].spot) == (("F2",), 1, None)
    assert r.state.position is None


@pytest.mark.rule("F2")
def test_only_a_called_jump_lets_the_end_leave_a_ball_out() -> None:
    with pytest.raises(RecordError, match=r"line 3: stroke: end: no position for red"):
        play(header("three-cushion"), "opener 0",
             stroke_json("white", "red", end={"white": [0.5, 1.0], "yellow": [0.9, 1.2]}))


@pytest.mark.rule("K4", "K2", "Z2", "Z3", "Z7")
@pytest.mark.parametrize(("discipline", "rulings"), [
    ("balkline-47/1", [(0, ("F2",)), (0, ("Z7",))]),
    ("balkline-47/2", [(0, ("F2",)), (1, ()), (0, ("Z7",))]),
])
def test_k4_after_a_called_jump_the_zones_are_judged_from_the_starting_position(
        discipline: str, rulings: list[tuple[int, tuple[str, ...]]]) -> None:
    """After the jump the opponent (yellow) plays from the starting position, where white
    (bottom spot) and red (top spot) both lie in the centre field of 47/x (K2). Judged from
    where the jumping stroke left the balls (white and red in different fields), no carom
    would be restricted."""
    jump = stroke_json("white", "red", fouls=("F2",),
                       end={"white": [0.2, 0.2], "yellow": [1.2, 2.6], "red": [0.3, 2.7]})
    in_centre = {"white": [0.80, 1.00], "yellow": [0.30, 0.30], "red": [0.70, 2.00]}
    keeps = stroke_json("yellow", "red white", end=in_centre)
    strokes = [jump, keeps] if discipline.endswith("/1") else [jump, keeps, keeps]
    r = play(header(discipline, points=50), "opener 0", *strokes)
    assert [(x.points, x.fouls) for x in r.rulings] == rulings
