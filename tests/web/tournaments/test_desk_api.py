"""The organiser's desk through the JSON API: each decision made by the organiser's session
and signed with its account in the tournament's log, each refusal a 422 naming its field
and rule (in the page's language) that changes nothing, and referees and visitors refused."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.accounts.accounts import log_in
from tests.web.server import ORGANISER

PLAYERS = ("Anna", "Boris", "Cyril", "Dana")
ACTOR = f"{ORGANISER} #1"


def _tournament(organiser: Any, *, start: bool = True, tables: int = 3, players: tuple[str, ...] = PLAYERS,
                **settings: Any) -> int:
    created = organiser.post("/api/tournaments", json={
        "name": "Desk", "discipline": "three-cushion", "points": 2, "tables": tables, **settings})
    assert created.status_code == 201, created.text
    tid = int(created.json()["id"])
    entered = organiser.post(f"/api/tournaments/{tid}/players",
                             json={"players": [{"name": n} for n in players]})
    assert entered.status_code == 201, entered.text
    if start:
        assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    return tid


def _games(client: Any, tid: int) -> list[dict[str, Any]]:
    return list(client.get(f"/api/tournaments/{tid}/games").json())


def _game(client: Any, tid: int, status: str) -> dict[str, Any]:
    return next(g for g in _games(client, tid) if g["status"] == status)


def _log(organiser: Any, tid: int) -> list[dict[str, Any]]:
    answer = organiser.get(f"/api/tournaments/{tid}/audit")
    assert answer.status_code == 200, answer.text
    return list(answer.json())


def _refused(organiser: Any, tid: int, path: str, body: dict[str, Any] | None, field: str,
             rule: str | None) -> dict[str, Any]:
    """The request is refused with 422 naming ``field`` and ``rule``, and the log is as it was."""
    before = _log(organiser, tid)
    answer = organiser.post(f"/api/tournaments/{tid}{path}", json=body or {})
    assert answer.status_code == 422, answer.text
    assert (answer.json()["field"], answer.json()["rule"]) == (field, rule), answer.json()
    assert _log(organiser, tid) == before
    return dict(answer.json())


@pytest.fixture
def referee(app: Any, organiser: Any) -> Iterator[Any]:
    """A referee's account, logged in in its own client."""
    from carom.storage.accounts import Accounts
    from carom.storage.roles import Role
    from carom.web.shared.auth import hash_password
    from tests.web.server import PASSWORD

    accounts = Accounts(app.state.services.book.store)
    accounts.create("Rita", Role.REFEREE, hash_password(PASSWORD), by=accounts.credentials(ORGANISER)[0])
    client = log_in(app, "Rita")
    yield client
    client.close()


