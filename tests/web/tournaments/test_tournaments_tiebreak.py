"""KNOCK-OUT TIE-BREAK (docs/tournaments.md, "Modes"): a drawn knock-out game is decided by the match's
penalty shoot-out (``"tiebreak": "penalties"`` in its header, ``penalty`` records,
docs/format.md); until the shoot-out is decided the game shows ``tie-break``
(tests/storage/test_tournaments.py)."""

from __future__ import annotations

from typing import Any


def _post(client: Any, game: dict[str, Any], seq: int, record: dict[str, Any]) -> int:
    answer = client.post(f"/api/matches/{game['match']}/records", json={"after": seq, "record": record},
                         headers={"X-Referee-Token": game["referee_token"]})
    assert answer.status_code == 201, answer.text
    return int(answer.json()["seq"])


def test_a_drawn_knockout_game_is_decided_by_penalties(organiser: Any) -> None:
    tid = organiser.post("/api/tournaments", json={"name": "KO", "discipline": "three-cushion", "points": 2,
                                                   "mode": "knockout"}).json()["id"]
    organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "Anna"}, {"name": "Boris"}]})
    game = organiser.post(f"/api/tournaments/{tid}/start").json()["games"][0]
    assert organiser.get(f"/api/matches/{game['match']}").json()["header"]["tiebreak"] == "penalties"
    seq = 0
    for record in ({"type": "opener", "player": 0}, {"type": "inning", "points": 2},
                   {"type": "inning", "points": 2}):
        seq = _post(organiser, game, seq, record)
    games = organiser.get(f"/api/tournaments/{tid}/games").json()
    assert games[0]["status"] == "tie-break"
    assert organiser.get(f"/api/tournaments/{tid}").json()["state"] == "running"
    # the opener shoots first: a miss; Boris a carom: Boris wins the match and the tournament
    seq = _post(organiser, game, seq, {"type": "penalty", "player": 0, "result": "miss"})
    _post(organiser, game, seq, {"type": "penalty", "player": 1, "result": "carom"})
    t = organiser.get(f"/api/tournaments/{tid}").json()
    assert t["state"] == "finished" and t["games"][0]["status"] == "done"
    standings = organiser.get(f"/api/tournaments/{tid}/standings").json()
    assert [x["name"] for x in standings["ranking"]] == ["Boris", "Anna"]
    # The shoot-out is on every sheet of the game, not only in the API.
    page = organiser.get(f"/tournaments/{tid}/live").text
    assert "2:2, pen. 0:1" in page  # the schedule and the bracket
    assert page.count("2:2, pen. 0:1") == 2
    from tests.web.matches.test_reports import pdf_text

    _, results = pdf_text(organiser.get(f"/tournaments/{tid}/results.pdf").content)
    assert "2:2, pen. 0:1" in results
    _, sheet = pdf_text(organiser.get(f"/m/{game['match']}/scoresheet.pdf").content)
    assert "Penalty shoot-out" in sheet and "Boris wins on penalties" in sheet
    flat = " ".join(sheet.split())
    assert "Anna 0 0" in flat and "Boris 1 1" in flat, flat  # each one penalty, Boris's a carom
