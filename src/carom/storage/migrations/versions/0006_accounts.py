"""Named accounts with roles, their sessions, the login throttle and the accounts' log;
the account of every match event, record and created match, and the referee a match is
given to.

The organiser password of before (``settings.organiser_password``) becomes the first
account, an organiser called ``organiser``, with the same hash (an scrypt hash is
rehashed with argon2id at its next login). The events the organiser made before
(``actor = 'organiser'``) become that account's. The session generation of before goes:
sessions now live in their own table, and every session of before ends.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

FIRST_ORGANISER = "organiser"
"""The name the organiser password of before is given."""


def upgrade() -> None:
    accounts = op.create_table(
        "accounts",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("name_key", sa.String(200), nullable=False),
        sa.Column("role", sa.String(16), nullable=False),
        sa.Column("password_hash", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
        sa.Column("created_by", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("removed_by", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
    )
    active = sa.text("removed_at IS NULL")
    op.create_index("accounts_name_once", "accounts", ["name_key"], unique=True,
                    sqlite_where=active, postgresql_where=active)
    op.create_table(
        "sessions",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
        sa.Column("csrf", sa.String(64), nullable=False),
        sa.Column("expires", sa.BigInteger, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    op.create_index("ix_sessions_account_id", "sessions", ["account_id"])
    op.create_table(
        "login_throttle",
        sa.Column("key", sa.String(160), primary_key=True),
        sa.Column("tokens", sa.Float, nullable=False),
        sa.Column("at", sa.Float, nullable=False),
    )
    op.create_index("ix_login_throttle_at", "login_throttle", ["at"])
    op.create_table(
        "account_log",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer, sa.ForeignKey("accounts.id"), nullable=True),
        sa.Column("action", sa.String(32), nullable=False),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now()),
    )
    # ADD COLUMN with its reference inline, as revision 0002 does: no batch copy of a table
    # that records hang on.
    for table, column in (("matches", "created_by"), ("matches", "referee_account_id"),
                          ("records", "account_id"), ("match_events", "account_id")):
        op.execute(f"ALTER TABLE {table} ADD COLUMN {column} INTEGER REFERENCES accounts (id)")
    op.execute("ALTER TABLE match_events ADD COLUMN detail TEXT")
    _first_organiser(accounts)


def _first_organiser(accounts: sa.Table) -> None:
    """The organiser password of before as the first organiser's account, and the
    organiser's events of before as that account's."""
    connection = op.get_bind()
    settings = sa.table("settings", sa.column("key", sa.String), sa.column("value", sa.Text))
    events = sa.table("match_events", sa.column("actor", sa.String), sa.column("account_id", sa.Integer))
    stored = connection.execute(sa.select(settings.c.value)
                                .where(settings.c.key == "organiser_password")).scalar()
    first = None
    if stored:
        first = connection.execute(sa.insert(accounts).values(
            name=FIRST_ORGANISER, name_key=FIRST_ORGANISER, role="organiser", password_hash=stored)
            .returning(accounts.c.id)).scalar_one()
    connection.execute(sa.update(events).where(events.c.actor == "organiser")
                       .values(actor="account", account_id=first))
    connection.execute(sa.delete(settings).where(settings.c.key.in_(("organiser_password",
                                                                     "session_generation"))))


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":  # dropping columns would copy the records' table
        raise NotImplementedError("revision 0006 is not undone on SQLite: restore a copy of the database")
    connection = op.get_bind()
    first = connection.execute(sa.text(
        "SELECT password_hash FROM accounts WHERE role = 'organiser' AND removed_at IS NULL "
        "ORDER BY id LIMIT 1")).scalar()
    if first is not None:
        connection.execute(sa.text("INSERT INTO settings (key, value) VALUES ('organiser_password', :v)"),
                           {"v": first})
    connection.execute(sa.text("UPDATE match_events SET actor = 'organiser' WHERE actor = 'account'"))
    op.drop_column("match_events", "detail")
    for table, column in (("match_events", "account_id"), ("records", "account_id"),
                          ("matches", "referee_account_id"), ("matches", "created_by")):
        op.drop_column(table, column)
    op.drop_table("account_log")
    op.drop_index("ix_login_throttle_at", "login_throttle")
    op.drop_table("login_throttle")
    op.drop_index("ix_sessions_account_id", "sessions")
    op.drop_table("sessions")
    op.drop_index("accounts_name_once", "accounts")
    op.drop_table("accounts")
