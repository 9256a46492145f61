"""Small seasons for the league tests: one division of ``n`` teams of one format."""

from __future__ import annotations

from datetime import datetime, timedelta

from carom.league import (
    Club,
    Division,
    Fixture,
    GameResult,
    LineUp,
    MeetingResult,
    Season,
    Team,
    double_round_robin,
    meeting_format,
    plan_meeting,
    score_meeting,
)


def season_of(fmt: str, teams: int = 4, players: int | None = None) -> Season:
    """Teams 1..``teams`` (club n's 1st team), players ``100 n + 1`` … on team n's roster."""
    size = players or meeting_format(fmt).positions
    return Season("test league", "2025/26", (Division("d", "Division", fmt),),
                  tuple(Club(n, f"Club {n}") for n in range(1, teams + 1)),
                  tuple(Team(n, n, f"Team {n}", "d") for n in range(1, teams + 1)),
                  {n: tuple(100 * n + k for k in range(1, size + 1)) for n in range(1, teams + 1)})


def fixtures_of(season: Season, division: str = "d") -> tuple[Fixture, ...]:
    teams = season.teams_in(division)
    days = 2 * (len(teams) - 1 + len(teams) % 2)
    first = datetime(2025, 9, 6, 14, 0)
    return double_round_robin(division, teams, [first + timedelta(weeks=w) for w in range(days)])


def lineup(fixture: Fixture, team: int, players: tuple[int, ...], hours_before: float = 24) -> LineUp:
    return LineUp(fixture.id, team, players, fixture.start - timedelta(hours=hours_before))


def two_boards(fixture: Fixture, home: tuple[int, int], away: tuple[int, int],
               innings: int = 15) -> MeetingResult:
    """A meeting of ``club-3c-two-boards`` from :func:`season_of`'s rosters, board ``i`` ending
    ``home[i]``:``away[i]`` in ``innings`` innings each."""
    fmt = meeting_format("club-3c-two-boards")
    home_side, away_side = (lineup(fixture, team, (100 * team + 1, 100 * team + 2))
                            for team in (fixture.home, fixture.away))
    planned = plan_meeting(fmt, home_side, away_side)
    results = [GameResult(g.number, g.players, (home[i], away[i]), (innings, innings), (1, 1))
               for i, g in enumerate(planned)]
    return score_meeting(fmt, fixture, planned, results)
