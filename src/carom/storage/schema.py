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
    UniqueConstraint,
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
    Column("club", Text, nullable=True, doc="the register's club (revision 0003)"),
    Column("country", String(64), nullable=True),
    Column("licence", String(64), nullable=True, doc="a federation's licence number"),
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

tournaments = Table(
    "tournaments", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""A tournament's identity; all it is (settings, entries, games, results) is its log
(revision 0005: the rows of revisions 0003-0004 became log records)."""

tournament_log = Table(
    "tournament_log", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False, doc="1 for the record that made the tournament"),
    Column("kind", String(32), nullable=False, doc="the record's type (carom.competition.day.records.KINDS)"),
    Column("actor", String(200), nullable=False, doc="the account that made it; schedule for the schedule"),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("body", Text, nullable=False, doc="the whole record as JSON (carom.competition.day.codec)"),
    PrimaryKeyConstraint("tournament_id", "seq", name="tournament_log_pkey"),
)
"""Every change to a tournament, appended, never changed. The primary key (tournament,
seq) is what makes a record written after the same one by another process fail: a
tournament's next games are called exactly once however many processes advance it."""

tournament_matches = Table(
    "tournament_matches", metadata,
    Column("match_id", Integer, ForeignKey("matches.id"), primary_key=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("game", String(40), nullable=False, doc="the game's key (carom.competition.day.keys)"),
    UniqueConstraint("tournament_id", "game", name="tournament_matches_game_once"),
)
"""Which tournament game a match is, written with the record that called the game: a
match is one game's, and a game has one match."""
