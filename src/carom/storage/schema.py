"""The tables: matches (header and referee token), records (append-only), settings."""

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

matches = Table(
    "matches", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("header", Text, nullable=False, doc="line 1 of the match file"),
    Column("referee_token", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
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

settings = Table(
    "settings", metadata,
    Column("key", String(64), primary_key=True),
    Column("value", Text, nullable=False),
)
