"""Values that are values: positions and records are frozen, equal by content and
hashable; the ball's radius has one source."""

from __future__ import annotations

import pickle
from collections.abc import Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carom.core.balls import BALL_RADIUS, Ball
from carom.core.events import BallContact, CushionContact
from carom.core.frozen import FrozenMap, thaw
from carom.core.position import Position, starting_position
from carom.core.records import Call, CallResult, Header, Inning, Lag, LagResult, Opener, Respot, Stroke, Undo
from carom.core.table import TABLES
from carom.notation.reader import parse_record
from carom.notation.writer import format_record
from carom.physics import DEFAULT_PARAMS

LARGE = TABLES["large"]
HEADER = Header("three-cushion", "large", ("A", "B"), 10, None)

points = st.tuples(st.floats(0.1, 1.3), st.floats(0.1, 2.7))
positions = st.dictionaries(st.sampled_from(list(Ball)), points)


@given(positions)
def test_a_position_is_a_hashable_mapping_equal_to_its_dict(balls: dict[Ball, tuple[float, float]]) -> None:
    position = Position(balls)
    assert isinstance(position, Mapping) and not isinstance(position, dict)
    assert position == balls and position == Position(dict(reversed(list(balls.items()))))
    assert hash(position) == hash(Position(balls))
    assert pickle.loads(pickle.dumps(position)) == position


def test_a_position_cannot_change() -> None:
    position = starting_position(LARGE, Ball.WHITE)
    with pytest.raises(TypeError):
        position[Ball.RED] = (0.5, 0.5)  # type: ignore[index]
    with pytest.raises(AttributeError):
        position.update({})  # type: ignore[attr-defined]
    assert repr(position).startswith("Position(white=(")


def test_records_built_from_lists_and_dicts_are_hashable_values() -> None:
    stroke = Stroke(Ball.WHITE, [BallContact(Ball.WHITE, Ball.RED), CushionContact(Ball.WHITE, "top")],  # type: ignore[arg-type]
                    start={Ball.WHITE: (0.5, 0.5), Ball.YELLOW: (0.9, 0.5), Ball.RED: (0.71, 2.0)},  # type: ignore[arg-type]
                    paths={Ball.WHITE: [[0.0, 0.5, 0.5], [0.1, 0.5, 0.6]]},  # type: ignore[dict-item]
                    extra={"note": "kept", "tags": ["a", {"b": 1}]})
    same = Stroke(stroke.ball, tuple(stroke.events), Position(stroke.start or {}), paths=stroke.paths,
                  extra={"tags": ["a", {"b": 1}], "note": "kept"})
    assert stroke == same and hash(stroke) == hash(same)
    assert isinstance(stroke.extra, FrozenMap)
    assert thaw(stroke.extra) == {"note": "kept", "tags": ["a", {"b": 1}]}
    records = [stroke, Call(CallResult.CAROM), Inning(3, extra={"x": 1}), Opener(0), Respot(), Undo(),
               Lag((LagResult(True, False, 0.4, False), LagResult(True, False, 0.5, False)), False), HEADER]
    assert len({*records, *records}) == len(records)


def test_a_record_read_and_written_keeps_its_unknown_fields() -> None:
    line = ('{"type": "stroke", "ball": "white", "start": {"white": [0.5, 0.5], "yellow": [0.9, 0.5], '
            '"red": [0.71, 2.0]}, "events": [], "exits": [], "fouls": [], "note": {"by": ["me", 1]}}')
    record = parse_record(line, HEADER)
    assert hash(record) and parse_record(format_record(record), HEADER) == record
    assert '"note": {"by": ["me", 1]}' in format_record(record)


def test_the_ball_radius_has_one_source_rule_q5() -> None:
    assert {t.ball_radius for t in TABLES.values()} == {BALL_RADIUS}
    assert DEFAULT_PARAMS.ball_radius == BALL_RADIUS


reasons = st.lists(st.fixed_dictionaries({"what": st.text(min_size=1, max_size=40).filter(str.strip)},
                                         optional={"said": st.fixed_dictionaries({
                                             "said": st.text(max_size=20),
                                             "values": st.dictionaries(st.text(max_size=5),
                                                                       st.text(max_size=5), max_size=2)})}),
                   max_size=4)


@given(st.none() | st.floats(0.0, 1.0), reasons)
def test_a_strokes_doubt_is_a_value_read_back_as_written_and_judged_as_without_it(
        confidence: float | None, given_reasons: list[dict[str, object]]) -> None:
    from carom.core.records import Doubt
    from carom.match.replay import Replayer

    doubt = Doubt(confidence, tuple(given_reasons))
    assert doubt == Doubt(confidence, tuple(given_reasons)) and hash(doubt)
    stroke = Stroke(Ball.WHITE, (BallContact(Ball.WHITE, Ball.RED), *(CushionContact(Ball.WHITE, c)
                                                                     for c in ("top", "left", "bottom")),  # type: ignore[arg-type]
                                 BallContact(Ball.WHITE, Ball.YELLOW)), doubt=doubt)
    line = format_record(stroke)
    assert parse_record(line, HEADER) == stroke
    rulings = []
    for played in (stroke, Stroke(stroke.ball, stroke.events)):
        replayer = Replayer(HEADER)
        replayer.feed(2, Opener(0))
        rulings.append(replayer.feed(3, played))
    assert rulings[0] == rulings[1] and rulings[0] is not None and rulings[0].points == 1
