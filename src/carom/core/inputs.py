"""Reading JSON and TOML documents from users and other programs, with one set of limits.

Every command of carom reads its input through here, so that a careless or hostile file
gets the same answer everywhere: a :class:`~carom.core.errors.InputError` that names the
line and the field, never a traceback. The limits:

* text is UTF-8 (a byte-order mark is allowed); bytes that are not name their line, and
  so does a string holding half of a surrogate pair (``"\\ud800"``), which no text can;
* ``NaN``, ``Infinity`` (JSON) and ``nan``, ``inf`` (TOML) are refused: every number is finite;
* a number too large for a float (``1e400``) is refused rather than read as infinity;
* a whole number has at most :data:`MAX_DIGITS` digits;
* containers nest at most :data:`MAX_DEPTH` deep;
* a key is given once in an object: a second one is refused, naming it.

The common case costs one cheap scan of the text (:func:`_suspect`): only a text that
holds a long run of digits, a large exponent or a surrogate escape is read with checks,
to find the field at fault.
"""

from __future__ import annotations

import json
import math
import re
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any, NoReturn

from carom.core.errors import InputError
from carom.core.sources import Source, read_bounded

MAX_DIGITS = 18
"""Whole numbers beyond 18 digits (about 10^18) are refused: no count, limit, id or
coordinate of carom comes near, and larger ones cannot become floats faithfully."""
MAX_DEPTH = 64
"""Objects and arrays nest at most this deep."""
_TOO_MANY_DIGITS = 10**MAX_DIGITS

_AS_ZERO = bytes.maketrans(b"123456789E", b"000000000e")
_TOO_LONG = b"0" * (MAX_DIGITS + 1)


def _suspect(text: str) -> bool:
    """Might ``text`` hold a number out of range (a run of more than :data:`MAX_DIGITS`
    digits, an exponent of three digits or more) or half of a surrogate pair
    (``\\ud800``, which no UTF-8 text can hold)? Conservative, and cheap: the text's
    digits become zeros and its plus signs go (one C pass), then three substring searches,
    several times faster than a regular expression that looks for the same."""
    seen = text.encode("utf-8", "surrogatepass").translate(_AS_ZERO, b"+")
    return _TOO_LONG in seen or b"e000" in seen or b"\\u" in seen


_SURROGATE = re.compile("[\ud800-\udfff]")


class _Bad:
    """A number read from the text that is out of range, kept to name its field."""

    __slots__ = ("reason",)

    def __init__(self, reason: str) -> None:
        self.reason = reason


def _parse_int(text: str) -> int | _Bad:
    digits = len(text.lstrip("-"))
    if digits > MAX_DIGITS:
        return _Bad(f"a whole number of {digits} digits is too large (at most {MAX_DIGITS} digits)")
    return int(text)


def _parse_float(text: str) -> float | _Bad:
    value = float(text)
    if not math.isfinite(value):
        shown = text if len(text) <= 24 else text[:20] + "…"
        return _Bad(f"{shown} is too large for a number (at most about 1.8e308)")
    return value


def _no_constant(name: str) -> NoReturn:
    raise InputError(f"{name} is not a number JSON allows: every number must be finite")


def _one_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each given once: a key given twice is refused, naming it
    (JSON itself would keep the last and lose the first without a word)."""
    obj = dict(pairs)
    if len(obj) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise InputError(f"{json.dumps(key, ensure_ascii=False)} is given twice in one object")
            seen.add(key)
    return obj


_FAST = json.JSONDecoder(parse_constant=_no_constant, object_pairs_hook=_one_each)
_CHECKED = json.JSONDecoder(parse_constant=_no_constant, parse_int=_parse_int,
                            parse_float=_parse_float, object_pairs_hook=_one_each)


def is_digits(text: str) -> bool:
    """Whether ``text`` is a whole number written in ASCII digits (``0``-``9``), and
    nothing else. ``str.isdigit`` also takes ``"\u00b2"`` (a superscript two), which
    ``int`` refuses, and ``"\u0663"`` (an Arabic-Indic three), which ``int`` reads:
    numbers from forms, addresses and cookies are read with this check instead."""
    return text.isascii() and text.isdigit()


def decode(data: bytes, first_line: int = 1) -> str:
    """``data`` as UTF-8 text (a byte-order mark is dropped); bytes that are not UTF-8
    raise :class:`InputError` naming their line (counted from ``first_line``)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = first_line + data.count(b"\n", 0, error.start)
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        raise InputError(f"not UTF-8 text: byte 0x{data[error.start]:02x} at column {column}",
                         line) from None


