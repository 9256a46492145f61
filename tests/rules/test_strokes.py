"""The referee on single strokes: the scenario tables of ``scenarios.py``."""

from __future__ import annotations

import pytest

from carom.core.balls import Ball
from carom.core.records import Stroke
from carom.core.table import TABLES, TableSpec
from carom.rules.disciplines import DISCIPLINES
from carom.rules.referee import StrokeContext, judge, read_contacts
from tests.helpers import events
from tests.rules.scenarios import FROZEN_WY, SCENARIOS, Scenario


def layout(table: TableSpec, start: dict[Ball, tuple[float, float]]) -> dict[Ball, tuple[float, float]]:
    """Fractions of the table to metres; the frozen layout puts yellow exactly 2R off white."""
    out = {b: (x * table.width, y * table.length) for b, (x, y) in start.items()}
    if start is FROZEN_WY:
        wx, wy = out[Ball.WHITE]
        out[Ball.YELLOW] = (wx + 2 * table.ball_radius, wy)
    return out


def run(s: Scenario):  # type: ignore[no-untyped-def]
    d = DISCIPLINES[s.discipline]
    table = TABLES[d.tables[0]]
    from tests.rules.scenarios import OPEN

    position = layout(table, s.start or OPEN)
    ball = s.ball or s.cue
    stroke = Stroke(ball, events(ball, s.events), fouls=s.called)
    context = StrokeContext(d, table, s.cue, s.opening, position,
                            tuple(0 for _ in d.zones(table)))
    return judge(context, stroke)


@pytest.mark.parametrize("s", SCENARIOS, ids=lambda s: f"{s.rule}-{s.discipline}-{s.events}")
def test_scenario(s: Scenario) -> None:
    verdict = run(s)
    assert verdict.points == s.points, s.note
    assert verdict.fouls == s.fouls, s.note
    for rule in s.cites:
        assert rule in verdict.cites, (rule, verdict.cites)


def test_c1_contacts_follow_list_order_not_time() -> None:
    """Architecture principle 4: the order is the list order; ``t`` is information only."""
    from carom.core.events import BallContact

    late_first = (BallContact(Ball.WHITE, Ball.YELLOW, t=2.0), BallContact(Ball.WHITE, Ball.RED, t=1.0))
    c = read_contacts(Ball.WHITE, late_first)
    assert (c.ball2, c.ball3) == (Ball.YELLOW, Ball.RED)


def test_3c1_cushions_counted_before_ball3_only() -> None:
    c = read_contacts(Ball.WHITE, events(Ball.WHITE, "left red top yellow right bottom"))
    assert c.cushions_before_ball3 == 2 and c.cushions == 4
