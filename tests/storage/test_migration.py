"""Revision 0002 (players with an identity, match events) on a database of revision
0001 full of matches: every match keeps its records and replays as before, and its
players become identities (one per folded name, as the statistics grouped them). On
SQLite and PostgreSQL."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from sqlalchemy import text

from carom.core.errors import RecordError
from carom.storage import open_store
from carom.storage.book import MatchBook
from tests.storage.revisions import at_revision


def _header(a: str, b: str) -> str:
    return json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                       "players": [a, b], "points": 2, "innings": None, "sets": None,
                       "equalizing_inning": True})


PLAY = ['{"type": "opener", "player": 0}', '{"type": "inning", "points": 2}',
        '{"type": "inning", "points": 1}']


def _revision_0001(database: str) -> None:
    """A database as ``carom serve`` left it before players had an identity."""
    engine = at_revision(database, "0001")
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