def parse_json(text: str) -> Any:
    """One JSON value, within the limits of this module. A syntax error names the line
    of ``text`` (1-based) where it is; an out-of-range number names its field."""
    suspect = _suspect(text)
    try:
        value = (_CHECKED if suspect else _FAST).decode(text)
    except InputError:
        raise
    except json.JSONDecodeError as error:
        raise InputError(f"not JSON: {error.msg} (column {error.colno})", error.lineno) from None
    except RecursionError:
        raise InputError(f"not JSON this program reads: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError as error:  # a float() or int() the hooks did not see
        raise InputError(f"not JSON: {error}") from None
    if suspect or text.count("[") + text.count("{") > MAX_DEPTH:
        check_value(value)  # else no number is out of range and no nesting too deep
    return value


def parse_toml(text: str) -> dict[str, Any]:
    """One TOML document, within the limits of this module."""
    try:
        value = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"not TOML: {error}") from None
    except RecursionError:
        raise InputError(f"not TOML this program reads: nested deeper than {MAX_DEPTH} levels") from None
    except ValueError:
        raise InputError(f"not TOML this program reads: a whole number of more than "
                         f"{MAX_DIGITS} digits") from None
    check_value(value)
    return value


def check_value(value: Any) -> None:
    """Refuse a value that breaks the limits (depth, finite numbers, digits), naming the
    field: ``balls.white.r[0]: …``. Values built in memory may be checked too."""
    problem = json_problem(value)
    if problem is not None:
        raise InputError(problem)


def json_problem(value: Any) -> str | None:
    """Why ``value`` is no JSON value within the limits (``field: reason``), or ``None``.
    Mappings and tuples count as objects and arrays (frozen values are made of them)."""
    for where, reason in _problems(value, "", 0):
        return f"{where}: {reason}" if where else reason
    return None


def _problems(value: Any, where: str, depth: int) -> Iterator[tuple[str, str]]:
    if isinstance(value, Mapping):
        if depth >= MAX_DEPTH:
            yield "", f"nested deeper than {MAX_DEPTH} levels"
            return
        for key, item in value.items():
            if not isinstance(key, str):
                yield where, f"the key {key!r} is not text"
                return
            field = f"{where}.{key}" if where else str(key)
            if _SURROGATE.search(key):
                yield field.encode("utf-8", "backslashreplace").decode(), _HALF_PAIR
            yield from _problems(item, field, depth + 1)
    elif isinstance(value, (list, tuple)):
        if depth >= MAX_DEPTH:
            yield "", f"nested deeper than {MAX_DEPTH} levels"
            return
        for index, item in enumerate(value):
            yield from _problems(item, f"{where}[{index}]", depth + 1)
    elif isinstance(value, str):
        if not value.isascii() and _SURROGATE.search(value):
            yield where, _HALF_PAIR
    elif isinstance(value, _Bad):
        yield where, value.reason
    elif isinstance(value, float) and not math.isfinite(value):
        yield where, f"{value} is not a finite number"
    elif isinstance(value, int) and abs(value) >= _TOO_MANY_DIGITS:
        yield where, f"a whole number of more than {MAX_DIGITS} digits is too large"
    elif value is not None and not isinstance(value, (bool, int, float)):
        yield where, (f"{type(value).__name__} is not a JSON value (text, a number, true, false, null, "
                      "a list or an object)")


_HALF_PAIR = "holds half of a surrogate pair (\\ud800–\\udfff alone), which is no character"


def read_text(path: Source, max_bytes: int) -> str:
    """The UTF-8 text of the file at ``path`` (or of an open binary file: standard
    input), refused when larger than ``max_bytes`` or unreadable, with a message that
    says which. At most ``max_bytes + 1`` bytes are read, whatever the file claims."""
    return decode(read_bounded(path, max_bytes))


def read_document(path: Source, max_bytes: int = 16 * 1024 * 1024) -> Any:
    """A JSON file, or a TOML file when its name ends in ``.toml``."""
    text = read_text(path, max_bytes)
    name = str(getattr(path, "name", path))
    return parse_toml(text) if name.endswith(".toml") else parse_json(text)
