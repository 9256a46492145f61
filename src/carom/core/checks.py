"""Checking a value where it is built: one check per kind of value, used by the
constructors of the core's values and so by the ``carom/1`` reader, which builds them.

Each check returns the value in its one form (a :class:`~carom.core.balls.Ball` for
``"white"``, a ``float`` for ``3`` or ``numpy.float64(3)``) or raises
:class:`~carom.core.errors.InvalidValue` with a message that names the field first:
``t: expected a number, got "soon"``. :func:`within` puts the place in front of what
is raised inside it (``events[2]: ...``), so that every refusal reads as a path to the
field at fault.
"""

from __future__ import annotations

import json
import math
import unicodedata
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain
from numbers import Real
from typing import Any, NoReturn, TypeVar

from carom.core.balls import Ball, Cushion
from carom.core.errors import InvalidValue
from carom.core.inputs import MAX_DIGITS

E = TypeVar("E", bound=str)

HUGE = 10**MAX_DIGITS
"""The smallest whole number too large to read or write (``carom.core.inputs``)."""

_BALLS = {b.value: b for b in Ball}
_CUSHIONS = {c.value: c for c in Cushion}


def shown(value: Any) -> str:
    """A value as a file would hold it, for a message: JSON, a long one shortened."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= HUGE:
        return "a number too large"
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # not a JSON value (an object, a huge int inside)
        text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"


def printable(text: str) -> str:
    """``text`` with its control characters (a terminal's escape codes among them) shown
    as ``\\x1b`` rather than obeyed: a name or a file name as a terminal may print it."""
    if text.isprintable():
        return text
    return "".join(c.encode("unicode_escape").decode("ascii") if unicodedata.category(c) == "Cc" else c
                   for c in text)


def refuse(reason: str, field: str = "") -> NoReturn:
    """Raise :class:`InvalidValue`: ``field: reason`` (``reason`` alone without a field)."""
    raise InvalidValue(f"{field}: {reason}" if field else reason)


@contextmanager
def within(place: str) -> Iterator[None]:
    """Put ``place`` in front of an :class:`InvalidValue` raised in the block."""
    try:
        yield
    except InvalidValue as error:
        raise InvalidValue(f"{place}: {error}") from None


def as_ball(value: Any, field: str = "ball") -> Ball:
    """A ball, given as a :class:`Ball` or by its name."""
    if type(value) is Ball:
        return value
    ball = _BALLS.get(value) if isinstance(value, str) else None
    if ball is None:
        refuse(f"unknown ball {shown(value)} (white, yellow or red)", field)
    return ball


def as_cushion(value: Any, field: str = "cushion") -> Cushion:
    """A cushion, given as a :class:`Cushion` or by its name."""
    if type(value) is Cushion:
        return value
    cushion = _CUSHIONS.get(value) if isinstance(value, str) else None
    if cushion is None:
        refuse(f"unknown {shown(value)} (top, bottom, left or right)", field)
    return cushion


def as_number(value: Any, field: str) -> float:
    """A finite real number as a ``float``: never ``True``, a string, ``Decimal`` or NaN,
    nor a whole number beyond :data:`~carom.core.inputs.MAX_DIGITS` digits."""
    if type(value) is float:
        if value - value == 0.0:  # finite: inf - inf and nan - nan are nan
            return value
        refuse(f"{value} is not a finite number", field)
    if type(value) is int:
        if -HUGE < value < HUGE:
            return float(value)
        refuse(f"a whole number of more than {MAX_DIGITS} digits is too large", field)
    if isinstance(value, Real) and not isinstance(value, bool):
        return as_number(float(value), field)
    refuse(f"expected a number, got {shown(value)}", field)


def as_time(value: Any, field: str = "t") -> float | None:
    """An event's time in seconds, or ``None`` (it is information only, FORMAT.md)."""
    return None if value is None else as_number(value, field)


def as_whole(value: Any, field: str, low: int, nullable: bool = False) -> int | None:
    """A whole number from ``low`` up (``None`` too when ``nullable``); never ``True``
    nor ``2.0``."""
    if value is None and nullable:
        return None
    if type(value) is not int or not low <= value < HUGE:
        kind = "a whole number" + (f" >= {low}" if low else "") + (" or null" if nullable else "")
        refuse(f"expected {kind}, got {shown(value)}", field)
    return value


def as_count(value: Any, field: str, low: int) -> int:
    """A whole number from ``low`` up (:func:`as_whole`, never ``None``)."""
    count = as_whole(value, field, low)
    assert count is not None
    return count


def as_flag(value: Any, field: str) -> bool:
    """``True`` or ``False``, nothing that merely tests true."""
    if type(value) is not bool:
        refuse(f"expected true or false, got {shown(value)}", field)
    return value


def as_player(value: Any, field: str = "player") -> int:
    """Player 0 or player 1, in the header's order."""
    if type(value) is not int or value not in (0, 1):
        refuse(f"expected 0 or 1, got {shown(value)}", field)
    return value


def as_point(value: Any, field: str) -> tuple[float, float]:
    """A centre ``(x, y)``: two finite numbers, metres."""
    if type(value) in (tuple, list) and len(value) == 2:
        x, y = value
        if type(x) is float and type(y) is float and x - x == 0.0 and y - y == 0.0:  # the common case
            return (x, y)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__len__") or len(value) != 2:
        refuse(f"expected [x, y], got {shown(value)}", field)
    x, y = value
    return (as_number(x, field), as_number(y, field))


def as_code(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    """A fault code of ``allowed`` (FORMAT.md: F2–F13 in a stroke, and Z7, O3 called)."""
    if not isinstance(value, str) or value not in allowed:
        refuse(f"{shown(value)} is not a fault code here (F2–F13{', Z7, O3' if 'Z7' in allowed else ''})",
               field)
    return str(value)


def as_name(value: Any, field: str) -> str:
    """A name: text that is not blank."""
    if not isinstance(value, str) or not value.strip():
        refuse(f"expected a name, got {shown(value)}", field)
    return str(value)


def as_sequence(value: Any, field: str, what: str) -> tuple[Any, ...]:
    """A list or tuple as a tuple (never a string, a set or a mapping, whose order or
    items would be a guess)."""
    if type(value) is tuple:
        return value
    if not isinstance(value, (list, tuple)):
        refuse(f"expected {what}, got {shown(value)}", field)
    return tuple(value)


def as_member(value: Any, field: str, kind: type[E], words: str) -> E:
    """A member of the string enumeration ``kind``, given as itself or by its value."""
    if type(value) is kind:
        return value
    try:
        return kind(value)
    except (ValueError, TypeError):  # TypeError: a value that cannot be a member (a list)
        refuse(f"expected {words}, got {shown(value)}", field)


def plainly_samples(samples: Any, width: int) -> bool:
    """Quickly, in C: are ``samples`` a tuple of tuples of ``width`` floats, all finite?
    (A ``True`` spares the check of each number; a ``False`` only sends the samples to
    it, which names what is wrong.)"""
    if type(samples) is not tuple or set(map(type, samples)) - {tuple} or set(map(len, samples)) - {width}:
        return False
    values = list(chain.from_iterable(samples))
    if set(map(type, values)) - {float}:
        return False
    try:
        return math.isfinite(math.fsum(map(abs, values)))
    except OverflowError:
        return False
