"""Property tests (hypothesis): random legal matches keep the rulebook's invariants,
replay is deterministic, write → read is the identity, junk is refused by line."""

from __future__ import annotations

import json
from itertools import pairwise
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.core.errors import RecordError
from carom.core.records import Call, CallResult, Expired, Inning, Opener, Penalty, Record, Timeout, Undo
from carom.match.replay import Replayer
from carom.notation.matchfile import Match, lines_of, read_match, replay_file
from carom.notation.reader import parse_header
from carom.notation.writer import format_match
from carom.rules.catalog import CALLABLE_FOULS
from tests.helpers import header

HEADS = st.builds(
    lambda d, points, innings, sets, eq: header(d, points=points, innings=innings if innings or points else 5,
                                                sets=sets, equalizing=eq),
    st.sampled_from(["three-cushion", "straight-rail", "balkline-47/2", "one-cushion", "balkline-52/1"]),
    st.one_of(st.none(), st.integers(1, 8)), st.one_of(st.none(), st.integers(1, 6)),
    st.one_of(st.none(), st.integers(1, 3)), st.booleans(),
)


def random_match(data: st.DataObject, head: dict[str, Any]) -> tuple[Replayer, list[Record]]:
    """Play a random legal match of calls, innings and undos, checking invariants as it goes."""
    h = parse_header(json.dumps(head))
    replayer = Replayer(h)
    records: list[Record] = [Opener(data.draw(st.integers(0, 1)))]
    replayer.feed(2, records[0])
    openers = [replayer.state.set_opener]
    for _ in range(data.draw(st.integers(0, 120))):
        s = replayer.state
        if s.finished:
            break
        choices: list[Record] = [Call(CallResult.CAROM), Call(CallResult.MISS),
                                 Call(CallResult.FOUL, data.draw(st.sampled_from(CALLABLE_FOULS))), Undo()]
        if not s.in_inning:
            limit = s.rules.limit(s.striker)
            top = 12 if limit is None else limit - s.score[s.striker]
            choices.append(Inning(data.draw(st.integers(0, top))))
        record = data.draw(st.sampled_from(choices))
        before = replayer.state
        try:
            replayer.feed(len(records) + 2, record)  # its line in the file written below
        except RecordError:
            assert replayer.state is before  # a refused record changes nothing
            continue
        records.append(record)
        s = replayer.state
        for p in (0, 1):
            limit = s.rules.limit(p)  # a handicap: each player's own (docs/format.md)
            if limit is not None:
                assert s.score[p] <= limit  # E1: no score past the limit
                if h.sets_to_win is not None and not s.finished:
                    assert s.score[p] < limit  # E4: a set ends the moment it is won
        if s.set_no > len(openers):
            openers.append(s.set_opener)
    for a, b in pairwise(openers):
        assert a != b  # E6: set openers alternate
    return replayer, records


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), HEADS)
def test_random_legal_matches_keep_the_invariants(data: st.DataObject, head: dict[str, Any]) -> None:
    replayer, records = random_match(data, head)
    s = replayer.state
    if s.finished and s.rules.sets_to_win is None:
        limit = s.rules.limit(s.set_opener)
        opener_reached = limit is not None and s.score[s.set_opener] >= limit
        if s.rules.equalizing_inning or not opener_reached:
            assert s.innings[0] == s.innings[1]  # E2, E3: equal innings at the end
    # replay is deterministic, and the file written reads back to the same records
    h = replayer.header
    text = format_match(h, records)
    again = read_match(lines_of(text))
    assert [r for _, r in again.records] == records
    assert again.header == h
    first, second = Match.of(h, again.records), Match.of(h, again.records)
    assert first == second
    assert first.state == s and list(first.rulings) == replayer.rulings


HANDICAP_HEADS = st.builds(
    lambda d, points, innings, sets, eq: header(d, points=points, innings=innings, sets=sets, equalizing=eq),
    st.sampled_from(["three-cushion", "straight-rail", "balkline-47/2"]),
    st.lists(st.integers(1, 8), min_size=2, max_size=2), st.one_of(st.none(), st.integers(1, 6)),
    st.one_of(st.none(), st.integers(1, 3)), st.booleans(),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), HANDICAP_HEADS)
