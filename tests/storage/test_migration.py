"""Revision 0002 (players with an identity, match events) on a database of revision
0001 full of matches: every match keeps its records and replays as before, and its
players become identities (one per folded name, as the statistics grouped them). On
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import text

from carom.core.errors import RecordError
from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.storage.engine import make_engine
from carom.storage.migrate import alembic_config


def _header(a: str, b: str) -> str:
    return json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                       "players": [a, b], "points": 2, "innings": None, "sets": None,
                       "equalizing_inning": True})


PLAY = ['{"type": "opener", "player": 0}', '{"type": "inning", "points": 2}',
        '{"type": "inning", "points": 1}']


def _revision_0001(database: str) -> None:
    """A database as ``carom serve`` left it before players had an identity."""
    engine = make_engine(database)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0001")
    with engine.begin() as connection:
        for header, lines in ([
            (_header("Anna Nováková", "Boris"), PLAY),
            (_header("anna  nováková", "Cyril"), PLAY[:2]),  # the same player, typed otherwise
            (_header("Boris", "Cyril"), []),
            ('{"format": "carom/1", "players": "broken"}', []),  # a header that no longer reads
        ]):
            match_id = connection.execute(text("INSERT INTO matches (header, referee_token) VALUES (:h, 't') "
                                               "RETURNING id"), {"h": header}).scalar_one()
            for seq, line in enumerate(lines, start=1):
                connection.execute(text("INSERT INTO records (match_id, seq, line) VALUES (:m, :s, :l)"),
                                   {"m": match_id, "s": seq, "l": line})
    engine.dispose()


def test_existing_matches_keep_their_records_and_get_players(database: str, tmp_path: Path) -> None:
    _revision_0001(database)
    store = open_store(tmp_path, database)  # migrates to the head
    try:
        assert [store.read(i).lines for i in (1, 2, 3)] == [tuple(PLAY), tuple(PLAY[:2]), ()]
        players = {p.name: p.id for p in store.players()}
        assert len(players) == 3
        anna, boris, cyril = players["Anna Nováková"], players["Boris"], players["Cyril"]
        assert [store.read(i).players for i in (1, 2, 3, 4)] == [(anna, boris), (anna, cyril),
                                                                   (boris, cyril), None]
        book = MatchBook(store)
        assert book.snapshot(1).state.finished and book.snapshot(1).state.winner == 0
        with pytest.raises(RecordError):  # read-only as before: its header does not read
            book.snapshot(4)
        # a new match with a known name is that player again; a new name a new player
        book.create(_header("ANNA NOVÁKOVÁ", "Dana"), "tok")
        assert len(store.players()) == 4
        assert store.matches()[0].players == (anna, max(p.id for p in store.players()))
        assert store.append(3, 0, PLAY[0]) == 1  # the migrated match takes records
    finally:
        store.close()


def test_the_organiser_password_of_before_becomes_the_first_organisers_account(database: str,
                                                                               tmp_path: Path) -> None:
    """Revision 0005 on a database of 0004: the password hash and the organiser's events are
    the account ``organiser``'s; the session generation goes (every old session ends)."""
    engine = make_engine(database)
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, "0004")
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
