"""Storage: each match an append-only sequence of ``carom/1`` lines in a database.

The database holds what was entered, never what the rules make of it: a match's
state is always the replay of its records (:mod:`carom.storage.book`). SQLite in a
data folder by default, PostgreSQL on request; one small interface (:class:`Store`).
"""

from __future__ import annotations

from carom.storage.errors import StaleSequence, StorageError, UnknownMatch
from carom.storage.store import MatchInfo, SqlStore, Store, StoredMatch, open_store

__all__ = [
    "MatchInfo", "SqlStore", "StaleSequence", "StorageError", "Store", "StoredMatch",
    "UnknownMatch", "open_store",
]
