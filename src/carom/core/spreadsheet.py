"""CSV as clubs have it: the one reader and writer of the register, the tournaments'
exports and the scoresheet.

Reading. The encoding is the one the user names (:data:`CHARSETS`: UTF-8 with or without
a byte order mark, Windows-1250 of central Europe, Windows-1252 of the west), never
guessed: a byte that is not text in it is refused naming its line. The separator, ``,``
or ``;``, is the one named, or else the one that makes every cell of the header row a
known column's name (a header row of known names tells the two apart), or more of them
(the reader then names the unknown column); when neither does, the file is refused
naming line 1.

Writing. UTF-8 with a byte order mark and CRLF line ends (RFC 4180), so that a
spreadsheet opened by a double click reads the names right; ``,`` and decimal points by
default, or, as Excel in Slovak and German wants it, ``;`` and decimal commas
(:class:`Style`). A text cell that a spreadsheet would take for a formula (``=``, ``+``,
``-``, ``@``, a tab or a carriage return first) is written with a leading ``'``, unless
it is a plain number; the reader takes that ``'`` off again.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from carom.core.averages import printed_average
from carom.core.errors import InputError

CHARSETS = {"utf-8": "utf-8-sig", "windows-1250": "cp1250", "windows-1252": "cp1252"}
"""The encodings a file may be in, by the names a form offers, and Python's codec for each
(``utf-8-sig`` reads UTF-8 with or without its byte order mark)."""
SEPARATORS = (",", ";")
FORMULA = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes for the start of a formula."""
NUMBER = re.compile(r"[-+]?\d+(?:[.,]\d+)?")
Cell = str | int | Decimal | Fraction | None
"""A cell to write: text, a whole number, a decimal (written as it is, its point a comma
when the style asks), a fraction (an average: cut to three decimals,
:func:`carom.core.averages.printed_average`), or nothing."""


class SpreadsheetError(InputError):
    """A file that cannot be read as CSV, or a style that cannot be written (its line, where
    it has one)."""


@dataclass(frozen=True, slots=True)
class Style:
    """How a CSV is written: its separator and its decimal mark."""

    separator: str = ","
    decimal_comma: bool = False

    @classmethod
    def named(cls, separator: str | None, decimal: str | None) -> Style:
        """The style of a request's ``sep`` (``,`` or ``;``) and ``decimal`` (``point`` or
        ``comma``); :class:`SpreadsheetError` names a value that is neither."""
        if separator not in (None, *SEPARATORS):
            raise SpreadsheetError(f"sep: expected , or ; got {separator!r:.20}")
        if decimal not in (None, "point", "comma"):
            raise SpreadsheetError(f"decimal: expected point or comma, got {decimal!r:.20}")
        return cls(separator or ",", decimal == "comma")


PLAIN = Style()
"""``,`` and decimal points: what most programs read."""
EXCEL_SK_DE = Style(";", True)
"""What Excel in Slovak and German opens as columns and numbers."""


def decode(data: bytes, charset: str) -> str:
    """The text of a file in the named ``charset`` (a key of :data:`CHARSETS`). A byte that
    is not text in it is refused naming its line, and the other encodings to try."""
    codec = CHARSETS.get(charset)
    if codec is None:
        raise SpreadsheetError(f"charset: expected one of {', '.join(CHARSETS)}, got {charset!r:.30}")
    try:
        return data.decode(codec)
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        others = ", ".join(c for c in CHARSETS if c != charset)
        byte = data[error.start]
        raise SpreadsheetError(f"byte 0x{byte:02X} is not {charset} text (is the file in {others}?)",
                               line) from None


