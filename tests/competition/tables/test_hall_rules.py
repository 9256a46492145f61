"""The hall's rules (TD1-TD8): each record applied to the hall as it stands, each refusal
naming its field and rule and changing nothing; the log read back from JSON; what a table
plays now and next."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta

import pytest

from carom.competition.tables import (
    TABLE_RULES,
    Game,
    Progress,
    Refused,
    TablesState,
    apply,
    from_json,
    on_table,
    replay,
    to_json,
)
from carom.competition.tables import records as r

T0 = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)
ORG = "organiser"


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def hall(*names: str) -> TablesState:
    return replay([r.Registered(actor=ORG, at=at(0), name=n, size="large", order=i)
                   for i, n in enumerate(names, start=1)])


def refused(state: TablesState, record: r.Record, field: str, rule: str | None) -> Refused:
    with pytest.raises(Refused) as caught:
        apply(state, record)
    assert caught.value.field == field and caught.value.rule == rule, str(caught.value)
    return caught.value


def paired(state: TablesState, table: str, code: str = "c1", token: str = "t1") -> TablesState:
    state = apply(state, r.PairingOpened(actor=ORG, at=at(1), table=table, code=code, until=at(31)))
    return apply(state, r.Paired(actor="device", at=at(2), table=table, code=code, token=token))


def test_td1_tables_are_registered_under_different_names_in_the_hall_order() -> None:
    state = hall("2", "Stôl 1", "match table")
    assert [t.name for t in state.in_order()] == ["2", "Stôl 1", "match table"]
    assert state.table("stôl 1") is state.table("Stôl  1") is not None  # names compare as folded
    state = apply(state, r.Reordered(actor=ORG, at=at(1), name="match table", order=0 + 1))
    assert next(t.name for t in state.in_order()) == "2"  # same place: then by name
    refused(state, r.Registered(actor=ORG, at=at(1), name="STÔL 1", size="large", order=4), "name", "TD1")
    for bad in ("", " 3", "3 ", "a/b", "x" * 41, "tab\u0007"):
        refused(state, r.Registered(actor=ORG, at=at(1), name=bad, size="large", order=4), "name", "TD1")
    for order in (0, 1000, True):
        refused(state, r.Registered(actor=ORG, at=at(1), name="4", size="large", order=order), "order", "TD1")
    refused(state, r.Registered(actor=ORG, at=at(1), name="4", size="", order=4), "size", "TD1")
    full = hall(*map(str, range(1, 65)))
    refused(full, r.Registered(actor=ORG, at=at(1), name="65", size="large", order=1), "name", "TD1")


def test_td2_a_change_names_a_table_in_the_hall() -> None:
    state = apply(hall("1", "2"), r.Retired(actor=ORG, at=at(1), name="2"))
    for record, field in ((r.Reordered(actor=ORG, at=at(2), name="2", order=1), "name"),
                          (r.Retired(actor=ORG, at=at(2), name="2"), "name"),
                          (r.PairingOpened(actor=ORG, at=at(2), table="9", code="c", until=at(9)), "table"),
                          (r.MatchPut(actor=ORG, at=at(2), table="2", match=4), "table")):
        refused(state, record, field, "TD2")


def test_td3_a_retired_table_takes_its_devices_codes_and_matches_with_it_and_its_name_is_free() -> None:
    state = paired(hall("1", "2"), "2")
    state = apply(state, r.PairingOpened(actor=ORG, at=at(3), table="2", code="c2", until=at(33)))
    state = apply(state, r.MatchPut(actor=ORG, at=at(3), table="2", match=7))
    old = state.table("2")
    assert old is not None and state.device("t1") is not None
    state = apply(state, r.Retired(actor=ORG, at=at(4), name="2"))
    assert state.device("t1") is None and state.devices[4].revoked == at(4)
    assert state.pairings == {} and state.placed == ()
    state = apply(state, r.Registered(actor=ORG, at=at(5), name="2", size="small", order=2))
    new = state.table("2")
    assert new is not None and new.id != old.id and state.paired(new.id) == []


def test_td4_a_pairing_code_is_good_once_until_its_time_and_a_newer_one_replaces_it() -> None:
    state = apply(hall("1", "2"), r.PairingOpened(actor=ORG, at=at(1), table="1", code="c1", until=at(31)))
    refused(state, r.PairingOpened(actor=ORG, at=at(1), table="1", code="c", until=at(1)), "until", "TD4")
    refused(state, r.Paired(actor="device", at=at(2), table="2", code="c1", token="t"), "code", "TD4")
    refused(state, r.Paired(actor="device", at=at(32), table="1", code="c1", token="t"), "code", "TD4")
    newer = apply(state, r.PairingOpened(actor=ORG, at=at(2), table="1", code="c2", until=at(32)))
    refused(newer, r.Paired(actor="device", at=at(3), table="1", code="c1", token="t"), "code", "TD4")
    once = apply(state, r.Paired(actor="device", at=at(2), table="1", code="c1", token="t"))
    refused(once, r.Paired(actor="device", at=at(3), table="1", code="c1", token="u"), "code", "TD4")


def test_td5_a_device_holds_its_tables_token_until_revoked() -> None:
    state = paired(hall("1", "2"), "1")
    device = state.device("t1")
    assert device is not None and device.id == 4 and device.table == state.tables[1].id and device.by == ORG
    again = apply(state, r.PairingOpened(actor=ORG, at=at(3), table="2", code="c9", until=at(33)))
    refused(again, r.Paired(actor="device", at=at(4), table="2", code="c9", token="t1"), "token", "TD5")
    refused(state, r.Revoked(actor=ORG, at=at(3), table="2", device=device.id), "device", "TD5")
    revoked = apply(state, r.Revoked(actor=ORG, at=at(3), table="1", device=device.id))
    assert revoked.device("t1") is None and revoked.paired(1) == [] and revoked.devices[4].revoked == at(3)
    refused(revoked, r.Revoked(actor=ORG, at=at(4), table="1", device=device.id), "device", "TD5")


def test_td6_a_one_off_match_is_on_one_table_at_a_time() -> None:
    state = apply(hall("1", "2"), r.MatchPut(actor=ORG, at=at(1), table="1", match=5))
    state = apply(state, r.MatchPut(actor=ORG, at=at(2), table="1", match=6))
    assert [p.match for p in state.queue(1)] == [5, 6]
    refused(state, r.MatchPut(actor=ORG, at=at(3), table="2", match=5), "match", "TD6")
    refused(state, r.MatchTaken(actor=ORG, at=at(3), table="2", match=5), "match", "TD6")
    refused(state, r.MatchPut(actor=ORG, at=at(3), table="2", match=0), "match", None)
    taken = apply(state, r.MatchTaken(actor=ORG, at=at(3), table="1", match=5))
    assert [p.match for p in taken.queue(1)] == [6]
    moved = apply(taken, r.MatchPut(actor=ORG, at=at(4), table="2", match=5))
    assert [p.match for p in moved.queue(2)] == [5]


def test_td7_a_tournament_plays_on_different_tables_of_the_hall_in_order() -> None:
    def plays(tournament: int, *names: str) -> r.TournamentTables:
        return r.TournamentTables(actor=ORG, at=at(1), tournament=tournament, tables=names)

    state = apply(hall("1", "2", "3"), plays(4, "3", "1"))
    assert [t.name for t in state.tournament_tables(4) if t] == ["3", "1"]
    refused(state, plays(4, "1", "1"), "tables[2]", "TD7")
    refused(state, plays(4, "1", "9"), "tables[2]", "TD2")
    refused(state, plays(0), "tournament", None)
    retired = apply(state, r.Retired(actor=ORG, at=at(2), name="3"))
    assert retired.tournament_tables(4)[0] is None  # table 1 of the tournament is on no table now
    assert [t.name for t in retired.tournament_tables(4) if t] == ["1"]


def test_every_table_rule_is_described() -> None:
    assert list(TABLE_RULES) == [f"TD{n}" for n in range(1, 9)]


def test_a_refused_record_changes_nothing() -> None:
    state = paired(hall("1"), "1")
    before = (state.tables, state.devices, state.tokens, state.pairings, state.placed, state.seq)
    with pytest.raises(Refused):
        apply(state, r.Revoked(actor=ORG, at=at(3), table="1", device=99))
    assert (state.tables, state.devices, state.tokens, state.pairings, state.placed, state.seq) == before


# --- the log as JSON ------------------------------------------------------------------------


RECORDS: list[r.Record] = [
    r.Registered(actor=ORG, at=at(0), name="Stôl 1", size="large", order=1),
    r.Reordered(actor=ORG, at=at(1), name="Stôl 1", order=2),
    r.PairingOpened(actor=ORG, at=at(1), table="Stôl 1", code="ab" * 32, until=at(31)),
    r.Paired(actor="device", at=at(2), table="Stôl 1", code="ab" * 32, token="cd" * 32),
    r.Revoked(actor=ORG, at=at(3), table="Stôl 1", device=4),
    r.MatchPut(actor=ORG, at=at(3), table="Stôl 1", match=9),
    r.MatchTaken(actor=ORG, at=at(4), table="Stôl 1", match=9),
    r.TournamentTables(actor=ORG, at=at(4), tournament=2, tables=("Stôl 1",)),
    r.Retired(actor=ORG, at=at(5), name="Stôl 1"),
]


def test_every_record_reads_back_from_json_and_the_log_replays() -> None:
    assert [from_json(to_json(x)) for x in RECORDS] == RECORDS
    assert {r.kind_of(x) for x in RECORDS} == set(r.KINDS)
    assert replay(RECORDS).seq == len(RECORDS)


@pytest.mark.parametrize(("value", "field"), [
    ([], "record"), ({"type": "painted"}, "type"), ({**to_json(RECORDS[0]), "colour": "green"}, "colour"),
    ({k: v for k, v in to_json(RECORDS[0]).items() if k != "size"}, "size"),
    ({**to_json(RECORDS[0]), "order": "1"}, "order"), ({**to_json(RECORDS[0]), "order": True}, "order"),
    ({**to_json(RECORDS[0]), "at": "2026-12-05T18:00:00"}, "at"), ({**to_json(RECORDS[0]), "at": 5}, "at"),
    ({**to_json(RECORDS[0]), "name": "x" * 201}, "name"),
    ({**to_json(RECORDS[7]), "tables": "1"}, "tables"), ({**to_json(RECORDS[7]), "tables": [1]}, "tables[0]"),
])
def test_a_malformed_record_is_refused_naming_its_field(value: object, field: str) -> None:
    with pytest.raises(Refused) as caught:
        from_json(value)
    assert caught.value.field == field


# --- now and next ----------------------------------------------------------------------------


TABLE = hall("1").tables[1]
STARTED, FINISHED, DONE, NEW = (Progress(True, False, False), Progress(True, True, False),
                                Progress(True, True, True), Progress(False, False, False))


def test_td8_a_table_plays_its_games_in_the_order_they_came_and_keeps_one_until_confirmed() -> None:
    first = Game(("Anna", "Boris"), 11, at(1))
    second = Game(("Cyril", "Dana"), 12, at(2))
    called = Game(("Emil", "Fero"), 13, at(3), tournament=1, game="1.A.1.0")
    later = Game(("Gejza", "Hana"), start=at(90), tournament=1, game="1.A.2.0")
    sooner = Game(("Ivan", "Jana"), start=at(60), tournament=1, game="1.A.2.1")
    unset = Game(("Karol", "Lea"), tournament=1, game="1.A.3.0")
    games = [called, later, second, unset, first, sooner]
    seen = on_table(TABLE, games, {11: FINISHED, 12: STARTED, 13: NEW})
    assert (seen.now, seen.next, seen.progress) == (first, second, FINISHED)  # the result awaits confirming
    seen = on_table(TABLE, games, {11: DONE, 12: DONE, 13: NEW})
    assert (seen.now, seen.next, seen.started) == (called, sooner, False)
    seen = on_table(TABLE, [later, unset, sooner], {})
    assert (seen.now, seen.next, seen.progress) == (None, sooner, None)
    assert on_table(TABLE, [], {}).next is None
    unknown = on_table(TABLE, [Game(("A", "B"), 99, at(1))], {})  # a match without a state yet
    assert unknown.now is not None and unknown.progress is None and not unknown.started


def test_td8_a_game_done_and_reopened_is_back_on_its_table_in_its_place() -> None:
    first, second = Game(("A", "B"), 1, at(1)), Game(("C", "D"), 2, at(2))
    assert on_table(TABLE, [first, second], {1: DONE, 2: STARTED}).now == second
    assert on_table(TABLE, [first, second], {1: replace(DONE, confirmed=False), 2: NEW}).now == first
