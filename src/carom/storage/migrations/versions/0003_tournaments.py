"""Tournaments: their settings, participants (registered players), groups and games;
the register's club, country and licence number for players.

Each game refers to an ordinary match of the matches table once it starts: matches
created before this revision are untouched.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    for column, kind in (("club", "TEXT"), ("country", "VARCHAR(64)"), ("licence", "VARCHAR(64)")):
        op.execute(f"ALTER TABLE players ADD COLUMN {column} {kind}")
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("discipline", sa.String(64), nullable=False),
        sa.Column("table_size", sa.String(32), nullable=False),
        sa.Column("points", sa.Integer, nullable=True),
        sa.Column("innings", sa.Integer, nullable=True),
        sa.Column("sets_to_win", sa.Integer, nullable=True),
        sa.Column("equalizing_inning", sa.Boolean, nullable=False),
        sa.Column("mode", sa.String(32), nullable=False),
        sa.Column("groups", sa.Integer, nullable=False),
        sa.Column("tables", sa.Integer, nullable=False),
        sa.Column("handicap", sa.Boolean, nullable=False),
        sa.Column("knockout_size", sa.Integer, nullable=True),
        sa.Column("seeding", sa.String(16), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_table(
        "participants",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("player_id", sa.Integer, sa.ForeignKey("players.id"), nullable=False),
        sa.Column("seed", sa.Integer, nullable=True),
        sa.Column("target", sa.Integer, nullable=True),
        sa.Column("group_no", sa.Integer, nullable=True),
        sa.UniqueConstraint("tournament_id", "player_id", name="participants_once"),
    )
    op.create_index("ix_participants_tournament_id", "participants", ["tournament_id"])
    op.create_table(
        "tournament_groups",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("name", sa.String(32), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "number", name="tournament_groups_pkey"),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("stage", sa.String(8), nullable=False),
        sa.Column("group_no", sa.Integer, nullable=True),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("slot", sa.Integer, nullable=False),
        sa.Column("order_no", sa.Integer, nullable=False),
        sa.Column("player0_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("player1_id", sa.Integer, sa.ForeignKey("players.id"), nullable=True),
        sa.Column("table_no", sa.Integer, nullable=True),
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), nullable=True),
        sa.UniqueConstraint("tournament_id", "stage", "group_no", "round", "slot", name="games_place"),
    )
    op.create_index("ix_games_tournament_id", "games", ["tournament_id"])


def downgrade() -> None:
    op.drop_index("ix_games_tournament_id", "games")
    op.drop_table("games")
    op.drop_table("tournament_groups")
    op.drop_index("ix_participants_tournament_id", "participants")
    op.drop_table("participants")
    op.drop_table("tournaments")
    if op.get_bind().dialect.name == "sqlite":  # dropping a column copies the table on old SQLite
        return
    for column in ("licence", "country", "club"):
        op.drop_column("players", column)
