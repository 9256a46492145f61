"""The tables: players, matches (header, referee token, players), records (append-only),
what happened to a match beside its records (match events), settings."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
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
    Column("name", Text, nullable=False),
    Column("discipline", String(64), nullable=False),
    Column("table_size", String(32), nullable=False, doc="the carom/1 header's table"),
    Column("points", Integer, nullable=True, doc="the points limit (the distance)"),
    Column("innings", Integer, nullable=True),
    Column("sets_to_win", Integer, nullable=True),
    Column("equalizing_inning", Boolean, nullable=False),
    Column("mode", String(32), nullable=False, doc="round_robin, knockout or groups_knockout"),
    Column("groups", Integer, nullable=False),
    Column("tables", Integer, nullable=False),
    Column("handicap", Boolean, nullable=False),
    Column("knockout_size", Integer, nullable=True, doc="places in the knock-out (null: the default)"),
    Column("seeding", String(16), nullable=False, doc="average or hand"),
    Column("clock", Text, nullable=True, doc="every game's shot clock: the header's clock object as JSON "
                                             "(null: none); revision 0004"),
    Column("state", String(16), nullable=False, doc="entry, running or finished"),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
)
"""A tournament: its settings (what every game's carom/1 header is made of) and its mode."""

participants = Table(
    "participants", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("seed", Integer, nullable=True, doc="the seed by hand (1 the strongest); null: by average"),
    Column("target", Integer, nullable=True, doc="the handicap target by hand; null: from the average"),
    Column("group_no", Integer, nullable=True, doc="1, 2, ... once the tournament has started"),
    UniqueConstraint("tournament_id", "player_id", name="participants_once"),
)

tournament_groups = Table(
    "tournament_groups", metadata,
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("name", String(32), nullable=False),
    PrimaryKeyConstraint("tournament_id", "number", name="tournament_groups_pkey"),
)

games = Table(
    "games", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("tournament_id", Integer, ForeignKey("tournaments.id", ondelete="CASCADE"), nullable=False,
           index=True),
    Column("stage", String(8), nullable=False, doc="group or ko"),
    Column("group_no", Integer, nullable=True),
    Column("round", Integer, nullable=False),
    Column("slot", Integer, nullable=False, doc="the game's place in its round (the bracket index in ko)"),
    Column("order_no", Integer, nullable=False, doc="the schedule's order"),
    Column("player0_id", Integer, ForeignKey("players.id"), nullable=True, doc="null: not known yet (ko)"),
    Column("player1_id", Integer, ForeignKey("players.id"), nullable=True),
    Column("table_no", Integer, nullable=True, doc="the table it is played on, once started"),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=True,
           doc="the ordinary match that is this game, once started"),
    UniqueConstraint("tournament_id", "stage", "group_no", "round", "slot", name="games_place"),
)
"""A game of a tournament. Its result is its match's (a carom/1 match like any other)."""

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
"""The hall's log (revision 0005): every change to the club's tables and their devices,
appended, never changed. Pairing codes and device tokens appear only as their hashes."""
