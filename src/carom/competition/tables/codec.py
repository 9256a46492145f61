"""A record of the hall's log as a JSON object and back.

``{"type": "match-put", "actor": "organiser", "at": "2026-12-05T18:02:11+00:00",
"table": "2", "match": 41}``: the record's kind, its account and time, its fields.
Reading one checks every field's type and names the first that is wrong
(:mod:`carom.competition.record_json`); what the value means is judged when the record is
applied.
"""

from __future__ import annotations

from typing import Any

from carom.competition.record_json import RecordCodec
from carom.competition.tables.records import KINDS, Record
from carom.competition.tables.refusal import Refused

MAX_TEXT = 200
MAX_ITEMS = 64

CODEC = RecordCodec(KINDS, Refused, MAX_TEXT, MAX_ITEMS)


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON object (its kind under ``type``)."""
    return CODEC.to_json(record)


def from_json(value: object) -> Record:
    """The record of a JSON object (:class:`Refused` naming the field that is wrong)."""
    decoded = CODEC.from_json(value)
    assert isinstance(decoded, Record)
    return decoded

