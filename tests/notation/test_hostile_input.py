"""No input makes the reader fail with a traceback (FORMAT.md, "Reading a record that is
wrong"): hypothesis takes the example matches apart, puts hostile values into every field,
hostile bytes into lines, and replays the result as a file. Every refusal is a
:class:`RecordError` that names its line; every file read is judged and printed."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from carom.core.errors import RecordError
from carom.notation.matchfile import lines_of, read_match, replay_file
from carom.notation.rulings_json import replay_json
from carom.notation.scoresheet import scoresheet

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
MATCHES = [p.read_text(encoding="utf-8").splitlines() for p in sorted(EXAMPLES.glob("*.carom.jsonl"))]
HOLE = "\u0000HOLE\u0000"
"""Where a hostile token goes in a line before it is written (json cannot write some)."""

HOSTILE = st.one_of(
    st.sampled_from([
        "1" + "0" * 400, "-" + "9" * 400, "9" * 4301, "1" + "0" * 5000, "1e400", "-1e400", "1E+0309",
        "123456789012345678901", "1e-400", "-0", "0.0", "NaN", "Infinity", "-Infinity", "1" * 18,
        "[" * 70 + "]" * 70, "[" * 2000 + "]" * 2000, '{"a":' * 70 + "1" + "}" * 70,
        '"\\ud800"', '"\\u0000"', '"\u2028"', "null", "true", "[]", "{}", '""', '"white"', '"F2"',
        '"Z7"', '"O3"', '"undo"', "[1e308, 1e308]", "[0.03, 0.03]", "[1e300, 1e300]",
        "[-1e300, 1e-300]", "[[0, 1e308, 1e308]]", "1.7976931348623157e308",
    ]),
    st.integers(-(10**20), 10**20).map(str),
    st.floats(allow_nan=False, allow_infinity=False).map(repr),
    st.text(max_size=12).map(json.dumps),
)


def paths(value: Any, here: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every place in a JSON value: keys of objects, indices of lists."""
    out = [here]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths(item, (*here, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            out += paths(item, (*here, index))
    return out


def at(value: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        value = value[step]
    return value


def put(value: Any, path: tuple[Any, ...]) -> Any:
    """``value`` with the hole at ``path`` (a new key where an object lacks it)."""
    if not path:
        return HOLE
    copy = dict(value) if isinstance(value, dict) else list(value)
    head = path[0]
    inner = value[head] if isinstance(value, list) or head in value else None
    copy[head] = put(inner, path[1:])
    return copy


@st.composite
def hostile_files(draw: st.DrawFn) -> bytes:
    lines = list(draw(st.sampled_from(MATCHES)))
    for _ in range(draw(st.integers(1, 3))):
        i = draw(st.integers(0, len(lines) - 1))
        how = draw(st.sampled_from(["field", "field", "field", "new key", "bytes", "cut", "undo"]))
        try:
            obj = json.loads(lines[i])
        except (ValueError, RecursionError):  # a line already made unreadable
            continue
        if how in ("field", "new key"):
            where = draw(st.sampled_from(paths(obj)))
            if how == "new key":
                objects = [p for p in paths(obj) if isinstance(at(obj, p), dict)]
                if not objects:
                    continue
                where = (*draw(st.sampled_from(objects)), "extra")
            text = json.dumps(put(obj, where))
            lines[i] = text.replace(json.dumps(HOLE), draw(HOSTILE))
        elif how == "bytes":
            raw = lines[i].encode("utf-8", "surrogateescape")
            cut = draw(st.integers(0, len(raw)))
            junk = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\r", b"\xef\xbb\xbf",
                                         b"\xe2\x80\xa8", b"\xc2\xa0"]))
            lines[i] = (raw[:cut] + junk + raw[cut:]).decode("utf-8", "surrogateescape")
        elif how == "cut":
            lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))]
        else:
            lines.insert(i + 1, '{"type": "undo"}')
    return "\n".join(lines).encode("utf-8", "surrogateescape") + b"\n"


def judged(state: Any, rulings: list[Any], players: tuple[str, str]) -> None:
    """Print what a replayed file gives: nothing may fail there either."""
    json.dumps(replay_json(state, rulings))
    scoresheet(state, rulings, players)
    scoresheet(state, rulings, players, "sk")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_files())
@example(b'{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"],'
         b' "points": null, "innings": 2}\n{"type": "opener", "player": 0}\n'
         b'{"type": "inning", "points": 1' + b"0" * 400 + b"}\n")
@example(b'{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["A", "B"],'
         b' "points": 5}\n{"type": "opener", "player": 0}\n{"type": "undo", "x": ' + b"9" * 5000 + b"}\n")
def test_no_file_makes_the_reader_fail_with_a_traceback(tmp_path_factory: Any, data: bytes) -> None:
    path = tmp_path_factory.mktemp("hostile") / "m.carom.jsonl"
    path.write_bytes(data)
    rulings: list[Any] = []
    try:
        state = replay_file(path, rulings.append)
    except RecordError as error:
        assert error.line >= 1 and str(error).startswith(f"line {error.line}: ")
    else:
        judged(state, rulings, read_match(path).header.players)
    try:
        match = read_match(path, strict=False)
    except RecordError as error:  # only a bad header is fatal when reading leniently
        assert error.line >= 1 and str(error).startswith(f"line {error.line}: ")
    else:
        assert all(e.line >= 2 for e in match.errors)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300), st.integers(0, 3))
