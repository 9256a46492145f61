"""Results on paper and in spreadsheets: a game's scoresheet and any table of results
as PDF (fpdf2, with the DejaVu Sans font embedded, so that Slovak and German names
print as they are written), a game's innings as CSV.

- :func:`scoresheet_pdf`: the scoresheet a club prints and both players and the referee
  sign: the header (players, discipline, table, limits, match number), one row per
  inning with each player's series and running total (per set in a match of sets), the
  totals, averages and high runs, the result, and three signature lines.
- :func:`table_pdf`: a title, column headings and rows (a tournament's standings, its
  results): numbers right-aligned, headings repeated on every page; :func:`tables_pdf`
  several such tables under their headings (a tournament's results).
- :func:`scoresheet_rows` / :func:`scoresheet_csv`: the innings as rows, for a spreadsheet.

Words come from the catalogues (:class:`carom.web.shared.i18n.PageWords`); numbers take the
language's decimal separator. The page itself is :class:`carom.web.shared.paper.Paper`,
imported when a PDF is made (fpdf2 and its fonts take most of a second to load, which
``carom serve`` and each of its workers would otherwise pay at start).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fastapi.responses import Response

from carom.core.errors import CaromError
from carom.core.spreadsheet import PLAIN, Cell, Style, write_csv
from carom.match.stats import player_stats
from carom.notation.scoresheet import innings, result_word
from carom.storage.book import Snapshot
from carom.web.shared.i18n import PageWords
from carom.web.shared.views import result_text


class ReportError(CaromError):
    """A table that cannot be printed as given (the message names the field)."""


def table_pdf(title: str, headers: Sequence[str], rows: Sequence[Sequence[object]], lang: str = "en", *,
              subtitle: str = "", landscape: bool | None = None) -> bytes:
    """A PDF of one table of results: ``title`` (and ``subtitle``) above, ``headers``
    and ``rows`` (cells as given, turned to text), numbers right-aligned. Landscape for
    more than seven columns unless ``landscape`` says otherwise."""
    return tables_pdf(title, [Section("", headers, rows)], lang, subtitle=subtitle, landscape=landscape)


@dataclass(frozen=True, slots=True)
class Section:
    """One table of a results PDF: its heading (may be empty), column headings, rows."""

    heading: str
    headers: Sequence[str]
    rows: Sequence[Sequence[object]]


def tables_pdf(title: str, sections: Sequence[Section], lang: str = "en", *, subtitle: str = "",
               landscape: bool | None = None) -> bytes:
    """A PDF of several tables of results (a tournament's ranking, then its games), each
    under its heading, printed as :func:`table_pdf` prints one. Landscape when a table
    has more than seven columns unless ``landscape`` says otherwise."""
    tables = []
    for number, section in enumerate(sections, start=1):
        cells = [[str(v) for v in row] for row in section.rows]
        if any(len(row) != len(section.headers) for row in cells):
            where = "rows" if len(sections) == 1 else f"sections[{number}].rows"
            raise ReportError(f"{where}: every row needs one cell per heading")
        tables.append((section, cells))
    wide = any(len(s.headers) > 7 for s in sections) if landscape is None else landscape
    from carom.web.shared.paper import Paper

    pdf = Paper(PageWords(lang), landscape=wide)
    pdf.set_title(title)
    pdf.add_page()
    pdf.heading(title)
    if subtitle:
        pdf.line_of_text(subtitle)
    for section, cells in tables:
        pdf.ln(3)
        if section.heading:
            if pdf.will_page_break(30):
                pdf.add_page()
            pdf.line_of_text(section.heading, size=12, bold=True)
            pdf.ln(1)
        pdf.grid(list(section.headers), cells)
    return pdf.finished()


def scoresheet_rows(snap: Snapshot) -> list[tuple[int, int, int, int, int, str]]:
    """The innings as rows: (set, inning, player 1 or 2, series, running total, faults)."""
    out = []
    for set_no, per_player in innings(snap.rulings).items():
        last = max((max(rows, default=0) for rows in per_player.values()), default=0)
        totals = [0, 0]
        for k in range(1, last + 1):
            for p in (0, 1):
                if k in per_player[p]:
                    points, fouls = per_player[p][k]
                    totals[p] += points
                    out.append((set_no, k, p + 1, points, totals[p], " ".join(fouls)))
    return out


def scoresheet_csv(snap: Snapshot, lang: str = "en", style: Style = PLAIN,
                   place: tuple[str, str, str | None, str | None] | None = None) -> bytes:
    """The innings of a match as a CSV file (a heading row, then :func:`scoresheet_rows`
    with the player's name beside their number), written as every CSV of carom is
    (:func:`carom.core.spreadsheet.write_csv`: a name is never a formula). A tournament's
    game has four columns more, first: its ``place`` (tournament, round, table, and the
    result the tournament keeps when it is not the match's)."""
    t = PageWords(lang)
    first: list[Cell] = [t.gettext("Tournament"), t.gettext("Round"), t.gettext("Table"),
                         t.gettext("Result kept")] if place else []
    rows: list[list[Cell]] = [[*first, t.gettext("Match"), t.gettext("Set"), t.gettext("Inning"),
                               t.gettext("Player"), t.gettext("Name"), t.gettext("Series"),
                               t.gettext("Total"), t.gettext("Faults")]]
    where: list[Cell] = list(place) if place else []
    for set_no, inning, player, points, total, fouls in scoresheet_rows(snap):
        name = snap.header.players[player - 1]
        rows.append([*where, snap.match_id, set_no, inning, player, name, points, total, fouls])
    return write_csv(rows, style)


def csv_response(data: bytes, filename: str) -> Response:
    """A CSV file to download (``filename``: ASCII)."""
    return Response(data, media_type="text/csv; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{filename}"'})


def scoresheet_pdf(snap: Snapshot, lang: str = "en", place: str | None = None) -> bytes:
    """The scoresheet of a match as PDF, ready to print and sign; a tournament's game names
    its ``place`` (tournament, round, table) under the players."""
    t = PageWords(lang)
    state, h = snap.state, snap.header
    names = h.players
    from carom.web.shared.paper import Paper

    pdf = Paper(t)
    title = t.gettext("Scoresheet")
    pdf.set_title(f"{title}: {names[0]} – {names[1]}")
    pdf.add_page()
    pdf.line_of_text(f"{title} · {t.gettext('Match %(number)s', number=snap.match_id)}", size=9)
    pdf.heading(f"{names[0]} – {names[1]}", size=18)
    if place:
        pdf.line_of_text(place, bold=True)
    pdf.line_of_text(" · ".join((t.discipline(h.discipline), t.table(state.rules.table.name),
                                 t.limits(h.points, h.innings, h.sets_to_win, h.equalizing_inning))))
    facts = []
    if state.lag_winner is not None:
        facts.append(t.gettext("Lag won by: %(name)s", name=names[state.lag_winner]))
    if state.opener is not None:
        facts.append(t.gettext("Opened by: %(name)s", name=names[state.opener]))
    if facts:
        pdf.line_of_text(" · ".join(facts), size=9)
    pdf.ln(2)

    series, total = t.gettext("series"), t.gettext("total")
    for set_no, per_player in innings(snap.rulings).items():
        if h.sets_to_win is not None:
            pdf.line_of_text(t.gettext("Set %(number)s", number=set_no), size=11, bold=True)
        last = max((max(rows, default=0) for rows in per_player.values()), default=0)
        totals = [0, 0]
        rows = []
        for k in range(1, last + 1):
            row = [str(k)]
            for p in (0, 1):
                if k in per_player[p]:
                    points, fouls = per_player[p][k]
                    totals[p] += points
                    row += [f"{points}{' ' + ','.join(fouls) if fouls else ''}", str(totals[p])]
                else:
                    row += ["", ""]
            rows.append(row)
        headers = [t.gettext("Inning"), f"{names[0]}: {series}", total, f"{names[1]}: {series}", total]
        pdf.grid(headers, rows, align=["RIGHT"] * 5, widths=[14, 29, 14, 29, 14])
        pdf.ln(3)

    stats = player_stats(state)
    summary = [
        [t.gettext("Points"), *(str(s.points) for s in stats)],
        [t.gettext("Innings"), *(str(s.innings) for s in stats)],
        [t.gettext("Average"), *(t.average(s.average) for s in stats)],
        [t.gettext("High run"), *(str(s.high_run) for s in stats)],
    ]
    if h.sets_to_win is not None:
        summary.append([t.gettext("Sets"), *(str(s.sets) for s in stats)])
        summary.append([t.gettext("Best game average"), *(t.average(s.best_game_average) for s in stats)])
    summary.append([t.gettext("Result"), *(result_word(state, p, t) for p in (0, 1))])
    if state.finished:
        summary.append([t.gettext("Match points"), *(str(s.match_points) for s in stats)])
    if pdf.will_page_break(8 * len(summary) + 60):
        pdf.add_page()
    pdf.grid(["", names[0], names[1]], summary, align=["LEFT", "RIGHT", "RIGHT"], widths=[40, 30, 30],
             size=10)
    if state.shootout or state.penalties:
        pdf.ln(3)
        pdf.line_of_text(t.gettext("Penalty shoot-out (P2, P3): 1 a carom, 0 a miss"), size=11, bold=True)
        shots = [[names[p], " ".join(str(int(c)) for q, c in state.penalties if q == p) or "–",
                  str(state.penalty_score[p])] for p in (0, 1)]
        pdf.grid(["", t.gettext("Penalties"), t.gettext("Total")], shots, align=["LEFT", "LEFT", "RIGHT"],
                 widths=[40, 60, 20], size=10)
    pdf.ln(3)
    outcome = result_text(state, names, t) if state.finished else t.gettext("The match is not finished.")
    pdf.line_of_text(outcome, size=12, bold=True)
    if snap.confirmation.confirmed:
        pdf.line_of_text(t.gettext("Result confirmed"), size=9)
    pdf.ln(14)
    pdf.signatures([names[0], names[1], t.gettext("Referee")], t)
    return pdf.finished()
