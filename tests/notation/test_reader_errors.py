"""Every way the reader refuses a line, with its message (FORMAT.md, "Reading a record
that is wrong"). A refused file changes nothing: nothing before the line is lost."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carom.core.errors import RecordError
from carom.notation.matchfile import lines_of, read_match
from tests.helpers import header

GOOD_HEADER = json.dumps(header())

HEADER_ERRORS = [
    ("", r"line 1: the file is empty"),
    ("[1, 2]", r"line 1: a line must be a JSON object, not list"),
    ("{oops", r"line 1: not JSON: Expecting property name"),
    ('{"format": "carom/2"}', r'line 1: header: format must be "carom/1", got "carom/2"'),
    ('{"format": "carom/1", "discipline": "snooker"}', r'header: discipline: unknown "snooker"'),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "huge"}',
     r'header: table: unknown "huge"'),
    ('{"format": "carom/1", "discipline": "three-cushion"}', r"header: table: unknown null"),
    ('{"format": "carom/1", "discipline": "balkline-47/2", "table": "small"}',
     r"header: table: balkline-47/2 is played on the large table, not small"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A"]}',
     r'header: players: expected two names, got \["A"\]'),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", " "]}',
     r"header: players: expected two names"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": 0}', r"header: points: expected a whole number >= 1 or null, got 0"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": true}', r"header: points: expected a whole number >= 1 or null, got true"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": 10, "innings": 2.5}', r"header: innings: expected a whole number >= 1 or null, got 2.5"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": null, "innings": null}',
     r"header: points and innings are both null: a game needs a limit \(E1\)"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": 10, "sets": 3}', r'header: sets: expected null or \{"to_win": N\}, got 3'),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": 10, "sets": {"to_win": 0}}', r"header: sets: to_win: expected a whole number >= 1, got 0"),
    ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"], '
     '"points": 10, "equalizing_inning": "yes"}',
     r'header: equalizing_inning: expected true or false, got "yes"'),
]


@pytest.mark.parametrize(("line", "message"), HEADER_ERRORS,
                         ids=[f"header-{i}" for i in range(len(HEADER_ERRORS))])
def test_header_errors(line: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        read_match(lines_of(line + "\n" if line else ""))


def lag(**over: object) -> str:
    result = {"top": True, "red": False, "y": 0.3, "crossed": False}
    result.update(over)
    return json.dumps({"type": "lag", "results": [result, result], "collided": False})


def stroke(**over: object) -> str:
    obj: dict[str, object] = {"type": "stroke", "ball": "white", "events": []}
    obj.update(over)
    return json.dumps(obj)


OK = {"white": [0.5, 0.7], "yellow": [0.7, 0.7], "red": [0.71, 2.13]}

RECORD_ERRORS = [
    ('{"type": "massé"}',
     r'unknown record type "massé" \(lag, opener, stroke, call, inning, respot, undo, '
     r'timeout, expired, penalty\)'),
    ('{"kind": "call"}', r"unknown record type null"),
    ('"call"', r"a line must be a JSON object, not str"),
    ('{"type": "call", "result": NaN}', r"NaN is not a number JSON allows"),
    ('{"type": "lag", "results": [], "collided": false}', r"lag: results: expected one result per player"),
    ('{"type": "lag", "results": [1, 2], "collided": false}', r"lag: results\[0\]: expected an object"),
    (lag(y="far"), r'lag: results\[0\]: y: expected a number, got "far"'),
    (lag(y=3.5), r"lag: results\[0\]: y: 3.5 is not on the table \(0 to 2.84 m\)"),
    (lag(top=1), r"lag: results\[0\]: top: expected true or false, got 1"),
    ('{"type": "lag", "results": [{"top": true, "red": false, "y": 0.3, "crossed": false}, '
     '{"top": true, "red": false, "y": 0.3, "crossed": false}]}', r"lag: collided: expected true or false"),
    ('{"type": "opener", "player": 2}', r"opener: player: expected 0 or 1, got 2"),
    ('{"type": "opener", "player": true}', r"opener: player: expected 0 or 1, got true"),
    ('{"type": "call", "result": "point"}', r'call: result: expected carom, miss or foul, got "point"'),
    ('{"type": "call", "result": "foul"}', r"call: rule: null is not a fault code here \(F2–F13, Z7, O3\)"),
    ('{"type": "call", "result": "foul", "rule": "F1"}', r'call: rule: "F1" is not a fault code here'),
    ('{"type": "call", "result": "foul", "rule": "F14"}', r'call: rule: "F14" is not a fault code here'),
    ('{"type": "call", "result": "miss", "rule": "F4"}', r"call: rule: a miss names no rule"),
    ('{"type": "inning", "points": -1}', r"inning: points: expected a whole number, got -1"),
    ('{"type": "inning", "points": 3, "foul": "X9"}', r'inning: foul: "X9" is not a fault code here'),
    (stroke(ball="blue"), r'stroke: ball: unknown ball "blue" \(white, yellow or red\)'),
    (stroke(events="red"), r"stroke: events: expected a list"),
    (stroke(events=[1]), r"stroke: events\[0\]: expected an object"),
    (stroke(events=[{"kind": "ball", "ball": "white", "other": "white"}]),
     r"stroke: events\[0\]: a ball cannot touch itself \(white\)"),
    (stroke(events=[{"kind": "ball", "ball": "white", "other": "pink"}]),
     r'stroke: events\[0\]: other: unknown ball "pink"'),
    (stroke(events=[{"kind": "cushion", "ball": "white", "cushion": "north"}]),
     r'stroke: events\[0\]: cushion: unknown "north" \(top, bottom, left or right\)'),
    (stroke(events=[{"kind": "pocket", "ball": "white"}]),
     r'stroke: events\[0\]: kind: unknown "pocket" \(ball, cushion or jump\)'),
    (stroke(events=[{"kind": "jump", "ball": "white", "t": "soon"}]),
     r'stroke: events\[0\]: t: expected a number, got "soon"'),
    (stroke(start=[1, 2]), r"stroke: start: expected an object of ball positions"),
    (stroke(start={"white": [0.5, 0.7], "yellow": [0.7, 0.7]}), r"stroke: start: no position for red"),
    (stroke(start={**OK, "blue": [1, 1]}), r'stroke: start: unknown ball "blue"'),
    (stroke(start={**OK, "white": [0.5]}), r"stroke: start: white: expected \[x, y\], got \[0.5\]"),
    (stroke(start={**OK, "white": ["a", 1]}), r'stroke: start: white: expected a number, got "a"'),
    (stroke(start={**OK, "white": [1.5, 0.7]}),
     r"stroke: start: white at \(1.5, 0.7\) is off the large table's surface"),
    (stroke(start={**OK, "white": [0.02, 0.7]}), r"stroke: start: white at \(0.02, 0.7\) is off"),
    (stroke(start={**OK, "white": [0.66, 0.7]}),
     r"stroke: start: white and yellow overlap \(centres 40.00 mm apart, less than 2R = 61.5 mm\)"),
    (stroke(events=[{"kind": "jump", "ball": "red"}], end=OK),
     r"stroke: end: red jumped and has no end position"),
    (stroke(end={"white": [0.5, 0.7]}), r"stroke: end: no position for yellow, red"),
    (stroke(exits="field-11"), r"stroke: exits: expected a list"),
    (stroke(exits=["field-11"]), r'stroke: exits\[0\]: expected \{"ball": B, "zone": Z\}'),
    (stroke(exits=[{"ball": "red", "zone": "field-11"}]),
     r'stroke: exits\[0\]: zone: "field-11" is no zone of three-cushion'),
    (stroke(fouls="F4"), r"stroke: fouls: expected a list of fault codes"),
    (stroke(fouls=["Z7"]), r'stroke: fouls\[0\]: "Z7" is not a fault code here \(F2–F13\)'),
    (stroke(paths=[]), r"stroke: paths: expected an object of ball paths"),
    (stroke(paths={"red": 1}), r"stroke: paths: red: expected a list of \[t, x, y\]"),
    (stroke(paths={"red": [[0, 1]]}), r"stroke: paths: red\[0\]: expected \[t, x, y\]"),
]


@pytest.mark.parametrize(("line", "message"), RECORD_ERRORS,
                         ids=[f"record-{i}" for i in range(len(RECORD_ERRORS))])
def test_record_errors_name_the_line_and_the_reason(line: str, message: str) -> None:
    text = "\n".join([GOOD_HEADER, '{"type": "opener", "player": 0}', line]) + "\n"
    with pytest.raises(RecordError, match=r"^line 3: " + message.removeprefix("^")):
        read_match(lines_of(text))


def test_lenient_reading_collects_every_error_and_keeps_the_rest() -> None:
    lines = [GOOD_HEADER, '{"type": "opener", "player": 0}', '{"type": "massé"}',
             '{"type": "call", "result": "carom"}', '{"type": "opener", "player": 1}',
             "not json", '{"type": "call", "result": "miss"}']
    match = read_match(lines_of("\n".join(lines) + "\n"), strict=False)
    assert [e.line for e in match.errors] == [3, 5, 6]
    assert [line for line, _ in match.records] == [2, 4, 7]


def test_blank_lines_are_skipped_and_lines_keep_their_numbers() -> None:
    text = GOOD_HEADER + "\n\n" + '{"type": "opener", "player": 0}\n   \n{"type": "bogus"}\n'
    with pytest.raises(RecordError, match=r"^line 5: unknown record type"):
        read_match(lines_of(text))


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"], ids=["lf", "crlf", "cr"])
def test_every_line_ending_gives_the_same_lines_from_a_file_and_from_memory(tmp_path: Path,
                                                                            end: str) -> None:
    text = end.join([GOOD_HEADER, '{"type": "opener", "player": 0}', "", '{"type": "bogus"}']) + end
    path = tmp_path / "m.carom.jsonl"
    path.write_bytes(("\ufeff" + text).encode("utf-8"))
    for source in (path, lines_of(text)):
        with pytest.raises(RecordError, match=r"^line 4: unknown record type"):
            read_match(source)


def test_unknown_fields_are_kept() -> None:
    text = GOOD_HEADER + "\n" + '{"type": "opener", "player": 0, "note": "by lot"}\n'
    match = read_match(lines_of(text))
    assert match.records[0][1].extra == {"note": "by lot"}


# --- write → read is the identity, strokes included (hypothesis) -------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from carom.core.balls import BALLS, Ball, Cushion  # noqa: E402
from carom.core.events import BallContact, CushionContact, Jump  # noqa: E402
from carom.core.records import Exit, Stroke  # noqa: E402
from carom.notation.reader import parse_record  # noqa: E402
from carom.notation.writer import format_record  # noqa: E402

HEAD = read_match(lines_of(json.dumps(header("balkline-47/2")) + "\n")).header
TIMES = st.one_of(st.none(), st.floats(0, 30, allow_nan=False))
EVENTS = st.one_of(
    st.builds(lambda balls, t: BallContact(balls[0], balls[1], t), st.permutations(BALLS), TIMES),
    st.builds(CushionContact, st.sampled_from(BALLS), st.sampled_from(list(Cushion)), TIMES),
    st.builds(Jump, st.sampled_from([Ball.RED]), TIMES),
)
SPOTS = {Ball.WHITE: (0.3, 0.4), Ball.YELLOW: (0.9, 1.3), Ball.RED: (1.1, 2.5)}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BALLS), st.lists(EVENTS, max_size=20), st.booleans(),
       st.lists(st.sampled_from(["F3", "F4", "F8", "F12"]), max_size=2),
       st.lists(st.tuples(st.sampled_from(BALLS), st.sampled_from(["field-11", "anchor-left-2"])),
                max_size=2),
       st.dictionaries(st.text(min_size=1, max_size=6).filter(
           lambda k: k not in {"type", "ball", "start", "events", "end", "exits", "fouls", "paths"}),
           st.integers(-(10**18) + 1, 10**18 - 1), max_size=2))
def test_stroke_write_read_identity(ball: Ball, events: list[object], with_start: bool,
                                    fouls: list[str], exits: list[tuple[Ball, str]],
                                    extra: dict[str, int]) -> None:
    jumped = any(isinstance(e, Jump) for e in events)
    end = {b: p for b, p in SPOTS.items() if not (jumped and b is Ball.RED)}
    stroke = Stroke(ball, tuple(events), SPOTS if with_start else None, end,  # type: ignore[arg-type]
                    tuple(Exit(b, z) for b, z in exits), tuple(fouls),
                    {Ball.WHITE: ((0.0, 0.3, 0.4), (0.5, 0.6, 0.7))}, extra)
    assert parse_record(format_record(stroke), HEAD) == stroke
