"""Bodies and slow clients on a real ``carom serve`` (the security review's H1 and H2): bytes are
counted as they arrive whatever the framing, and refused at the route's limit (413); a
route that needs a session refuses a stranger before reading the body; a client that
stalls in its headers or inside a body is cut off."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from carom.web.connections import body_cost
from tests.web.server import Server

KIB = 1024


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    running = Server(tmp_path_factory.mktemp("bodies") / "data",
                     options=("--limit", "header-seconds=1", "--limit", "body-idle-seconds=1")).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def cookie(server: Server) -> str:
    client = server.organiser()
    value = f"carom_session={client.cookies['carom_session']}"
    client.close()
    return value


def _head(server: Server, path: str, framing: str = "Transfer-Encoding: chunked", *extra: str) -> bytes:
    lines = [f"POST {path} HTTP/1.1", f"Host: 127.0.0.1:{server.port}", framing, *extra]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


PART = b'--x\r\nContent-Disposition: form-data; name="file"; filename="f.jsonl"\r\n\r\n'
"""The start of a multipart body (boundary ``x``): an upload's bytes follow."""


def _chunks(size: int, chunk: int = 64 * KIB) -> Iterator[bytes]:
    """A body of ``size`` bytes in chunks: the start of an upload, then letters."""
    sent = 0
    while sent < size:
        n = min(chunk, size - sent)
        data = (PART + b"a" * n)[:n] if sent == 0 else b"a" * n
        yield f"{n:x}\r\n".encode() + data + b"\r\n"
        sent += n


def _answer(sock: socket.socket, wait: float) -> bytes:
    """What the server answered within ``wait`` seconds (until it closed, or the head
    of an answer is in)."""
    sock.settimeout(wait)
    answer = b""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            break
        except ConnectionResetError:
            break
        if not chunk:
            break
        answer += chunk
        if b"\r\n\r\n" in answer:
            break
    return answer


