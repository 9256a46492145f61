"""A record of the hall's log as a JSON object and back.

``{"type": "match-put", "actor": "organiser", "at": "2026-12-05T18:02:11+00:00",
"table": "2", "match": 41}``: the record's kind, its account and time, its fields.
Reading one checks every field's type and names the first that is wrong; what the value
means is judged when the record is applied.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from datetime import datetime
from typing import Any, get_type_hints

from carom.competition.tables.records import KINDS, Record, kind_of
from carom.competition.tables.refusal import Refused

MAX_TEXT = 200
MAX_ITEMS = 64
MAX_NUMBER = 2**53


def to_json(record: Record) -> dict[str, Any]:
    out: dict[str, Any] = {"type": kind_of(record)}
    for f in fields(record):
        value = getattr(record, f.name)
        out[f.name] = value.isoformat() if isinstance(value, datetime) else \
            list(value) if isinstance(value, tuple) else value
    return out


def from_json(value: object) -> Record:
    """The record of a JSON object (:class:`Refused` naming the field that is wrong)."""
    if not isinstance(value, Mapping):
        raise Refused("record", "expected an object")
    kind = value.get("type")
    cls = KINDS.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise Refused("type", f"expected one of {', '.join(KINDS)}")
    hints = get_type_hints(cls)
    names = {f.name for f in fields(cls)}
    extra = sorted(set(value) - names - {"type"})
    if extra:
        raise Refused(str(extra[0])[:40], "no such field")
    kwargs: dict[str, object] = {}
    for name in sorted(names):
        if name not in value:
            raise Refused(name, "missing")
        kwargs[name] = _read(hints[name], value[name], name)
    made: Record = cls(**kwargs)  # type: ignore[arg-type]  # each field read by its type above
    return made


def _read(hint: object, value: object, field: str) -> object:
    if hint is datetime:
        return moment(value, field)
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_NUMBER:
            raise Refused(field, "expected a whole number")
        return value
    if hint is str:
        if not isinstance(value, str) or len(value) > MAX_TEXT:
            raise Refused(field, f"expected text of at most {MAX_TEXT} characters")
        return value
    if not isinstance(value, list) or len(value) > MAX_ITEMS:  # tuple[str, ...]
        raise Refused(field, f"expected a list of at most {MAX_ITEMS}")
    return tuple(str(_read(str, item, f"{field}[{n}]")) for n, item in enumerate(value, start=1))


def moment(value: object, field: str) -> datetime:
    """A time with its offset from UTC, as ISO 8601 writes it."""
    if not isinstance(value, str) or len(value) > 40:
        raise Refused(field, "expected a time such as 2026-12-05T18:30:00+01:00")
    try:
        at = datetime.fromisoformat(value)
    except ValueError:
        raise Refused(field, "expected a time such as 2026-12-05T18:30:00+01:00") from None
    if at.tzinfo is None:
        raise Refused(field, "expected a time with its offset from UTC")
    return at
