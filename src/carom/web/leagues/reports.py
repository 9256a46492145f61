"""A meeting report as PDF: the meeting, each game with its players, score, innings, high
runs and game points, the meeting's game and meeting points, and the captains'
signatures, in the page's language; printed by :func:`carom.web.shared.reports.tables_pdf`
like any table of results (the server composes it, :func:`meeting_report`; the simulation
pool prints it, as every PDF since web36)."""

from __future__ import annotations

from contextlib import suppress

from carom.league import Fixture, LeagueError
from carom.storage.leagues import StoredSeason
from carom.web.shared.i18n import PageWords
from carom.web.shared.reports import Section, tables_pdf


def meeting_pdf(s: StoredSeason, fixture: Fixture, lang: str = "en") -> bytes:
    title, sections, subtitle = meeting_report(s, fixture, lang)
    return print_report(title, sections, lang, subtitle)


def print_report(title: str, sections: list[Section], lang: str, subtitle: str) -> bytes:
    """The composed report as PDF, portrait (what the pool's process runs)."""
    return tables_pdf(title, sections, lang, subtitle=subtitle, landscape=False)


def meeting_report(s: StoredSeason, fixture: Fixture, lang: str = "en") -> tuple[str, list[Section], str]:
    """The report's title, its table of games and the lines under the title: plain values."""
    t = PageWords(lang)
    home, away = s.team_name(fixture.home), s.team_name(fixture.away)
    scored = {}
    with suppress(LeagueError):  # a game goes on: the report shows the games as they stand
        scored = {g.game.number: g.game_points for g in s.score(fixture).games}
    rows = []
    for g in s.games.get(fixture.id, ()):
        st = g.snapshot.state
        points = scored.get(g.number)
        rows.append([g.number, s.players.get(g.players[0], "?"), s.players.get(g.players[1], "?"),
                     "{}:{}".format(*st.points_total), "{}:{}".format(*st.innings_total),
                     "{}:{}".format(*st.high_run), "" if points is None else "{}:{}".format(*points)])
    headers = [t.gettext("Game"), home, away, t.gettext("Score"), t.gettext("Innings"), t.gettext("High run"),
               t.gettext("Game points")]
    division = s.season.division(fixture.division).name
    day = t.gettext("match day %(number)s", number=fixture.round)
    lines = [f"{s.league} · {s.name} · {division} · {day}", fixture.start.strftime("%Y-%m-%d %H:%M")]
    result = s.result(fixture)
    if result is not None:
        lines.append(t.gettext("Game points %(home)s : %(away)s, meeting points %(home_points)s : "
                               "%(away_points)s", home=result.game_points[0], away=result.game_points[1],
                               home_points=result.meeting_points[0], away_points=result.meeting_points[1]))
    else:
        lines.append(t.gettext("The meeting is not finished."))
    signed = s.signed_by(fixture)
    for team, name in ((fixture.home, home), (fixture.away, away)):
        lines.append(t.gettext("Signed by the captain of %(team)s", team=name) if team in signed
                     else t.gettext("Not signed yet by the captain of %(team)s", team=name))
    title = t.gettext("Meeting report: %(home)s – %(away)s", home=home, away=away)
    return title, [Section(t.gettext("Games"), headers, rows)], "\n".join(lines)
