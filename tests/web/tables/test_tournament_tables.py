"""A tournament on the hall's tables (TD7, TD8): its table n is the n-th table the organiser
chose for it; the game the schedule calls there is that table's game now, its tablet writes
it with the device token alone, and when the game is played out it stays on the table until
its match is confirmed, then the next game the schedule called there comes on."""

from __future__ import annotations

from typing import Any

from tests.web.tables.helpers import CAROM, MISS, OPENER, add_table, pair, start_tournament, write


def _tournament(organiser: Any, tables: list[str]) -> int:
    return int(start_tournament(organiser, tables, ("Anna", "Boris", "Cyril"))["id"])


def test_a_tournaments_table_follows_its_calls_on_the_halls_table(organiser: Any, stranger: Any,
                                                                 client: Any) -> None:
    add_table(organiser, "A", 1)
    add_table(organiser, "B", 2)
    before = organiser.get("/api/tables/B").json()
    assert before["now"] is None and before["next"] is None
    tid = _tournament(organiser, ["B"])
    games = sorted(organiser.get(f"/api/tournaments/{tid}/games").json(), key=lambda g: g["order"])
    first = games[0]
    table = organiser.get("/api/tables/B").json()
    assert table["now"]["match"] == first["match"] and table["now"]["tournament"] == tid
    assert table["now"]["players"] == first["names"] and table["now"]["game"]
    assert table["next"]["match"] is None and table["next"]["players"] == games[1]["names"]
    assert organiser.get("/api/tables/A").json()["now"] is None  # the tournament plays on B only
    # not begun: the screen says who plays there next
    assert "Next: " + " – ".join(first["names"]) in client.get("/tables/B/screen?lang=en").text

    pair(organiser, stranger, "B")
    match = first["match"]
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS)):
        response = write(stranger, match, seq, record)  # no referee token: the device's cookie
        assert response.status_code == 201, response.text
    assert response.json()["state"]["finished"]
    # played out: the schedule called the next game to the table, yet the tablet keeps the
    # result to confirm
    table = organiser.get("/api/tables/B").json()
    second = table["next"]["match"]
    assert table["now"]["match"] == match and table["now"]["finished"] and not table["now"]["confirmed"]
    assert second is not None and table["next"]["players"] == games[1]["names"]
    assert write(stranger, second, 0, OPENER).status_code == 403  # not on the table yet
    for player in (0, 1):  # both players confirm on the table's tablet
        assert stranger.post(f"/api/matches/{match}/confirm", json={"player": player}).status_code == 200
    table = organiser.get("/api/tables/B").json()
    assert table["now"]["match"] == second
    assert write(stranger, second, 0, OPENER).status_code == 201
    assert "Anna" in stranger.get("/tables/B/tablet").text


def test_a_tablet_of_another_table_cannot_write_a_tournaments_game(organiser: Any, stranger: Any) -> None:
    add_table(organiser, "A", 1)
    add_table(organiser, "B", 2)
    tid = _tournament(organiser, ["B"])
    match = organiser.get(f"/api/tournaments/{tid}/games").json()[0]["match"]
    pair(organiser, stranger, "A")
    refused = write(stranger, match, 0, OPENER)
    assert refused.status_code == 403 and "not on table A now" in refused.json()["detail"]
    assert organiser.get(f"/api/matches/{match}").json()["seq"] == 0


def test_the_last_game_of_a_tournament_stays_on_its_table_until_confirmed(organiser: Any,
                                                                           stranger: Any) -> None:
    add_table(organiser, "A", 1)
    tid = int(start_tournament(organiser, ["A"], ("Anna", "Boris"))["id"])
    match = organiser.get("/api/tables/A").json()["now"]["match"]
    pair(organiser, stranger, "A")
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS)):
        assert write(stranger, match, seq, record).status_code == 201
    assert organiser.get(f"/api/tournaments/{tid}").json()["state"] == "finished"
    table = organiser.get("/api/tables/A").json()
    assert table["now"]["match"] == match and table["now"]["finished"]  # the final, to confirm
    for player in (0, 1):
        assert stranger.post(f"/api/matches/{match}/confirm", json={"player": player}).status_code == 200
    assert organiser.get("/api/tables/A").json()["now"] is None


def test_a_game_moved_to_another_table_is_confirmed_there(app: Any, organiser: Any, stranger: Any) -> None:
    for order, name in enumerate(("A", "B", "C"), start=1):
        add_table(organiser, name, order)
    tid = int(start_tournament(organiser, ["A", "B"], ("Anna", "Boris", "Cyril", "Dana"))["id"])
    moved = organiser.get("/api/tables/A").json()["now"]
    tournaments = app.state.tournaments
    other = organiser.get("/api/tables/B").json()["now"]
    pair(organiser, stranger, "B")
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS)):
        assert write(stranger, other["match"], seq, record).status_code == 201
    # B's game is played out; A's game moves to the free table 2 (B) and is played there
    tournaments.move(tid, moved["game"], 2)
    assert organiser.get("/api/tables/B").json()["now"]["match"] == other["match"]  # B's, to confirm
    for player in (0, 1):
        confirmed = stranger.post(f"/api/matches/{other['match']}/confirm", json={"player": player})
        assert confirmed.status_code == 200
    assert organiser.get("/api/tables/B").json()["now"]["match"] == moved["match"]
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS)):
        assert write(stranger, moved["match"], seq, record).status_code == 201
    # played out on B after its move: it stays there to be confirmed, whatever was called before it
    table = organiser.get("/api/tables/B").json()
    assert table["now"]["match"] == moved["match"] and table["now"]["finished"]
