"""A tournament record as a JSON object and back.

``{"type": "called", "actor": "schedule", "at": "2026-12-05T18:02:11+00:00",
"game": "1.A.2.0", "table": 2, "match": 41}``: the record's kind, its account and time,
its fields (a game by its key, a result and the settings as objects). Reading one
checks every field's type and names the first that is wrong
(:mod:`carom.competition.record_json`); what the value means is judged when the record is
applied.
"""

from __future__ import annotations

from typing import Any

from carom.competition.day.keys import GameKey
from carom.competition.day.records import KINDS, Record
from carom.competition.day.refusal import Refused
from carom.competition.errors import CompetitionError
from carom.competition.record_json import RecordCodec

MAX_TEXT = 1000
MAX_ITEMS = 5000


def _game(value: object) -> GameKey:
    """A game's key from its text; the reason without its field when it is not one."""
    try:
        return GameKey.parse(value)
    except CompetitionError as error:
        raise CompetitionError(str(error).removeprefix("game: ")) from None


CODEC = RecordCodec(KINDS, Refused, MAX_TEXT, MAX_ITEMS, {GameKey: (lambda key: key.text, _game)})


def to_json(record: Record) -> dict[str, Any]:
    """The record as a JSON object (its kind under ``type``)."""
    return CODEC.to_json(record)


def from_json(value: object) -> Record:
    """The record of a JSON object (:class:`Refused` naming the field that is wrong)."""
    decoded = CODEC.from_json(value)
    assert isinstance(decoded, Record)
    return decoded
