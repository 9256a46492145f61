"""Handicap, shot clock and tie-break through the JSON API (docs/format.md, docs/clock.md):
a match is created with them, its records are judged as in a file, a refusal is a 422
naming the line's reason, and the file comes back with them."""

from __future__ import annotations

from typing import Any

import pytest


def _create(organiser: Any, **header: Any) -> tuple[int, str]:
    body = {"discipline": "three-cushion", "table": "large", "players": ["Anna", "Boris"], **header}
    response = organiser.post("/api/matches", json=body)
    assert response.status_code == 201, response.text
    return int(response.json()["id"]), str(response.json()["referee_token"])


def _post(client: Any, match_id: int, token: str, after: int, record: dict[str, Any]) -> Any:
    return client.post(f"/api/matches/{match_id}/records", json={"after": after, "record": record},
                       headers={"X-Referee-Token": token})


@pytest.mark.rule("E1", "T2", "T3", "P1", "P3")
def test_a_handicap_knockout_with_a_clock_through_the_api(organiser: Any) -> None:
    match_id, token = _create(organiser, points=[2, 3], innings=1, tiebreak="penalties",
                              clock={"stroke": 40, "timeouts": 1})
    records = [{"type": "opener", "player": 0}, {"type": "timeout"}, {"type": "inning", "points": 2},
               {"type": "inning", "points": 3}]
    for seq, record in enumerate(records):
        assert _post(organiser, match_id, token, seq, record).status_code == 201
    state = organiser.get(f"/api/matches/{match_id}").json()["state"]
    assert state["shootout"] and not state["finished"]  # both reached their own limit: level (P1)
    refused = _post(organiser, match_id, token, 4, {"type": "penalty", "player": 1, "result": "carom"})
    assert refused.status_code == 422
    assert refused.json()["detail"] == "line 6: penalty: player 1 shoots, but it is player 0's turn (P2)"
    for seq, record in enumerate([{"type": "penalty", "player": 0, "result": "miss"},
                                  {"type": "penalty", "player": 1, "result": "carom"}], start=4):
        assert _post(organiser, match_id, token, seq, record).status_code == 201
    match = organiser.get(f"/api/matches/{match_id}").json()
    assert match["state"]["winner"] == 1 and match["replay"]["shootout"]["winner"] == 1
    assert [p["limit"] for p in match["replay"]["players"]] == [2, 3]
    assert match["header"]["clock"] == {"stroke": 40, "warning": 10, "timeouts": 1, "timeout": 30}
    assert match["header"]["points"] == [2, 3] and match["header"]["tiebreak"] == "penalties"
    text = organiser.get(f"/api/matches/{match_id}/file").text
    assert '"points": [2, 3]' in text.splitlines()[0]


@pytest.mark.rule("T1")
def test_a_bad_clock_is_refused_with_its_field(organiser: Any) -> None:
    body = {"discipline": "three-cushion", "players": ["Anna", "Boris"], "points": 5, "clock": {"stroke": 0}}
    response = organiser.post("/api/matches", json=body)
    assert response.status_code == 422
    assert "header: clock: stroke" in response.text
    assert organiser.get("/api/matches").json() == []
