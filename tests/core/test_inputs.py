"""The one reader of JSON and TOML documents: its limits, and errors that name the field."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carom.core.errors import CaromError, InputError, RecordError
from carom.core.inputs import (
    MAX_DEPTH,
    _suspect,
    check_value,
    decode,
    parse_json,
    parse_toml,
    read_document,
)


@pytest.mark.parametrize(("text", "message"), [
    ('{"a": 1e400}', "a: 1e400 is too large for a number"),
    ('{"a": [1, ' + "9" * 401 + "]}", "a[1]: a whole number of 401 digits is too large"),
    ('{"a": ' + "9" * 5000 + "}", "a: a whole number of 5000 digits is too large"),
    ('{"a": NaN}', "NaN is not a number JSON allows"),
    ('{"a": -Infinity}', "-Infinity is not a number JSON allows"),
    ("[" * 100_000, "not JSON this program reads: nested deeper than 64 levels"),
    ('{"a":' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1), "nested deeper than 64 levels"),
    ('{"a": 1', "line 1: not JSON: Expecting ',' delimiter"),
])
def test_json_out_of_limits_is_refused_with_the_field(text: str, message: str) -> None:
    with pytest.raises(InputError, match="^" + message.replace("[", r"\[").replace("]", r"\]")
                       .replace("(", r"\(").replace(")", r"\)")):
        parse_json(text)


def test_json_within_limits_reads_as_usual() -> None:
    assert parse_json('{"a": [1, 2.5e300, -123456789012345678], "b": "1e999 in a string"}') == {
        "a": [1, 2.5e300, -123456789012345678], "b": "1e999 in a string"}


@pytest.mark.parametrize(("text", "message"), [
    ("a = inf", "a: inf is not a finite number"),
    ("[x]\ny = [1, nan]", r"x.y\[1\]: nan is not a finite number"),
    ("a = " + "1" * 5000, "a whole number of more than 18 digits"),
    ("a = 1234567890123456789012", "a: a whole number of more than 18 digits is too large"),
    ("a = [", "not TOML"),
])
def test_toml_out_of_limits_is_refused_with_the_field(text: str, message: str) -> None:
    with pytest.raises(InputError, match=message):
        parse_toml(text)


def test_bytes_that_are_not_utf8_name_their_line() -> None:
    with pytest.raises(InputError, match=r"^line 3: not UTF-8 text: byte 0xff at column 3$"):
        decode(b'{"a": 1}\n{"b": 2}\nxy\xff\n')
    assert decode("\ufeff{}".encode()) == "{}"


def test_files_too_large_missing_or_folders_are_refused(tmp_path) -> None:
    big = tmp_path / "big.json"
    big.write_text("[" + "1," * 100 + "1]")
    with pytest.raises(InputError, match="at most 10 are read"):
        read_document(big, max_bytes=10)
    with pytest.raises(InputError, match="no such file"):
        read_document(tmp_path / "missing.json")
    with pytest.raises(InputError, match="is a folder"):
        read_document(tmp_path)
    toml = tmp_path / "v.toml"
    toml.write_text("lux = 600\n")
    assert read_document(toml) == {"lux": 600}


def test_every_input_error_is_a_carom_error_and_a_value_error() -> None:
    assert issubclass(RecordError, InputError)
    assert issubclass(InputError, CaromError)
    assert issubclass(CaromError, ValueError)
    assert str(RecordError("bad", 4)) == "line 4: bad"
    assert isinstance(RecordError("bad").at(7), RecordError)


@given(st.text(max_size=200))
def test_no_text_makes_the_json_reader_raise_anything_but_an_input_error(text: str) -> None:
    with contextlib.suppress(InputError):
        parse_json(text)


@given(st.binary(max_size=200))
def test_no_bytes_make_the_readers_raise_anything_but_an_input_error(data: bytes) -> None:
    with contextlib.suppress(InputError):
        parse_toml(decode(data))



NUMBERS = st.one_of(st.integers(-(10**40), 10**40).map(str),
                    st.floats(allow_nan=False, allow_infinity=False).map(repr),
                    st.integers(17, 23).map(lambda n: "9" * n),
                    st.integers(17, 23).map(lambda n: "-1" + "0" * n),
                    st.from_regex(r"-?(0|[1-9][0-9]{0,29})(\.[0-9]{1,30})?([eE][+-]?[0-9]{1,4})?",
                                  fullmatch=True))
STRINGS = st.one_of(st.text(max_size=8).map(json.dumps),
                    st.sampled_from(['"\\ud800"', '"\\uDFFF x"', '"\\ud83d\\ude00"', '"e+1000"']))


@given(st.lists(st.one_of(NUMBERS, STRINGS), max_size=8))
def test_the_cheap_check_lets_through_nothing_out_of_limits(items: list[str]) -> None:
    """What the fast path reads unchecked (``_suspect`` is false) is within every limit."""
    text = "[" + ", ".join(items) + "]"
    if not _suspect(text):
        check_value(json.loads(text))
