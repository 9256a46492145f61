"""A log's records (frozen dataclasses of one kind each) as JSON objects and back.

A tournament's day and the hall's tables keep their logs as JSON lines of this shape:
``{"type": "called", "actor": "schedule", "at": "2026-12-05T18:02:11+00:00", ...}``, the
record's kind under ``type`` and its fields beside it. Reading one checks every field by
its type hint (whole numbers within 2^53, texts and lists within the log's bounds, times
with their offset from UTC, nested records as objects) and names the first that is wrong
(``series[1][3]: expected a whole number``); what a value means is judged when the record
is applied. Each log gives its kinds, its refusal and its own value types
(:class:`RecordCodec`).
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields, is_dataclass
from datetime import datetime
from typing import Any, Union, get_args, get_origin, get_type_hints

MAX_NUMBER = 2**53
ValueForm = tuple[Callable[[Any], str], Callable[[object], object]]
"""A value type's form: how it is written (a text) and read (raising a carom error)."""
TIME = "expected a time such as 2026-12-05T18:30:00+01:00"


@dataclass(frozen=True)
class RecordCodec:
    """The JSON form of one log's records.

    ``kinds``: each record class by its ``type``; ``refused(field, reason)``: the log's
    refusal to raise; ``max_text`` and ``max_items``: the longest text and list a field
    may hold; ``values``: the log's own value types, each with how it is written (a text)
    and read (from a text, raising a carom error, a :class:`ValueError`, with the reason)."""

    kinds: Mapping[str, type]
    refused: Callable[[str, str], Exception]
    max_text: int
    max_items: int
    values: Mapping[type, ValueForm] = field(default_factory=dict)

    def to_json(self, record: object) -> dict[str, Any]:
        """The record as a JSON object (its kind under ``type``)."""
        kind = next(name for name, cls in self.kinds.items() if type(record) is cls)
        encoded = self._encode(record)
        assert isinstance(encoded, dict)
        return {"type": kind, **encoded}

    def from_json(self, value: object) -> object:
        """The record of a JSON object (the log's refusal naming the field that is wrong)."""
        if not isinstance(value, Mapping):
            raise self.refused("record", "expected an object")
        kind = value.get("type")
        cls = self.kinds.get(kind) if isinstance(kind, str) else None
        if cls is None:
            raise self.refused("type", f"expected one of {', '.join(self.kinds)}")
        return self._record(cls, {k: v for k, v in value.items() if k != "type"}, "")

    def _encode(self, value: object) -> object:
        if isinstance(value, datetime):
            return value.isoformat()
        if type(value) in self.values:
            return self.values[type(value)][0](value)
        if is_dataclass(value) and not isinstance(value, type):
            return {f.name: self._encode(getattr(value, f.name)) for f in fields(value)}
        if isinstance(value, tuple | list):
            return [self._encode(x) for x in value]
        if isinstance(value, Mapping):
            return {str(k): self._encode(v) for k, v in value.items()}
        return value

    def _record(self, cls: type, value: object, where: str) -> object:
        if not isinstance(value, Mapping):
            raise self.refused(where or "record", "expected an object")
        hints = get_type_hints(cls)
        known = {f.name: f for f in fields(cls)}
        if extra := sorted(set(value) - set(known)):
            raise self.refused(_at(where, str(extra[0])[:40]), "no such field")
        kwargs: dict[str, object] = {}
        for name, f in known.items():
            if name not in value:
                if f.default is MISSING and f.default_factory is MISSING:
                    raise self.refused(_at(where, name), "missing")
                continue
            kwargs[name] = self._decode(hints[name], value[name], _at(where, name))
        return cls(**kwargs)

    def _decode(self, hint: Any, value: object, where: str) -> object:
        origin, args = get_origin(hint), get_args(hint)
        if origin is Union or origin is types.UnionType:
            if value is None and type(None) in args:
                return None
            (inner,) = [a for a in args if a is not type(None)]
            return self._decode(inner, value, where)
        if origin is tuple:
            if not isinstance(value, list) or len(value) > self.max_items:
                raise self.refused(where, f"expected a list of at most {self.max_items}")
            if len(args) == 2 and args[1] is Ellipsis:
                return tuple(self._decode(args[0], x, f"{where}[{i}]") for i, x in enumerate(value))
            if len(value) != len(args):
                raise self.refused(where, f"expected a list of {len(args)}")
            pairs = enumerate(zip(args, value, strict=True))
            return tuple(self._decode(a, x, f"{where}[{i}]") for i, (a, x) in pairs)
        if origin is not None and issubclass(origin, Mapping):
            if not isinstance(value, Mapping) or len(value) > self.max_items:
                raise self.refused(where, "expected an object")
            return {str(k): self._decode(args[1], x, f"{where}.{k}") for k, x in value.items()}
        return self._plain(hint, value, where)

    def _plain(self, hint: Any, value: object, where: str) -> object:
        if hint is bool:
            if not isinstance(value, bool):
                raise self.refused(where, "expected true or false")
            return value
        if hint is int:
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_NUMBER:
                raise self.refused(where, "expected a whole number")
            return value
        if hint is str:
            if not isinstance(value, str) or len(value) > self.max_text:
                raise self.refused(where, f"expected text of at most {self.max_text} characters")
            return value
        if hint is datetime:
            return self.moment(value, where)
        if hint in self.values:
            try:
                return self.values[hint][1](value)
            except ValueError as error:
                raise self.refused(where, str(error)) from None
        if isinstance(hint, type) and is_dataclass(hint):
            return self._record(hint, value, where)
        raise TypeError(f"{where}: no reading for {hint!r}")  # pragma: no cover - a record type's mistake

    def moment(self, value: object, where: str) -> datetime:
        """A time with its offset from UTC, as ISO 8601 writes it."""
        if not isinstance(value, str) or len(value) > 40:
            raise self.refused(where, TIME)
        try:
            moment = datetime.fromisoformat(value)
        except ValueError:
            raise self.refused(where, TIME) from None
        if moment.tzinfo is None:
            raise self.refused(where, "expected a time with its offset from UTC")
        return moment


def _at(where: str, name: str) -> str:
    return f"{where}.{name}" if where else name