def test_withdrawal_and_no_show_make_walkovers_signed_by_the_account(organiser: Any, stranger: Any,
                                                                   referee: Any) -> None:
    tid = _tournament(organiser)
    ids = {p["name"]: p["player"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    for client, status in ((referee, 403), (stranger, 401)):
        answer = client.post(f"/api/tournaments/{tid}/players/{ids['Dana']}/withdraw", json={})
        assert answer.status_code == status
    _refused(organiser, tid, "/players/9999/withdraw", {}, "player", "D8")
    answer = organiser.post(f"/api/tournaments/{tid}/players/{ids['Dana']}/withdraw",
                            json={"no_show": True, "reason": "did not come"})
    assert answer.status_code == 200, answer.text
    danas = [g for g in answer.json()["games"] if ids["Dana"] in g["players"]]
    assert danas and all(g["status"] == "done" and g["winner"] != ids["Dana"] for g in danas)
    last = next(x for x in _log(organiser, tid) if x["type"] == "withdrew")
    assert (last["actor"], last["no_show"], last["reason"]) == (ACTOR, True, "did not come")
    _refused(organiser, tid, f"/players/{ids['Dana']}/withdraw", {}, "player", "D8")  # withdrawn already


def test_a_walkover_and_its_refusal(organiser: Any) -> None:
    tid = _tournament(organiser)
    waiting = _game(organiser, tid, "waiting")
    _refused(organiser, tid, f"/games/{waiting['id']}/walkover", {"winner": 2}, "winner", "D9")
    answer = organiser.post(f"/api/tournaments/{tid}/games/{waiting['id']}/walkover",
                            json={"winner": 1, "reason": "injured"})
    assert answer.status_code == 200, answer.text
    game = next(g for g in answer.json()["games"] if g["id"] == waiting["id"])
    assert (game["status"], game["winner"]) == ("done", waiting["players"][1])
    _refused(organiser, tid, f"/games/{waiting['id']}/walkover", {"winner": 0}, "game", "D9")


def test_a_paper_result_then_an_unlock_and_a_correction_in_the_audit(organiser: Any, referee: Any) -> None:
    tid = _tournament(organiser)
    playing = _game(organiser, tid, "playing")
    path = f"/api/tournaments/{tid}/games/{playing['id']}"
    assert referee.post(f"{path}/result", json={"points": [2, 1]}).status_code == 403
    _refused(organiser, tid, f"/games/{playing['id']}/result",
             {"points": [2, 1], "innings": [3, 3], "high_run": [1]}, "high_run", None)
    answer = organiser.post(f"{path}/result", json={"series": [[0, 1, 1], [1, 0, 0]]})
    assert answer.status_code == 200, answer.text
    game = next(g for g in answer.json()["games"] if g["id"] == playing["id"])
    assert (game["status"], game["score"], game["innings"]) == ("done", [2, 1], [3, 3])
    _refused(organiser, tid, f"/games/{playing['id']}/result", {"points": [2, 0], "innings": [1, 1],
                                                                "high_run": [2, 0]}, "game", "D10")
    sheet = {"points": [2, 0], "innings": [2, 2], "high_run": [1, 0]}
    _refused(organiser, tid, f"/games/{playing['id']}/correction", {**sheet, "reason": "typo"}, "game", "D12")
    _refused(organiser, tid, f"/games/{playing['id']}/unlock", {"reason": ""}, "reason", "D12")
    assert organiser.post(f"{path}/unlock", json={"reason": "the sheet says 2:0"}).status_code == 200
    _refused(organiser, tid, f"/games/{playing['id']}/correction", sheet, "reason", "D11")
    corrected = organiser.post(f"{path}/correction", json={**sheet, "reason": "Boris made none"})
    assert corrected.status_code == 200, corrected.text
    assert next(g for g in corrected.json()["games"] if g["id"] == playing["id"])["score"] == [2, 0]
    audit = [(x["type"], x["actor"], x.get("reason")) for x in _log(organiser, tid)]
    assert audit[-3:] == [("paper-result", ACTOR, None), ("unlocked", ACTOR, "the sheet says 2:0"),
                          ("corrected", ACTOR, "Boris made none")]


def test_move_call_swap_and_postpone(organiser: Any) -> None:
    tid = _tournament(organiser)  # four players on three tables: two games on tables 1 and 2
    playing = [g for g in _games(organiser, tid) if g["status"] == "playing"]
    assert sorted(g["table"] for g in playing) == [1, 2]
    _refused(organiser, tid, f"/games/{playing[0]['id']}/move", {"table": playing[1]["table"]}, "table", "D5")
    moved = organiser.post(f"/api/tournaments/{tid}/games/{playing[0]['id']}/move", json={"table": 3})
    assert moved.status_code == 200, moved.text
    assert next(g for g in moved.json()["games"] if g["id"] == playing[0]["id"])["table"] == 3
    waiting = [g for g in _games(organiser, tid) if g["status"] == "waiting"]
    _refused(organiser, tid, f"/games/{playing[1]['id']}/postpone", {}, "game", "D6")
    _refused(organiser, tid, "/swap", {"first": waiting[0]["id"], "second": waiting[0]["id"]}, "second", "D6")
    swapped = organiser.post(f"/api/tournaments/{tid}/swap",
                             json={"first": waiting[0]["id"], "second": waiting[1]["id"]})
    assert swapped.status_code == 200, swapped.text
    order = [g["id"] for g in swapped.json()["games"] if g["status"] == "waiting"]
    assert order.index(waiting[1]["id"]) < order.index(waiting[0]["id"])
    postponed = organiser.post(f"/api/tournaments/{tid}/games/{order[0]}/postpone")
    assert postponed.status_code == 200, postponed.text
    assert [g["id"] for g in postponed.json()["games"] if g["status"] == "waiting"][-1] == order[0]
    _refused(organiser, tid, f"/games/{order[1]}/call", {"table": 1}, "game", "D5")  # its players are busy
    kinds = [x["type"] for x in _log(organiser, tid)]
    assert {"moved", "swapped", "postponed"} <= set(kinds)


def test_start_times_of_a_game_and_of_a_round(organiser: Any) -> None:
    tid = _tournament(organiser, tables=1)
    waiting = _game(organiser, tid, "waiting")
    _refused(organiser, tid, f"/games/{waiting['id']}/schedule", {"start": "2026-12-06T18:30"}, "start", "D7")
    answer = organiser.post(f"/api/tournaments/{tid}/games/{waiting['id']}/schedule",
                            json={"start": "2026-12-06T18:30:00+01:00"})
    assert answer.status_code == 200, answer.text
    rounds = organiser.post(f"/api/tournaments/{tid}/rounds/schedule",
                            json={"stage": 1, "round": 3, "start": "2026-12-06T20:00:00+01:00"})
    assert rounds.status_code == 200, rounds.text
    starts = {g["id"]: g["start"] for g in rounds.json()["games"]}
    assert starts[waiting["id"]] == "2026-12-06T18:30:00+01:00"
    third = {starts[g["id"]] for g in rounds.json()["games"] if g["round"] == 3}
    assert third == {"2026-12-06T20:00:00+01:00"}
    _refused(organiser, tid, "/rounds/schedule", {"stage": 5, "round": 1, "start": None}, "stage", "D7")
    log = _log(organiser, tid)
    assert [x["start"] for x in log if x["type"] in ("scheduled", "round-scheduled")] == [
        "2026-12-06T18:30:00+01:00", "2026-12-06T20:00:00+01:00"]


def test_seeding_by_hand_and_from_a_ranking_list_in_windows_1250(organiser: Any) -> None:
    tid = _tournament(organiser, start=False)
    ids = {p["name"]: p["player"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]}
    answer = organiser.post(f"/api/tournaments/{tid}/seeding",
                            json={"seeds": [{"player": ids["Dana"], "seed": 1},
                                            {"player": ids["Anna"], "seed": 2}]})
    assert answer.status_code == 200, answer.text
    seeds = {p["name"]: p["seed"] for p in answer.json()["participants"]}
    assert (seeds["Dana"], seeds["Anna"]) == (1, 2)
    ranking = "poradie;meno\n1;Cyril\n2;Boris\n3;Ľubo Šťastný\n".replace("poradie;meno", "rank;name")
    listed = organiser.post(f"/api/tournaments/{tid}/seeding/ranking?charset=windows-1250",
                            content=ranking.encode("cp1250"), headers={"Content-Type": "text/csv"})
    assert listed.status_code == 200, listed.text
    assert listed.json()["unknown"] == [{"line": 4, "row": "Ľubo Šťastný"}]
    seeds = {p["name"]: p["seed"] for p in listed.json()["participants"]}
    assert (seeds["Cyril"], seeds["Boris"]) == (1, 2)
    utf8 = organiser.post(f"/api/tournaments/{tid}/seeding/ranking?charset=utf-8",
                          content=ranking.encode("cp1250"), headers={"Content-Type": "text/csv"})
    assert utf8.status_code == 422 and "windows-1250" in utf8.json()["detail"]  # said, not guessed
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    _refused(organiser, tid, "/seeding", {"seeds": [{"player": ids["Anna"], "seed": 1}]}, "seeds", "D3")


def test_a_late_entry_and_a_refusal_in_the_pages_language(organiser: Any) -> None:
    tid = _tournament(organiser, tables=1, players=PLAYERS[:3])  # a bye in round 1
    late = organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "Emil"}]})
    assert late.status_code == 201, late.text
    again = organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "Fero"}]})
    assert again.status_code == 422 and again.json()["rule"] == "D2", again.text  # no bye place left
    names = [p["name"] for p in organiser.get(f"/api/tournaments/{tid}").json()["participants"]]
    assert "Emil" in names
    playing = _game(organiser, tid, "playing")
    sk = organiser.post(f"/api/tournaments/{tid}/games/{playing['id']}/postpone",
                        headers={"Accept-Language": "sk"})
    assert sk.status_code == 422 and sk.json()["rule"] == "D6"
    assert sk.json()["detail"].startswith("partia: ") and "(D6)" in sk.json()["detail"], sk.json()


def test_the_audit_is_the_desks_and_an_unknown_tournament_is_404(organiser: Any, stranger: Any,
                                                                  referee: Any) -> None:
    tid = _tournament(organiser, start=False)
    assert stranger.get(f"/api/tournaments/{tid}/audit").status_code == 401
    assert referee.get(f"/api/tournaments/{tid}/audit").status_code == 403
    assert [x["type"] for x in _log(organiser, tid)] == ["created"] + ["entered"] * 4
    assert organiser.get("/api/tournaments/999/audit").status_code == 404
    assert organiser.post("/api/tournaments/999/games/1.A.1.0/postpone").status_code == 404
    bad = organiser.post(f"/api/tournaments/{tid}/games/nothing/postpone")
    assert bad.status_code == 422 and bad.json()["field"] == "game"
