"""The match book: the state is the replay of the stored records, never a second truth."""

from __future__ import annotations

import json

import pytest

from carom.core.errors import RecordError
from carom.notation.matchfile import lines_of, read_match
from carom.storage import SqlStore, StaleSequence
from carom.storage.book import BrokenMatch, MatchBook, WrongToken

HEADER = json.dumps({"format": "carom/1", "discipline": "three-cushion", "table": "large",
                     "players": ["Anna", "Boris"], "points": 2, "innings": None, "sets": None,
                     "equalizing_inning": True})
PLAY = [{"type": "opener", "player": 0}, {"type": "call", "result": "carom"},
        {"type": "call", "result": "miss"}, {"type": "call", "result": "foul", "rule": "F4"},
        {"type": "undo"}, {"type": "call", "result": "miss"}]


def _play(book: MatchBook, match_id: int) -> None:
    for seq, record in enumerate(PLAY):
        book.append(match_id, seq, record, "tok")


def test_the_state_is_the_replay_of_what_is_stored(store: SqlStore) -> None:
    book = MatchBook(store)
    match_id = book.create(HEADER, "tok")
    _play(book, match_id)
    live = book.snapshot(match_id)
    fresh = MatchBook(store).snapshot(match_id)  # another server, from the database alone
    assert fresh.state == live.state and fresh.rulings == live.rulings
    replayed = read_match(lines_of(live.text))
    assert len(replayed.records) == len(PLAY) == live.seq
    assert live.state.score == (1, 0) and live.state.striker == 0


def test_a_record_the_rules_refuse_is_not_stored(store: SqlStore) -> None:
    book = MatchBook(store)
    match_id = book.create(HEADER, "tok")
    with pytest.raises(RecordError, match="line 2: a call record before the opener"):
        book.append(match_id, 0, {"type": "call", "result": "carom"}, "tok")
    with pytest.raises(RecordError, match="unknown record type"):
        book.append(match_id, 0, {"type": "nonsense"}, "tok")
    assert store.read(match_id).lines == ()
    assert book.snapshot(match_id).seq == 0


def test_writes_need_the_token_and_the_last_sequence_number(store: SqlStore) -> None:
    book = MatchBook(store)
    match_id = book.create(HEADER, "tok")
    with pytest.raises(WrongToken):
        book.append(match_id, 0, PLAY[0], "other")
    with pytest.raises(WrongToken):
        book.append(match_id, 0, PLAY[0], None)
    book.append(match_id, 0, PLAY[0], "tok")
    with pytest.raises(StaleSequence):
        book.append(match_id, 0, PLAY[1], "tok")
    assert store.read(match_id).lines == ('{"type": "opener", "player": 0}',)


def test_a_second_server_on_the_same_database_gets_a_stale_answer(store: SqlStore) -> None:
    first, second = MatchBook(store), MatchBook(store)
    match_id = first.create(HEADER, "tok")
    second.snapshot(match_id)  # the second server has replayed the match
    first.append(match_id, 0, PLAY[0], "tok")
    with pytest.raises(StaleSequence):
        second.append(match_id, 0, PLAY[0], "tok")
    assert second.snapshot(match_id).seq == 1  # rebuilt from the database


def test_stored_records_that_no_longer_replay_make_the_match_read_only(store: SqlStore) -> None:
    match_id = store.create_match(HEADER, "tok", ['{"type": "opener", "player": 0}',
                                                  '{"type": "opener", "player": 1}'])
    book = MatchBook(store)
    snap = book.snapshot(match_id)
    assert snap.seq == 1 and snap.problem is not None and "line 3" in snap.problem
    with pytest.raises(BrokenMatch):
        book.append(match_id, 1, {"type": "call", "result": "carom"}, "tok")


def test_summaries_follow_every_write(store: SqlStore) -> None:
    book = MatchBook(store)
    match_id = book.create(HEADER, "tok")
    assert [s.seq for s in book.snapshots()] == [0]
    _play(book, match_id)
    (snap,) = book.snapshots()
    assert snap.seq == len(PLAY) and snap.state.score == (1, 0)


def test_a_stroke_in_doubt_upheld_is_an_event_every_server_reads(store: SqlStore) -> None:
    from carom.storage.events import EventKind, NotInDoubt

    first, second = MatchBook(store), MatchBook(store)
    match_id = first.create(HEADER, "tok")
    doubted = {"type": "stroke", "ball": "white", "events": [],
               "doubt": {"confidence": 0.75, "reasons": [{"what": "red not seen after frame 9"}]}}
    first.append(match_id, 0, PLAY[0], "tok")
    first.append(match_id, 1, doubted, "tok")
    assert second.snapshot(match_id).in_doubt == (3, doubted["doubt"])  # from the database alone
    with pytest.raises(NotInDoubt):
        first.uphold(match_id, 2)
    first.uphold(match_id, 3)
    with pytest.raises(NotInDoubt):
        first.uphold(match_id, 3)
    fresh = MatchBook(store).snapshot(match_id)
    assert fresh.in_doubt is None and fresh.events[-1].kind is EventKind.UPHELD
    assert fresh.events[-1].detail == "3" and fresh.seq == 2  # no record: the stroke stands as written
