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
language's decimal separator.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from fastapi.responses import Response
from fpdf import FPDF
from fpdf.enums import Align, TableBordersLayout, XPos, YPos
from fpdf.fonts import FontFace

from carom.core.errors import CaromError
from carom.core.spreadsheet import PLAIN, Cell, Style, write_csv
from carom.match.stats import player_stats
from carom.notation.scoresheet import innings, result_word
from carom.storage.book import Snapshot
from carom.web.shared.i18n import PageWords
from carom.web.shared.views import result_text

FONTS = Path(__file__).parent / "fonts"


class ReportError(CaromError):
    """A table that cannot be printed as given (the message names the field)."""


FAMILY = "DejaVu"
GREY = (235, 239, 243)
NUMBER = re.compile(r"[-+]?\d[\d\s.,]*%?")
"""A cell of a number column: digits, a decimal comma or point, thousands apart."""


class Paper(FPDF):
    """An A4 page with the DejaVu font, and a footer: carom, the date, the page."""

    def __init__(self, words: PageWords, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.words = words
        self.printed = words.when(datetime.now(UTC))
        self.add_font(FAMILY, "", str(FONTS / "DejaVuSans.ttf"))
        self.add_font(FAMILY, "B", str(FONTS / "DejaVuSans-Bold.ttf"))
        self.set_font(FAMILY, size=10)
        self.set_auto_page_break(auto=True, margin=18)
        self.set_margins(15, 15, 15)
        self.set_creator("carom")
        self.set_lang(words.lang)

    def footer(self) -> None:
        self.set_y(-12)
        self.set_font(FAMILY, size=8)
        self.set_text_color(110, 120, 130)
        self.cell(0, 5, f"carom · {self.printed}", align=Align.L)
        self.set_x(self.l_margin)
        self.cell(0, 5, self.words.gettext("Page %(page)s of %(pages)s", page=self.page_no(),
                                           pages="{nb}"), align=Align.R)
        self.set_text_color(0, 0, 0)

    def heading(self, text: str, size: float = 16) -> None:
        self.set_font(FAMILY, "B", size)
        self.multi_cell(0, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_font(FAMILY, size=10)

    def line_of_text(self, text: str, size: float = 10, bold: bool = False) -> None:
        self.set_font(FAMILY, "B" if bold else "", size)
        self.multi_cell(0, size * 0.5, text, new_x=XPos.LMARGIN, new_y=YPos.NEXT)
        self.set_font(FAMILY, size=10)

    def grid(self, headers: Sequence[str], rows: Sequence[Sequence[str]],
             align: Sequence[str] | None = None, widths: Sequence[float] | None = None,
             size: float = 9) -> None:
        """A table: bold headings on grey (repeated after a page break), thin lines.
        Without ``widths`` each column is as wide as its widest cell; when they do not fit
        the page, each column keeps at least its longest word (a heading never breaks
        inside a word) and the room left goes to the columns whose text can wrap."""
        self.set_font(FAMILY, size=size)
        align = align or [_alignment(i, rows) for i in range(len(headers))]
        width = self.epw
        if widths is None:
            columns = range(len(headers))
            widest = [self._widest(i, headers, rows, size, whole=True) + 4 for i in columns]
            least = [self._widest(i, headers, rows, size, whole=False) + 4 for i in columns]
            widths = _fitted(widest, least, self.epw)
            width = min(self.epw, sum(widths))
        with self.table(
            text_align=tuple(align), col_widths=tuple(widths),
            headings_style=FontFace(emphasis="BOLD", fill_color=GREY), line_height=size * 0.55,
            borders_layout=TableBordersLayout.SINGLE_TOP_LINE, padding=(0.8, 1.5),
            first_row_as_headings=True, width=width, align=Align.L,
        ) as table:
            for row in (headers, *rows):
                line = table.row()
                for value in row:
                    line.cell(str(value))
        self.set_font(FAMILY, size=10)

    def _widest(self, column: int, headers: Sequence[str], rows: Sequence[Sequence[str]],
                size: float, *, whole: bool) -> float:
        """The width of the column's widest cell (``whole``), or of its longest word."""
        def width(text: str) -> float:
            parts = [text] if whole else text.split()
            return max((float(self.get_string_width(part)) for part in parts), default=0.0)

        self.set_font(FAMILY, "B", size)
        widest = width(headers[column])
        self.set_font(FAMILY, size=size)
        for row in rows:
            widest = max(widest, width(str(row[column])))
        return max(widest, 6.0)


def fair_widths(wanted: Sequence[float], room: float) -> list[float]:
    """Column widths within ``room``: every column as wide as it wants when they all fit;
    else the narrow ones keep their width and the wide ones share what is left equally
    (a long name wraps in its column, and no column is left too narrow for a letter:
    each gets at least ``room`` divided by the number of columns)."""
    if sum(wanted) <= room:
        return list(wanted)
    given = list(wanted)
    left, open_columns = room, sorted(range(len(wanted)), key=lambda i: wanted[i])
    while open_columns:
        share = left / len(open_columns)
        if wanted[open_columns[0]] > share:
            for i in open_columns:
                given[i] = share
            break
        i = open_columns.pop(0)
        left -= wanted[i]
    return given


def _fitted(widest: Sequence[float], least: Sequence[float], room: float) -> list[float]:
    """Column widths within ``room``: each its ``widest`` when they all fit, else each at
    least its ``least`` (its longest word) and the room left shared in proportion to what
    each still wants (when even the words do not fit, :func:`fair_widths` of the words)."""
    if sum(widest) <= room:
        return list(widest)
    if sum(least) >= room:
        return fair_widths(least, room)
    wants = [w - m for w, m in zip(widest, least, strict=True)]
    spare = room - sum(least)
    return [m + spare * want / sum(wants) for m, want in zip(least, wants, strict=True)]


def _alignment(column: int, rows: Sequence[Sequence[str]]) -> str:
    """Right for a column of numbers (a decimal comma or point allowed), else left."""
    values = [str(r[column]).strip() for r in rows if column < len(r) and str(r[column]).strip()]
    numeric = bool(values) and all(NUMBER.fullmatch(v) for v in values)
    return "RIGHT" if numeric else "LEFT"


def _output(pdf: Paper) -> bytes:
    return bytes(pdf.output())


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
    return _output(pdf)


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
    _signatures(pdf, [names[0], names[1], t.gettext("Referee")], t)
    return _output(pdf)


def _signatures(pdf: Paper, who: Sequence[str], t: PageWords) -> None:
    """A line to sign on for each of ``who``, their name and role under it."""
    gap = 8.0
    width = (pdf.epw - gap * (len(who) - 1)) / len(who)
    y = pdf.get_y()
    signature = t.gettext("Signature")
    for i, name in enumerate(who):
        x = pdf.l_margin + i * (width + gap)
        pdf.line(x, y, x + width, y)
        pdf.set_xy(x, y + 1)
        pdf.set_font(FAMILY, size=8)
        pdf.multi_cell(width, 4, f"{signature}: {name}", align=Align.C)
    pdf.set_font(FAMILY, size=10)
