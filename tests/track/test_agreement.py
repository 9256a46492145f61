"""Agreement with the verdicts of a real match (``point``: the striker kept the table)."""

from __future__ import annotations

from pathlib import Path

from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import read_tracked, track_stroke


def test_agreement_with_the_real_match_is_at_least_95_percent(real_match: Path) -> None:
    rules, table = discipline("three-cushion"), TABLES["large"]
    labelled = agree = 0
    for tracked in read_tracked(real_match):
        ruling = track_stroke(tracked, rules, table)
        assert 0.0 <= ruling.confidence <= 1.0
        if tracked.label is None:
            continue
        labelled += 1
        agree += (ruling.points > 0) == tracked.label
    assert labelled == 85
    assert agree / labelled >= 0.95
