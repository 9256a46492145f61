"""Requests no client should send, on a real ``carom serve`` (SQLite and PostgreSQL):
ids beyond what the databases hold are 404, oversized bodies are refused with 413
before they are read, and no request, however malformed, gets a 500."""

from __future__ import annotations

import socket
import time

import httpx
import pytest

from tests.web.server import Server


@pytest.fixture(scope="module")
def server(shared_server: Server) -> Server:
    """One server for the module's tests: each makes what it looks at."""
    return shared_server


HUGE_IDS = [2**31, 2**31 + 5, 2**63, 2**64, 10**20, 99999999999999999999, 0, -1]


def _paths(match_id: int) -> list[tuple[str, str]]:
    return [
        ("GET", f"/m/{match_id}"),
        ("GET", f"/m/{match_id}/scoresheet"),
        ("GET", f"/m/{match_id}/scoresheet.txt"),
        ("GET", f"/m/{match_id}/export"),
        ("GET", f"/m/{match_id}/tablet?t=x"),
        ("GET", f"/m/{match_id}/tablet/panel"),
        ("GET", f"/m/{match_id}/events"),
        ("GET", f"/api/matches/{match_id}"),
        ("GET", f"/api/matches/{match_id}/file"),
        ("POST", f"/api/matches/{match_id}/records"),
        ("POST", f"/m/{match_id}/tablet"),
        ("POST", f"/m/{match_id}/tablet/confirm"),
        ("POST", f"/api/matches/{match_id}/confirm"),
        ("GET", f"/organiser/matches/{match_id}"),
        ("POST", f"/api/matches/{match_id}/referee-token"),
        ("POST", f"/api/matches/{match_id}/reopen"),
    ]


def test_ids_the_database_cannot_hold_are_not_found(server: Server) -> None:
    client = server.organiser()
    try:
        for match_id in HUGE_IDS:
            for method, path in _paths(match_id):
                body = {"after": 0, "record": {"type": "opener", "player": 0}} if method == "POST" else None
                response = client.request(method, path, json=body, headers={"X-Referee-Token": "x"})
                assert response.status_code == 404, (method, path, response.status_code, response.text[:200])
    finally:
        client.close()


