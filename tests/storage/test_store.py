"""The storage interface on SQLite and PostgreSQL: append-only, numbered, durable."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text

from carom.storage import SqlStore, StaleSequence, UnknownMatch, open_store
from carom.storage.migrate import alembic_config


def test_a_match_is_its_header_token_and_records(store: SqlStore) -> None:
    match_id = store.create_match('{"h": 1}', "token")
    assert store.append(match_id, 0, "one") == 1
    assert store.append(match_id, 1, "two") == 2
    stored = store.read(match_id)
    assert (stored.header, stored.token, stored.lines) == ('{"h": 1}', "token", ("one", "two"))
    assert [(m.id, m.records) for m in store.matches()] == [(match_id, 2)]


def test_an_import_brings_its_records_in_one_go(store: SqlStore) -> None:
    match_id = store.create_match("h", "t", ["a", "b", "c"])
    assert store.read(match_id).lines == ("a", "b", "c")
    assert store.append(match_id, 3, "d") == 4


def test_a_write_after_a_record_that_is_not_the_last_is_stale(store: SqlStore) -> None:
    match_id = store.create_match("h", "t")
    store.append(match_id, 0, "one")
    for after in (0, 2, 7):
        with pytest.raises(StaleSequence) as refused:
            store.append(match_id, after, "again")
        assert refused.value.current == 1
    assert store.read(match_id).lines == ("one",)


def test_unknown_matches_are_named(store: SqlStore) -> None:
    with pytest.raises(UnknownMatch, match="no match 42"):
        store.read(42)
    with pytest.raises(UnknownMatch):
        store.append(42, 0, "x")


def test_matches_are_listed_newest_first(store: SqlStore) -> None:
    ids = [store.create_match(f"h{i}", "t") for i in range(3)]
    assert [m.id for m in store.matches()] == ids[::-1]


def test_writers_racing_on_one_record_one_wins(store: SqlStore) -> None:
    """Eight threads append after the same record, twenty times: exactly one wins each round."""
    match_id = store.create_match("h", "t")
    for round_no in range(20):
        barrier = threading.Barrier(8)
        outcomes: list[str] = []

        def post(i: int, after: int = round_no, barrier: threading.Barrier = barrier,
                 outcomes: list[str] = outcomes) -> None:
            barrier.wait()
            try:
                store.append(match_id, after, f"r{after}-w{i}")
                outcomes.append("ok")
            except StaleSequence:
                outcomes.append("stale")

        threads = [threading.Thread(target=post, args=(i,)) for i in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted(outcomes) == ["ok"] + ["stale"] * 7
    lines = store.read(match_id).lines
    assert len(lines) == 20
    assert [line.split("-")[0] for line in lines] == [f"r{i}" for i in range(20)]


def test_two_stores_on_one_database_cannot_double_a_record(database: str, tmp_path: Path) -> None:
    """Two servers on one database: the primary key refuses the second record after N."""
    a, b = open_store(tmp_path, database), open_store(tmp_path, database)
    try:
        match_id = a.create_match("h", "t")
        a.append(match_id, 0, "from a")
        with pytest.raises(StaleSequence):
            b.append(match_id, 0, "from b")
        b.append(match_id, 1, "from b")  # b now believes record 2 is the last one …
        a.append(match_id, 2, "from a again")
        with pytest.raises(StaleSequence):  # … the primary key corrects it
            b.append(match_id, 2, "from b again")
        b.append(match_id, 3, "from b, after a look")
        assert b.read(match_id).lines == ("from a", "from b", "from a again", "from b, after a look")
    finally:
        a.close()
        b.close()


def test_reopening_runs_no_migration_twice_and_keeps_everything(database: str, tmp_path: Path) -> None:
    first = open_store(tmp_path, database)
    match_id = first.create_match("h", "t", ["x"])
    first.close()
    again = open_store(tmp_path, database)
    try:
        assert again.read(match_id).lines == ("x",)
        with again.engine.connect() as connection:
            version = connection.execute(text("SELECT version_num FROM alembic_version")).scalar()
            assert version == ScriptDirectory.from_config(alembic_config()).get_current_head()
    finally:
        again.close()


def test_sqlite_is_durable_before_it_answers(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    try:
        assert (tmp_path / "data" / "carom.sqlite3").exists()
        with store.engine.connect() as connection:
            assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
            assert connection.exec_driver_sql("PRAGMA synchronous").scalar() == 2  # FULL
    finally:
        store.close()
