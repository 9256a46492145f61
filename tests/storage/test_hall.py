"""The hall's log on SQLite and PostgreSQL: tables, pairing and revoking devices, one-off
matches on tables and what each table plays, secrets kept only as hashes, refusals that
store nothing, and two servers changing the hall at once without a lock."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import select, text

from carom.storage import SqlStore, UnknownMatch, open_store, schema
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.storage.engine import make_engine
from carom.storage.events import Actor
from carom.storage.hall import Hall, HallError
from carom.storage.migrate import alembic_config
from carom.storage.roles import Role
from carom.storage.table_games import TableGames
from tests.storage.test_tournaments import play

HEADER = ('{"format": "carom/1", "discipline": "three-cushion", "table": "large", "players": ["%s", "%s"], '
          '"points": 2, "innings": null, "sets": null, "equalizing_inning": true}')


def one_off(book: MatchBook, a: str, b: str) -> int:
    return book.create(HEADER % (a, b), "token-" + a)


def test_tables_are_registered_reordered_and_retired_with_their_accounts(store: SqlStore) -> None:
    hall = Hall(store)
    hall.register("1", "large", 1, "anna")
    hall.register("Stôl 2", "small", 2, "anna")
    hall.reorder("1", 3, "boris")
    assert [(t.name, t.size) for t in hall.state().in_order()] == [("Stôl 2", "small"), ("1", "large")]
    hall.retire("Stôl 2", "boris")
    assert [t.name for t in Hall(store).state().in_order()] == ["1"]  # read afresh from the log
    assert [(x.seq, x.record.actor, type(x.record).__name__) for x in hall.records()] == [
        (1, "anna", "Registered"), (2, "anna", "Registered"), (3, "boris", "Reordered"),
        (4, "boris", "Retired")]


def test_a_refused_change_names_its_field_and_rule_and_stores_nothing(store: SqlStore) -> None:
    hall = Hall(store)
    hall.register("1", "large", 1, "anna")
    for call, words in (
            (lambda: hall.register("1", "large", 2, "anna"), "name: the hall has a table '1' already (TD1)"),
            (lambda: hall.register("2", "pool", 2, "anna"), "size: expected one of large, small"),
            (lambda: hall.retire("9", "anna"), "name: no table '9' in the hall (TD2)"),
            (lambda: hall.pair("1", "guess"), "code: not a pairing code of table '1'"),
            (lambda: hall.pair("1", ""), "code: expected the pairing code"),
            (lambda: hall.set_tournament_tables(3, ["1", "1"], "anna"), "(TD7)"),
            (lambda: hall.set_tournament_tables(3, ["1"], "anna", tables=2), "the tournament plays on 2")):
        with pytest.raises(HallError) as refused:
            call()
        assert words in str(refused.value)
    assert len(hall.records()) == 1
    with pytest.raises(UnknownMatch):
        hall.put("1", 77, "anna")


def test_a_device_pairs_once_with_its_code_and_is_revoked_and_no_secret_is_stored(store: SqlStore) -> None:
    hall = Hall(store)
    hall.register("1", "large", 1, "anna")
    code, until = hall.open_pairing("1", "anna")
    device, token = hall.pair("1", code)
    assert hall.device(token) == device and device.by == "anna" and until > device.paired
    with pytest.raises(HallError, match="used, replaced or never given"):
        hall.pair("1", code)
    assert hall.device("not-a-token") is None and hall.device(None) is None and hall.device("x" * 300) is None
    with store.engine.connect() as connection:
        bodies = " ".join(connection.execute(select(schema.table_log.c.body)).scalars())
    assert code not in bodies and token not in bodies
    hall.revoke("1", device.id, "boris")
    assert hall.device(token) is None and Hall(store).device(token) is None


def test_a_code_is_good_for_half_an_hour(store: SqlStore) -> None:
    moment = [datetime(2026, 12, 5, 18, 0, tzinfo=UTC)]
    hall = Hall(store, clock=lambda: moment[0])
    hall.register("1", "large", 1, "anna")
    code, until = hall.open_pairing("1", "anna")
    assert until == moment[0] + timedelta(minutes=30)
    moment[0] = until + timedelta(seconds=1)
    with pytest.raises(HallError, match="code: the pairing code has run out"):
        hall.pair("1", code)
    moment[0] = until
    assert hall.pair("1", code)[0].paired == until


def test_one_off_matches_follow_each_other_on_their_table(store: SqlStore) -> None:
    book = MatchBook(store)
    hall = Hall(store)
    games = TableGames(book, hall)
    table = hall.register("1", "large", 1, "anna")
    assert (games.now(table).now, games.now(table).next) == (None, None)
    first, second = one_off(book, "Anna", "Boris"), one_off(book, "Cyril", "Dana")
    hall.put("1", first, "anna")
    hall.put("1", second, "anna")
    seen = games.now(table)
    assert seen.now is not None and seen.next is not None
    assert (seen.now.match, seen.now.players, seen.next.match) == (first, ("Anna", "Boris"), second)
    assert not seen.started
    play(book, first, 2, 0)
    seen = games.now(table)  # finished: it waits for its confirmation
    assert seen.now is not None and seen.now.match == first and seen.progress is not None
    assert seen.progress.finished
    book.confirm(first, Actor.ACCOUNT, Accounts(book.store).create(  # type: ignore[arg-type]
        "Olga", Role.ORGANISER, "not-a-hash", by=None))
    seen = games.now(table)
    assert seen.now is not None and seen.now.match == second and seen.next is None
    hall.take("1", second, "anna")
    assert games.now(table).now is None
    assert [o.table.name for o in games.hall_now()] == ["1"]


def test_two_servers_change_the_hall_at_once_and_every_change_is_kept(database: str, tmp_path: Path) -> None:
    stores = [open_store(tmp_path / f"s{i}", database) for i in range(2)]
    try:
        halls = [Hall(s) for s in stores]
        halls[0].state()
        halls[1].state()  # both have read the (empty) hall before either writes
        failures: list[BaseException] = []

        def register(hall: Hall, first: int) -> None:
            try:
                for n in range(first, first + 10):
                    hall.register(str(n), "large", 1, "anna")
            except BaseException as error:
                failures.append(error)

        threads = [threading.Thread(target=register, args=(h, 10 * i)) for i, h in enumerate(halls)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        assert sorted(int(t.name) for t in Hall(stores[0]).state().tables.values()) == list(range(20))
        assert [x.seq for x in halls[1].records()] == list(range(1, 21))
    finally:
        for s in stores:
            s.close()


def test_an_old_database_gets_an_empty_hall_and_keeps_its_matches(database: str, tmp_path: Path) -> None:
    engine = make_engine(database)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
    with engine.begin() as connection:
        match = connection.execute(text("INSERT INTO matches (header, referee_token) VALUES (:h, 't') "
                                        "RETURNING id"), {"h": HEADER % ("Anna", "Boris")}).scalar_one()
    engine.dispose()
    old = open_store(tmp_path / "old", database)  # migrated to the head
    try:
        assert MatchBook(old).snapshot(match).header.players == ("Anna", "Boris")
        hall = Hall(old)
        assert hall.state().tables == {} and hall.records() == []
        hall.register("1", "large", 1, "anna")
        hall.put("1", match, "anna")
        assert hall.state().queue(hall.table("1").id)[0].match == match
    finally:
        old.close()
