"""The tables: players, matches (header, referee token, players), records (append-only),
what happened to a match beside its records (match events), settings, and the accounts
with their sessions, login throttle and log (revision 0006)."""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
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
    Column("created_by", Integer, ForeignKey("accounts.id"), nullable=True,
           doc="the account that created or imported it (revision 0006; null: before accounts)"),
    Column("referee_account_id", Integer, ForeignKey("accounts.id"), nullable=True,
           doc="the referee's account it is given to (null: nobody's)"),
)

records = Table(
    "records", metadata,
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
    Column("seq", Integer, nullable=False, doc="1 for the first record after the header"),
    Column("line", Text, nullable=False, doc="the record's carom/1 line"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True,
           doc="the account that entered it (null: the match's tablet link alone, or before accounts)"),
    PrimaryKeyConstraint("match_id", "seq", name="records_pkey"),
)
"""The primary key (match, seq) is what makes a second write after the same record fail."""

match_events = Table(
    "match_events", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("seq", Integer, nullable=False, doc="the match's number of records when it happened"),
    Column("kind", String(32), nullable=False, doc="confirm, reopen, new-tablet-link or referee"),
    Column("actor", String(32), nullable=False, doc="player0, player1 or account"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True,
           doc="the account that did it (revision 0006)"),
    Column("detail", Text, nullable=True, doc="what it was given: the referee's name"),
)
"""What the accounts and the players did to a match beside its records: confirming the
result, reopening it, issuing a new tablet link, giving it to a referee. Appended, never
changed."""

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


accounts = Table(
    "accounts", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(60), nullable=False, doc="the name one logs in with, as typed"),
    Column("name_key", String(200), nullable=False, doc="the name folded (carom.storage.players.name_key)"),
    Column("role", String(16), nullable=False, doc="organiser, director or referee"),
    Column("password_hash", Text, nullable=False, doc="argon2id (an scrypt hash of before is rehashed)"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    Column("created_by", Integer, ForeignKey("accounts.id"), nullable=True),
    Column("removed_at", DateTime(timezone=True), nullable=True,
           doc="set when removed: the row stays, for the records and events that name it"),
    Column("removed_by", Integer, ForeignKey("accounts.id"), nullable=True),
)
"""A named account with a role (carom.storage.roles). A removed account keeps its row."""

Index("accounts_name_once", accounts.c.name_key, unique=True,
      sqlite_where=accounts.c.removed_at.is_(None), postgresql_where=accounts.c.removed_at.is_(None))

sessions = Table(
    "sessions", metadata,
    Column("key", String(64), primary_key=True, doc="SHA-256 of the cookie's random token, in hex"),
    Column("account_id", Integer, ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("csrf", String(64), nullable=False, doc="the session's anti-forgery token"),
    Column("expires", BigInteger, nullable=False, doc="Unix time"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""A logged-in browser or program. Kept in the database so that a logout, a password
change or a removal ends it in every server process at once."""

login_throttle = Table(
    "login_throttle", metadata,
    Column("key", String(160), primary_key=True, doc="account:<folded name> or client:<address>"),
    Column("tokens", Float, nullable=False, doc="attempts left (a token bucket)"),
    Column("at", Float, nullable=False, index=True, doc="Unix time the tokens were counted"),
)
"""The login attempts each account and each client address has left, shared by every
server process."""

account_log = Table(
    "account_log", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", Integer, ForeignKey("accounts.id"), nullable=True,
           doc="who (null: the command line)"),
    Column("action", String(32), nullable=False),
    Column("subject", Text, nullable=False, doc="what: an account's name, a count"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""What accounts changed outside a match's own log: accounts made, removed or reset,
passwords changed, the register imported. Appended, never changed."""

table_log = Table(
    "table_log", metadata,
    Column("seq", Integer, primary_key=True, autoincrement=False,
           doc="1 for the hall's first record; the key makes a second write after the same record fail"),
    Column("kind", String(32), nullable=False,
           doc="the record's type (carom.competition.tables.records.KINDS)"),
    Column("actor", String(200), nullable=False, doc="the account that made it"),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("body", Text, nullable=False, doc="the whole record as JSON (carom.competition.tables.codec)"),
)
"""The hall's log (revision 0008): every change to the club's tables and their devices,
appended, never changed. Pairing codes and device tokens appear only as their hashes."""
