"""What the leagues' pages and API share: the application's league office, the captain a
request proves, refusals in the page's language with their rule, and a season's and a
meeting's views (plain values the templates and the JSON both read)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import Request

from carom.league import Fixture, LeagueError, LineUp, TableLine, teams_sheet_names, visible_lineups
from carom.notation.words import N_
from carom.storage.leagues import Leagues, StoredSeason
from carom.storage.leagues.on_tables import tables_of
from carom.web.shared import auth
from carom.web.shared.deps import services
from carom.web.shared.forms import FormError, check_name
from carom.web.shared.i18n import PageWords
from carom.web.tables.service import hall

CAPTAIN_HEADER = "X-Captain-Token"
CAPTAIN_FIELD = "captain"


def leagues(request: Request) -> Leagues:
    """The application's league office (made on first use, on its match book)."""
    found: Leagues | None = getattr(request.app.state, "leagues", None)
    if found is None:
        found = Leagues(services(request).book, auth.new_token)
        request.app.state.leagues = found
    return found


def meeting_tables(request: Request, s: StoredSeason, fixture: int) -> dict[int, str]:
    """The hall's table each game of the meeting was put on (games on none left out)."""
    return tables_of(hall(request).state(), [g.match_id for g in s.games.get(fixture, ())])


def hall_tables(request: Request) -> list[str]:
    """The hall's tables' names, in its order."""
    return [t.name for t in hall(request).state().in_order()]


def now() -> datetime:
    """The server's clock, the venue's local time (what a line-up's deadline is read against)."""
    return datetime.now()


def refusal_text(t: PageWords, error: Exception) -> str:
    """A refusal in the page's language; a league rule's refusal ends with the rule's id
    and its title (``… (LG5: a line-up is in before the format's deadline)``)."""
    if isinstance(error, LeagueError):
        where = t.gettext("line %(line)s: ", line=error.line) if error.line else ""
        return f"{where}{t.refusal(error.reason)} ({error.rule}: {t.rule(error.rule)})"
    return error.say(t) if isinstance(error, FormError) else t.error(error)


def check_sheet_names(teams: str) -> None:
    """Every club, team and player name of a teams sheet one a person can read, as any
    name the scoreboard shows (:func:`carom.web.shared.forms.check_name`): a
    :class:`FormError` naming the sheet's line and column."""
    for line, column, name in teams_sheet_names(teams):
        check_name(name, (N_("teams: line %(line)s, %(column)s"), {"line": line, "column": column}))


@dataclass(frozen=True, slots=True)
class MeetingView:
    """A meeting as somebody sees it: the line-ups they may see, the games, the result."""

    fixture: Fixture
    home: str
    away: str
    status: str
    """lineups (waiting for one or both), playing, played (every game finished), reported
    (both captains signed)."""
    lineups: dict[int, LineUp]
    """Team → its line-up, only those the viewer may see."""
    handed_in: frozenset[int]
    """The teams whose line-up is in (whether or not the viewer may see it)."""
    games: list[dict[str, Any]]
    score: tuple[int, int] | None
    meeting_points: tuple[int, int] | None
    signed: frozenset[int]


def meeting_view(s: StoredSeason, fixture: Fixture, viewer: int | None,
                 tables: Mapping[int, str] | None = None) -> MeetingView:
    """``fixture`` as ``viewer`` (a team's captain, ``None``: anyone else) sees it;
    ``tables``: the hall's table each game's match was put on."""
    mine = [x for x in s.lineups if x.fixture == fixture.id]
    visible = {x.team: x for x in visible_lineups(mine, fixture, viewer)}
    games = []
    for g in s.games.get(fixture.id, ()):
        st = g.snapshot.state
        games.append({"number": g.number, "round": g.round, "match": g.match_id,
                      "players": [s.players.get(p, "?") for p in g.players], "player_ids": list(g.players),
                      "score": st.points_total, "innings": st.innings_total, "high_run": st.high_run,
                      "finished": st.finished, "winner": st.winner,
                      "targets": g.planned().targets, "limit": g.planned().innings,
                      "table": (tables or {}).get(g.match_id)})
    result = s.result(fixture)
    signed = s.signed_by(fixture)
    status = "lineups" if not games else "playing" if result is None else \
        "reported" if signed >= {fixture.home, fixture.away} else "played"
    return MeetingView(fixture, s.team_name(fixture.home), s.team_name(fixture.away), status, visible,
                       frozenset(x.team for x in mine), games, None if result is None else result.game_points,
                       None if result is None else result.meeting_points, signed)


def table_rows(s: StoredSeason, lines: list[TableLine]) -> list[dict[str, Any]]:
    return [{"line": x, "name": s.team_name(x.team)} for x in lines]


def season_view(s: StoredSeason) -> dict[str, Any]:
    """Every division's table, its meetings and the moves once its table is final."""
    moves = s.moves()
    divisions = []
    for d in s.season.divisions:
        divisions.append({
            "division": d, "table": table_rows(s, s.table(d.id)), "complete": s.complete(d.id),
            "meetings": [meeting_view(s, f, None) for f in s.fixtures if f.division == d.id],
            "moves": [{"move": m, "name": s.team_name(m.team), "target": s.season.division(m.target).name}
                      for m in moves if m.source == d.id]})
    return {"season": s, "divisions": divisions}
