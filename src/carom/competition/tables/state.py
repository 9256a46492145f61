"""The hall as its log has made it so far: a value, changed only by
:func:`~carom.competition.tables.apply.apply`, which returns a new one."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True, slots=True)
class Table:
    id: int
    """The number of the record that registered it: a name may be given again to a new
    table once the old one is retired, an id never."""
    name: str
    size: str
    order: int
    since: datetime


@dataclass(frozen=True, slots=True)
class Device:
    id: int
    """The number of the record that paired it."""
    table: int
    token: str
    """The hash of the token it holds."""
    paired: datetime
    by: str
    """The account that opened the code it paired with."""
    revoked: datetime | None = None


@dataclass(frozen=True, slots=True)
class Pairing:
    table: int
    code: str
    """The code's hash."""
    until: datetime
    by: str


@dataclass(frozen=True, slots=True)
class Placement:
    """A one-off match put on a table."""

    table: int
    match: int
    at: datetime
    by: str


@dataclass(frozen=True, slots=True)
class TablesState:
    tables: Mapping[int, Table] = field(default_factory=dict)
    """The tables in the hall (retired ones left out), by id."""
    devices: Mapping[int, Device] = field(default_factory=dict)
    """Every device ever paired, revoked ones too, by id."""
    tokens: Mapping[str, int] = field(default_factory=dict)
    """The devices that hold their table's token now: token hash to device id."""
    pairings: Mapping[int, Pairing] = field(default_factory=dict)
    """Each table's open pairing code (at most one)."""
    placed: tuple[Placement, ...] = ()
    """The one-off matches on tables, in the order they were put there."""
    tournaments: Mapping[int, tuple[int, ...]] = field(default_factory=dict)
    """Each tournament's tables by id, its table 1 first."""
    seq: int = 0
    """How many records made it."""

    def table(self, name: str) -> Table | None:
        """The table in the hall of this name (names compare without regard to case)."""
        key = name_key(name)
        return next((t for t in self.tables.values() if name_key(t.name) == key), None)

    def in_order(self) -> list[Table]:
        """The hall's tables in its order (then by name)."""
        return sorted(self.tables.values(), key=lambda t: (t.order, name_key(t.name), t.id))

    def device(self, token: str) -> Device | None:
        """The device holding the token of this hash now, if any."""
        found = self.tokens.get(token)
        return None if found is None else self.devices[found]

    def paired(self, table: int) -> list[Device]:
        """The table's devices that hold its token now."""
        return [d for d in self.devices.values() if d.table == table and d.revoked is None]

    def queue(self, table: int) -> tuple[Placement, ...]:
        """The one-off matches put on the table, in order (played ones too)."""
        return tuple(p for p in self.placed if p.table == table)

    def placement(self, match: int) -> Placement | None:
        return next((p for p in self.placed if p.match == match), None)

    def tournament_tables(self, tournament: int) -> tuple[Table | None, ...]:
        """The tournament's table n is item n - 1 (``None`` where that table was retired)."""
        return tuple(self.tables.get(t) for t in self.tournaments.get(tournament, ()))


def name_key(name: str) -> str:
    return " ".join(name.split()).casefold()
