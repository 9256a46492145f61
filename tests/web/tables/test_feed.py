"""A table's live channel without a browser: what a tablet's and a screen's feeds send first,
and when the table moves on (a match put on it, a record, the confirmation that sends the
table to its next game); records of other tables' matches wake it for nothing."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from carom.storage import open_store
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.storage.events import Actor
from carom.storage.hall import Hall
from carom.storage.roles import Role
from carom.storage.table_games import TableGames
from carom.web.shared.hub import Hub
from carom.web.tables.feed import TableFeed
from tests.storage.test_hall import HEADER

OPENER = {"type": "opener", "player": 0}


def test_a_tables_feeds_follow_its_games(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    try:
        with ThreadPoolExecutor(1) as pool:  # a browser test's loop may run in this thread
            pool.submit(asyncio.run, _follow(store)).result(timeout=30)
    finally:
        store.close()


async def _follow(store: Any) -> None:
    book = MatchBook(store)
    hall = Hall(store)
    games = TableGames(book, hall)
    hub = Hub()
    hall.register("1", "large", 1, "anna")
    hall.register("2", "large", 2, "anna")
    first, second, elsewhere = (book.create(HEADER % names, "t")
                                for names in (("Anna", "Boris"), ("Cyril", "Dana"), ("Emil", "Fero")))
    tablet = TableFeed(games, hub, "1", "tablet", "en")
    screen = TableFeed(games, hub, "1", "screen", "de")
    assert await tablet.first() == [("table", 1, "none")]
    ((name, _, html),) = await screen.first()
    assert name == "board" and ("Auf diesem Tisch" in html or "No game is planned" in html)
    hall.put("1", first, "anna")
    hall.put("1", second, "anna")
    hall.put("2", elsewhere, "anna")
    hub.tables_changed()
    assert await tablet.next(1) == [("table", 2, f"m{first}.0.0")]
    ((name, _, html),) = await screen.next(1)
    assert "Anna – Boris" in html and "scoreboard" not in html  # not begun: what is next
    book.append(elsewhere, 0, OPENER, "t")
    hub.publish(elsewhere, "1.0")
    assert await tablet.next(0.2) == []  # another table's match: nothing to send
    done = book.append(first, 0, OPENER, "t")
    hub.publish(first, done.snapshot.version)
    assert await tablet.next(1) == [("table", 3, f"m{first}.1.0")]
    ((name, _, html),) = await screen.next(1)
    assert 'class="scoreboard' in html and "Cyril – Dana" in html  # the board, and what comes after
    for record in ({"type": "inning", "points": 2}, {"type": "inning", "points": 0}):
        book.append(first, book.snapshot(first).seq, record, "t")
    snap = book.confirm(first, Actor.ACCOUNT, Accounts(book.store).create(  # type: ignore[arg-type]
        "Olga", Role.ORGANISER, "not-a-hash", by=None))
    hub.publish(first, snap.version)
    assert await tablet.next(1) == [("table", 4, f"m{second}.0.0")]
    tablet.close()
    screen.close()
    assert hub.watching(first) == 0
