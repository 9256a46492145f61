"""Printed averages: truncated to three decimals, never rounded up, exact for fractions."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given
from hypothesis import strategies as st

from carom.core.averages import cut_average, printed_average


def test_averages_are_cut_not_rounded() -> None:
    assert printed_average(Fraction(17, 12)) == "1.416"  # 1.41666...: rounding would say 1.417
    assert printed_average(Fraction(2, 3)) == "0.666"
    assert printed_average(Fraction(5, 1)) == "5.000"
    assert printed_average(0) == "0.000"
    assert printed_average(1.2) == "1.200"  # the float 1.2 is read as the decimal it prints as
    assert printed_average(Fraction(1999, 1000), decimal=",") == "1,999"
    assert printed_average(Fraction(-7, 4)) == "-1.750"
    assert printed_average(Fraction(7, 3), digits=2) == "2.33" and printed_average(7, digits=0) == "7"


@given(st.integers(0, 10**6), st.integers(1, 10**4))
def test_a_printed_average_never_exceeds_the_exact_one(points: int, innings: int) -> None:
    exact = Fraction(points, innings)
    cut = cut_average(exact)
    assert cut <= exact < cut + Fraction(1, 1000)
    assert Fraction(printed_average(exact)) == cut
