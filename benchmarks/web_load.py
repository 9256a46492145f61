"""The scoreboard under match-day load, over loopback, on SQLite (docs/scoreboard.md).

    .venv/bin/python benchmarks/web_load.py [--matches 50] [--rate 5] [--seconds 60]

Starts ``carom serve`` on a fresh SQLite data folder, creates the matches, opens one
audience board (server-sent events) per match, then plays every match at once: each
tablet posts ``--rate`` records a second for ``--seconds``. Measured: a write, from
sending the record to its 201 (the record is on disk by then); an audience update,
from sending the record to the board event that shows it. Prints p50, p99 and the
worst of each; the targets are p99 < 50 ms (write) and < 100 ms (audience update).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

PASSWORD = "benchmark-password"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(data: Path, port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "carom.cli.main", "serve", "--port", str(port), "--data", str(data),
         "--organiser-password", PASSWORD], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(600):
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return process
        except httpx.HTTPError:
            time.sleep(0.1)
    process.kill()
    raise SystemExit("carom serve did not start")


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far (Linux)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


class Connection:
    """A keep-alive HTTP/1.1 connection on asyncio streams: a tablet's, or a board's.

    Lighter than a general client, so that on a small machine the load generator
    leaves the CPU to the server it measures.
    """

    def __init__(self, host: str, port: int, cookie: str = "", local: str | None = None) -> None:
        self.host, self.port, self.cookie = host, port, cookie
        self.local = local
        """The address to connect from (a client of its own, ``127.0.0.x``), if not the default."""

    async def open(self) -> Connection:
        self.reader, self.writer = await asyncio.open_connection(
            self.host, self.port, local_addr=(self.local, 0) if self.local else None)
        return self

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None,
                      headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
        data = b"" if body is None else json.dumps(body).encode()
        lines = [f"{method} {path} HTTP/1.1", f"Host: {self.host}:{self.port}",
                 f"Content-Length: {len(data)}", "Content-Type: application/json"]
        if self.cookie:
            lines.append(f"Cookie: {self.cookie}")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self.writer.write(("\r\n".join(lines) + "\r\n\r\n").encode() + data)
        status, response_headers = await self._head()
        length = int(response_headers.get("content-length", "0"))
        return status, response_headers, await self.reader.readexactly(length)

    async def _head(self) -> tuple[int, dict[str, str]]:
        status = int((await self.reader.readline()).split()[1])
        headers = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        return status, headers

    async def events(self, path: str) -> AsyncIterator[int]:
        """The ids of a server-sent event stream (chunked transfer)."""
        self.writer.write(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n\r\n"
                          .encode())
        status, _ = await self._head()
        assert status == 200, status
        while True:
            size = int((await self.reader.readline()).strip(), 16)
            chunk = await self.reader.readexactly(size + 2)
            for line in chunk.split(b"\n"):
                if line.startswith(b"id: "):
                    yield int(line[4:])

    def close(self) -> None:
        self.writer.close()


async def open_matches(host: str, port: int, players: list[list[str]]) -> dict[int, str]:
    """Log in as the organiser and open a three-cushion match for each pair of ``players``,
    each with its opener recorded: the referee token of each match by its number."""
    organiser = await Connection(host, port).open()
    form = f"name=organiser&password={PASSWORD}".encode()
    organiser.writer.write(f"POST /login HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                           f"application/x-www-form-urlencoded\r\nContent-Length: {len(form)}\r\n\r\n"
                           .encode() + form)
    status, headers = await organiser._head()
    await organiser.reader.readexactly(int(headers.get("content-length", "0")))
    assert status == 303, status
    organiser.cookie = headers["set-cookie"].split(";")[0]
    status, _, body = await organiser.request("GET", "/api/session")
    csrf = {"X-CSRF-Token": json.loads(body)["csrf"]}  # the session's anti-forgery token
    tokens = {}
    for pair in players:
        status, _, body = await organiser.request("POST", "/api/matches", {
            "discipline": "three-cushion", "table": "large", "players": pair, "points": 100_000}, csrf)
        assert status == 201, body
        created = json.loads(body)
        tokens[created["id"]] = created["referee_token"]
        status, _, body = await organiser.request(
            "POST", f"/api/matches/{created['id']}/records",
            {"after": 0, "record": {"type": "opener", "player": 0}},
            {"X-Referee-Token": created["referee_token"]})
        assert status == 201, body
    organiser.close()
    return tokens


class Load:
    def __init__(self, url: str, matches: int, rate: float, seconds: float) -> None:
        host, _, port = url.removeprefix("http://").rstrip("/").partition(":")
        self.host, self.port = host, int(port or 80)
        self.matches, self.rate, self.seconds = matches, rate, seconds
        self.sent: dict[tuple[int, int], float] = {}
        self.writes: list[float] = []
        self.updates: list[float] = []
        self.errors: list[str] = []
        self.stop_at = 0.0
        self.server_cpu = 0.0
        """The server's CPU seconds while the tablets played (when this script started it)."""
        self.loaded = 0.0
        self.server_pid = 0

    async def board(self, cookie: str, match_id: int, ready: asyncio.Event) -> None:
        """One audience board: read the event stream, time each record's update."""
        connection = await Connection(self.host, self.port, cookie).open()
        try:
            async for seq in connection.events(f"/m/{match_id}/events?view=board"):
                ready.set()
                sent = self.sent.get((match_id, seq))
                if sent is not None:
                    self.updates.append(time.perf_counter() - sent)
        finally:
            connection.close()

    async def tablet(self, match_id: int, token: str) -> None:
        """One referee: a record every 1/rate seconds, on a fixed schedule."""
        connection = await Connection(self.host, self.port).open()
        rng = random.Random(match_id)
        period = 1.0 / self.rate
        start = time.perf_counter() + rng.random() * period
        seq = 1
        try:
            while True:
                due = start + (seq - 1) * period
                if due > self.stop_at:
                    return
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                record = {"type": "call", "result": "carom" if rng.random() < 0.6 else "miss"}
                self.sent[(match_id, seq + 1)] = sent = time.perf_counter()
                status, _, body = await connection.request(
                    "POST", f"/api/matches/{match_id}/records", {"after": seq, "record": record},
                    {"X-Referee-Token": token})
                if status != 201:
                    self.errors.append(f"{status} {body[:200]!r}")
                    return
                self.writes.append(time.perf_counter() - sent)
                seq += 1
        finally:
            connection.close()

    async def run(self) -> None:
        pairs = [[f"Player {2 * i + 1}", f"Player {2 * i + 2}"] for i in range(self.matches)]
        tokens = await open_matches(self.host, self.port, pairs)
        readies = {m: asyncio.Event() for m in tokens}
        boards = [asyncio.create_task(self.board("", m, readies[m])) for m in tokens]
        await asyncio.gather(*(e.wait() for e in readies.values()))
        await asyncio.sleep(0.5)
        self.stop_at = time.perf_counter() + self.seconds
        started, cpu = time.perf_counter(), cpu_seconds(self.server_pid) if self.server_pid else 0.0
        await asyncio.gather(*(self.tablet(m, t) for m, t in tokens.items()))
        self.loaded = time.perf_counter() - started
        if self.server_pid:
            self.server_cpu = cpu_seconds(self.server_pid) - cpu
        await asyncio.sleep(1.0)  # the last updates
        for task in boards:
            task.cancel()
        await asyncio.gather(*boards, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--rate", type=float, default=5.0, help="records per second per match")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--url", help="a running carom serve (organiser password "
                        f"{PASSWORD!r}) instead of a fresh one on SQLite")
    args = parser.parse_args()
    if args.url:
        load = Load(args.url, args.matches, args.rate, args.seconds)
        asyncio.run(load.run())
    else:
        with tempfile.TemporaryDirectory(prefix="carom-load-") as tmp:
            port = free_port()
            server = start_server(Path(tmp) / "data", port)
            try:
                load = Load(f"http://127.0.0.1:{port}", args.matches, args.rate, args.seconds)
                load.server_pid = server.pid
                asyncio.run(load.run())
            finally:
                os.kill(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    ms = 1000.0
    expected = int(args.matches * args.rate * args.seconds)
    print(f"{args.matches} matches x {args.rate:g} records/s x {args.seconds:g} s on SQLite "
          f"(WAL, synchronous=FULL): {len(load.writes)} writes of {expected} planned, "
          f"{len(load.updates)} board updates, {len(load.errors)} errors")
    for name, values, target in (("write", load.writes, 50), ("audience update", load.updates, 100)):
        p50, p99 = percentile(values, .5) * ms, percentile(values, .99) * ms
        print(f"{name:>16}: p50 {p50:6.1f} ms   p99 {p99:6.1f} ms"
              f"   max {max(values, default=float('nan')) * ms:6.1f} ms   (target p99 < {target} ms)")
    if load.server_cpu:
        print(f"server CPU during the load: {load.server_cpu:.1f} s in {load.loaded:.1f} s "
              f"({100 * load.server_cpu / load.loaded:.0f}% of one core); load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for error in load.errors[:5]:
        print("error:", error)
    if load.errors:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
