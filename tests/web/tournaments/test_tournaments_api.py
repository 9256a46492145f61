"""Whole tournaments through the JSON API: a round robin of 5 players on 2 tables and
groups then knock-out of 12 players on 3 tables, every game scored by posting records
to its match with its tablet's token, the standings checked against standings computed
by hand."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from tests.storage.test_tournaments import LOSER_POINTS, NAMES, WINNER


def post_records(client: Any, game: dict[str, Any], first: int, second: int) -> None:
    """Player 0 opens with ``first`` points, player 1 answers with ``second``."""
    seq = 0
    for record in ({"type": "opener", "player": 0}, {"type": "inning", "points": first},
                   {"type": "inning", "points": second}):
        answer = client.post(f"/api/matches/{game['match']}/records", json={"after": seq, "record": record},
                             headers={"X-Referee-Token": game["referee_token"]})
        assert answer.status_code == 201, answer.text
        seq = answer.json()["seq"]
        if answer.json()["state"]["finished"]:
            return


def run(client: Any, tid: int, tables: int, result: Any) -> dict[str, Any]:
    """Play every game as it starts; check the tables and players are never double-booked."""
    played = 0
    while True:
        games = client.get(f"/api/tournaments/{tid}/games")
        assert games.status_code == 200
        playing = [g for g in games.json() if g["status"] == "playing"]
        if not playing:
            break
        assert len(playing) <= tables
        assert len({g["table"] for g in playing}) == len(playing)
        busy = [p for g in playing for p in g["players"]]
        assert len(busy) == len(set(busy))
        game = playing[-1]
        assert game["tablet"].endswith(f"/m/{game['match']}/tablet?t={game['referee_token']}")
        post_records(client, game, *result(game["names"]))
        played += 1
    t = client.get(f"/api/tournaments/{tid}").json()
    assert t["state"] == "finished", t
    return t


def five_players(names: list[str]) -> tuple[int, int]:
    a, b = names
    winner = WINNER[frozenset((a, b))]
    if winner is None:
        return 5, 5
    return (5, LOSER_POINTS[b]) if winner == a else (LOSER_POINTS[a], 5)


def test_a_round_robin_of_five_on_two_tables(organiser: Any) -> None:
    created = organiser.post("/api/tournaments", json={
        "name": "Club cup", "discipline": "three-cushion", "points": 5, "mode": "round_robin", "tables": 2})
    assert created.status_code == 201, created.text
    tid = created.json()["id"]
    entered = organiser.post(f"/api/tournaments/{tid}/players",
                             json={"players": [{"name": n, "club": "BC Nitra"} for n in NAMES]})
    assert entered.status_code == 201, entered.text
    started = organiser.post(f"/api/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    assert sum(g["status"] == "playing" for g in started.json()["games"]) == 2
    t = run(organiser, tid, 2, five_players)
    assert len(t["games"]) == 10
    standings = organiser.get(f"/api/tournaments/{tid}/standings").json()
    table = [(x["rank"], x["name"], x["match_points"], x["points"], x["innings"], x["general_average"],
              x["best_average"], x["high_run"]) for x in standings["groups"][0]["standings"]]
    assert table == [(1, "Anna", 8, 20, 4, 5.0, 5.0, 5), (2, "Boris", 5, 17, 4, 4.25, 5.0, 5),
                     (2, "Emil", 5, 17, 4, 4.25, 5.0, 5), (4, "Cyril", 2, 11, 4, 2.75, 5.0, 5),
                     (5, "Dana", 0, 16, 4, 4.0, 4.0, 4)]
    assert standings["champion"] == t["participants"][0]["player"]
    # the results as CSV, read back
    results = organiser.get(f"/api/tournaments/{tid}/results.csv").content.decode("utf-8-sig")  # a BOM first
    rows = list(csv.DictReader(io.StringIO(results)))
    assert [(r["rank"], r["name"], r["club"], r["match_points"], r["general_average"]) for r in rows] == [
        ("1", "Anna", "BC Nitra", "8", "5.000"), ("2", "Boris", "BC Nitra", "5", "4.250"),
        ("2", "Emil", "BC Nitra", "5", "4.250"), ("4", "Cyril", "BC Nitra", "2", "2.750"),
        ("5", "Dana", "BC Nitra", "0", "4.000")]
    games = list(csv.DictReader(io.StringIO(organiser.get(f"/api/tournaments/{tid}/games.csv").content
                                            .decode("utf-8-sig"))))
    assert len(games) == 10 and all(g["status"] == "done" for g in games)
    assert sum(g["winner"] == "draw" for g in games) == 1
    # every game is an ordinary carom/1 match
    file = organiser.get(f"/api/matches/{t['games'][0]['match']}/file").text
    assert file.splitlines()[0].startswith('{"format": "carom/1"')


def twelve_players(names: list[str]) -> tuple[int, int]:
    """The stronger (smaller number) wins 5 in one inning; the loser scores his number mod 4."""
    a, b = (int(n[1:]) for n in names)
    return (5, b % 4) if a < b else (a % 4, 5)


def test_groups_then_knockout_of_twelve_on_three_tables(organiser: Any) -> None:
    tid = organiser.post("/api/tournaments", json={
        "name": "Open", "discipline": "three-cushion", "points": 5, "mode": "groups_knockout", "groups": 3,
        "tables": 3}).json()["id"]
    names = [f"P{i:02d}" for i in range(1, 13)]
    assert organiser.post(f"/api/tournaments/{tid}/players",
                          json={"players": [{"name": n} for n in names]}).status_code == 201
    started = organiser.post(f"/api/tournaments/{tid}/start").json()
    # snake seeding from the entry order (no averages yet)
    assert [[p["name"] for p in g["players"]] for g in started["groups"]] == [
        ["P01", "P06", "P07", "P12"], ["P02", "P05", "P08", "P11"], ["P03", "P04", "P09", "P10"]]
    t = run(organiser, tid, 3, twelve_players)
    assert sum(g["stage"] == "group" for g in t["games"]) == 18
    assert sum(g["stage"] == "ko" for g in t["games"]) == 3  # semi-finals and final
    s = organiser.get(f"/api/tournaments/{tid}/standings").json()
    by_hand = {"A": ["P01", "P06", "P07", "P12"], "B": ["P02", "P05", "P08", "P11"],
               "C": ["P03", "P04", "P09", "P10"]}
    assert {g["name"]: [x["name"] for x in g["standings"]] for g in s["groups"]} == by_hand
    # group winners 1, 2, 3 (all GD 5, by id), best runner-up P06 (12 points in 3 innings);
    # semi-finals 1-4 and 2-3 in seeds: P01-P06, P02-P03
    semis = s["knockout"][0]["games"]
    assert [x["names"] for x in semis] == [["P01", "P06"], ["P02", "P03"]]
    assert s["knockout"][1]["games"][0]["names"] == ["P01", "P02"]
    # the final ranking by hand: champion, finalist, semi-final losers (sharing 3rd), then the
    # others by group place and GD: runners-up P05 (11/3), P04 (10/3); thirds P07 (11/3),
    # P09 (7/3), P08 (5/3); fourths P11 (9/3), P10 (6/3), P12 (0)
    assert [(x["rank"], x["name"]) for x in s["ranking"]] == [
        (1, "P01"), (2, "P02"), (3, "P03"), (3, "P06"), (5, "P05"), (6, "P04"), (7, "P07"), (8, "P09"),
        (9, "P08"), (10, "P11"), (11, "P10"), (12, "P12")]


def test_the_organiser_alone_runs_a_tournament(organiser: Any, stranger: Any) -> None:
    assert stranger.post("/api/tournaments", json={"name": "X", "discipline": "three-cushion",
                                                   "points": 5}).status_code == 401
    tid = organiser.post("/api/tournaments", json={"name": "X", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    entry = {"players": [{"name": "A"}]}
    assert stranger.post(f"/api/tournaments/{tid}/players", json=entry).status_code == 401
    organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "A"}, {"name": "B"}]})
    organiser.post(f"/api/tournaments/{tid}/start")
    games = stranger.get(f"/api/tournaments/{tid}/games").json()
    assert games[0]["status"] == "playing" and "tablet" not in games[0] and "referee_token" not in games[0]
    assert "tablet" in organiser.get(f"/api/tournaments/{tid}/games").json()[0]


@pytest.mark.parametrize(("body", "field"), [
    ({"name": "X", "discipline": "snooker", "points": 5}, "discipline"),
    ({"name": "X", "discipline": "three-cushion"}, "points, innings"),
    ({"name": "X", "discipline": "three-cushion", "points": 5, "tables": 0}, "tables"),
    ({"name": "X", "discipline": "three-cushion", "points": "5"}, "points"),
    ({"name": "X", "discipline": "three-cushion", "points": 5, "colour": "red"}, "'colour'"),
    ({"name": "X", "discipline": "three-cushion", "points": 5, "mode": "swiss"}, "mode"),
])
def test_bad_settings_are_refused_naming_the_field(organiser: Any, body: dict[str, Any], field: str) -> None:
    answer = organiser.post("/api/tournaments", json=body)
    assert answer.status_code == 422 and answer.json()["detail"].startswith(field), answer.text
    assert organiser.get("/api/tournaments").json() == []


def test_unknown_tournament_and_bad_entries(organiser: Any) -> None:
    assert organiser.get("/api/tournaments/99").status_code == 404
    tid = organiser.post("/api/tournaments", json={"name": "X", "discipline": "three-cushion",
                                                   "points": 5}).json()["id"]
    bad = organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"player": 4242}]})
    assert bad.status_code == 422 and "4242" in bad.text
    bad = organiser.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": "A", "seed": 0}]})
    assert bad.status_code == 422 and "players[0].seed" in bad.text
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 422
    assert "/api/tournaments" in organiser.get("/openapi.json").json()["paths"]
