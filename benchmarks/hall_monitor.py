"""The hall monitor under a tournament's load, over loopback, on SQLite (docs/hall.md).

    .venv/bin/python benchmarks/hall_monitor.py [--tables 8] [--rate 5] [--seconds 30]

Starts ``carom serve`` on a fresh SQLite data folder, creates ``--tables`` matches and
starts each (an opener record), opens one hall monitor (``/hall/events``: one
server-sent event stream for every table), then plays every table at once: each
tablet posts ``--rate`` records a second through the HTTP API for ``--seconds``.

Measured for every record: ``ack``, when the tablet has the server's 201 (the record
is on disk), and ``shown``, when the hall's stream has delivered a card of that match
showing that record or a later one (a card that carries two records shows both). The
figure is ``shown - ack``: the delay a person at the hall screen sees after the tablet
has confirmed the stroke. The server publishes before it answers, so the card can
arrive before the 201 (a negative delay). Also printed: ``shown - sent`` (from the
moment the tablet sent the record) and the write (``ack - sent``). Target: p99 of
``shown - ack`` at most 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from web_load import Connection, cpu_seconds, free_port, open_matches, percentile, start_server

CARD = re.compile(rb'data-match="(\d+)" data-seq="(\d+)"')


class HallLoad:
    def __init__(self, host: str, port: int, tables: int, rate: float, seconds: float) -> None:
        self.host, self.port = host, port
        self.tables, self.rate, self.seconds = tables, rate, seconds
        self.sent: dict[tuple[int, int], float] = {}
        self.acked: dict[tuple[int, int], float] = {}
        self.shown: dict[tuple[int, int], float] = {}
        self.seen: dict[int, int] = {}
        self.events = 0
        self.writes = 0
        self.errors: list[str] = []
        self.stop_at = 0.0
        self.server_pid = 0
        self.server_cpu = 0.0
        self.loaded = 0.0

    async def monitor(self, ready: asyncio.Event) -> None:
        """The hall page's stream: note when each match's record first shows."""
        connection = await Connection(self.host, self.port).open()
        connection.writer.write(f"GET /hall/events HTTP/1.1\r\nHost: {self.host}\r\n"
                                "Accept: text/event-stream\r\n\r\n".encode())
        status, _ = await connection._head()
        assert status == 200, status
        buffer = b""
        try:
            while True:
                size = int((await connection.reader.readline()).strip(), 16)
                chunk = await connection.reader.readexactly(size + 2)
                now = time.perf_counter()
                buffer += chunk[:-2]
                *whole, buffer = buffer.split(b"\n\n")
                for block in whole:
                    if not block.startswith(b"event: table"):
                        continue
                    found = CARD.search(block)
                    if found is None:
                        continue
                    self.events += 1
                    match_id, seq = int(found.group(1)), int(found.group(2))
                    for earlier in range(self.seen.get(match_id, 0) + 1, seq + 1):
                        self.shown.setdefault((match_id, earlier), now)
                    self.seen[match_id] = max(seq, self.seen.get(match_id, 0))
                    if len(self.seen) == self.tables:
                        ready.set()
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
                self.sent[(match_id, seq + 1)] = time.perf_counter()
                status, _, body = await connection.request(
                    "POST", f"/api/matches/{match_id}/records", {"after": seq, "record": record},
                    {"X-Referee-Token": token})
                if status != 201:
                    self.errors.append(f"{status} {body[:200]!r}")
                    return
                self.acked[(match_id, seq + 1)] = time.perf_counter()
                self.writes += 1
                seq += 1
        finally:
            connection.close()

    async def run(self) -> None:
        pairs = [[f"Spieler {2 * i + 1}", f"Hráč {2 * i + 2}"] for i in range(self.tables)]
        tokens = await open_matches(self.host, self.port, pairs)
        ready = asyncio.Event()
        hall = asyncio.create_task(self.monitor(ready))
        await asyncio.wait_for(ready.wait(), 30)  # every table's first card
        await asyncio.sleep(0.5)
        self.stop_at = time.perf_counter() + self.seconds
        started, cpu = time.perf_counter(), cpu_seconds(self.server_pid) if self.server_pid else 0.0
        await asyncio.gather(*(self.tablet(m, t) for m, t in tokens.items()))
        self.loaded = time.perf_counter() - started
        if self.server_pid:
            self.server_cpu = cpu_seconds(self.server_pid) - cpu
        await asyncio.sleep(1.0)  # the last cards
        hall.cancel()
        await asyncio.gather(hall, return_exceptions=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--rate", type=float, default=5.0, help="records per second per table")
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="carom-hall-") as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "data", port)
        try:
            load = HallLoad("127.0.0.1", port, args.tables, args.rate, args.seconds)
            load.server_pid = server.pid
            asyncio.run(load.run())
        finally:
            os.kill(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
    ms = 1000.0
    keys = sorted(load.acked)
    from_ack = [load.shown[k] - load.acked[k] for k in keys if k in load.shown]
    from_sent = [load.shown[k] - load.sent[k] for k in keys if k in load.shown]
    writes = [load.acked[k] - load.sent[k] for k in keys]
    missing = sum(k not in load.shown for k in keys)
    expected = int(args.tables * args.rate * args.seconds)
    print(f"{args.tables} tables x {args.rate:g} records/s x {args.seconds:g} s on SQLite, one hall monitor: "
          f"{load.writes} records of {expected} planned, {load.events} hall events, "
          f"{missing} records never shown, {len(load.errors)} errors")
    for name, values in (("shown - ack", from_ack), ("shown - sent", from_sent), ("write", writes)):
        p50, p99 = percentile(values, .5) * ms, percentile(values, .99) * ms
        print(f"{name:>13}: p50 {p50:6.1f} ms   p99 {p99:6.1f} ms"
              f"   max {max(values, default=float('nan')) * ms:6.1f} ms")
    early = sum(v < 0 for v in from_ack)
    print(f"{early} of {len(from_ack)} cards arrived before their record's 201; target: p99 of "
          "shown - ack at most 100 ms")
    if load.server_cpu:
        print(f"server CPU during the load: {load.server_cpu:.1f} s in {load.loaded:.1f} s "
              f"({100 * load.server_cpu / load.loaded:.0f}% of one core); load average "
              f"{os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    for error in load.errors[:5]:
        print("error:", error)
    if load.errors or missing:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
