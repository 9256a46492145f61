"""The shot clock and time-outs as header and records (docs/clock.md; rules T1–T3 of
carom.rules.competition, sources in docs/clock.md).

T1: a stroke has ``stroke`` seconds, with a warning ``warning`` seconds before the end.
T2: each player has ``timeouts`` time-outs a game (or set), each adding ``timeout``
seconds to one stroke; while one is left it is taken when time runs out. T3: time run out
with none left is a foul: the inning ends, no point, the balls stay as they lie."""

from __future__ import annotations

import json
from typing import Any

import pytest

from carom.core.errors import RecordError
from carom.core.records import Clock
from carom.notation.matchfile import lines_of, read_match
from carom.notation.rulings_json import replay_json
from carom.notation.writer import format_header
from tests.helpers import header, parse_header, play, text

TIMEOUT: dict[str, Any] = {"type": "timeout"}
EXPIRED: dict[str, Any] = {"type": "expired"}


def clocked(clock: Any = True, **kwargs: Any) -> dict[str, Any]:
    head = header(**kwargs)
    head["clock"] = clock
    return head


@pytest.mark.rule("T1", "T2")
def test_the_defaults_are_the_umb_values() -> None:
    """UMB (17 Dec 2019): 30 s a stroke, warned at 20 s, 3 time-outs in matches to 25–35
    points and 4 to 40–50, a time-out bringing the stroke to 60 s."""
    assert parse_header(clocked(points=30)).clock == Clock(30, 10, 3, 30)
    assert parse_header(clocked(points=40)).clock == Clock(30, 10, 4, 30)
    assert parse_header(clocked(points=[30, 50])).clock == Clock(30, 10, 4, 30)
    assert parse_header(clocked({"stroke": 40, "timeouts": 2, "timeout": 40})).clock == Clock(40, 10, 2, 40)
    assert parse_header(clocked({"stroke": 2})).clock == Clock(2, 0, 3, 30)  # a short clock warns at a third
    assert parse_header(header()).clock is None
    h = parse_header(clocked({"stroke": 2}))
    assert json.loads(format_header(h))["clock"] == {"stroke": 2, "warning": 0, "timeouts": 3, "timeout": 30}
    assert parse_header(json.loads(format_header(h))) == h


@pytest.mark.parametrize(("clock", "reason"), [
    (5, "header: clock: expected null, true or an object, got 5 (T1)"),
    ({"stroke": 0}, "header: clock: stroke: expected a whole number >= 1"),
    ({"stroke": 30, "warning": 30}, "header: clock: warning: 30 s left is not within a stroke of 30 s (T1)"),
    ({"timeouts": -1}, "header: clock: timeouts: expected a whole number"),
    ({"speed": 3}, 'header: clock: "speed" is no field of the clock'),
])
@pytest.mark.rule("T1")
def test_a_bad_clock_is_refused_on_line_1(clock: Any, reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_match(lines_of(text(clocked(clock))))
    assert str(caught.value).startswith("line 1: " + reason)


@pytest.mark.rule("T2")
def test_time_outs_are_counted_per_player_and_game() -> None:
    r = play(clocked({"timeouts": 2}), "opener 0", TIMEOUT, "carom", TIMEOUT, "miss", TIMEOUT)
    assert r.state.timeouts == (2, 1)
    assert [p["timeouts"] for p in replay_json(r.state, r.rulings)["players"]] == [2, 1]
    assert "Time-outs" in r.scoresheet()
    with pytest.raises(RecordError, match=r"^line 8: player 0 has no time-out left in this game \(2 taken"):
        play(clocked({"timeouts": 2}), "opener 0", TIMEOUT, "carom", TIMEOUT, "miss", "miss", TIMEOUT)
    with pytest.raises(RecordError, match=r"^line 4: a second time-out for the same stroke \(T2\)"):
        play(clocked(), "opener 0", TIMEOUT, TIMEOUT)


@pytest.mark.rule("T2", "E6")
def test_time_outs_start_afresh_with_each_set() -> None:
    r = play(clocked({"timeouts": 1}, points=1, sets=2), "opener 0", TIMEOUT, "carom", TIMEOUT)
    assert r.state.set_no == 2 and r.state.timeouts == (0, 1) and r.state.timeouts_total == (1, 1)


@pytest.mark.rule("T3", "F14")
def test_time_run_out_is_a_foul_that_ends_the_inning() -> None:
    r = play(clocked({"timeouts": 0}), "opener 0", "carom", EXPIRED)
    last = r.rulings[-1]
    assert last.fouls == ("T3",) and last.points == 0 and last.next == 1 and last.ends_inning
    assert r.state.score == (1, 0)  # the carom before it stands (F14)
    assert "T3" in last.cites and "T1" in last.cites
    assert "1 T3" in r.scoresheet() or " T3 " in r.scoresheet()


@pytest.mark.rule("T2", "T3")
def test_time_runs_out_after_the_time_out_or_takes_it_first() -> None:
    r = play(clocked({"timeouts": 1}), "opener 0", TIMEOUT, EXPIRED)
    assert r.rulings[-1].fouls == ("T3",)
    with pytest.raises(RecordError, match=r"^line 3: time ran out while player 0 has a time-out left"):
        play(clocked({"timeouts": 1}), "opener 0", EXPIRED)


@pytest.mark.rule("T3")
def test_the_balls_stay_where_they_lie_after_time_ran_out() -> None:
    stroke = {"type": "stroke", "ball": "white", "events": [],
              "end": {"white": [0.5, 0.5], "yellow": [1.0, 1.0], "red": [0.7, 2.0]}}
    events = [{"kind": "ball", "ball": "yellow", "other": "red"},
              *({"kind": "cushion", "ball": "yellow", "cushion": c} for c in ("top", "left", "bottom")),
              {"kind": "ball", "ball": "yellow", "other": "white"}]
    carom = {"type": "stroke", "ball": "yellow", "events": events,
             "end": {"white": [0.5, 0.5], "yellow": [1.2, 1.0], "red": [0.7, 2.0]}}
    r = play(clocked({"timeouts": 0}), "opener 0", stroke, carom, EXPIRED)
    assert r.rulings[-1].fouls == ("T3",)
    assert r.state.position is not None and r.state.position == r.records[-2][1].end  # type: ignore[union-attr]


@pytest.mark.parametrize(("records", "reason"), [
    (("opener 0", TIMEOUT), "line 3: a timeout record, but the header sets no clock (T2)"),
    (("opener 0", EXPIRED), "line 3: a expired record, but the header sets no clock (T3)"),
])
@pytest.mark.rule("T2", "T3")
def test_clock_records_need_a_clock(records: tuple[Any, ...], reason: str) -> None:
    with pytest.raises(RecordError) as caught:
        read_match(lines_of(text(header(), *records)))
    assert str(caught.value) == reason


@pytest.mark.rule("T2")
def test_clock_records_need_a_match_under_way() -> None:
    with pytest.raises(RecordError, match=r"^line 2: a timeout record before the opener"):
        play(clocked(), TIMEOUT)
    with pytest.raises(RecordError, match=r"^line 4: a timeout record after the match ended"):
        play(clocked(points=1, equalizing=False), "opener 0", "carom", TIMEOUT)
