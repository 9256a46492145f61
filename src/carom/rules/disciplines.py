"""The disciplines as data (RULES.md S, K, 1C, 3C; GEOMETRY.md).

A discipline is a frozen value: the tables it is played on, the cushions ball 1
needs before ball 3, its forbidden zones and their limit, and what happens to
frozen and jumped balls. The shared rule functions read these values; adding a
discipline is adding a row.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from carom.core.errors import UnknownName
from carom.core.table import TABLES, TableSpec
from carom.core.zones import Zone, ZoneSet, balkline_zones, corner_zones


class FrozenRemedy(StrEnum):
    """What happens when the striker's ball is frozen to another ball."""

    STARTING_POSITION_AT_ONCE = "starting-position-at-once"
    """All three to the starting position, same player, no request (S3)."""
    STARTING_POSITION_ON_REQUEST = "starting-position-on-request"
    """All three to the starting position when the striker asks (K3, 1C3)."""
    TOUCHING_ON_LONG_STRING = "touching-on-long-string"
    """Only the touching balls, on the long string, when the striker asks (3C5)."""


class JumpRemedy(StrEnum):
    """What happens when a ball jumps (F2); the opponent plays in every discipline."""

    STARTING_POSITION = "starting-position"
    """All three balls to the starting position (S4, K4, 1C4)."""
    JUMPED_ON_LONG_STRING = "jumped-on-long-string"
    """Only the jumped balls, on the long string (3C6)."""


class ZoneKind(StrEnum):
    NONE = "none"
    CORNERS = "corners"
    BALKLINE = "balkline"


@dataclass(frozen=True, slots=True)
class Discipline:
    """One discipline of the rulebook, declared as data."""

    id: str
    """Its name in every language is a word of the catalogues (context ``discipline``)."""
    fixed_table: str | None
    """The one table it is played on (a balkline game, K1); ``None``: every table."""
    cushions: int
    """Cushions ball 1 must touch before ball 3 (0; 1C1: 1; 3C1: 3)."""
    cushion_rule: str | None
    zone_kind: ZoneKind
    zone_limit: int | None
    """Caroms in a row allowed in a restricted zone (Z2): 2 or 1."""
    balk_inset: float | None
    """Balkline: distance of the balk lines from the cushions, metres (K1)."""
    frozen: FrozenRemedy
    frozen_rule: str
    jump: JumpRemedy
    jump_rule: str
    zone_rules: tuple[str, ...] = ()
    """The rules that lay out this discipline's zones, or say it has none (1C2, 3C2)."""

    @property
    def tables(self) -> tuple[str, ...]:
        """The tables it is played on, the default first: its fixed table, or every table
        registered in ``TABLES`` (so that a table added there is played at once)."""
        return tuple(TABLES) if self.fixed_table is None else (self.fixed_table,)

    def zones(self, table: TableSpec) -> tuple[Zone, ...]:
        """The forbidden zones of this discipline on ``table`` (Z1, S2, K1, Z5)."""
        return self.zone_set(table).zones

    def zone_set(self, table: TableSpec) -> ZoneSet:
        """The zones laid out for the referee's "which zones hold both balls?"."""
        key = (self.id, table.name)
        found = _ZONE_SETS.get(key)
        if found is None:
            found = _ZONE_SETS[key] = ZoneSet(_zones(self, table))
        return found

    @property
    def has_zones(self) -> bool:
        return self.zone_kind is not ZoneKind.NONE


_ZONE_SETS: dict[tuple[str, str], ZoneSet] = {}
"""Zone layouts by discipline and table name: built once, looked up by cheap keys."""


def _zones(discipline: Discipline, table: TableSpec) -> tuple[Zone, ...]:
    if discipline.zone_kind is ZoneKind.CORNERS:
        return corner_zones(table)
    if discipline.zone_kind is ZoneKind.BALKLINE:
        assert discipline.balk_inset is not None
        return balkline_zones(table, discipline.balk_inset)
    return ()


def _balkline(name: str, table: str, inset: float, limit: int) -> Discipline:
    return Discipline(
        id=f"balkline-{name}", fixed_table=table,
        cushions=0, cushion_rule=None, zone_kind=ZoneKind.BALKLINE, zone_limit=limit,
        balk_inset=inset, frozen=FrozenRemedy.STARTING_POSITION_ON_REQUEST, frozen_rule="K3",
        jump=JumpRemedy.STARTING_POSITION, jump_rule="K4", zone_rules=("K1", "K2", "Z5"),
    )


DISCIPLINES: dict[str, Discipline] = {
    d.id: d
    for d in (
        Discipline(
            id="straight-rail", fixed_table=None,
            cushions=0, cushion_rule=None, zone_kind=ZoneKind.CORNERS, zone_limit=2,
            balk_inset=None, frozen=FrozenRemedy.STARTING_POSITION_AT_ONCE, frozen_rule="S3",
            jump=JumpRemedy.STARTING_POSITION, jump_rule="S4", zone_rules=("S2",),
        ),
        _balkline("47/2", "large", 0.47, 2),
        _balkline("47/1", "large", 0.47, 1),
        _balkline("71/2", "large", 0.71, 2),
        _balkline("35/2", "small", 0.35, 2),
        _balkline("35/1", "small", 0.35, 1),
        _balkline("52/2", "small", 0.525, 2),
        _balkline("52/1", "small", 0.525, 1),
        Discipline(
            id="one-cushion", fixed_table=None,
            cushions=1, cushion_rule="1C1", zone_kind=ZoneKind.NONE, zone_limit=None,
            balk_inset=None, frozen=FrozenRemedy.STARTING_POSITION_ON_REQUEST, frozen_rule="1C3",
            jump=JumpRemedy.STARTING_POSITION, jump_rule="1C4", zone_rules=("1C2",),
        ),
        Discipline(
            id="three-cushion", fixed_table=None,
            cushions=3, cushion_rule="3C1", zone_kind=ZoneKind.NONE, zone_limit=None,
            balk_inset=None, frozen=FrozenRemedy.TOUCHING_ON_LONG_STRING, frozen_rule="3C5",
            jump=JumpRemedy.JUMPED_ON_LONG_STRING, jump_rule="3C6", zone_rules=("3C2",),
        ),
        _balkline("38/2", "half-match", 0.38, 2),
        _balkline("57/2", "half-match", 0.575, 2),
    )
}
"""The ten disciplines of FORMAT.md, and the two balkline games of the 2.30 m table."""

assert all(t in TABLES for d in DISCIPLINES.values() for t in d.tables)


def discipline(name: str) -> Discipline:
    """The discipline called ``name``; :class:`UnknownName` (a ``KeyError``) names the known ones."""
    try:
        return DISCIPLINES[name]
    except KeyError:
        raise UnknownName("discipline", name, DISCIPLINES) from None
