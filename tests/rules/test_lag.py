"""The lag (rules L1–L6): scenario table, one row per rule, and the flow around it."""

from __future__ import annotations

import pytest

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.position import position_problems
from carom.core.table import TABLES
from carom.notation.reader import record_from_json
from carom.rules.lag import decide_lag
from tests.helpers import header, lag, parse_header, play

HEAD = parse_header(header())

# (rule under test, lags in order, the winner after the last one (None: repeat),
#  and the rule that decided the last one when it is not the rule under test)
SCENARIOS = [
    ("L2", [lag(0.21, 0.35)], 0),
    ("L2", [lag(0.50, 0.35)], 1),
    ("L3", [lag(0.30, 0.30)], None),
    ("L3", [lag(0.30, 0.30), lag(0.40, 0.31)], 1, "L2"),
    ("L4", [lag(0.10, 0.90, red=(True, False))], 1),
    ("L4", [lag(0.90, 0.10, red=(False, True))], 0),
    ("L4", [lag(0.10, 0.90, red=(True, True))], None),
    ("L5", [lag(0.2, 0.3, collided=True, crossed=(True, False))], 1),
    ("L5", [lag(0.3, 0.2, collided=True, crossed=(False, True))], 0),
    ("L5", [lag(0.3, 0.2, collided=True, crossed=(True, True))], None),
    # a fault by each player: one hit red, the other crossed on the collision: repeated
    ("L5", [lag(0.2, 0.3, red=(True, False), collided=True, crossed=(False, True))], None),
    ("L5", [lag(0.2, 0.3, red=(False, True), collided=True, crossed=(True, False))], None),
    ("L5", [lag(0.2, 0.3, red=(True, False), collided=True, crossed=(True, False))], 1),
    ("L6", [lag(0.1, 0.5, top=(False, True))], None),
    ("L6", [lag(0.1, 0.5, top=(False, True)), lag(0.1, 0.5, top=(False, True))], 1),
    ("L6", [lag(0.1, 0.5, top=(False, True)), lag(0.5, 0.1, top=(True, False)),
            lag(0.5, 0.1, top=(True, False))], 0),
    ("L6", [lag(0.1, 0.5, top=(False, False)), lag(0.1, 0.5, top=(False, False))], None),
    ("L6", [lag(0.1, 0.5, top=(False, True)), lag(0.4, 0.3, top=(True, True))], 1, "L2"),
]


@pytest.mark.parametrize("row", SCENARIOS, ids=[f"{row[0]}-{i}" for i, row in enumerate(SCENARIOS)])
def test_lag_scenarios(row: tuple[object, ...]) -> None:
    rule, lags, winner = row[:3]
    decided_by = row[3] if len(row) > 3 else rule
    assert isinstance(lags, list)
    failures = (0, 0)
    outcome = None
    for obj in lags:
        outcome = decide_lag(record_from_json(obj, HEAD), failures)  # type: ignore[arg-type]
        failures = outcome.failures
    assert outcome is not None
    assert outcome.winner == winner
    assert outcome.rule == decided_by


@pytest.mark.rule("L1")
def test_l1_lag_spots_lie_on_the_head_string_beside_the_starting_spots() -> None:
    """L1: both lag balls on the head string y = L/4, outside the starting spots, towards
    the long cushions, on the table and clear of each other and of red on the top spot."""
    for table in TABLES.values():
        left, right = table.lag_spots
        (sl, _), (sr, _) = table.starting_spots
        assert left[1] == right[1] == pytest.approx(table.length / 4) == table.bottom_spot[1]
        assert table.ball_radius < left[0] < sl and sr < right[0] < table.width - table.ball_radius
        assert left[0] == pytest.approx(table.width - right[0])  # as far from either cushion
        assert position_problems({Ball.WHITE: left, Ball.YELLOW: right, Ball.RED: table.top_spot},
                                 table) == []


def test_l2_lag_winner_reported_and_opener_is_the_winners_choice() -> None:
    """L2 decision: the winner decides who opens; the opener plays white (O1)."""
    result = play(header(), lag(0.4, 0.2), "opener 0", "carom")
    assert result.state.lag_winner == 1
    assert result.state.opener == 0
    assert result.rulings[0].player == 0


def test_l3_opener_while_the_lag_must_be_repeated_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: an opener while the lag is undecided"):
        play(header(), lag(0.3, 0.3), "opener 0")


def test_l6_stroke_while_lag_undecided_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: a call record while the lag is undecided"):
        play(header(), lag(0.1, 0.3, top=(False, True)), "carom")


def test_lag_after_a_decided_lag_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: a lag after player 0 already won it"):
        play(header(), lag(0.1, 0.3), lag(0.1, 0.3))


def test_lag_after_opener_is_refused() -> None:
    with pytest.raises(RecordError, match=r"line 3: a lag after the opener was decided"):
        play(header(), "opener 1", lag(0.1, 0.3))


def test_opener_without_lag_is_drawn_by_lot() -> None:
    result = play(header(), "opener 1", "miss")
    assert result.state.lag_winner is None
    assert result.rulings[0].player == 1
