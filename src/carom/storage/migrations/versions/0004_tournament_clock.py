"""Tournaments: the shot clock of every game (the carom/1 header's ``clock`` object,
as JSON; null: no clock). Tournaments made before have none.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tournaments", sa.Column("clock", sa.Text, nullable=True))


def downgrade() -> None:
    op.drop_column("tournaments", "clock")
