"""The club's tables as things: the hall's log and what each table plays.

Every change to the hall (a table registered, reordered, retired; a device paired with
a one-time code or revoked; a one-off match put on a table or taken off; the tables a
tournament plays on) is a record (:mod:`.records`) with its account and time; the hall
is the fold of its log (:func:`replay`), and :func:`apply` refuses a record naming the
field and the rule (TD1-TD8, :data:`TABLE_RULES`). :func:`on_table` says what a table
plays now and next. Pure: the standard library only.
"""

from __future__ import annotations

from carom.competition.tables.apply import apply, check_name, replay
from carom.competition.tables.codec import from_json, to_json
from carom.competition.tables.now import Game, OnTable, Progress, on_table
from carom.competition.tables.records import Record
from carom.competition.tables.refusal import TABLE_RULES, Refused
from carom.competition.tables.state import Device, Pairing, Placement, Table, TablesState

__all__ = [
    "TABLE_RULES", "Device", "Game", "OnTable", "Pairing", "Placement", "Progress", "Record", "Refused",
    "Table", "TablesState", "apply", "check_name", "from_json", "on_table", "replay", "to_json",
]
