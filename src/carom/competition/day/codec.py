"""A tournament record as a JSON object and back.

``{"type": "called", "actor": "schedule", "at": "2026-12-05T18:02:11+00:00",
"game": "1.A.2.0", "table": 2, "match": 41}``: the record's kind, its account and time,
its fields (a game by its key, a result and the settings as objects). Reading one
checks every field's type and names the first that is wrong; what the value means is
judged when the record is applied.
"""

from __future__ import annotations

import types
from collections.abc import Mapping
from dataclasses import MISSING, fields, is_dataclass
from datetime import datetime
from typing import Any, Union, get_args, get_origin, get_type_hints

from carom.competition.day.keys import GameKey
from carom.competition.day.records import KINDS, Record, kind_of
from carom.competition.day.refusal import Refused

MAX_TEXT = 1000
MAX_NUMBER = 2**53
MAX_ITEMS = 5000


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON object (its kind under ``type``)."""
    out: dict[str, Any] = {"type": kind_of(record)}
    encoded = _encode(record)
    assert isinstance(encoded, dict)
    out.update(encoded)
    return out


def from_json(value: object) -> Record:
    """The record of a JSON object (:class:`Refused` naming the field that is wrong)."""
    if not isinstance(value, Mapping):
        raise Refused("record", "expected an object")
    kind = value.get("type")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise Refused("type", f"expected one of {', '.join(KINDS)}")
    decoded = _dataclass(cls, {k: v for k, v in value.items() if k != "type"}, "")
    assert isinstance(decoded, Record)
    return decoded


def _encode(value: object) -> object:
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, GameKey):
        return value.text
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, tuple | list):
        return [_encode(x) for x in value]
    if isinstance(value, Mapping):
        return {str(k): _encode(x) for k, x in value.items()}
    return value


def _dataclass(cls: type, value: object, where: str) -> object:
    if not isinstance(value, Mapping):
        raise Refused(where or "record", "expected an object")
    hints = get_type_hints(cls)
    known = {f.name: f for f in fields(cls)}
    if extra := sorted(set(value) - set(known)):
        raise Refused(_at(where, str(extra[0])[:40]), "no such field")
    kwargs: dict[str, object] = {}
    for name, f in known.items():
        if name not in value:
            if f.default is MISSING and f.default_factory is MISSING:
                raise Refused(_at(where, name), "missing")
            continue
        kwargs[name] = _decode(hints[name], value[name], _at(where, name))
    return cls(**kwargs)


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name


def _decode(hint: Any, value: object, where: str) -> object:
    origin, args = get_origin(hint), get_args(hint)
    if origin is Union or origin is types.UnionType:
        if value is None and type(None) in args:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _decode(inner, value, where)
    if origin is tuple:
        if not isinstance(value, list) or len(value) > MAX_ITEMS:
            raise Refused(where, "expected a list")
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_decode(args[0], x, f"{where}[{i}]") for i, x in enumerate(value))
        if len(value) != len(args):
            raise Refused(where, f"expected a list of {len(args)}")
        return tuple(_decode(a, x, f"{where}[{i}]") for i, (a, x) in enumerate(zip(args, value, strict=True)))
    if origin is not None and issubclass(origin, Mapping):
        if not isinstance(value, Mapping) or len(value) > MAX_ITEMS:
            raise Refused(where, "expected an object")
        return {str(k): _decode(args[1], x, f"{where}.{k}") for k, x in value.items()}
    return _plain(hint, value, where)


def _plain(hint: Any, value: object, where: str) -> object:
    if hint is bool:
        if not isinstance(value, bool):
            raise Refused(where, "expected true or false")
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_NUMBER:
            raise Refused(where, "expected a whole number")
        return value
    if hint is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise Refused(where, f"expected text of at most {MAX_TEXT} characters")
        return value
    if hint is datetime:
        return _moment(value, where)
    if hint is GameKey:
        try:
            return GameKey.parse(value)
        except ValueError as error:
            raise Refused(where, str(error).removeprefix("game: ")) from None
    if isinstance(hint, type) and is_dataclass(hint):
        return _dataclass(hint, value, where)
    raise TypeError(f"{where}: no reading for {hint!r}")  # pragma: no cover - a record type's mistake


def _moment(value: object, where: str) -> datetime:
    if not isinstance(value, str) or len(value) > 40:
        raise Refused(where, "expected a time such as 2026-12-05T18:30:00+01:00")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(where, "expected a time such as 2026-12-05T18:30:00+01:00") from None
    if moment.tzinfo is None:
        raise Refused(where, "expected a time with its offset from UTC")
    return moment
