"""The next game starts when a table becomes free, not when somebody reads the
tournament: the record that finishes a game's match (posted to the records API, as a
tablet does) starts the next scheduled game at once, on SQLite and PostgreSQL. The
tournament is never read between the finishing record and the check: the new game's
match is seen in ``/api/matches`` (which knows nothing of tournaments)."""

from __future__ import annotations

from typing import Any

from tests.web.server import Server


def _records(client: Any, match: int, token: str, records: list[dict[str, Any]],
             seq: int = 0) -> dict[str, Any]:
    answer: dict[str, Any] = {}
    for record in records:
        response = client.post(f"/api/matches/{match}/records", json={"after": seq, "record": record},
                               headers={"X-Referee-Token": token})
        assert response.status_code == 201, response.text
        answer = response.json()
        seq = answer["seq"]
    return answer


def _matches(client: Any) -> dict[int, tuple[str, str]]:
    return {m["id"]: tuple(m["header"]["players"]) for m in client.get("/api/matches").json()}


def test_finishing_a_game_starts_the_next_one_on_its_table(server: Server) -> None:
    client = server.organiser()
    tid = client.post("/api/tournaments", json={
        "name": "Evening", "discipline": "three-cushion", "points": 3, "tables": 1}).json()["id"]
    assert client.post(f"/api/tournaments/{tid}/players",
                       json={"players": [{"name": n} for n in ("Anna", "Boris", "Cyril")]}).status_code == 201
    started = client.post(f"/api/tournaments/{tid}/start").json()
    games = sorted(started["games"], key=lambda g: g["order"])
    first = games[0]
    assert first["status"] == "playing" and games[1]["status"] == "waiting"
    before = _matches(client)
    assert list(before) == [first["match"]]

    # not finished yet: nothing new
    _records(client, first["match"], first["referee_token"], [{"type": "opener", "player": 0}])
    assert _matches(client) == before
    answer = _records(client, first["match"], first["referee_token"],
                      [{"type": "inning", "points": 3}, {"type": "inning", "points": 1}], seq=1)
    # the answer to the finishing record came back after the next game had its match
    assert answer["state"]["finished"]
    after = _matches(client)
    new = sorted(set(after) - set(before))
    assert len(new) == 1, after
    assert after[new[0]] == tuple(games[1]["names"])
    # the tournament, read now, agrees: the second game plays on table 1 in that match
    now = {g["id"]: g for g in client.get(f"/api/tournaments/{tid}/games").json()}
    assert now[first["id"]]["status"] == "done"
    assert now[games[1]["id"]]["status"] == "playing"
    assert now[games[1]["id"]]["match"] == new[0] and now[games[1]["id"]]["table"] == 1


def test_a_match_of_no_tournament_finishes_as_before(client: Any, organiser: Any) -> None:
    match = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": ["Anna", "Boris"], "points": 2}).json()
    answer = _records(organiser, match["id"], match["referee_token"],
                      [{"type": "opener", "player": 0}, {"type": "inning", "points": 2},
                       {"type": "inning", "points": 0}])
    assert answer["state"]["finished"]
    assert len(client.get("/api/matches").json()) == 1
