"""Live channels are capped (the security review's H4): in all, per client address, and per process,
whether they are server-sent event streams or WebSockets; a crowd of them leaves the
server the file descriptors its database needs, and every other request is answered."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from tests.web.server import Server


@pytest.fixture(scope="module")
def capped(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("streams") / "data",
                     options=("--limit", "streams=5", "--limit", "streams-per-client=3")).start()
    yield running
    running.stop()


def _stream(server: Server, path: str, address: str = "127.0.0.1",
            wait: float = 10) -> tuple[socket.socket, bytes]:
    """An event stream opened from ``address``: the socket and the head of the answer."""
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=wait, source_address=(address, 0))
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nAccept: text/event-stream\r\n\r\n"
                 .encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = sock.recv(4096)
        if not chunk:
            break
        head += chunk
    return sock, head


def test_streams_are_capped_per_client_and_in_all_and_given_back(capped: Server) -> None:
    client = capped.organiser()
    match_id, _ = capped.create(client)
    opened: list[socket.socket] = []
    try:
        for _ in range(3):
            sock, head = _stream(capped, f"/m/{match_id}/events")
            assert head.startswith(b"HTTP/1.1 200"), head
            opened.append(sock)
        sock, head = _stream(capped, "/hall/events")  # a fourth from the same address
        assert head.startswith(b"HTTP/1.1 503") and b"retry-after" in head.lower(), head
        sock.close()
        for address in ("127.0.0.2", "127.0.0.2"):
            sock, head = _stream(capped, "/hall/events", address)
            assert head.startswith(b"HTTP/1.1 200"), head
            opened.append(sock)
        sock, head = _stream(capped, f"/m/{match_id}/events?view=seq", "127.0.0.3")  # a sixth in all
        assert head.startswith(b"HTTP/1.1 503"), head
        sock.close()
        with pytest.raises(InvalidStatus):  # a WebSocket is a channel too
            connect(f"ws://127.0.0.1:{capped.port}/m/{match_id}/events", open_timeout=10)
        assert client.get(f"/m/{match_id}").status_code == 200  # pages are answered meanwhile
        opened.pop().close()  # one closed: its place is given back
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            sock, head = _stream(capped, "/hall/events", "127.0.0.4")
            if head.startswith(b"HTTP/1.1 200"):
                opened.append(sock)
                break
            sock.close()
            time.sleep(0.2)
        else:
            pytest.fail("a closed channel's place was not given back")
    finally:
        for sock in opened:
            sock.close()
        client.close()


def test_a_websocket_channel_sends_the_board_as_it_changes(capped: Server) -> None:
    client = capped.organiser()
    match_id, token = capped.create(client)
    try:
        address = f"ws://127.0.0.1:{capped.port}/m/{match_id}/events?view=seq"
        with connect(address, open_timeout=10) as channel:
            assert channel.recv(timeout=10) == '{"event": "seq", "id": 0, "data": "0.0"}'
            client.post(f"/api/matches/{match_id}/records", json={"after": 0, "record": {"type": "opener",
                        "player": 0}}, headers={"X-Referee-Token": token})
            assert channel.recv(timeout=10) == '{"event": "seq", "id": 1, "data": "1.0"}'
    finally:
        client.close()


def test_a_crowd_of_streams_leaves_the_database_its_file_descriptors(tmp_path_factory: pytest.TempPathFactory
                                                                     ) -> None:
    server = Server(tmp_path_factory.mktemp("crowd") / "data", open_files=512).start()
    crowd: list[socket.socket] = []
    try:
        client = server.organiser()
        match_id, token = server.create(client)
        deadline = time.monotonic() + 60
        for number in range(600):  # more than the process may open
            if time.monotonic() > deadline:
                break
            with contextlib.suppress(OSError):
                sock, _ = _stream(server, f"/m/{match_id}/events", f"127.0.1.{number % 200 + 1}", wait=2)
                crowd.append(sock)
        for seq in range(20):  # records, new matches and pages: all answered while the crowd waits
            record = {"type": "opener", "player": 0} if seq == 0 else {"type": "call", "result": "miss"}
            answer = client.post(f"/api/matches/{match_id}/records", json={"after": seq, "record": record},
                                 headers={"X-Referee-Token": token})
            assert answer.status_code == 201, answer.text
        assert server.create(client)[0] > match_id
        assert httpx.get(f"{server.url}/api/matches/{match_id}", timeout=30).json()["seq"] == 20
        client.close()
    finally:
        for sock in crowd:
            sock.close()
        server.stop()
