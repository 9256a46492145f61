"""What a process hears of another's writes on PostgreSQL (``carom.storage.changes``): a
record's notification carries the record, which a process holding the match's replay
takes without a query; anything else it reads from the database."""

from __future__ import annotations

import queue
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event, text

from carom.storage import SqlStore, open_store
from carom.storage.book import MatchBook
from carom.storage.changes import CHANNEL, MAX_PAYLOAD, Change, heard, payload
from tests.helpers import run_apart
from tests.storage.postgres import Postgres
from tests.storage.test_book import HEADER, PLAY

Two = tuple[SqlStore, SqlStore]


@pytest.fixture
def two(postgres: Postgres, tmp_path: Path) -> Iterator[Two]:
    """Two processes' stores on one database."""
    url = postgres.new_database()
    stores = open_store(tmp_path / "a", url), open_store(tmp_path / "b", url)
    yield stores
    for store in stores:
        store.close()


def _listening(store: SqlStore) -> tuple[queue.Queue[Change | None], Any]:
    heard_here: queue.Queue[Change | None] = queue.Queue()
    listener = store.listen(heard_here.put)
    assert listener is not None and listener.listening.wait(30)
    return heard_here, listener


def _queries(store: SqlStore) -> list[str]:
    """The statements ``store`` sends from now on."""
    sent: list[str] = []
    event.listen(store.engine, "before_cursor_execute", lambda *args: sent.append(args[2]))
    return sent


def test_a_record_another_process_appends_is_taken_from_its_notification(two: Two) -> None:
    writer, follower = MatchBook(two[0]), MatchBook(two[1])
    match_id = writer.create(HEADER, "tok")
    follower.snapshot(match_id)  # the follower's process holds the match's replay
    changes, listener = _listening(two[1])
    try:
        for seq, record in enumerate(PLAY):
            writer.append(match_id, seq, record, "tok")
        heard_here = [changes.get(timeout=30) for _ in PLAY]
    finally:
        listener.close()
    assert [c.record[0] if c and c.record else None for c in heard_here] == list(range(1, len(PLAY) + 1))
    sent = _queries(two[1])

    async def follow() -> list[str]:
        return [(await follower.follow(c)).version for c in heard_here if c]  # type: ignore[union-attr]

    assert run_apart(follow()) == [f"{n}.0" for n in range(1, len(PLAY) + 1)]
    assert sent == []  # not one query
    mine, theirs = writer.snapshot(match_id), follower.snapshot(match_id)
    assert theirs.lines == mine.lines and theirs.state == mine.state and theirs.rulings == mine.rulings


def test_a_record_that_does_not_follow_the_replay_is_read_from_the_database(two: Two) -> None:
    writer, follower = MatchBook(two[0]), MatchBook(two[1])
    match_id = writer.create(HEADER, "tok")
    follower.snapshot(match_id)
    writer.append(match_id, 0, PLAY[0], "tok")  # not heard by the follower
    writer.append(match_id, 1, PLAY[1], "tok")
    sent = _queries(two[1])
    snap = run_apart(follower.follow(Change(match_id, (2, '{"type": "call", "result": "carom"}'))))
    assert snap is not None and snap.seq == 2 and sent  # read
    assert snap.state == writer.snapshot(match_id).state


def test_a_notification_names_the_match_alone_when_its_record_is_too_long_or_its_own() -> None:
    assert heard("a1 7 3 {\"type\": \"undo\"}", "b2") == Change(7, (3, '{"type": "undo"}'))
    assert heard("a1 7", "b2") == Change(7)
    assert heard("a1 7 3 x", "a1") is None  # this process's own
    for garbage in ("", "a1", "a1 ²", "a1 7 ³ x", "a1 7 3", "a1 -7"):
        assert heard(garbage, "b2") is None, garbage


def test_a_record_too_long_for_a_notification_is_read(two: Two) -> None:
    changes, listener = _listening(two[1])
    try:
        with two[0].engine.begin() as connection:
            for match_id, line in ((5, "x" * MAX_PAYLOAD), (6, "x" * 100)):
                connection.execute(text("SELECT pg_notify(:c, :p)"),
                                   {"c": CHANNEL, "p": payload(two[0].origin, match_id, (1, line))})
        assert changes.get(timeout=30) == Change(5)
        assert changes.get(timeout=30) == Change(6, (1, "x" * 100))
    finally:
        listener.close()
