"""The hall's rules: a record applied to the hall as it stands gives the hall after it,
or is refused naming the field and the rule (:class:`~.refusal.Refused`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any, TypeVar

from carom.competition.tables import records as r
from carom.competition.tables.refusal import Refused
from carom.competition.tables.state import Device, Pairing, Placement, Table, TablesState

NAME_LENGTH = 40
MAX_TABLES = 64
MAX_ORDER = 999
MAX_ID = 2**31 - 1
HASH_LENGTH = 128

R = TypeVar("R", bound=r.Record)
_RULES: dict[type[r.Record], Callable[[TablesState, Any], TablesState]] = {}


def _handles(kind: type[R]) -> Callable[[Callable[[TablesState, R], TablesState]],
                                        Callable[[TablesState, R], TablesState]]:
    def register(rule: Callable[[TablesState, R], TablesState]) -> Callable[[TablesState, R], TablesState]:
        _RULES[kind] = rule
        return rule
    return register


def apply(state: TablesState, record: r.Record) -> TablesState:
    """The hall after ``record`` (:class:`Refused`: the hall cannot take it)."""
    after = _RULES[type(record)](state, record)
    return replace(after, seq=state.seq + 1)


def replay(records: Iterable[r.Record]) -> TablesState:
    state = TablesState()
    for record in records:
        state = apply(state, record)
    return state


def check_name(name: object) -> str:
    """A table's name as it may be registered: 1 to 40 characters, no ``/`` (the name is
    the table's address), no control characters, no spaces around it (TD1)."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LENGTH:
        raise Refused("name", f"expected 1 to {NAME_LENGTH} characters", "TD1")
    if name != name.strip() or "/" in name or "\\" in name or any(not c.isprintable() for c in name):
        raise Refused("name", "no slash, no control characters, no spaces before or after", "TD1")
    return name


def _order(order: object) -> int:
    if isinstance(order, bool) or not isinstance(order, int) or not 1 <= order <= MAX_ORDER:
        raise Refused("order", f"expected a whole number from 1 to {MAX_ORDER}", "TD1")
    return order


def _table(state: TablesState, name: str, field: str = "table") -> Table:
    found = state.table(name)
    if found is None:
        raise Refused(field, f"no table {name[:NAME_LENGTH]!r} in the hall", "TD2")
    return found


def _hash(value: str, field: str) -> str:
    if not value or len(value) > HASH_LENGTH:
        raise Refused(field, "expected a hash")
    return value


@_handles(r.Registered)
def _registered(state: TablesState, record: r.Registered) -> TablesState:
    name = check_name(record.name)
    if state.table(name) is not None:
        raise Refused("name", f"the hall has a table {name!r} already", "TD1")
    if not record.size or len(record.size) > 32:
        raise Refused("size", "expected a table size", "TD1")
    if len(state.tables) >= MAX_TABLES:
        raise Refused("name", f"the hall holds at most {MAX_TABLES} tables", "TD1")
    table = Table(state.seq + 1, name, record.size, _order(record.order), record.at)
    return replace(state, tables={**state.tables, table.id: table})


@_handles(r.Reordered)
def _reordered(state: TablesState, record: r.Reordered) -> TablesState:
    table = _table(state, record.name, "name")
    moved = replace(table, order=_order(record.order))
    return replace(state, tables={**state.tables, table.id: moved})


@_handles(r.Retired)
def _retired(state: TablesState, record: r.Retired) -> TablesState:
    table = _table(state, record.name, "name")
    devices = {i: replace(d, revoked=record.at) if d.table == table.id and d.revoked is None else d
               for i, d in state.devices.items()}
    return replace(
        state, tables={i: t for i, t in state.tables.items() if i != table.id}, devices=devices,
        tokens={h: i for h, i in state.tokens.items() if devices[i].revoked is None},
        pairings={i: p for i, p in state.pairings.items() if i != table.id},
        placed=tuple(p for p in state.placed if p.table != table.id))


@_handles(r.PairingOpened)
def _pairing(state: TablesState, record: r.PairingOpened) -> TablesState:
    table = _table(state, record.table)
    if record.until <= record.at:
        raise Refused("until", "a pairing code must be good for a while", "TD4")
    pairing = Pairing(table.id, _hash(record.code, "code"), record.until, record.actor)
    return replace(state, pairings={**state.pairings, table.id: pairing})


@_handles(r.Paired)
def _paired(state: TablesState, record: r.Paired) -> TablesState:
    table = _table(state, record.table)
    pairing = state.pairings.get(table.id)
    if pairing is None or pairing.code != record.code:
        raise Refused("code", f"not a pairing code of table {table.name!r} (used, replaced or never "
                              "given)", "TD4")
    if record.at > pairing.until:
        raise Refused("code", "the pairing code has run out: ask the organiser for a new one", "TD4")
    token = _hash(record.token, "token")
    if token in state.tokens:
        raise Refused("token", "a device holds this token already", "TD5")
    device = Device(state.seq + 1, table.id, token, record.at, pairing.by)
    return replace(state, devices={**state.devices, device.id: device},
                   tokens={**state.tokens, token: device.id},
                   pairings={i: p for i, p in state.pairings.items() if i != table.id})


@_handles(r.Revoked)
def _revoked(state: TablesState, record: r.Revoked) -> TablesState:
    table = _table(state, record.table)
    device = state.devices.get(record.device)
    if device is None or device.table != table.id or device.revoked is not None:
        raise Refused("device", f"no paired device {record.device} of table {table.name!r}", "TD5")
    return replace(state, devices={**state.devices, device.id: replace(device, revoked=record.at)},
                   tokens={h: i for h, i in state.tokens.items() if i != device.id})


def _match(match: object) -> int:
    if isinstance(match, bool) or not isinstance(match, int) or not 0 < match <= MAX_ID:
        raise Refused("match", "expected a match's number")
    return match


@_handles(r.MatchPut)
def _put(state: TablesState, record: r.MatchPut) -> TablesState:
    table = _table(state, record.table)
    match = _match(record.match)
    there = state.placement(match)
    if there is not None:
        raise Refused("match", f"match {match} was put on table {state.tables[there.table].name!r} "
                               "already", "TD6")
    return replace(state, placed=(*state.placed, Placement(table.id, match, record.at, record.actor)))


@_handles(r.MatchTaken)
def _taken(state: TablesState, record: r.MatchTaken) -> TablesState:
    table = _table(state, record.table)
    there = state.placement(_match(record.match))
    if there is None or there.table != table.id:
        raise Refused("match", f"match {record.match} is not on table {table.name!r}", "TD6")
    return replace(state, placed=tuple(p for p in state.placed if p is not there))


@_handles(r.TournamentTables)
def _tournament_tables(state: TablesState, record: r.TournamentTables) -> TablesState:
    if isinstance(record.tournament, bool) or not 0 < record.tournament <= MAX_ID:
        raise Refused("tournament", "expected a tournament's number")
    if len(record.tables) > MAX_TABLES:
        raise Refused("tables", f"at most {MAX_TABLES}", "TD7")
    ids: list[int] = []
    for n, name in enumerate(record.tables, start=1):
        table = _table(state, name, f"tables[{n}]")
        if table.id in ids:
            raise Refused(f"tables[{n}]", f"table {table.name!r} is in the list already", "TD7")
        ids.append(table.id)
    return replace(state, tournaments={**state.tournaments, record.tournament: tuple(ids)})
