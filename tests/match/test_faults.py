"""The consequences of a fault in every discipline (RULES.md F): the inning ends, the
stroke's carom is void and the caroms before it stand (F14), the balls stay where they
came to rest and the opponent plays from there; a miss ends the inning without a fault
(F1); an uncalled fault changes nothing (F15); and a called fault that cannot happen
where it is called is refused (Z7 without zones, 1C2, 3C2; Z7 before the limit, Z2, Z3;
O3 after the opening stroke)."""

from __future__ import annotations

from typing import Any

import pytest

from carom.core.errors import RecordError
from carom.core.table import TABLES
from carom.notation.matchfile import Match, lines_of, read_match
from carom.rules.disciplines import DISCIPLINES
from tests.helpers import header, play, stroke_json, text

ALL = tuple(DISCIPLINES)
LEAD = {"one-cushion": "left ", "three-cushion": "left top right "}
"""The cushions each discipline needs before ball 3 (1C1, 3C1), put first."""
CALLED = tuple(f"F{n}" for n in range(3, 14))
"""The faults a ``stroke`` may call that move no ball (F2, the jump, does: test_spotting)."""


def at(discipline: str, fractions: dict[str, tuple[float, float]]) -> dict[str, list[float]]:
    """A position given in fractions of the discipline's table (x/W, y/L), in metres."""
    table = TABLES[DISCIPLINES[discipline].tables[0]]
    return {b: [round(x * table.width, 4), round(y * table.length, 4)] for b, (x, y) in fractions.items()}


OPEN = {"white": (0.35, 0.30), "yellow": (0.65, 0.45), "red": (0.40, 0.70)}
REST_1 = {"white": (0.50, 0.50), "yellow": (0.30, 0.62), "red": (0.70, 0.80)}
REST_2 = {"white": (0.45, 0.20), "yellow": (0.60, 0.35), "red": (0.25, 0.85)}


def carom(discipline: str, ball: str = "white", **kw: Any) -> dict[str, Any]:
    other = "yellow" if ball == "white" else "white"
    return stroke_json(ball, LEAD.get(discipline, "") + f"red {other}", **kw)


def ruled(result: Match) -> list[tuple[int, tuple[str, ...], int | None]]:
    return [(r.points, r.fouls, r.next) for r in result.rulings]


@pytest.mark.parametrize("discipline", ALL)
@pytest.mark.parametrize("fault", CALLED)
def test_a_called_fault_voids_its_carom_ends_the_inning_and_leaves_the_balls(fault: str,
                                                                             discipline: str) -> None:
    """F3–F13 on a stroke that made a carom: no point (F14), the earlier carom stands, the
    opponent plays (F), from where the balls came to rest: no ball is moved."""
    result = play(header(discipline, points=50), "opener 0",
                  carom(discipline, start=at(discipline, OPEN), end=at(discipline, REST_1)),
                  carom(discipline, end=at(discipline, REST_2), fouls=(fault,)),
                  carom(discipline, "yellow", end=at(discipline, REST_1)))
    first, faulty, after = result.rulings
    assert (first.points, first.next) == (1, 0)
    assert (faulty.points, faulty.fouls, faulty.next, faulty.spot) == (0, (fault,), 1, None)
    assert faulty.ends_inning and {fault, "F14"} <= set(faulty.cites)
    assert (after.player, after.points, after.fouls) == (1, 1, ())  # played from REST_2 as it lay
    state = result.state
    assert state.score == (1, 1) and state.high_run == (1, 1) and state.innings == (1, 1)


@pytest.mark.parametrize("discipline", ALL)
@pytest.mark.parametrize("fault", CALLED)
def test_a_called_fault_from_the_scoreboard_ends_the_series_that_stands(fault: str,
                                                                         discipline: str) -> None:
    """The same through ``call`` and ``inning`` records: the series before the fault stands
    (F14), the inning ends with the fault, and the other player plays."""
    by_call = play(header(discipline, points=50), "opener 0", "carom", "carom", f"foul {fault}", "carom")
    assert ruled(by_call) == [(1, (), 0), (1, (), 0), (0, (fault,), 1), (1, (), 1)]
    assert by_call.state.score == (2, 1) and by_call.state.high_run == (2, 1)
    by_inning = play(header(discipline, points=50), "opener 0", f"inning 3 {fault}", "inning 2")
    assert ruled(by_inning) == [(3, (fault,), 1), (2, (), 0)]
    assert by_inning.state.score == (3, 2) and by_inning.state.innings == (1, 1)


@pytest.mark.rule("F1", "C3")
@pytest.mark.parametrize("discipline", ALL)
def test_f1_a_stroke_without_a_carom_ends_the_inning_and_is_no_fault(discipline: str) -> None:
    only_red = stroke_json("white", LEAD.get(discipline, "") + "red", start=at(discipline, OPEN),
                           end=at(discipline, REST_1))
    result = play(header(discipline, points=50), "opener 0", carom(discipline, start=at(discipline, OPEN),
                                                                   end=at(discipline, REST_2)), only_red)
    assert ruled(result) == [(1, (), 0), (0, (), 1)]
    assert "F1" in result.rulings[1].cites and result.rulings[1].spot is None


