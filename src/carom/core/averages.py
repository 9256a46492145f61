"""Averages as they are printed: cut, not rounded, to three decimals.

An average (points ÷ innings: a game's, the general average GD, the best single average
BED) is exact everywhere carom ranks players (a :class:`~fractions.Fraction`); where it
is shown or written it is *truncated* to three decimals, never rounded up: 17 points in
12 innings is 1.416 (1.41666…), not 1.417, so that a printed average never claims more
than the player made. docs/tournaments.md ("Averages") cites the federations' practice.
Every scoresheet, board, page, PDF and CSV that shows an average goes through
:func:`printed_average` (the words' ``average``: :meth:`carom.notation.words.Words.average`).
"""

from __future__ import annotations

from fractions import Fraction

DIGITS = 3


def cut_average(value: Fraction | float | int, digits: int = DIGITS) -> Fraction:
    """``value`` truncated (towards zero) to ``digits`` decimals, exactly. A float is
    taken as the decimal it prints as (1.2 is 6/5, not the binary number below it)."""
    exact = Fraction(repr(value)) if isinstance(value, float) else Fraction(value)
    scale = 10 ** digits
    whole = abs(exact.numerator) * scale // exact.denominator
    return Fraction(-whole if exact < 0 else whole, scale)


def printed_average(value: Fraction | float | int, digits: int = DIGITS, decimal: str = ".") -> str:
    """``value`` as printed: truncated to ``digits`` decimals, with ``decimal`` as the
    separator ("1.416"; "1,416" with ``decimal=","``)."""
    cut = cut_average(value, digits)
    sign = "-" if cut < 0 else ""
    whole, part = divmod(abs(cut.numerator) * 10 ** digits // cut.denominator, 10 ** digits)
    return f"{sign}{whole}" if digits == 0 else f"{sign}{whole}{decimal}{part:0{digits}d}"
