"""The league tables (revision 0007). Every row is a record of what somebody did, with
who did it (``actor``) and when; no row is ever changed or deleted: a new captain link
makes the old one stale, a line-up is in once, a sign-off counts for the games as they
stood. Results are not stored: a meeting's games are ordinary matches
(``league_games.match_id``), and tables, promotion and statistics are computed from
their records (:mod:`carom.league`)."""

from __future__ import annotations

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
    func,
)

from carom.storage.schema import metadata

ACTOR = 64


def _made() -> tuple[Column[str], Column[object]]:
    return (Column("actor", String(ACTOR), nullable=False, doc="organiser, or captain:<team id>"),
            Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()))


leagues = Table(
    "league_leagues", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", Text, nullable=False, unique=True),
    *_made(),
)

seasons = Table(
    "league_seasons", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("league_id", Integer, ForeignKey("league_leagues.id"), nullable=False),
    Column("name", String(64), nullable=False),
    *_made(),
    UniqueConstraint("league_id", "name", name="league_seasons_once"),
)

divisions = Table(
    "league_divisions", metadata,
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("code", String(64), nullable=False, doc="the division's id in the sheets"),
    Column("position", Integer, nullable=False, doc="the order of the divisions sheet"),
    Column("name", Text, nullable=False),
    Column("format", String(64), nullable=False, doc="a row of carom.league.FORMATS"),
    Column("up", String(64), nullable=True),
    Column("down", String(64), nullable=True),
    Column("promote", Integer, nullable=False),
    Column("relegate", Integer, nullable=False),
    Column("one_team_per_club", Boolean, nullable=False),
    PrimaryKeyConstraint("season_id", "code", name="league_divisions_pkey"),
)

clubs = Table(
    "league_clubs", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False, index=True),
    Column("name", Text, nullable=False),
    UniqueConstraint("season_id", "name", name="league_clubs_once"),
)

teams = Table(
    "league_teams", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False, index=True),
    Column("club_id", Integer, ForeignKey("league_clubs.id"), nullable=False),
    Column("division", String(64), nullable=False),
    Column("number", Integer, nullable=False, doc="the club's 1st, 2nd, ... team"),
    Column("name", Text, nullable=False),
    UniqueConstraint("season_id", "name", name="league_teams_once"),
)

rosters = Table(
    "league_rosters", metadata,
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False, index=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("position", Integer, nullable=False, doc="the order the club listed its players in"),
    *_made(),
    PrimaryKeyConstraint("season_id", "player_id", name="league_rosters_one_team"),
)
"""The primary key is LG1 (a player on one team's roster per league and season) in the
database too."""

fixtures = Table(
    "league_fixtures", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False, index=True),
    Column("division", String(64), nullable=False),
    Column("round", Integer, nullable=False),
    Column("home_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("away_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("start", DateTime(timezone=False), nullable=False,
           doc="the meeting's start, the venue's local time"),
    Column("number", Integer, nullable=False, doc="the line of the fixtures sheet"),
)

captains = Table(
    "league_captains", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("season_id", Integer, ForeignKey("league_seasons.id"), nullable=False),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False, index=True),
    Column("token_hash", String(64), nullable=False, doc="sha-256 of the captain link's token"),
    *_made(),
)
"""Captain links issued by the organiser: the newest of a team is the one that works."""

lineups = Table(
    "league_lineups", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False, index=True),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("submitted", DateTime(timezone=False), nullable=False, doc="the server's clock (local time)"),
    *_made(),
    UniqueConstraint("fixture_id", "team_id", name="league_lineups_once"),
)

lineup_players = Table(
    "league_lineup_players", metadata,
    Column("lineup_id", Integer, ForeignKey("league_lineups.id"), nullable=False),
    Column("position", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    PrimaryKeyConstraint("lineup_id", "position", name="league_lineup_players_pkey"),
)

games = Table(
    "league_games", metadata,
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False),
    Column("number", Integer, nullable=False, doc="the format's game number"),
    Column("round", Integer, nullable=False, doc="the games of a round are played at once"),
    Column("match_id", Integer, ForeignKey("matches.id"), nullable=False, unique=True),
    Column("created_at", DateTime(timezone=True), nullable=False, server_default=func.now()),
    PrimaryKeyConstraint("fixture_id", "number", name="league_games_pkey"),
)
"""A game of a meeting: an ordinary match, to be played on a table of the home club."""

signoffs = Table(
    "league_signoffs", metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("fixture_id", Integer, ForeignKey("league_fixtures.id"), nullable=False, index=True),
    Column("team_id", Integer, ForeignKey("league_teams.id"), nullable=False),
    Column("versions", Text, nullable=False, doc="JSON: each game's match id -> its version when signed"),
    *_made(),
)
"""A captain's signature under the meeting report; it holds while every game's match is
at the version it was signed at (a match reopened and changed needs new signatures)."""
