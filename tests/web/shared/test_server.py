"""A real ``carom serve``: killed with -9 in the middle of a match, and two tablets
posting at once. On SQLite and on PostgreSQL."""

from __future__ import annotations

import json
import threading
import time

import httpx

from tests.web.server import Server


def _record(i: int) -> dict[str, str]:
    return {"type": "call", "result": "carom" if i % 3 else "miss"}


def test_kill_9_mid_match_keeps_every_acknowledged_record(server: Server) -> None:
    organiser = server.organiser()
    match_id, token = server.create(organiser, points=10_000)
    organiser.close()
    acknowledged: list[tuple[int, dict[str, object]]] = []
    failed: list[str] = []

    def referee() -> None:
        records: list[dict[str, object]] = [{"type": "opener", "player": 0}]
        with httpx.Client(base_url=server.url, timeout=10) as client:
            for i in range(100_000):
                record = records[0] if i == 0 else _record(i)
                try:
                    response = client.post(f"/api/matches/{match_id}/records",
                                           json={"after": i, "record": record},
                                           headers={"X-Referee-Token": token})
                except httpx.HTTPError:
                    return  # the server died under this request: it was never acknowledged
                if response.status_code != 201:
                    failed.append(response.text)
                    return
                acknowledged.append((response.json()["seq"], record))

    thread = threading.Thread(target=referee)
    thread.start()
    deadline = time.monotonic() + 60
    while len(acknowledged) < 60 and time.monotonic() < deadline and thread.is_alive():
        time.sleep(0.01)
    server.kill()
    thread.join(timeout=30)
    assert not failed and len(acknowledged) >= 60

    server.start()
    text = httpx.get(f"{server.url}/api/matches/{match_id}/file", timeout=10).text
    lines = text.splitlines()
    assert len(lines) - 1 >= len(acknowledged)  # a record may be stored and not yet acknowledged
    for seq, record in acknowledged:
        assert json.loads(lines[seq]) == record
    assert httpx.get(f"{server.url}/api/matches/{match_id}", timeout=10).json()["seq"] == len(lines) - 1


def test_two_tablets_posting_at_once_one_wins_the_other_gets_409(server: Server) -> None:
    organiser = server.organiser()
    match_id, token = server.create(organiser, points=10_000)
    organiser.close()
    url = f"{server.url}/api/matches/{match_id}/records"
    headers = {"X-Referee-Token": token}
    assert httpx.post(url, json={"after": 0, "record": {"type": "opener", "player": 1}},
                      headers=headers).status_code == 201
    clients = [httpx.Client(timeout=10) for _ in range(2)]
    try:
        for round_no in range(1, 16):
            barrier = threading.Barrier(2)
            answers: list[httpx.Response] = []

            def tablet(i: int, after: int = round_no, barrier: threading.Barrier = barrier,
                       answers: list[httpx.Response] = answers) -> None:
                barrier.wait()
                answers.append(clients[i].post(url, headers=headers, json={
                    "after": after, "record": {"type": "call", "result": ("carom", "miss")[i]}}))

            threads = [threading.Thread(target=tablet, args=(i,)) for i in range(2)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert sorted(a.status_code for a in answers) == [201, 409]
            stale = next(a for a in answers if a.status_code == 409).json()
            assert stale["seq"] == round_no + 1  # the fresh view: the winner's record is in it
    finally:
        for client in clients:
            client.close()
    lines = httpx.get(f"{server.url}/api/matches/{match_id}/file").text.splitlines()
    assert len(lines) == 1 + 1 + 15  # header, opener, one record per round: nothing doubled
