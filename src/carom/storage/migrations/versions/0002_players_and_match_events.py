"""Players with an identity, the match's players by id, and match events.

Existing matches keep working: each name of their headers becomes a player (one player
per folded name, as the statistics grouped them until now) and the match refers to them.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-03
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from carom.storage.players import name_key

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_players_name_key", "players", ["name_key"])
    # ADD COLUMN with its reference inline (SQL both databases take), not a batch copy: on
    # SQLite a copy would drop the old table, and with foreign keys on that would take the
    # records with it.
    for column in ("player0_id", "player1_id"):
        op.execute(f"ALTER TABLE matches ADD COLUMN {column} INTEGER REFERENCES players (id)")
    op.create_table(
        "match_events",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id", ondelete="CASCADE"), nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(32), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_match_events_match_id", "match_events", ["match_id"])
    _players_of_existing_matches()


def _players_of_existing_matches() -> None:
    connection = op.get_bind()
    matches = sa.table("matches", sa.column("id", sa.Integer), sa.column("header", sa.Text),
                       sa.column("player0_id", sa.Integer), sa.column("player1_id", sa.Integer))
    players = sa.table("players", sa.column("id", sa.Integer), sa.column("name", sa.Text),
                       sa.column("name_key", sa.String))
    known: dict[str, int] = {}
    for match_id, header in connection.execute(sa.select(matches.c.id, matches.c.header)).all():
        try:
            names = json.loads(header)["players"]
        except (ValueError, KeyError, TypeError):
            continue  # a header that no longer reads: the match stays read-only, without players
        if not (isinstance(names, list) and len(names) == 2 and all(isinstance(n, str) for n in names)):
            continue
        ids = []
        for name in names:
            key = name_key(name)
            if key not in known:
                known[key] = connection.execute(
                    sa.insert(players).values(name=name, name_key=key).returning(players.c.id)).scalar_one()
            ids.append(known[key])
        connection.execute(sa.update(matches).where(matches.c.id == match_id)
                           .values(player0_id=ids[0], player1_id=ids[1]))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":  # a batch copy of matches would take the records along
        raise NotImplementedError("revision 0002 is not undone on SQLite: restore a copy of the database")
    op.drop_index("ix_match_events_match_id", "match_events")
    op.drop_table("match_events")
    op.drop_column("matches", "player1_id")
    op.drop_column("matches", "player0_id")
    op.drop_index("ix_players_name_key", "players")
    op.drop_table("players")
