"""Outcomes named: each way a game or set ends is a ``Termination`` with the rule that
ended it (E1–E5), on the game's result."""

from __future__ import annotations

from typing import Any

import pytest

from carom.match.state import Termination
from tests.helpers import header, play

CASES: list[tuple[str, dict[str, Any], tuple[str, ...], list[tuple[Termination, int | None]]]] = [
    ("E1-points-limit-without-equalizing-inning", header(points=3, equalizing=False),
     ("opener 0", "inning 3"), [(Termination.POINTS_LIMIT, 0)]),
    ("E1-points-limit-reached-by-the-second-player", header(points=3),
     ("opener 0", "inning 1", "inning 3"), [(Termination.POINTS_LIMIT, 1)]),
    ("E1-E2-innings-limit-without-equalizing-inning", header(points=9, innings=1, equalizing=False),
     ("opener 0", "inning 2", "inning 1"), [(Termination.INNINGS_LIMIT, 0)]),
    ("E3-equalizing-inning-completed", header(points=3),
     ("opener 0", "inning 3", "inning 1"), [(Termination.EQUALIZING_INNING, 0)]),
    ("E3-draw-after-the-equalizing-inning", header(points=3),
     ("opener 0", "inning 3", "inning 3"), [(Termination.DRAW, None)]),
    ("E3-draw-at-the-innings-limit", header(points=9, innings=1),
     ("opener 0", "inning 2", "inning 2"), [(Termination.DRAW, None)]),
    ("E4-set-won", header(points=2, sets=1), ("opener 0", "inning 2"), [(Termination.SET_WON, 0)]),
    ("E5-set-won-at-its-innings-limit", header(points=9, innings=1, sets=1),
     ("opener 0", "inning 1", "inning 2"), [(Termination.SET_WON_AT_INNINGS_LIMIT, 1)]),
    ("E5-set-level-at-its-innings-limit", header(points=2, innings=1, sets=1),
     ("opener 0", "inning 1", "inning 1", "inning 2"),
     [(Termination.SET_LEVEL, None), (Termination.SET_WON, 1)]),
]


@pytest.mark.parametrize(("case", "head", "records", "expected"), CASES, ids=[c[0] for c in CASES])
def test_each_end_of_a_game_or_set_is_named_with_its_rule(
        case: str, head: dict[str, Any], records: tuple[str, ...],
        expected: list[tuple[Termination, int | None]]) -> None:
    match = play(head, *records)
    assert match.state.finished
    assert [(g.termination, g.winner) for g in match.state.games] == expected
    assert [g.rule for g in match.state.games] == [t.rule for t, _ in expected]
    assert case.startswith(expected[0][0].rule)
    assert expected[-1][0].rule in match.rulings[-1].cites


def test_every_termination_names_a_rule_of_part_e() -> None:
    assert {t.rule for t in Termination} == {"E1", "E3", "E4", "E5"}
    assert {t.value for t in Termination} >= {"points-limit", "innings-limit", "draw", "set-level"}
