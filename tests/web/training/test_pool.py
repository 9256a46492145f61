"""The simulation pool on a real ``carom serve`` (the security review's H3): searches and strokes run
in processes apart from the server, one client gets its share and no more (429), a full
pool answers at once (503), a request that gives up stops its work, and records are
written meanwhile. The server here has one simulation process, two places in its queue
and two jobs per client; ``--cold-pool`` starts the pool at the first request that needs it."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.web.server import Server

POSITION = {"start": {"white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}, "count": 3,
            "sigma": {"direction": 0.5}}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("pool") / "data", warm_pool=True, options=(
        "--limit", "workers=1", "--limit", "queue=2", "--limit", "jobs-per-client=2")).start()
    assert httpx.post(f"{running.url}/api/solve", json=POSITION, timeout=120).status_code == 200  # warm
    yield running
    running.stop()


def _at_once(server: Server, clients: list[str], seconds: float = 60) -> list[httpx.Response]:
    """One search from each client address (``127.0.0.x``), all sent together."""
    answers: list[httpx.Response] = []
    barrier = threading.Barrier(len(clients))

    def search(address: str) -> None:
        with httpx.Client(transport=httpx.HTTPTransport(local_address=address), timeout=seconds) as client:
            barrier.wait()
            answers.append(client.post(f"{server.url}/api/solve", json=POSITION))

    threads = [threading.Thread(target=search, args=(address,)) for address in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def test_one_client_gets_its_share_and_is_told_when_to_come_back(server: Server) -> None:
    answers = _at_once(server, ["127.0.0.1"] * 4)
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [200, 200, 429, 429], statuses
    refused = next(a for a in answers if a.status_code == 429)
    assert int(refused.headers["retry-after"]) >= 1 and "per client" in refused.json()["detail"]


def test_a_full_pool_answers_at_once_and_records_are_written_meanwhile(server: Server) -> None:
    organiser = server.organiser()
    match_id, token = server.create(organiser)
    organiser.close()
    writes: list[float] = []

    def tablet() -> None:
        with httpx.Client(base_url=server.url, timeout=30) as client:
            time.sleep(0.3)  # the searches are in
            for seq in range(5):
                record = {"type": "opener", "player": 0} if seq == 0 else {"type": "call", "result": "miss"}
                started = time.monotonic()
                answer = client.post(f"/api/matches/{match_id}/records", headers={"X-Referee-Token": token},
                                     json={"after": seq, "record": record})
                writes.append(time.monotonic() - started)
                assert answer.status_code == 201, answer.text

    writer = threading.Thread(target=tablet)
    writer.start()
    answers = _at_once(server, [f"127.0.0.{n}" for n in range(2, 7)])
    writer.join()
    statuses = sorted(a.status_code for a in answers)
    assert statuses.count(200) == 3 and statuses.count(503) == 2, statuses  # one running, two waiting
    busy = next(a for a in answers if a.status_code == 503)
    assert "queue is full" in busy.json()["detail"] and busy.headers["retry-after"]
    assert max(writes) < 2.0, writes  # the searches run in their own process


def _parents() -> dict[int, int]:
    """Each process's parent."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(stat.parent.name)] = int(fields[1])
    return parents


def _children(server: Server, parents: dict[int, int]) -> set[int]:
    assert server.process is not None
    return {pid for pid, parent in parents.items() if parent == server.process.pid}


def _simulation_processes(server: Server) -> set[int]:
    """The pool's processes: the server's grandchildren (forked by its fork server)."""
    parents = _parents()
    children = _children(server, parents)
    return {pid for pid, parent in parents.items() if parent in children}


def _processor_ticks(pid: int) -> int:
    """The processor time a process has used so far (user and system), in clock ticks."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def test_a_request_that_gives_up_stops_its_search(server: Server) -> None:
    slow = {**POSITION, "count": 6, "sigma": {"direction": 2.0, "speed": 0.1, "tip": 0.1}, "seed": 2}
    assert httpx.post(f"{server.url}/api/solve", json=slow, timeout=120).status_code == 200  # warmed up
    before = _simulation_processes(server)
    assert len(before) == 1
    (process,) = before
    time.sleep(0.2)  # whatever the last search left to do is done
    idle = _processor_ticks(process)
    body = json.dumps(slow).encode()
    client = socket.create_connection(("127.0.0.1", server.port))
    client.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                   b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and _processor_ticks(process) <= idle:  # until the search runs
        time.sleep(0.01)
    assert _processor_ticks(process) > idle, "the search never started"
    client.close()  # the client gives up while its search runs (a second or more of work)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and _simulation_processes(server) & before:
        time.sleep(0.1)
    after = _simulation_processes(server)
    assert not after & before, "the search's process was not stopped"
    answers = _at_once(server, ["127.0.0.1"] * 2)  # and the client has its places again
    assert [a.status_code for a in answers] == [200, 200], [a.text[:200] for a in answers]


def _has_fork_server(server: Server) -> bool:
    """Whether the server has started its pool's fork server (a child running it)."""
    for pid in _children(server, _parents()):
        try:
            if b"multiprocessing.forkserver" in Path(f"/proc/{pid}/cmdline").read_bytes():
                return True
        except OSError:
            continue
    return False


def test_a_cold_pool_starts_at_the_first_search_and_a_warm_one_with_the_server(
        server: Server, tmp_path: Path) -> None:
    assert _has_fork_server(server)  # the module's server: the default, warmed at start
    cold = Server(tmp_path / "data").start()  # the tests' servers: --cold-pool
    try:
        time.sleep(1)  # a warm pool's fork server would be there by now
        assert not _has_fork_server(cold)
        answer = httpx.post(f"{cold.url}/api/solve", json=POSITION, timeout=120)
        assert answer.status_code == 200, answer.text[:200]
        assert _has_fork_server(cold) and _simulation_processes(cold)
    finally:
        cold.stop()
