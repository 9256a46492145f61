"""A value that exists is valid: the public constructors and functions check what they are
given, as the reader checks a line, and refuse with a ``CaromError`` naming the argument or
the field. Names and objects are accepted alike everywhere."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction

import numpy as np
import pytest

import carom
from carom.core.balls import Ball
from carom.core.errors import CaromError, InvalidValue, RecordError
from carom.core.events import BallContact, CushionContact, Jump
from carom.core.records import Call, Exit, Header, Inning, Opener, Stroke
from carom.core.table import TableSpec
from carom.notation.matchfile import Match, lines_of, read_match
from carom.physics import DEFAULT_PARAMS, Params, Strike, simulate
from carom.rules.disciplines import discipline

LARGE = carom.table("large")
START = {"white": (0.892, 0.71), "yellow": (0.71, 0.71), "red": (0.71, 2.13)}
HEADER = Header("three-cushion", "large", ("Anna", "Boris"), 10, None)


@pytest.mark.parametrize(("given", "words"), [
    ({"white": (math.nan, 0.7)}, "white: nan is not a finite number"),
    ({"white": (0.5,)}, "white: expected [x, y], got [0.5]"),
    ({"white": ("0.5", 0.7)}, 'white: expected a number, got "0.5"'),
    ({"blue": (0.5, 0.7)}, 'unknown ball "blue" (white, yellow or red)'),
    ({1: (0.5, 0.7)}, "unknown ball 1"),
    ([("white", (0.5, 0.7)), (Ball.WHITE, (0.6, 0.7))], "white is given twice"),
    ("white", "expected an object of ball positions"),
])
def test_a_position_refuses_what_is_no_position(given: object, words: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        carom.Position(given)  # type: ignore[arg-type]
    assert words in str(refused.value)


def test_a_position_takes_names_and_any_real_number_as_floats() -> None:
    position = carom.Position({"white": (np.float64(0.5), 1), Ball.RED: (Fraction(1, 2), 2.0)})
    assert position == {Ball.WHITE: (0.5, 1.0), Ball.RED: (0.5, 2.0)}
    assert all(type(c) is float for p in position.values() for c in p)
    assert list(position) == [Ball.WHITE, Ball.RED]


@pytest.mark.parametrize(("build", "words"), [
    (lambda: BallContact("blue", "red"), 'ball: unknown ball "blue"'),
    (lambda: BallContact("white", "white"), "a ball cannot touch itself (white)"),
    (lambda: CushionContact("white", "diagonal"), 'cushion: unknown "diagonal" (top, bottom, left or'),
    (lambda: Jump("white", "soon"), 't: expected a number, got "soon"'),
    (lambda: Jump("white", math.inf), "t: inf is not a finite number"),
    (lambda: Stroke("blue", ()), 'ball: unknown ball "blue"'),
    (lambda: Stroke("white", ["red"]), 'events[0]: expected a BallContact, CushionContact or Jump, got "re'),
    (lambda: Stroke("white", (), fouls=("F99",)), 'fouls[0]: "F99" is not a fault code here'),
    (lambda: Stroke("white", (), start={"white": (math.nan, 1.0)}), "start: white: nan is not a finite"),
    (lambda: Stroke("white", (), extra={"type": "call"}), 'extra: "type" is a field of the record itself'),
    (lambda: Stroke("white", (), extra={"x": math.nan}), "extra: x: nan is not a finite number"),
    (lambda: Stroke("white", (), paths={"red": [(0.0, 0.5)]}), "paths: red[0]: expected [t, x, y]"),
    (lambda: Exit("red", ""), "zone: expected the name of a zone"),
    (lambda: Opener(2), "player: expected 0 or 1, got 2"),
    (lambda: Opener(True), "player: expected 0 or 1, got true"),
    (lambda: Call("point"), 'result: expected carom, miss or foul, got "point"'),
    (lambda: Call("miss", "F4"), "rule: a miss names no rule"),
    (lambda: Inning(-1), "points: expected a whole number, got -1"),
    (lambda: Inning(3, "X9"), 'foul: "X9" is not a fault code here'),
    (lambda: Header("three-cushion", "huge", ("A", "B"), 10, None), 'table: unknown "huge"'),
    (lambda: Header("three-cushion", "large", ("A",), 10, None), 'players: expected two names, got ["A"]'),
    (lambda: Header("three-cushion", "large", ("A", "B"), 0, None), "points: expected a whole number >= 1"),
    (lambda: Header("three-cushion", "large", ("A", "B"), None, None), "points and innings are both null"),
    (lambda: Header("three-cushion", "large", ("A", "B"), 10, None, extra={"format": "carom/2"}),
     'extra: "format" is a field of the record itself'),
    (lambda: TableSpec("flat", 0.0, 0.0, 0.0), "width: 0 m is not a size"),
    (lambda: TableSpec("toy", 0.5, 1.0, 0.1), "width: 0.5 m leaves no room for the lag"),
    (lambda: TableSpec("nan", math.nan, 2.84, 0.182), "width: nan is not a finite number"),
    (lambda: carom.starting_position(LARGE, Ball.RED), "next_ball: red is never a cue ball (O1"),
    (lambda: carom.starting_position(LARGE, "white", 2), "side: expected 0 (left) or 1 (right)"),
])
def test_every_value_checks_what_it_is_given(build: object, words: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        build()  # type: ignore[operator]
    assert words in str(refused.value)


def test_events_strokes_and_the_starting_position_take_names() -> None:
    assert BallContact("white", "red", 1) == BallContact(Ball.WHITE, Ball.RED, 1.0)
    assert CushionContact("yellow", "top").cushion is carom.Cushion.TOP
    stroke = Stroke("white", [BallContact("white", "red")], start=START)
    assert stroke.ball is Ball.WHITE and stroke.start == carom.starting_position("large", "white")
    small = carom.table("small")
    assert carom.starting_position("small", "yellow", 0)[Ball.YELLOW] == small.starting_spots[0]


STROKE = Stroke("white", (BallContact("white", "red"), CushionContact("white", "top"),
                          CushionContact("white", "left"), CushionContact("white", "right"),
                          BallContact("white", "yellow")), start=START)


@pytest.mark.parametrize(("call", "words"), [
    (lambda: carom.judge(42), "stroke: expected a Stroke, got 42"),  # type: ignore[arg-type]
    (lambda: carom.judge(STROKE, cue_ball="blue"), 'cue_ball: unknown ball "blue"'),
    (lambda: carom.judge(STROKE, cue_ball="red"), "cue_ball: red is never a cue ball"),
    (lambda: carom.judge(STROKE, "balkline-47/2", zone_counts=(-1,)), "zone_counts: expected 17 counts"),
    (lambda: carom.judge(STROKE, "balkline-47/2", zone_counts=(0,) * 16 + (-1,)),
     "zone_counts[16]: expected a whole number, got -1"),
    (lambda: carom.judge(STROKE, "balkline-47/2", zone_counts=(0,) * 16 + (3,)),
     "zone_counts[16]: 3 caroms in a row, more than the limit of 2"),
    (lambda: carom.judge(STROKE, "balkline-47/2", "small"), "table: balkline-47/2 is played on the large"),
    (lambda: carom.judge(STROKE, "snooker"), 'discipline: unknown "snooker"'),
    (lambda: carom.judge(STROKE, table="huge"), 'table: unknown "huge"'),
    (lambda: carom.judge(STROKE, "three-cushion", "small"), "stroke: start: red at (0.71, 2.13) is off"),
    (lambda: carom.judge(STROKE, opening="yes"), 'opening: expected true or false, got "yes"'),
    (lambda: carom.judge(STROKE, position={"white": (0.5, 0.5), "red": (0.52, 0.5)}),
     "position: white and red overlap"),
])
def test_judge_checks_its_arguments(call: object, words: str) -> None:
    with pytest.raises(InvalidValue) as refused:
        call()  # type: ignore[operator]
    assert words in str(refused.value)


def test_judge_takes_names_and_values() -> None:
    by_name = carom.judge(STROKE, "three-cushion", "large", cue_ball="white")
    assert by_name == carom.judge(STROKE, discipline("three-cushion"), LARGE, cue_ball=Ball.WHITE)
    assert by_name.points == 1
    assert carom.judge(Stroke("red", (), start=START), cue_ball="white").fouls == ("F13",)


def test_match_of_refuses_what_read_refuses_so_text_is_always_readable() -> None:
    with pytest.raises(RecordError, match=r'^line 1: header: discipline: unknown "snooker"'):
        Match.of(Header("snooker", "large", ("A", "B"), 10, None), [])
    with pytest.raises(RecordError, match=r"^line 1: header: table: balkline-47/2 is played on the large"):
        Match.of(Header("balkline-47/2", "small", ("A", "B"), 10, None), [])
    off = Stroke("white", (), start={"white": (1.5, 0.7), "yellow": (0.7, 0.7), "red": (0.7, 2.1)})
    with pytest.raises(RecordError, match=r"^line 3: stroke: start: white at \(1.5, 0.7\) is off the large"):
        Match.of(HEADER, [Opener(0), off])
    with pytest.raises(RecordError, match=r"^line 2: expected a record"):
        Match.of(HEADER, ["opener 0"])
    with pytest.raises(RecordError, match=r"the line 2 does not come after line 5"):
        Match.of(HEADER, [(5, Opener(0)), (2, Call("carom"))])
    match = Match.of(HEADER, [Opener(0), STROKE, Call("miss")])
    assert read_match(lines_of(match.text())) == match


@pytest.mark.parametrize(("build", "words"), [
    (lambda: Strike(Ball.WHITE, "3", 0.0), 'cue speed: expected a number, got "3"'),
    (lambda: Strike(Ball.WHITE, Decimal("3"), 0.0), "cue speed: expected a number, got Decimal('3')"),
    (lambda: Strike(Ball.WHITE, True, 0.0), "cue speed: expected a number, got true"),
    (lambda: Strike("red", 3.0, 0.0), "ball: red is never a cue ball (O1"),
    (lambda: Strike("blue", 3.0, 0.0), 'ball: unknown ball "blue"'),
    (lambda: Params(mu_slide=math.inf), "physics parameter mu_slide must be a finite number, not inf"),
    (lambda: Params(mathavan_steps=10**8), "physics parameter mathavan_steps: 1e+08 is out of range"),
    (lambda: Params(mathavan_steps=400.5), "mathavan_steps must be a whole number"),
    (lambda: Params(cushion_model=3), "cushion_model must be a name"),
])
def test_the_strike_and_the_parameters_check_what_they_are_given(build: object, words: str) -> None:
    with pytest.raises(CaromError) as refused:
        build()  # type: ignore[operator]
    assert words in str(refused.value)


def test_a_strike_keeps_floats_and_takes_the_ball_by_name() -> None:
    strike = Strike("white", np.float32(3.0), 10)
    assert strike == Strike(Ball.WHITE, 3.0, 10.0) and type(strike.speed) is float
    assert Params(mathavan_steps=400.0).mathavan_steps == 400 == DEFAULT_PARAMS.mathavan_steps


@pytest.mark.parametrize(("call", "words"), [
    (lambda: simulate(START, None, LARGE, sample="x"), 'sample: expected a number, got "x"'),
    (lambda: simulate(START, None, LARGE, sample=0.0), "sample: 0 is out of range: from 0.001 to 10 seconds"),
    (lambda: simulate(START, "strike", LARGE), 'strike: expected a Strike or None, got "strike"'),
    (lambda: simulate(START, None, "huge"), 'table: unknown "huge"'),
    (lambda: simulate(START, None, LARGE, params={"mu_roll": 0.01}), "params: expected Params"),
    (lambda: simulate({"white": (math.nan, 1.0)}, None, LARGE), "position: white: nan is not a finite"),
    (lambda: simulate({}, None, LARGE), "position: no ball on the table"),
    (lambda: simulate(START, None, LARGE, motion={"red": (1.0, 0.0)}), "motion: red: expected a Motion"),
])
def test_simulate_checks_its_arguments(call: object, words: str) -> None:
    with pytest.raises(CaromError) as refused:
        call()  # type: ignore[operator]
    assert words in str(refused.value)


def test_simulate_takes_the_table_and_the_balls_by_name() -> None:
    by_name = simulate(START, Strike("white", 3.4, 71.6), "large")
    assert by_name == simulate(carom.Position(START), Strike(Ball.WHITE, 3.4, 71.6), LARGE)
    assert by_name.events


@pytest.mark.parametrize(("change", "words"), [
    ({"seed": "abc"}, 'seed: expected a whole number, got "abc"'),
    ({"count": 2.5}, "count: expected a whole number, got 2.5"),
    ({"count": 21}, "count: 21 is out of range: from 1 to 20 strokes"),
    ({"noise": 0.3}, "noise: expected ExecutionNoise, got 0.3"),
    ({"elevation": 1}, "elevation: expected true or false, got 1"),
    ({"discipline": "balkline-47/2"}, "discipline: the finder searches three-cushion, one-cushion"),
    ({"table": "huge"}, 'table: unknown "huge"'),
    ({"ball": "red"}, "ball: red is never a cue ball"),
    ({"position": {"white": (0.5, 0.5)}}, "position: no position for yellow, red"),
])
def test_find_shots_checks_its_arguments_before_it_searches(change: dict[str, object], words: str) -> None:
    arguments: dict[str, object] = {"position": START, "ball": "white", "discipline": "three-cushion",
                                    "table": "large", **change}
    with pytest.raises(CaromError) as refused:
        carom.find_shots(**arguments)  # type: ignore[arg-type]
    assert words in str(refused.value)


def test_track_stroke_takes_the_discipline_and_the_table_by_name() -> None:
    from pathlib import Path

    from carom.track import read_tracked

    real = Path(__file__).resolve().parents[1] / "data" / "real-3c-match-part1.jsonl"
    tracked = next(iter(read_tracked(real)))
    by_name = carom.track_stroke(tracked, "three-cushion", "large")
    assert by_name.verdict == carom.track_stroke(tracked, discipline("three-cushion"), LARGE).verdict
    with pytest.raises(InvalidValue, match='discipline: unknown "snooker"'):
        carom.track_stroke(tracked, "snooker", "large")
    with pytest.raises(InvalidValue, match="tracked: expected a TrackedStroke"):
        carom.track_stroke({"shot": 1}, "three-cushion", "large")  # type: ignore[arg-type]
