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


def test_the_referee_pauses_and_resumes_the_shot_clock(organiser: Any, stranger: Any) -> None:
    """``POST /api/matches/{id}/clock``: a match event every page follows (docs/clock.md); the
    referee token is needed, the body is checked, pausing twice is one pause."""
    match_id, token = _create(organiser, points=10, clock=True)
    referee = {"X-Referee-Token": token}
    assert stranger.post(f"/api/matches/{match_id}/clock", json={"paused": True}).status_code == 403
    bad = stranger.post(f"/api/matches/{match_id}/clock", json={"paused": 1}, headers=referee)
    assert bad.status_code == 422
    for paused in (True, True, False):
        answer = stranger.post(f"/api/matches/{match_id}/clock", json={"paused": paused}, headers=referee)
        assert answer.status_code == 200, answer.text
    assert [e["kind"] for e in answer.json()["events"]] == ["clock-pause", "clock-resume"]


@pytest.mark.rule("E1")
def test_handicap_targets_stand_beside_each_players_score(organiser: Any) -> None:
    """Found on a club day: a handicap match showed its limits only in the header line; the board, the
    tablet and the hall card show each player's own target beside the score."""
    match_id, token = _create(organiser, points=[25, 18], innings=None)
    _post(organiser, match_id, token, 0, {"type": "opener", "player": 0})
    board = organiser.get(f"/m/{match_id}").text
    assert 'id="target-0">Target <b>25</b>' in board and 'id="target-1">Target <b>18</b>' in board
    tablet = organiser.get(f"/m/{match_id}/tablet?t={token}").text
    assert 'id="t-target-0"> / 25</span>' in tablet and 'id="t-target-1"> / 18</span>' in tablet
    assert "> / 18</span>" in organiser.get(f"/hall?m={match_id}").text
    plain, _ = _create(organiser, points=20)
    assert 'id="target-0"' not in organiser.get(f"/m/{plain}").text
