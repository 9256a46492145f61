"""The records of the hall's log: every change to the club's tables and their devices.

Each names the account that made it (``actor``) and its time. Records are appended,
never changed: the hall is the fold of its log (:func:`~carom.competition.tables.apply.replay`).
Secrets never enter the log: a pairing code and a device token are kept as their hashes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Record:
    actor: str
    at: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Registered(Record):
    """A table registered: its name (its address, ``/tables/{name}``), its size (the
    ``carom/1`` header's table) and its place in the hall's order (TD1)."""

    name: str
    size: str
    order: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Reordered(Record):
    """A table given another place in the hall's order."""

    name: str
    order: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Retired(Record):
    """A table taken out of the hall (TD3)."""

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class PairingOpened(Record):
    """A one-time pairing code for a table's tablet, good until ``until`` (TD4)."""

    table: str
    code: str
    """The code's hash."""
    until: datetime


@dataclass(frozen=True, slots=True, kw_only=True)
class Paired(Record):
    """A device paired with a pairing code: from now on it holds the table's device token
    (TD5). The device's number is the record's number in the log."""

    table: str
    code: str
    """The hash of the code it used."""
    token: str
    """The hash of the token it holds."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Revoked(Record):
    """A device's token revoked: the device is no longer the table's (TD5)."""

    table: str
    device: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchPut(Record):
    """A one-off match put on a table, after the ones already there (TD6)."""

    table: str
    match: int


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchTaken(Record):
    """A one-off match taken off its table before it was played out there (TD6)."""

    table: str
    match: int


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentTables(Record):
    """The tables a tournament plays on: its table number n is ``tables[n - 1]`` (TD7).
    An empty list: on none of the hall's tables."""

    tournament: int
    tables: tuple[str, ...]


KINDS: dict[str, type[Record]] = {
    "registered": Registered, "reordered": Reordered, "retired": Retired,
    "pairing-opened": PairingOpened, "paired": Paired, "revoked": Revoked,
    "match-put": MatchPut, "match-taken": MatchTaken, "tournament-tables": TournamentTables,
}
KIND_OF: dict[type[Record], str] = {cls: kind for kind, cls in KINDS.items()}


def kind_of(record: Record) -> str:
    return KIND_OF[type(record)]