def test_random_handicap_matches_keep_the_invariants(data: st.DataObject, head: dict[str, Any]) -> None:
    """Each player's own limit (docs/format.md, "Handicap"): nobody passes his own limit, a
    finished game was won by the player who reached his, or is level (both reached, or
    the same share of their limits at the innings limit), and write → read → replay agree."""
    replayer, records = random_match(data, head)
    s = replayer.state
    limits = head["points"]
    for game in s.games:
        reached = [game.points[p] >= limits[p] for p in (0, 1)]
        share = [game.points[p] * limits[1 - p] for p in (0, 1)]
        if game.winner is not None:
            assert share[game.winner] > share[1 - game.winner]
            if any(reached):
                assert reached[game.winner] and not reached[1 - game.winner]
        else:
            assert share[0] == share[1]
        if s.rules.sets_to_win is None and (s.rules.equalizing_inning or not reached[game.opener]):
            assert game.innings[0] == game.innings[1]  # E2, E3
    text = format_match(replayer.header, records)
    again = read_match(lines_of(text))
    assert again.header.points == tuple(limits)
    assert again.state == s and list(again.rulings) == replayer.rulings


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), head=HEADS)
def test_streaming_replay_equals_replay_in_memory(data: st.DataObject, head: dict[str, Any],
                                                  tmp_path_factory: Any) -> None:
    replayer, records = random_match(data, head)
    path = tmp_path_factory.mktemp("m") / "m.carom.jsonl"
    path.write_text(format_match(replayer.header, records), encoding="utf-8")
    streamed: list[Any] = []
    state = replay_file(path, streamed.append)
    assert state == replayer.state
    assert streamed == replayer.rulings


JUNK = st.one_of(
    st.text(max_size=80),
    st.dictionaries(st.sampled_from(["type", "result", "rule", "points", "foul", "player", "ball",
                                     "events", "start", "end", "results", "collided", "exits",
                                     "fouls", "paths"]),
                    st.recursive(st.none() | st.booleans() | st.integers(-3, 300) | st.floats(-5, 5)
                                 | st.sampled_from(["call", "carom", "foul", "F4", "white", "red",
                                                    "inning", "stroke", "lag", "undo", "top"]),
                                 lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=5), c,
                                                                                      max_size=3),
                                 max_leaves=8)).map(json.dumps),
)


@settings(max_examples=400, deadline=None)
@given(JUNK)
def test_junk_lines_are_refused_with_a_line_number_never_a_traceback(junk: str) -> None:
    one_line = junk.replace("\n", " ").replace("\r", " ")  # a file's lines end at either (lines_of)
    text = json.dumps(header()) + "\n" + '{"type": "opener", "player": 0}\n' + one_line + "\n"
    try:
        read_match(lines_of(text))
    except RecordError as error:
        assert error.line == 3 and str(error).startswith("line 3: ")


def _competition(points: Any, innings: int, eq: bool, timeouts: int) -> dict[str, Any]:
    return {**header("three-cushion", points=points, innings=innings, equalizing=eq),
            "tiebreak": "penalties", "clock": {"timeouts": timeouts}}


COMPETITION_HEADS = st.builds(
    _competition,
    st.one_of(st.integers(1, 5), st.lists(st.integers(1, 5), min_size=2, max_size=2)),
    st.integers(1, 4), st.booleans(), st.integers(0, 2),
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), COMPETITION_HEADS)
def test_random_knockouts_with_a_clock_keep_the_invariants(data: st.DataObject, head: dict[str, Any]) -> None:
    """Time-outs, time run out and penalties among calls and innings (docs/clock.md, T1–T3,
    P1–P3): a refused record changes nothing; nobody takes more time-outs than the clock
    allows; a knock-out never finishes level; write → read → replay agrees."""
    h = parse_header(json.dumps(head))
    assert h.clock is not None
    replayer = Replayer(h)
    records: list[Record] = [Opener(data.draw(st.integers(0, 1)))]
    replayer.feed(2, records[0])
    for _ in range(data.draw(st.integers(0, 80))):
        s = replayer.state
        if s.finished:
            break
        record = data.draw(st.sampled_from([
            Call(CallResult.CAROM), Call(CallResult.MISS), Inning(data.draw(st.integers(0, 3))), Timeout(),
            Expired(), Undo(), Penalty(data.draw(st.integers(0, 1)), data.draw(st.booleans()))]))
        before = replayer.state
        try:
            replayer.feed(len(records) + 2, record)
        except RecordError:
            assert replayer.state is before
            continue
        records.append(record)
        s = replayer.state
        assert max(s.timeouts) <= h.clock.timeouts
        assert not (s.finished and s.winner is None)  # P1: a knock-out always has a winner
        if s.shootout:
            assert s.games and s.games[-1].winner is None
    again = read_match(lines_of(format_match(h, records)))
    assert [r for _, r in again.records] == records
    assert again.state == replayer.state and list(again.rulings) == replayer.rulings
