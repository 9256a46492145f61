"""The printed page of carom's PDFs (fpdf2): A4 with the DejaVu Sans font embedded, so that
Slovak and German names print as they are written, a footer (carom, the date, the page),
headings, lines of text, tables whose columns fit the page, and lines to sign on.
Loaded only when a PDF is made (:mod:`carom.web.shared.reports`)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from fpdf import FPDF
from fpdf.enums import Align, TableBordersLayout, XPos, YPos
from fpdf.fonts import FontFace

from carom.web.shared.i18n import PageWords

FONTS = Path(__file__).parent / "fonts"
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

    def finished(self) -> bytes:
        """The document's bytes, its last page closed."""
        return bytes(self.output())

    def signatures(self, who: Sequence[str], t: PageWords) -> None:
        """A line to sign on for each of ``who``, their name and role under it."""
        gap = 8.0
        width = (self.epw - gap * (len(who) - 1)) / len(who)
        y = self.get_y()
        signature = t.gettext("Signature")
        for i, name in enumerate(who):
            x = self.l_margin + i * (width + gap)
            self.line(x, y, x + width, y)
            self.set_xy(x, y + 1)
            self.set_font(FAMILY, size=8)
            self.multi_cell(width, 4, f"{signature}: {name}", align=Align.C)
        self.set_font(FAMILY, size=10)


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
