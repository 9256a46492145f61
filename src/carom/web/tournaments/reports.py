"""A tournament's results as PDF: the final ranking (the standings so far while it
runs) with each player's match points, GD, BED and HS over all their games, each
group's standings when there are several groups, and every game with its score, in
the page's language. Printed by :func:`carom.web.shared.reports.tables_pdf`, like any table
of results."""

from __future__ import annotations

from carom.competition import Line, standings
from carom.storage.tournaments import Tournament, TournamentGame
from carom.web.shared.i18n import PageWords
from carom.web.shared.reports import Section, tables_pdf
from carom.web.shared.views import score_text


def _line_headers(t: PageWords, first: str) -> list[str]:
    return ["#", first, t.gettext("Games"), t.gettext("MP"), t.gettext("Points"), t.gettext("Innings"),
            t.gettext("GD"), t.gettext("BED"), t.gettext("HS")]


def _line_cells(t: PageWords, rank: int, name: str, x: Line) -> list[object]:
    return [rank, name, x.played, x.match_points, x.points, x.innings, t.average(x.general_average),
            t.average(x.best_average), x.high_run]


def game_score(game: TournamentGame, t: PageWords) -> str | None:
    """A game's score as the schedule, the bracket and the PDF show it: its match's (with
    a shoot-out's), or the result the organiser gave (a paper scoresheet, a correction)."""
    if game.snapshot is not None and game.source in (None, "match"):
        return score_text(game.snapshot.state, t)
    return None if game.score is None else "{}:{}".format(*game.score)


def _round(t: PageWords, tour: Tournament, g: TournamentGame) -> str:
    if g.stage != "group":
        return t.gettext("Knock-out, round %(number)s", number=g.round)
    text = t.gettext("round %(number)s", number=g.round)
    if len(tour.groups) > 1:
        text = t.gettext("Group %(name)s", name=dict(tour.groups).get(g.group_no, "")) + ", " + text
    return text


def _state(t: PageWords, tour: Tournament, g: TournamentGame) -> str:
    if g.status == "waiting":
        return t.gettext("waiting")
    if g.status == "playing":
        return t.gettext("playing")
    if g.status == "tie-break":
        return t.gettext("tie-break")
    winner = g.winner
    return t.gettext("won by %(name)s", name=tour.names()[winner]) if winner else t.gettext("draw")


def results_pdf(tour: Tournament, lang: str = "en") -> bytes:
    """The tournament's results, ready to print."""
    t = PageWords(lang)
    s = tour.settings
    names = tour.names()
    finished = tour.state == "finished"
    results = [r for g in tour.games if (r := g.result()) is not None]
    totals = {x.player: x for x in standings(names, results)}
    ranking = [_line_cells(t, rank, names[p], totals[p]) for rank, p in tour.ranking()]
    sections = [Section(t.gettext("Final ranking") if finished else t.gettext("Standings so far"),
                        _line_headers(t, t.gettext("Player")), ranking)]
    if len(tour.groups) > 1:
        group_names = dict(tour.groups)
        for number, lines in tour.group_standings():
            sections.append(Section(t.gettext("Group %(name)s", name=group_names[number]),
                                    _line_headers(t, t.gettext("Player")),
                                    [_line_cells(t, x.rank, names[x.player], x) for x in lines]))
    games = []
    for g in tour.games:
        players = " – ".join(names.get(p, "?") if p else "—" for p in g.players)
        score = game_score(g, t) or ""
        innings = "" if g.innings is None else "{}:{}".format(*g.innings)
        games.append([g.order_no, _round(t, tour, g), players, g.table_no or "", score, innings,
                      _state(t, tour, g)])
    headers = ["#", t.gettext("Round"), t.gettext("Game"), t.gettext("Table"), t.gettext("Score"),
               t.gettext("Innings"), t.gettext("State")]
    sections.append(Section(t.gettext("Games"), headers, games))
    mode = {"round_robin": t.gettext("Round robin"), "knockout": t.gettext("Knock-out")}.get(
        s.mode, t.gettext("Groups, then knock-out"))
    state = {"entry": t.gettext("Entries open"), "running": t.gettext("Running")}.get(
        tour.state, t.gettext("Finished"))
    subtitle = " · ".join((mode, t.discipline(s.discipline), t.table(s.table),
                           t.limits(s.points, s.innings, s.sets_to_win, s.equalizing_inning), state))
    champion = tour.champion()
    if champion is not None:
        subtitle += "\n" + t.gettext("Winner: %(name)s", name=names[champion])
    return tables_pdf(s.name, sections, lang, subtitle=subtitle, landscape=False)