def separator_of(header: str, known: Callable[[str], bool]) -> str:
    """The separator that makes every cell of the ``header`` row a known column's name; or
    else the one that makes more of them known names (its unknown column is then the
    caller's to name: ``name,points``)."""
    named = {s: [known(_column(c)) for c in _cells(header, s)] for s in SEPARATORS}
    fitting = [s for s in SEPARATORS if all(named[s])]
    if len(fitting) == 1:
        return fitting[0]
    if fitting:  # one column: no separator in it
        return SEPARATORS[0]
    counts = sorted((sum(named[s]), s) for s in SEPARATORS)
    if counts[-1][0] > counts[0][0]:
        return counts[-1][1]
    raise SpreadsheetError("the header row's cells are not the columns' names, whether separated by , or "
                           "by ;", 1)


def _cells(line: str, separator: str) -> list[str]:
    return next(csv.reader([line], delimiter=separator), [])


def _column(cell: str) -> str:
    return cell.strip().lower()


def read_rows(text: str, separator: str | None, known: Callable[[str], bool]
              ) -> tuple[list[str], Iterator[tuple[int, list[str]]]]:
    """The header row's column names (stripped, lower case) and the rows after it, each
    with its line number and its cells (a leading ``'`` taken off, :func:`plain`). Blank
    rows are skipped. ``separator``: ``None`` to take it from the header row."""
    text = text.removeprefix("\ufeff")
    first = text.split("\n", 1)[0].rstrip("\r")
    if not first.strip():
        raise SpreadsheetError("empty: expected a header row naming the columns", 1)
    chosen = separator_of(first, known) if separator is None else separator
    if chosen not in SEPARATORS:
        raise SpreadsheetError(f"separator: expected , or ; got {chosen!r:.20}")
    reader = csv.reader(io.StringIO(text), delimiter=chosen)
    try:
        head = [_column(c) for c in next(reader)]
    except csv.Error as error:
        raise SpreadsheetError(str(error), 1) from None

    def rows() -> Iterator[tuple[int, list[str]]]:
        try:
            for cells in reader:
                if any(c.strip() for c in cells):
                    yield reader.line_num, [plain(c.strip()) for c in cells]
        except csv.Error as error:
            raise SpreadsheetError(str(error), reader.line_num) from None

    return head, rows()


def plain(cell: str) -> str:
    """A cell as it was before :func:`text_cell` guarded it (a ``'`` that
    :func:`text_cell` would not have written stays: ``'-3`` was typed so)."""
    return cell[1:] if cell[:1] == "'" and text_cell(cell[1:]) == cell else cell


def text_cell(value: str) -> str:
    """A text cell that a spreadsheet shows as text, never runs as a formula."""
    return "'" + value if value[:1] in FORMULA and not NUMBER.fullmatch(value) else value


def _cell(value: Cell, style: Style) -> str:
    if value is None:
        return ""
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Fraction):
        return printed_average(value, decimal="," if style.decimal_comma else ".")
    if isinstance(value, Decimal):
        written = f"{value:f}"
        return written.replace(".", ",") if style.decimal_comma else written
    return text_cell(value)


def csv_text(rows: Iterable[Sequence[Cell]], style: Style = PLAIN) -> str:
    """The rows as CSV text: CRLF, the style's separator and decimal mark, no formula."""
    out = io.StringIO()
    writer = csv.writer(out, delimiter=style.separator, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_cell(value, style) for value in row])
    return out.getvalue()


def write_csv(rows: Iterable[Sequence[Cell]], style: Style = PLAIN) -> bytes:
    """The rows as a CSV file (:func:`csv_text`): UTF-8 with a byte order mark."""
    return ("\ufeff" + csv_text(rows, style)).encode("utf-8")


def decimals(rows: Iterable[Sequence[Cell]], columns: Iterable[str]) -> Iterator[list[Cell]]:
    """The rows (a header row first) with the text cells of the named columns that hold a
    decimal number (``13.333``) made decimals, so that the style writes their mark."""
    it = iter(rows)
    header = list(next(it, []))
    yield header
    named = set(columns)
    wanted = {i for i, name in enumerate(header) if name in named}
    for row in it:
        yield [Decimal(v) if i in wanted and isinstance(v, str) and NUMBER.fullmatch(v) and "," not in v
               else v for i, v in enumerate(row)]
