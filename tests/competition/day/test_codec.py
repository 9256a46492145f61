"""Records as JSON and back; keys as text and back; a malformed record is refused naming
its field."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from carom.competition.day import GameKey, Refused, Result, Settings, Stage, from_json, to_json
from carom.competition.day import records as r
from carom.competition.day.records import KINDS

AT = datetime(2026, 12, 5, 18, 30, tzinfo=UTC)
G = GameKey.parse("1.A.2.0")
EXAMPLES: list[r.Record] = [
    r.Created(actor="anna", at=AT, settings=Settings("Cup", "three-cushion", "large", 30, None, mode="stages",
                                                     stages=(Stage("groups", 2, 4), Stage("knockout")),
                                                     clock={"stroke": 30}, third_place=True)),
    r.Entered(actor="anna", at=AT, player=7, stage=2, seed=1, target=25),
    r.SeedingSet(actor="anna", at=AT, seeds=((7, 1), (8, 0)), source="ranking list"),
    r.Started(actor="anna", at=AT, seeds=(7, 8, 9), targets=((7, 25),)),
    r.GameCalled(actor="schedule", at=AT, game=G, table=2, match=41),
    r.GameScheduled(actor="anna", at=AT, game=G, table=3, start=AT),
    r.RoundScheduled(actor="anna", at=AT, stage=1, round=2, group=1, start=AT),
    r.GameMoved(actor="anna", at=AT, game=G, table=1),
    r.GamesSwapped(actor="anna", at=AT, first=G, second=GameKey.parse("2.K3.1.0")),
    r.GamePostponed(actor="anna", at=AT, game=G),
    r.GameFinished(actor="schedule", at=AT, game=G, result=Result((30, 12), (20, 20), (7, 3), 0)),
    r.GameResumed(actor="schedule", at=AT, game=G),
    r.GameConfirmed(actor="schedule", at=AT, game=G),
    r.ResultEntered(actor="boris", at=AT, game=G, result=Result.from_series([[3, 0, 7], [2, 5, 1]])),
    r.ResultCorrected(actor="anna", at=AT, game=G, result=Result.totals((10, 6), (3, 3), (5, 3)), reason="6"),
    r.GameUnlocked(actor="anna", at=AT, game=G, reason="the sheet was misread"),
    r.Walkover(actor="anna", at=AT, game=G, winner=1, reason="late"),
    r.Withdrew(actor="anna", at=AT, player=7, no_show=True, reason="ill"),
    r.StageFed(actor="schedule", at=AT, stage=2, field=(7, 8)),
]


def test_every_kind_of_record_has_an_example() -> None:
    assert {r.kind_of(x) for x in EXAMPLES} == set(KINDS)


@pytest.mark.parametrize("record", EXAMPLES, ids=[r.kind_of(x) for x in EXAMPLES])
def test_a_record_reads_back_as_it_was_written(record: r.Record) -> None:
    data = to_json(record)
    assert data["type"] == r.kind_of(record) and data["actor"] == record.actor
    assert from_json(data) == record


@pytest.mark.parametrize(("data", "message"), [
    ([], "record: expected an object"),
    ({"type": "sneeze"}, "type: expected one of created, entered"),
    ({"type": "called", "actor": "a", "at": "2026-12-05T18:00:00+00:00", "table": 1}, "game: missing"),
    ({"type": "called", "actor": "a", "at": "2026-12-05T18:00:00+00:00", "game": "1.A.x.0", "table": 1},
     "game: '1.A.x.0' is not a game's key"),
    ({"type": "called", "actor": "a", "at": "2026-12-05T18:00:00", "game": "1.A.1.0", "table": 1},
     "at: expected a time with its offset from UTC"),
    ({"type": "called", "actor": "a", "at": "2026-12-05T18:00:00Z", "game": "1.A.1.0", "table": True},
     "table: expected a whole number"),
    ({"type": "called", "actor": "a", "at": "2026-12-05T18:00:00Z", "game": "1.A.1.0", "table": 1, "x": 1},
     "x: no such field"),
    ({"type": "finished", "actor": "a", "at": "2026-12-05T18:00:00Z", "game": "1.A.1.0",
      "result": {"points": [1], "innings": [1, 1], "high_run": [1, 1], "winner": 0}},
     r"result.points: expected a list of 2"),
    ({"type": "started", "actor": "a", "at": "2026-12-05T18:00:00Z", "seeds": [1, 2**60]},
     r"seeds\[1\]: expected a whole number"),
])
def test_a_malformed_record_is_refused_naming_its_field(data: object, message: str) -> None:
    with pytest.raises(Refused, match=message):
        from_json(data)


@pytest.mark.parametrize("text", ["1.A.2.0", "2.K1.3.0", "2.K5.1.1", "1.27.1.0"])
def test_a_key_reads_back_as_it_is_written(text: str) -> None:
    assert GameKey.parse(text).text == text


BAD_KEYS = ["", "1.A.2", "1.a.2.0", "x.A.2.0", "1.A.2.0.0", "1.K0.1.0", "0.A.1.0", "1.A.0.0", "1.26.1.0", 7]


@pytest.mark.parametrize("text", BAD_KEYS)
def test_a_bad_key_is_refused(text: object) -> None:
    with pytest.raises(ValueError, match="game"):
        GameKey.parse(text)