@pytest.mark.rule("F15")
@pytest.mark.parametrize("discipline", ALL)
def test_f15_a_carom_after_a_fault_nobody_called_stands_and_the_series_goes_on(discipline: str) -> None:
    """Between two strokes the striker moved a ball (F4, F6) and nobody called it: the next
    stroke starts where the ball now lies, its carom counts and the series goes on. Only a
    fault called on its stroke counts (F15); a called one ends the series (the control)."""
    moved = dict(REST_1, yellow=(0.34, 0.60))
    uncalled = play(header(discipline, points=50), "opener 0",
                    carom(discipline, start=at(discipline, OPEN), end=at(discipline, REST_1)),
                    carom(discipline, start=at(discipline, moved), end=at(discipline, REST_2)),
                    carom(discipline, end=at(discipline, REST_1)))
    assert ruled(uncalled) == [(1, (), 0), (1, (), 0), (1, (), 0)]
    assert uncalled.state.high_run == (3, 0) and uncalled.state.innings == (1, 0)
    called = play(header(discipline, points=50), "opener 0",
                  carom(discipline, start=at(discipline, OPEN), end=at(discipline, REST_1)),
                  carom(discipline, start=at(discipline, moved), end=at(discipline, REST_2), fouls=("F4",)))
    assert ruled(called) == [(1, (), 0), (0, ("F4",), 1)]


# --- called faults that cannot happen --------------------------------------------------


@pytest.mark.rule("1C2", "3C2", "Z7")
@pytest.mark.parametrize(("discipline", "rule"), [("one-cushion", "1C2"), ("three-cushion", "3C2")])
def test_a_called_z7_is_refused_where_there_are_no_forbidden_zones(discipline: str, rule: str) -> None:
    refusal = rf"line 4: a fault Z7, but {discipline} has no forbidden zones \({rule}\)"
    with pytest.raises(RecordError, match=refusal):
        play(header(discipline), "opener 0", "carom", "foul Z7")
    with pytest.raises(RecordError, match=refusal.replace("line 4", "line 3")):
        play(header(discipline), "opener 0", "inning 4 Z7")


@pytest.mark.rule("Z2", "Z3", "Z7")
@pytest.mark.parametrize("discipline", ["straight-rail", "balkline-47/2", "balkline-52/2", "balkline-57/2"])
def test_a_called_z7_needs_a_carom_before_it_in_the_inning_where_two_are_allowed(discipline: str) -> None:
    """Counts start with every inning, and two caroms in a row are allowed (Z2): the first
    carom of an inning cannot break Z3, so a Z7 on it cannot happen."""
    with pytest.raises(RecordError, match=r"line 3: a fault Z7 after 0 caroms of the inning.*\(Z2, Z3\)"):
        play(header(discipline, points=50), "opener 0", "foul Z7")
    with pytest.raises(RecordError, match=r"line 3: a fault Z7 after 0 caroms"):
        play(header(discipline, points=50), "opener 0", "inning 0 Z7")
    result = play(header(discipline, points=50), "opener 0", "carom", "foul Z7", "inning 1 Z7")
    assert ruled(result) == [(1, (), 0), (0, ("Z7",), 1), (1, ("Z7",), 0)]


@pytest.mark.rule("Z2", "Z7")
@pytest.mark.parametrize("discipline", [d for d in ALL if d.endswith("/1")])
def test_a_called_z7_may_end_any_carom_where_one_is_allowed(discipline: str) -> None:
    result = play(header(discipline, points=50), "opener 0", "foul Z7", "inning 0 Z7")
    assert ruled(result) == [(0, ("Z7",), 1), (0, ("Z7",), 0)]


@pytest.mark.rule("O3")
def test_a_called_o3_only_on_the_opening_stroke_of_the_match_or_a_set() -> None:
    assert ruled(play(header(), "opener 0", "foul O3")) == [(0, ("O3",), 1)]
    assert ruled(play(header(), "opener 0", "inning 0 O3")) == [(0, ("O3",), 1)]
    with pytest.raises(RecordError, match=r"line 4: a fault O3, but only the opening stroke"):
        play(header(), "opener 0", "miss", "foul O3")
    with pytest.raises(RecordError, match=r"line 3: a fault O3, but only the opening stroke"):
        play(header(), "opener 0", "inning 2 O3")
    sets = play(header(points=1, sets=2), "opener 0", "carom", "foul O3")  # E6: set 2 opens
    assert ruled(sets)[-1] == (0, ("O3",), 0)


def test_a_refused_fault_is_only_that_line_for_the_lenient_reader() -> None:
    match = read_match(lines_of(text(header(), "opener 0", "foul Z7", "carom", "miss")), strict=False)
    assert [e.line for e in match.errors] == [3]
    result = Match.of(match.header, match.records)
    assert ruled(result) == [(1, (), 0), (0, (), 1)]
