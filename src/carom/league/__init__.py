"""Leagues: seasons, divisions, clubs, teams and rosters, home-and-away meetings, line-ups,
meeting results, league tables, promotion and relegation, players' statistics and CSV
sheets. Pure: the standard library, :mod:`carom.competition` and the core's errors;
players, teams and meetings are ids.

A league is a sibling of a tournament (ARCHITECTURE.md): every game of a meeting is an
ordinary ``carom/1`` match, and a meeting's format is a data row
(:data:`~carom.league.formats.FORMATS`, docs/leagues.md cites each). Every refusal names
the league rule that forbids it (:data:`~carom.league.rules.LEAGUE_RULES`), and nothing is
changed by it: the functions return new values.
"""

from __future__ import annotations

from carom.league.errors import LeagueError
from carom.league.fixtures import Fixture, check_fixtures, double_round_robin, rounds_of
from carom.league.formats import (
    FORMATS,
    GameSlot,
    Handicap,
    MeetingFormat,
    Points,
    Substitutes,
    TieBreak,
    Weight,
    meeting_format,
)
from carom.league.lineups import LineUp, check_lineup, half_of, visible_lineups
from carom.league.meetings import (
    GameResult,
    MeetingResult,
    PlannedGame,
    ScoredGame,
    plan_meeting,
    score_meeting,
)
from carom.league.promotion import Move, promotion_and_relegation
from carom.league.reports import Reports, correct, report
from carom.league.rules import LEAGUE_RULES
from carom.league.season import Club, Division, Season, Team
from carom.league.sheets import (
    TeamSheet,
    decode_sheet,
    read_divisions,
    read_fixtures,
    read_teams,
    teams_sheet_names,
    write_table,
)
from carom.league.stats import Competition, PlayerGame, PlayerLine, league_games, player_stats
from carom.league.table import TableLine, league_table

__all__ = [
    "FORMATS", "LEAGUE_RULES", "Club", "Competition", "Division", "Fixture", "GameResult", "GameSlot",
    "Handicap", "LeagueError", "LineUp", "MeetingFormat", "MeetingResult", "Move", "PlannedGame",
    "PlayerGame", "PlayerLine", "Points", "Reports", "ScoredGame", "Season", "Substitutes", "TableLine",
    "Team", "TeamSheet", "TieBreak", "Weight", "check_fixtures", "check_lineup", "correct", "decode_sheet",
    "double_round_robin", "half_of", "league_games", "league_table", "meeting_format", "plan_meeting",
    "player_stats", "promotion_and_relegation", "read_divisions", "read_fixtures", "read_teams", "report",
    "rounds_of", "score_meeting", "teams_sheet_names", "visible_lineups", "write_table",
]
