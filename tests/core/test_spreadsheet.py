"""The one CSV reader and writer: the encodings a club's files are in (as the user names
them, never guessed), ``,`` or ``;``, formulas kept out of cells, Excel's style."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction

import pytest

from carom.core.spreadsheet import (
    EXCEL_SK_DE,
    SpreadsheetError,
    Style,
    decimals,
    decode,
    plain,
    read_rows,
    text_cell,
    write_csv,
)

KNOWN = {"name", "club"}.__contains__
SLOVAK = "name;club\r\nĽudovít Šťastný;BK Žilina\r\n"


@pytest.mark.parametrize(("data", "charset"), [
    (SLOVAK.encode("cp1250"), "windows-1250"),
    (SLOVAK.encode("utf-8"), "utf-8"),
    (("\ufeff" + SLOVAK).encode("utf-8"), "utf-8"),
])
def test_a_file_reads_in_the_encoding_named(data: bytes, charset: str) -> None:
    columns, rows = read_rows(decode(data, charset), None, KNOWN)
    assert columns == ["name", "club"] and list(rows) == [(2, ["Ľudovít Šťastný", "BK Žilina"])]


def test_windows_1252_reads_german_names() -> None:
    data = "name,club\nJürgen Größer,BC Köln\n".encode("cp1252")
    rows = read_rows(decode(data, "windows-1252"), None, KNOWN)[1]
    assert list(rows) == [(2, ["Jürgen Größer", "BC Köln"])]


@pytest.mark.parametrize(("data", "charset", "reason"), [
    (SLOVAK.encode("cp1250"), "utf-8", "line 2: byte 0xBC is not utf-8 text (is the file in windows-1250, "
                                       "windows-1252?)"),
    (b"name\n\n\nA\x81B\n", "windows-1252", "line 4: byte 0x81 is not windows-1252 text"),
    (b"name\nA\x98\n", "windows-1250", "line 2: byte 0x98 is not windows-1250 text"),
    (b"name\n", "latin-1", "charset: expected one of utf-8, windows-1250, windows-1252"),
])
def test_a_file_not_valid_in_the_encoding_named_is_refused_naming_its_line(data: bytes, charset: str,
                                                                           reason: str) -> None:
    with pytest.raises(SpreadsheetError) as refused:
        decode(data, charset)
    assert reason in str(refused.value)


@pytest.mark.parametrize(("header", "separator"), [("name;club", ";"), ("name,club", ","), ("Name", ","),
                                                   ('"name";"club"', ";")])
def test_the_separator_is_the_one_the_header_row_names_columns_with(header: str, separator: str) -> None:
    text = f"{header}\nA{separator}B\n" if separator in header else f"{header}\nA\n"
    assert next(read_rows(text, None, KNOWN)[1])[1][0] == "A"


def test_a_header_row_of_unknown_names_is_refused_on_line_1() -> None:
    for text in ("first name;surname\nA;B\n", "\nname\n"):
        with pytest.raises(SpreadsheetError, match="line 1"):
            read_rows(text, None, KNOWN)
    with pytest.raises(SpreadsheetError, match="separator"):
        read_rows("name\nA\n", "|", KNOWN)


def test_a_header_row_with_one_unknown_name_keeps_the_separator_of_the_known_ones() -> None:
    """So that the reader names the column it does not know (``points``), not line 1 alone."""
    assert read_rows("name,points\nA,3\n", None, KNOWN)[0] == ["name", "points"]
    assert read_rows("name;po,ints\nA;3\n", None, KNOWN)[0] == ["name", "po,ints"]


def test_a_separator_named_is_taken_as_it_is() -> None:
    columns, rows = read_rows("name,club;x\nA,B;C\n", ";", KNOWN)
    assert columns == ["name,club", "x"] and list(rows) == [(2, ["A,B", "C"])]


def test_cells_that_a_spreadsheet_would_run_are_written_as_text_and_read_back() -> None:
    for value in ('=HYPERLINK("http://evil.example","x")', "+1+2", "-x", "@SUM(A1)", "\tx", "\rx"):
        assert text_cell(value) == "'" + value and plain(text_cell(value)) == value
    for value in ("-12", "+3.5", "Anna", "'quoted", ""):
        assert text_cell(value) == value and plain(value) == value
    for value in ("'-12", "'+3.5"):  # typed so: the guard never writes a quote before a number
        assert plain(value) == value and plain(text_cell(value)) == value


def test_the_excel_style_writes_semicolons_and_decimal_commas_with_a_bom() -> None:
    rows = [["name", "average"], ["=cmd", Fraction(40, 3)], ["Ö; Ä", Decimal("1.500")], [None, 7]]
    data = write_csv(rows, EXCEL_SK_DE)
    assert data.startswith(b"\xef\xbb\xbf") and b"\r\n" in data
    text = data.decode("utf-8-sig")
    assert text == 'name;average\r\n\'=cmd;13,333\r\n"Ö; Ä";1,500\r\n;7\r\n'
    assert list(csv.reader(io.StringIO(write_csv(rows).decode("utf-8-sig")))) == [
        ["name", "average"], ["'=cmd", "13.333"], ["Ö; Ä", "1.500"], ["", "7"]]


def test_a_style_is_named_by_a_requests_parameters() -> None:
    assert Style.named(None, None) == Style(",", False)
    assert Style.named(";", "comma") == EXCEL_SK_DE
    for sep, decimal, field in (("|", None, "sep"), (None, "dot", "decimal")):
        with pytest.raises(SpreadsheetError, match=field):
            Style.named(sep, decimal)


def test_decimal_columns_take_the_styles_mark() -> None:
    rows = [["name", "average"], ["=1.5", "13.333"], ["2.5", ""]]
    made = list(decimals(rows, ["average"]))
    assert made == [["name", "average"], ["=1.5", Decimal("13.333")], ["2.5", ""]]