def _send_body(server: Server, head: bytes, size: int, *, finish: bool = True) -> bytes:
    """Send ``head`` and a chunked body of ``size`` bytes; the answer. A server that
    answers and closes before the body is all sent is what a refusal looks like."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head)
        try:
            for chunk in _chunks(size):
                sock.sendall(chunk)
            if finish:
                sock.sendall(b"0\r\n\r\n")
        except (BrokenPipeError, ConnectionResetError):
            pass
        return _answer(sock, 10)


def _peak_memory(server: Server) -> int:
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return next(int(line.split()[1]) * KIB for line in status.splitlines() if line.startswith("VmHWM:"))


@pytest.mark.parametrize("spelling", ["chunked", "Chunked", "CHUNKED", " chunked"])
def test_a_chunked_body_is_refused_at_the_limit_however_it_is_spelled(server: Server, spelling: str) -> None:
    position = {"start": {"white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}, "count": 1}
    assert httpx.post(f"{server.url}/api/solve", json=position, timeout=60).status_code == 200  # all loaded
    before = _peak_memory(server)
    answer = _send_body(server, _head(server, "/api/solve", f"Transfer-Encoding:{spelling}",
                                      "Content-Type: application/json"), 8 * 2**20)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert _peak_memory(server) - before < 64 * 2**20


def test_every_route_that_reads_a_body_refuses_it_at_its_limit(server: Server, cookie: str) -> None:
    client = server.organiser()
    match_id, token = server.create(client)
    csrf = client.headers["X-CSRF-Token"]
    client.close()
    organiser = (f"Cookie: {cookie}", f"X-CSRF-Token: {csrf}")
    for path, limit, extra in [
        ("/login", 64 * KIB, ("Content-Type: application/x-www-form-urlencoded",)),
        ("/setup", 64 * KIB, ("Content-Type: application/x-www-form-urlencoded",)),
        ("/api/simulate", 16 * KIB, ("Content-Type: application/json",)),
        ("/api/matches", 64 * KIB, ("Content-Type: application/json", *organiser)),
        (f"/api/matches/{match_id}/records", 256 * KIB, ("Content-Type: application/json",
                                                         f"X-Referee-Token: {token}")),
        ("/organiser/matches", 64 * KIB, ("Content-Type: application/x-www-form-urlencoded", *organiser)),
        ("/organiser/import", 17 * 2**20, ("Content-Type: multipart/form-data; boundary=x", *organiser)),
        ("/review", 17 * 2**20, ("Content-Type: multipart/form-data; boundary=x", *organiser)),
    ]:
        head = _head(server, path, "Transfer-Encoding: chunked", *extra)
        answer = _send_body(server, head, limit + 64 * KIB)
        assert answer.startswith(b"HTTP/1.1 413"), (path, answer[:300])


@pytest.mark.parametrize("path", ["/review", "/organiser/import", "/players/register/import"])
def test_a_strangers_upload_is_refused_before_its_body_arrives(server: Server, path: str) -> None:
    head = _head(server, path, "Transfer-Encoding: chunked", "Content-Type: multipart/form-data; boundary=x")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + next(_chunks(64 * KIB)))  # and nothing more: the rest never comes
        answer = _answer(sock, 5)
    assert answer.startswith(b"HTTP/1.1 303"), answer[:200]
    assert b"location: /login" in answer.lower() or b"location: /setup" in answer.lower()


def test_a_client_that_stalls_inside_a_body_is_answered_408(server: Server, cookie: str) -> None:
    head = _head(server, "/organiser/import", "Transfer-Encoding: chunked",
                 "Content-Type: multipart/form-data; boundary=x", f"Cookie: {cookie}")
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + next(_chunks(64 * KIB)))
        started = time.monotonic()
        answer = _answer(sock, 8)
    assert answer.startswith(b"HTTP/1.1 408"), answer[:200]
    assert time.monotonic() - started < 6


def test_a_client_that_stalls_in_its_headers_is_cut_off(server: Server) -> None:
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nX-Slow: ".encode())
        started = time.monotonic()
        assert _answer(sock, 8) == b""  # closed, unanswered
        assert time.monotonic() - started < 6
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:  # says nothing at all
        started = time.monotonic()
        assert _answer(sock, 8) == b""
        assert time.monotonic() - started < 6


def test_the_bodies_one_process_holds_at_once_are_bounded(tmp_path: Path) -> None:
    """Bodies held just under their route's limit, many at once, each in the HTTP server's
    buffer or a route's: beyond ``body-memory`` MiB together (what they cost, not only
    their bytes: :func:`body_cost`) the next is answered 503 with
    ``Retry-After`` in the client's language, and its connection closed; closed, they give
    their bytes back."""
    server = Server(tmp_path / "data", options=("--limit", "body-memory=1")).start()
    try:
        head = ("POST /login HTTP/1.1\r\n" f"Host: 127.0.0.1:{server.port}\r\n"
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 60000\r\n"
                "Accept-Language: de\r\n\r\n").encode()
        held = []
        for _ in range(40):  # 40 bodies of 40 KiB: 1.6 MiB, against 1 MiB
            sock = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            sock.sendall(head + b"name=" + b"a" * (40 * KIB - 5))
            held.append(sock)
        time.sleep(1.0)
        answers = [_answer(sock, 0.2) for sock in held]
        refused = [a for a in answers if a]
        assert all(a.startswith(b"HTTP/1.1 503") for a in refused), refused[:1]
        fit = 1024 * KIB // body_cost(40 * KIB, first=True)  # 11: each costs its 40 KiB and 48 KiB
        assert 40 - fit - 1 <= len(refused) <= 40 - fit, len(refused)
        assert b"retry-after: 5" in refused[0] and b"Anfragen" in refused[0], refused[0]
        for sock in held:
            sock.close()
        time.sleep(0.5)
        answer = httpx.post(f"{server.url}/login", data={"name": "nobody", "password": "x" * 30000},
                            follow_redirects=False)
        assert answer.status_code != 503, answer.text[:200]  # the bytes were given back
    finally:
        server.stop()


def test_a_modest_body_over_its_limit_is_read_before_the_413(server: Server) -> None:
    """Declared over its route's limit but small, the body is read to its end and thrown
    away before the answer: answered and closed with bytes still coming, the connection
    was reset and the answer lost (behind a proxy: a 502 in place of the 413)."""
    head = (f"POST /api/simulate HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 40000\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
        sock.sendall(head + b"x" * 20000)
        time.sleep(0.4)  # the answer, if it comes now, is followed by a close
        try:  # as a proxy sends a body on: a reset while sending is its 502
            for _ in range(2):
                sock.sendall(b"x" * 10000)
                time.sleep(0.3)
        except (BrokenPipeError, ConnectionResetError) as error:
            raise AssertionError(f"the body's end was refused with a reset: {error}") from None
        answer = _answer(sock, 5)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
