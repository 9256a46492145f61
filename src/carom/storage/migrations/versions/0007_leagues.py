"""Leagues: leagues, seasons, divisions, clubs, teams, rosters, fixtures, captain links,
line-ups, meeting games (each an ordinary match) and the captains' sign-offs of meeting
reports (carom.storage.leagues.tables says what each holds). Nothing existing changes.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None
C, FK, Int, Str = sa.Column, sa.ForeignKey, sa.Integer, sa.String


def _made() -> list[sa.Column]:  # type: ignore[type-arg]
    return [C("actor", Str(64), nullable=False),
            C("created_at", sa.DateTime(timezone=True), nullable=False, server_default=sa.func.now())]


def _seasons() -> sa.Column:  # type: ignore[type-arg]
    return C("season_id", Int, FK("league_seasons.id"), nullable=False)


def upgrade() -> None:
    op.create_table("league_leagues", C("id", Int, primary_key=True, autoincrement=True),
                    C("name", sa.Text, nullable=False, unique=True), *_made())
    op.create_table("league_seasons", C("id", Int, primary_key=True, autoincrement=True),
                    C("league_id", Int, FK("league_leagues.id"), nullable=False),
                    C("name", Str(64), nullable=False), *_made(),
                    sa.UniqueConstraint("league_id", "name", name="league_seasons_once"))
    op.create_table("league_divisions", _seasons(), C("code", Str(64), nullable=False),
                    C("position", Int, nullable=False), C("name", sa.Text, nullable=False),
                    C("format", Str(64), nullable=False),
                    C("up", Str(64), nullable=True), C("down", Str(64), nullable=True),
                    C("promote", Int, nullable=False),
                    C("relegate", Int, nullable=False),
                    C("one_team_per_club", sa.Boolean, nullable=False),
                    sa.PrimaryKeyConstraint("season_id", "code", name="league_divisions_pkey"))
    op.create_table("league_clubs", C("id", Int, primary_key=True, autoincrement=True),
                    _seasons(), C("name", sa.Text, nullable=False),
                    sa.UniqueConstraint("season_id", "name", name="league_clubs_once"))
    op.create_index("ix_league_clubs_season_id", "league_clubs", ["season_id"])
    op.create_table("league_teams", C("id", Int, primary_key=True, autoincrement=True),
                    _seasons(), C("club_id", Int, FK("league_clubs.id"), nullable=False),
                    C("division", Str(64), nullable=False),
                    C("number", Int, nullable=False), C("name", sa.Text, nullable=False),
                    sa.UniqueConstraint("season_id", "name", name="league_teams_once"))
    op.create_index("ix_league_teams_season_id", "league_teams", ["season_id"])
    op.create_table("league_rosters", _seasons(),
                    C("team_id", Int, FK("league_teams.id"), nullable=False),
                    C("player_id", Int, FK("players.id"), nullable=False),
                    C("position", Int, nullable=False), *_made(),
                    sa.PrimaryKeyConstraint("season_id", "player_id", name="league_rosters_one_team"))
    op.create_index("ix_league_rosters_team_id", "league_rosters", ["team_id"])
    op.create_table("league_fixtures", C("id", Int, primary_key=True, autoincrement=True),
                    _seasons(), C("division", Str(64), nullable=False),
                    C("round", Int, nullable=False),
                    C("home_id", Int, FK("league_teams.id"), nullable=False),
                    C("away_id", Int, FK("league_teams.id"), nullable=False),
                    C("start", sa.DateTime(timezone=False), nullable=False),
                    C("number", Int, nullable=False))
    op.create_index("ix_league_fixtures_season_id", "league_fixtures", ["season_id"])
    op.create_table("league_captains", C("id", Int, primary_key=True, autoincrement=True),
                    _seasons(), C("team_id", Int, FK("league_teams.id"), nullable=False),
                    C("token_hash", Str(64), nullable=False), *_made())
    op.create_index("ix_league_captains_team_id", "league_captains", ["team_id"])
    op.create_table("league_lineups", C("id", Int, primary_key=True, autoincrement=True),
                    C("fixture_id", Int, FK("league_fixtures.id"), nullable=False),
                    C("team_id", Int, FK("league_teams.id"), nullable=False),
                    C("submitted", sa.DateTime(timezone=False), nullable=False), *_made(),
                    sa.UniqueConstraint("fixture_id", "team_id", name="league_lineups_once"))
    op.create_index("ix_league_lineups_fixture_id", "league_lineups", ["fixture_id"])
    op.create_table("league_lineup_players",
                    C("lineup_id", Int, FK("league_lineups.id"), nullable=False),
                    C("position", Int, nullable=False),
                    C("player_id", Int, FK("players.id"), nullable=False),
                    sa.PrimaryKeyConstraint("lineup_id", "position", name="league_lineup_players_pkey"))
    op.create_table("league_games",
                    C("fixture_id", Int, FK("league_fixtures.id"), nullable=False),
                    C("number", Int, nullable=False), C("round", Int, nullable=False),
                    C("match_id", Int, FK("matches.id"), nullable=False, unique=True),
                    C("created_at", sa.DateTime(timezone=True), nullable=False,
                              server_default=sa.func.now()),
                    sa.PrimaryKeyConstraint("fixture_id", "number", name="league_games_pkey"))
    op.create_table("league_signoffs", C("id", Int, primary_key=True, autoincrement=True),
                    C("fixture_id", Int, FK("league_fixtures.id"), nullable=False),
                    C("team_id", Int, FK("league_teams.id"), nullable=False),
                    C("versions", sa.Text, nullable=False), *_made())
    op.create_index("ix_league_signoffs_fixture_id", "league_signoffs", ["fixture_id"])


def downgrade() -> None:
    for table in ("league_signoffs", "league_games", "league_lineup_players", "league_lineups",
                  "league_captains", "league_fixtures", "league_rosters", "league_teams", "league_clubs",
                  "league_divisions", "league_seasons", "league_leagues"):
        op.drop_table(table)