def test_random_bytes_after_a_good_header(tmp_path_factory: Any, junk: bytes, at: int) -> None:
    lines = MATCHES[0][:4]
    data = "\n".join(lines[:at]).encode() + b"\n" + junk + b"\n" + "\n".join(lines[at:]).encode()
    path = tmp_path_factory.mktemp("bytes") / "m.carom.jsonl"
    path.write_bytes(data)
    try:
        replay_file(path)
    except RecordError as error:
        assert error.line >= 1


HUGE = [
    ("a coordinate", '{"type": "stroke", "ball": "white", "events": [], "start": {"white": [1' + "0" * 400
     + ', 0.5], "yellow": [0.7, 0.7], "red": [0.71, 2.13]}}', r"start.white\[0\]: a whole number of 401"),
    ("a lag y", '{"type": "lag", "collided": false, "results": [{"top": true, "red": false, "y": '
     + "9" * 400 + ', "crossed": false}, {"top": true, "red": false, "y": 0.3, "crossed": false}]}',
     r"results\[0\].y: a whole number of 400 digits"),
    ("an event t", '{"type": "stroke", "ball": "white", "events": [{"kind": "ball", "ball": "white", '
     '"other": "red", "t": ' + "9" * 400 + "}]}", r"events\[0\].t: a whole number of 400 digits"),
    ("a path sample", '{"type": "stroke", "ball": "white", "events": [], "paths": {"red": [[0, 1e400, 1]]}}',
     r"paths.red\[0\]\[1\]: 1e400 is too large"),
    ("an unknown field of an undo", '{"type": "undo", "note": ' + "7" * 4400 + "}",
     r"note: a whole number of 4400 digits"),
    ("an inning series", '{"type": "inning", "points": 1' + "0" * 400 + "}",
     r"points: a whole number of 401"),
]


@pytest.mark.parametrize(("what", "line", "message"), HUGE, ids=[h[0] for h in HUGE])
def test_huge_numbers_are_refused_by_line_and_field(tmp_path: Path, what: str, line: str,
                                                    message: str) -> None:
    head = ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", '
            '"players": ["A", "B"], "points": null, "innings": 3}')
    opener = '{"type": "opener", "player": 0}'
    records = [line] if '"lag"' in line else [opener, line]
    path = tmp_path / "m.carom.jsonl"
    path.write_text("\n".join([head, *records]) + "\n", encoding="utf-8")
    number = len(records) + 1
    with pytest.raises(RecordError, match=rf"^line {number}: {message}"):
        replay_file(path)
    with pytest.raises(RecordError, match=rf"^line {number}: {message}"):
        read_match(lines_of(path.read_text(encoding="utf-8")))


def test_invalid_utf8_names_its_line_in_every_reader(tmp_path: Path) -> None:
    lines = MATCHES[0][:4]
    path = tmp_path / "m.carom.jsonl"
    path.write_bytes("\n".join(lines[:3]).encode() + b'\n{"type": "undo", "note": "caf\xe9"}\n')
    message = r"^line 4: not UTF-8 text: byte 0xe9 at column 30"
    with pytest.raises(RecordError, match=message):
        replay_file(path)
    with pytest.raises(RecordError, match=message):
        read_match(path)
    assert [e.line for e in read_match(path, strict=False).errors] == [4]


@pytest.mark.parametrize("body", [
    '{"type": "inning", "points": 1' + "0" * 400 + "}",
    '{"type": "undo", "x": ' + "9" * 5000 + "}",
    '{"type": "stroke", "ball": "white", "events": [], "end": {"white": [1e400, 0.5], '
    '"yellow": [0.7, 0.7], "red": [0.71, 2.13]}}',
    '{"type": "call", "result": "miss", "note": "\xff"}',
    '{"type": "call", "result": "miss", "note": "\\ud800"}',
], ids=["series-10^400", "undo-5000-digits", "coordinate-1e400", "byte-0xff", "half-surrogate"])
def test_carom_replay_refuses_with_exit_status_2_and_the_line(tmp_path: Path, body: str) -> None:
    head = ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", '
            '"players": ["A", "B"], "points": null, "innings": 3}')
    path = tmp_path / "m.carom.jsonl"
    path.write_bytes(f'{head}\n{{"type": "opener", "player": 0}}\n'.encode()
                     + body.encode("latin-1" if "\xff" in body else "utf-8") + b"\n")
    run = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(path), "--json"],
                         capture_output=True, text=True)
    assert run.returncode == 2, run.stderr
    assert run.stdout == ""
    assert "line 3: " in run.stderr and "Traceback" not in run.stderr


@pytest.mark.parametrize(("record", "message"), [
    ({"type": "inning", "points": 10**400},
     r"inning: points: expected a whole number, got a number too large"),
    ({"type": "stroke", "ball": "white", "events": [{"kind": "jump", "ball": "red", "t": float("inf")}]},
     r"stroke: events\[0\]: t: inf is not a finite number"),
    ({"type": "stroke", "ball": "white", "events": [],
      "end": {"white": [10**30, 0.5], "yellow": [0.7, 0.7], "red": [0.71, 2.13]}},
     r"stroke: end: white: a whole number of more than 18 digits is too large"),
    ({"type": "opener", "player": 0.0}, r"opener: player: expected 0 or 1, got 0.0"),
], ids=["series-10^400", "t-infinite", "x-30-digits", "player-0.0"])
def test_records_built_in_memory_are_held_to_the_same_limits(record: dict[str, Any], message: str) -> None:
    """A record that arrives as a value (the scoreboard's API), not as text."""
    from carom.notation.reader import record_from_json
    from tests.helpers import header, parse_header

    with pytest.raises(RecordError, match="^" + message):
        record_from_json(record, parse_header(header()))