def _raw(server: Server, head: bytes, body: bytes = b"", wait: float = 10.0) -> bytes:
    """Send a request by hand; the answer (what came before the server closed or
    ``wait`` passed)."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as s:
        s.sendall(head + body)
        answer = b""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                chunk = s.recv(65536)
            except TimeoutError:
                break
            if not chunk:
                break
            answer += chunk
            if b"\r\n\r\n" in answer:
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in answer.split(b"\r\n")
                        if line.lower().startswith(b"content-length:")
                    ),
                    0,
                )
                if len(answer.split(b"\r\n\r\n", 1)[1]) >= length:
                    break
        return answer


def test_a_100_mb_record_is_refused_before_it_is_read(server: Server) -> None:
    client = server.organiser()
    match_id, _ = server.create(client)
    client.close()
    head = (
        f"POST /api/matches/{match_id}/records HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"Content-Type: application/json\r\nContent-Length: {100 * 2**20}\r\n\r\n"
    ).encode()
    started = time.monotonic()
    answer = _raw(
        server, head, b'{"after": 0, "record": {"type": "opener", "player": 0, "x": "' + b"a" * 1000
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert b"nothing was read or changed" in answer
    assert time.monotonic() - started < 5  # answered without waiting for the other 99.99 MB
    anonymous = head.replace(b"Content-Type", b"X-Nothing")
    assert _raw(server, anonymous).startswith(b"HTTP/1.1 413")


def test_a_body_without_a_length_is_cut_off_at_the_limit(server: Server) -> None:
    client = server.organiser()
    match_id, token = server.create(client)
    client.close()
    head = (
        f"POST /api/matches/{match_id}/records HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
        f"X-Referee-Token: {token}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = b"a" * 65536
    body = b"".join(f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n" for _ in range(8))  # 512 KiB
    assert _raw(server, head, body).startswith(b"HTTP/1.1 413")
    small = b'{"after": 0, "record": {"type": "opener", "player": 0}}'
    ok = _raw(server, head, f"{len(small):x}\r\n".encode() + small + b"\r\n0\r\n\r\n")
    assert ok.startswith(b"HTTP/1.1 201"), ok[:300]


def test_each_route_has_its_limit(server: Server) -> None:
    client = server.organiser()
    try:
        for path, size, limit in (
            ("/organiser/matches", 70 * 1024, "65536"),
            ("/login", 70 * 1024, "65536"),
            ("/organiser/import", 18 * 2**20, "17825792"),
        ):
            response = client.post(
                path, content=b"x" * size, headers={"Content-Type": "application/x-www-form-urlencoded"}
            )
            assert response.status_code == 413 and limit in response.text, path
    finally:
        client.close()


MALFORMED: list[tuple[str, str, dict[str, str], bytes]] = [
    ("POST", "/organiser/import", {"Content-Type": "multipart/form-data; boundary=x"}, b"--x\r\nbroken"),
    ("POST", "/organiser/import", {"Content-Type": "multipart/form-data"}, b"no boundary"),
    ("POST", "/organiser/matches", {"Content-Type": "application/x-www-form-urlencoded"}, b"%ff%fe=%00&&=="),
    ("POST", "/login", {"Content-Type": "application/x-www-form-urlencoded"}, b"password=%ff%fe%fd"),
    ("POST", "/login", {"Content-Type": "text/plain"}, b"\xff\xfe"),
    ("POST", "/setup", {"Content-Type": "multipart/form-data; boundary=--"}, b"----\r\n"),
    ("POST", "/logout", {"Content-Type": "application/json"}, b"{"),
    ("POST", "/api/matches", {"Content-Type": "application/json"}, b'{"discipline": ' + b"[" * 5000),
    (
        "POST",
        "/api/matches",
        {"Content-Type": "application/json"},
        b'{"players": ["a", "b"], "points": 1e999}',
    ),
    (
        "POST",
        "/api/matches",
        {"Content-Type": "application/json"},
        b'{"discipline": "three-cushion", "players": ["a", "b"], "points": 99999999999999999999999}',
    ),
    ("POST", "/api/matches", {"Content-Type": "application/json"}, b"\xff\xfe{}"),
    ("POST", "/api/matches/1/confirm", {"X-Referee-Token": "x", "Content-Type": "application/json"}, b"[1]"),
    ("GET", "/lang/sk?next=%2F%2Fevil.example", {}, b""),
    ("GET", "/lang/sk?next=/\\evil.example", {}, b""),
    ("GET", "/setup?code=" + "x" * 5000, {}, b""),
    ("GET", "/m/1/tablet?t=%ff%fe", {}, b""),
    ("GET", "/m/1/tablet/panel", {"X-Referee-Token": "é" * 100}, b""),
    ("GET", "/api/matches/1e5", {}, b""),
    ("GET", "/", {"Accept-Language": "sk;q=abc, de;q=" + "9" * 400 + ", ;;;;" * 50}, b""),
    ("GET", "/", {"Cookie": "carom_session=" + "9." * 300 + "; carom_lang=%00"}, b""),
    ("GET", "/organiser", {"Cookie": "carom_session=1.99999999999999999999999.x.y"}, b""),
    ("GET", "/organiser", {"Cookie": ("carom_session=" + "²" * 43).encode()}, b""),
    (
        "POST",
        "/m/1/tablet",
        {"X-Referee-Token": "x", "Content-Type": "application/x-www-form-urlencoded"},
        b"after=99999999999999999999999999&type=call",
    ),
]


def test_no_request_however_malformed_gets_a_500(server: Server) -> None:
    client = server.organiser()
    try:
        match_id, token = server.create(client)
        for method, path, headers, body in MALFORMED:
            if "X-Referee-Token" in headers:
                headers = {**headers, "X-Referee-Token": token}
            response = client.request(
                method, path.replace("/1/", f"/{match_id}/"), content=body, headers=headers
            )
            assert response.status_code < 500, (method, path, response.status_code, response.text[:300])
        assert client.get(f"/api/matches/{match_id}").json()["seq"] == 0
    finally:
        client.close()
    assert httpx.get(f"{server.url}/healthz").text == "ok"
