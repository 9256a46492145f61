"""The hall's tables for the web tests: tables made, devices paired, one-off matches put
on tables, all through the JSON API as the organiser's scripts and the tablets do."""

from __future__ import annotations

from typing import Any

OPENER = {"type": "opener", "player": 0}
CAROM = {"type": "call", "result": "carom"}
MISS = {"type": "call", "result": "miss"}


def add_table(organiser: Any, name: str, order: int = 1, size: str = "large") -> None:
    response = organiser.post("/api/tables", json={"name": name, "size": size, "order": order})
    assert response.status_code == 201, response.text


def pairing_code(organiser: Any, table: str) -> str:
    response = organiser.post(f"/api/tables/{table}/pairing")
    assert response.status_code == 201, response.text
    return str(response.json()["code"])


def pair(organiser: Any, device: Any, table: str) -> None:
    """``device`` (a browser: it keeps the cookie) pairs as ``table``'s tablet through the
    pairing page's form."""
    response = device.post(f"/tables/{table}/pair", data={"code": pairing_code(organiser, table)},
                           follow_redirects=False)
    assert response.status_code == 303, response.text
    assert response.headers["location"].endswith("/tablet")


def new_match(organiser: Any, a: str, b: str, points: int = 2) -> int:
    response = organiser.post("/api/matches", json={
        "discipline": "three-cushion", "table": "large", "players": [a, b], "points": points})
    assert response.status_code == 201, response.text
    return int(response.json()["id"])


def put(organiser: Any, table: str, match: int) -> None:
    response = organiser.post(f"/api/tables/{table}/matches", json={"match": match})
    assert response.status_code == 200, response.text


def write(device: Any, match: int, after: int, record: dict[str, Any], **headers: str) -> Any:
    """A record through the API from a paired device (its cookie, or a header)."""
    return device.post(f"/api/matches/{match}/records", json={"after": after, "record": record},
                       headers=headers)


def play_out(device: Any, match: int, **headers: str) -> int:
    """Player 0 opens and makes two points (the match's limit), player 1 misses the
    equalizing inning: the match is over. Returns its number of records."""
    for seq, record in enumerate((OPENER, CAROM, CAROM, MISS, MISS)):
        response = write(device, match, seq, record, **headers)
        assert response.status_code == 201, response.text
        if response.json()["state"]["finished"]:
            return seq + 1
    raise AssertionError("the match did not finish")


def start_tournament(organiser: Any, tables: list[str], players: tuple[str, ...],
                     name: str = "Evening") -> dict[str, Any]:
    """A round robin of ``players`` to two points on the hall's ``tables``, started: the
    start's answer (its games with their status, names and matches)."""
    created = organiser.post("/api/tournaments", json={
        "name": name, "discipline": "three-cushion", "points": 2, "tables": len(tables)})
    tid = created.json()["id"]
    assert organiser.post(f"/api/tournaments/{tid}/tables", json={"tables": tables}).status_code == 200
    assert organiser.post(f"/api/tournaments/{tid}/players",
                          json={"players": [{"name": n} for n in players]}).status_code == 201
    started = organiser.post(f"/api/tournaments/{tid}/start")
    assert started.status_code == 200, started.text
    return dict(started.json())
