"""Revision 0006 (named accounts) on a database of revision 0005: the organiser password
of before becomes the first organiser's account, its events that account's. On SQLite
and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import text

from carom.storage import open_store
from tests.storage.revisions import at_revision


def _header(a: str, b: str) -> str:
    return json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                       "players": [a, b], "points": 2, "innings": None, "sets": None,
                       "equalizing_inning": True})


def test_the_organiser_password_of_before_becomes_the_first_organisers_account(database: str,
                                                                               tmp_path: Path) -> None:
    """Revision 0006 on a database of 0005: the password hash and the organiser's events are
    the account ``organiser``'s; the session generation goes (every old session ends)."""
    engine = at_revision(database, "0005")
    old_hash = "scrypt$16384$8$1$c2FsdA$ZGlnZXN0"
    with engine.begin() as connection:
        connection.execute(text("INSERT INTO settings (key, value) VALUES ('organiser_password', :h), "
                                "('session_generation', '7')"), {"h": old_hash})
        match_id = connection.execute(text("INSERT INTO matches (header, referee_token) VALUES (:h, 't') "
                                           "RETURNING id"), {"h": _header("Anna", "Boris")}).scalar_one()
        for actor in ("player0", "organiser"):
            connection.execute(text("INSERT INTO match_events (match_id, seq, kind, actor) "
                                    "VALUES (:m, 0, 'confirm', :a)"), {"m": match_id, "a": actor})
    engine.dispose()
    store = open_store(tmp_path, database)
    try:
        from carom.storage.accounts import Accounts
        from carom.storage.events import Actor
        from carom.storage.roles import Role

        found = Accounts(store).credentials("Organiser")
        assert found is not None and found[1] == old_hash and found[0].role is Role.ORGANISER
        events = store.read(match_id).events
        assert [(e.actor, e.account) for e in events] == [(Actor.PLAYER0, None), (Actor.ACCOUNT, found[0])]
        assert store.setting("organiser_password") is None and store.setting("session_generation") is None
    finally:
        store.close()


def test_a_database_without_an_organiser_password_gets_no_account(database: str, tmp_path: Path) -> None:
    store = open_store(tmp_path, database)
    try:
        from carom.storage.accounts import Accounts

        assert not Accounts(store).exist()
    finally:
        store.close()
