"""The calibration figures the benchmarks report (``carom.track.judging.calibration``)."""

from __future__ import annotations

import pytest

from carom.track.judging.calibration import Judged, brier, reliability_lines, wilson


def test_the_wilson_interval_holds_the_share_and_is_known_at_its_ends() -> None:
    lo, hi = wilson(84, 85)
    assert lo < 84 / 85 < hi
    assert (lo, hi) == pytest.approx((0.9363, 0.9979), abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)
    assert wilson(10, 10)[1] == 1.0 and wilson(0, 10)[0] == 0.0


def test_the_brier_score_is_the_mean_square_miss_of_the_confidence() -> None:
    judged = [Judged(1.0, True), Judged(0.5, False), Judged(0.9, True), Judged(1.0, False)]
    assert brier(judged) == pytest.approx((0.0 + 0.25 + 0.01 + 1.0) / 4)
    assert brier([]) == 0.0


def test_each_bin_of_the_reliability_table_gives_its_interval() -> None:
    lines = reliability_lines([Judged(0.995, True)] * 9 + [Judged(0.995, False)])
    assert "10 strokes" in lines[3] and "90.00 %" in lines[3] and "(95 %:" in lines[3]
