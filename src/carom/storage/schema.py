"""The tables: players, matches (header, referee token, players), records (append-only),
what happened to a match beside its records (match events), settings."""

from __future__ import annotations

from sqlalchemy import (
    Column,
    DateTime,
    ForeignKey,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    func,
)

metadata = MetaData()

players = Table(
    "players", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False, doc="the name as first entered"),
    Column("name_key", String(200), nullable=False, index=True,
           doc="the name folded for finding the player again (carom.storage.players.name_key)"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""A player is an identity: statistics follow the id, not a spelling of a name. Two
players may share a name (a register tells them apart by club or licence)."""

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("header", Text, nullable=False, doc="line 1 of the match file"),
    Column("referee_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("player0_id", Integer, ForeignKey("players.id"), nullable=True,
           doc="the header's first player (null only for a match stored without players)"),
    Column("player1_id", Integer, ForeignKey("players.id"), nullable=True),
)

records = Table(
    "records", metadata,
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False, doc="1 for the first record after the header"),
    Column("line", Text, nullable=False, doc="the record's carom/1 line"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    PrimaryKeyConstraint("match_id", "seq", name="records_pkey"),
)
"""The primary key (match, seq) is what makes a second write after the same record fail."""

match_events = Table(
    "match_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seq", Integer, nullable=False, doc="the match's number of records when it happened"),
    Column("kind", String(32), nullable=False, doc="confirm, reopen or new-tablet-link"),
    Column("actor", String(32), nullable=False, doc="player0, player1 or organiser"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""What the organiser and the players did to a match beside its records: confirming the
result, reopening it, issuing a new tablet link. Appended, never changed."""

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
