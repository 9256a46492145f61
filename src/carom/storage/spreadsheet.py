"""Cells of the CSV files carom writes (a register, a tournament's results, a match's
innings): a value that a spreadsheet would run as a formula is written as text.

A cell that begins with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a
formula to a spreadsheet (``=HYPERLINK("http://…")`` typed as a player's name would
become a link in the organiser's sheet); such a cell gets a leading apostrophe, which
the spreadsheet shows as text. A number (``-3``, ``+1.5``) stays a number.
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def text_cell(value: str) -> str:
    """``value`` as a cell a spreadsheet shows as it is, never runs."""
    return "'" + value if value[:1] in FORMULA_STARTS and not _is_number(value) else value


def from_text_cell(value: str) -> str:
    """The value :func:`text_cell` wrote (what a file exported by carom brings back)."""
    return value[1:] if value[:1] == "'" and value[1:2] in FORMULA_STARTS and not _is_number(value[1:]) \
        else value


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True
