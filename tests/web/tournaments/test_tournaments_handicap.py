"""HANDICAP TOURNAMENTS (docs/tournaments.md, "Handicap"): each game's header carries the
players' own limits (``"points": [a, b]``, docs/format.md) and the engine ends the game
at a player's own limit."""

from __future__ import annotations

from typing import Any


def _match(client: Any, names: list[str], points: int, innings: list[int]) -> None:
    made = client.post("/api/matches", json={"discipline": "three-cushion", "table": "large",
                                             "players": names, "points": points}).json()
    seq = 0
    for record in [{"type": "opener", "player": 0}] + [{"type": "inning", "points": p} for p in innings]:
        answer = client.post(f"/api/matches/{made['id']}/records", json={"after": seq, "record": record},
                             headers={"X-Referee-Token": made["referee_token"]})
        assert answer.status_code == 201, answer.text
        seq = answer.json()["seq"]


def test_a_handicap_round_robin(organiser: Any) -> None:
    _match(organiser, ["Anna", "Boris"], 4, [2, 1, 2, 1])  # Anna 4 in 2 innings (2.0), Boris 2 in 2 (1.0)
    tid = organiser.post("/api/tournaments", json={
        "name": "Handicap", "discipline": "three-cushion", "points": 10, "handicap": True}).json()["id"]
    organiser.post(f"/api/tournaments/{tid}/players", json={"players": [
        {"name": "Anna"}, {"name": "Boris"}, {"name": "Cyril", "target": 7}]})
    t = organiser.post(f"/api/tournaments/{tid}/start").json()
    # distance x average / best average: Anna 10 x 2/2, Boris 10 x 1/2; Cyril by hand
    assert {p["name"]: p["target"] for p in t["participants"]} == {"Anna": 10, "Boris": 5, "Cyril": 7}
    target = {p["name"]: p["target"] for p in t["participants"]}
    for _ in range(3):
        games = organiser.get(f"/api/tournaments/{tid}/games").json()
        game = next(g for g in games if g["status"] == "playing")
        header = organiser.get(f"/api/matches/{game['match']}").json()["header"]
        assert header["points"] == [target[n] for n in game["names"]]
        seq = 0  # player 0 makes his own target in one inning, player 1 nothing in his equalizing inning
        first = target[game["names"][0]]
        for record in ({"type": "opener", "player": 0}, {"type": "inning", "points": first},
                       {"type": "inning", "points": 0}):
            answer = organiser.post(f"/api/matches/{game['match']}/records",
                                    json={"after": seq, "record": record},
                                    headers={"X-Referee-Token": game["referee_token"]})
            assert answer.status_code == 201, answer.text
            seq = answer.json()["seq"]
    s = organiser.get(f"/api/tournaments/{tid}/standings").json()
    assert s["state"] == "finished"
    # by hand: Boris-Cyril, Anna-Boris, Cyril-Anna, each won by player 0: 2 MP each;
    # GD Anna 10/2, Cyril 7/2, Boris 5/2
    assert [(x["name"], x["match_points"], x["general_average"]) for x in s["groups"][0]["standings"]] == [
        ("Anna", 2, 5.0), ("Cyril", 2, 3.5), ("Boris", 2, 2.5)]
