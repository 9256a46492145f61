"""A flood of ``/api/simulate`` against the scoreboard's other users (the security review's H3), over
loopback, on SQLite (docs/deploy.md, "Measured").

    .venv/bin/python benchmarks/web_flood.py [--clients 64] [--seconds 30] [--baseline 15]

Starts ``carom serve`` with its default limits (one simulation process, eight places
in its queue, two jobs per client) on a fresh SQLite data folder and opens a match.
Then two phases of the same length of probes, in this order:

- **baseline**: a referee's tablet writes a record every 200 ms and a reader asks for
  the match's page (``/m/{id}``, a cheap page) every 200 ms, nothing else;
- **flood**: the same, while ``--clients`` attackers, each from an address of its own
  (``127.0.1.n``), post random strokes to ``/api/simulate`` as fast as the server
  answers, ignoring ``Retry-After``. They run in a process of their own, so that their
  work does not delay the probes' clock.

Each probe is timed from when it was due (a fixed schedule), so a server that delays
the next request is charged for the wait. Printed: p50, p99 and the worst of the
record writes and of the page in each phase, their ratio, what the attackers were
answered (200, 429, 503), the CPU the server and the attackers used, and the machine's
load in each phase. Target (docs/deploy.md): during the flood, write p99 < 200 ms and page
p99 < 200 ms (8.4 s before the simulation pool).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from attack_kit import (
    LoadSampler,
    Server,
    cpu_seconds,
    descendants,
    on_fresh_server,
    on_schedule,
    page_probe,
    percentile,
    summary,
)
from web_load import Connection, open_matches
from web_simulate import START, strike

HOST = "127.0.0.1"


async def tablet(port: int, match_id: int, token: str, period: float, until: float,
                 times: list[float], errors: list[str], first_seq: int) -> int:
    """A referee writing a record every ``period`` seconds; the next record's ``after``."""
    connection = await Connection(HOST, port).open()
    seq = first_seq

    async def write() -> None:
        nonlocal seq
        status, _, body = await connection.request(
            "POST", f"/api/matches/{match_id}/records",
            {"after": seq, "record": {"type": "call", "result": "miss"}}, {"X-Referee-Token": token})
        if status != 201:
            raise RuntimeError(f"record: {status} {body[:120]!r}")
        seq += 1

    await on_schedule(period, until, write, times, errors)
    connection.close()
    return seq


async def probes(port: int, match_id: int, token: str, seconds: float, first_seq: int,
                 write_every: float = 0.2) -> tuple[list[float], list[float], list[str], str, int]:
    """One phase of probes (a record written every ``write_every`` seconds, the page read
    every 200 ms): the writes' and the page's times, the errors, the load, and the next
    record's ``after``."""
    until = time.perf_counter() + seconds
    writes: list[float] = []
    pages: list[float] = []
    errors: list[str] = []
    load = LoadSampler().start()
    seq, _ = await asyncio.gather(
        tablet(port, match_id, token, write_every, until, writes, errors, first_seq),
        page_probe(HOST, port, f"/m/{match_id}", 0.2, until, pages, errors))
    return writes, pages, errors, load.stop(), seq


def flood(port: int, clients: int, seconds: float, ready: object, answers: object) -> None:
    """The attackers' process: ``clients`` connections from addresses of their own, each
    posting a random stroke as soon as the last one was answered."""
    asyncio.run(_flood(port, clients, seconds, ready, answers))


async def _flood(port: int, clients: int, seconds: float, ready: object, answers: object) -> None:
    counted: Counter[str] = Counter()
    until = time.monotonic() + seconds

    async def attacker(n: int) -> None:
        rng = random.Random(n)
        connection: Connection | None = None
        while time.monotonic() < until:
            body = {"discipline": "three-cushion", "balls": START, "strike": strike(rng, 8.0)}
            try:
                if connection is None:
                    connection = await Connection(HOST, port, local=f"127.0.1.{n + 1}").open()
                status, _, _ = await asyncio.wait_for(
                    connection.request("POST", "/api/simulate", body), max(0.1, until - time.monotonic()))
                counted[str(status)] += 1
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
                counted["connection lost"] += 1
                connection = None
            except TimeoutError:
                break
        if connection is not None:
            connection.close()

    ready.set()  # type: ignore[attr-defined]
    await asyncio.gather(*(attacker(n) for n in range(clients)))
    answers.put(dict(counted))  # type: ignore[attr-defined]


def warm(server: Server) -> None:
    """Until the simulation pool has answered a stroke (it starts in the background)."""
    import httpx

    deadline = time.monotonic() + 300
    body = {"discipline": "three-cushion", "balls": START, "strike": strike(random.Random(0), 3.0)}
    while time.monotonic() < deadline:
        if httpx.post(f"{server.url}/api/simulate", json=body, timeout=60).status_code == 200:
            return
        time.sleep(0.5)
    raise SystemExit("the simulation pool did not answer within 300 s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=64)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline", type=float, default=15.0)
    args = parser.parse_args()

    def warmed_run(server: Server) -> str:
        warm(server)
        return run(server, args)

    on_fresh_server("carom-flood-", warmed_run)


def run(server: Server, args: argparse.Namespace) -> str:
    tokens = asyncio.run(open_matches(HOST, server.port, [["Flood A", "Flood B"]]))
    match_id, token = next(iter(tokens.items()))
    base_writes, base_pages, base_errors, base_load, seq = asyncio.run(
        probes(server.port, match_id, token, args.baseline, 1))
    context = multiprocessing.get_context("spawn")
    ready, answers = context.Event(), context.Queue()
    attackers = context.Process(target=flood,
                                args=(server.port, args.clients, args.seconds + 2, ready, answers))
    attackers.start()
    ready.wait(60)
    time.sleep(1.0)  # the flood under way
    pids = {server.process.pid} | descendants(server.process.pid)
    cpu = {pid: cpu_seconds(pid) for pid in pids}
    attackers_cpu = cpu_seconds(attackers.pid or 0)
    started = time.perf_counter()
    writes, pages, errors, load, _ = asyncio.run(probes(server.port, match_id, token, args.seconds, seq))
    elapsed = time.perf_counter() - started
    server_cpu = sum(cpu_seconds(pid) - before for pid, before in cpu.items() if pid != server.process.pid)
    main_cpu = cpu_seconds(server.process.pid) - cpu[server.process.pid]
    attackers_cpu = cpu_seconds(attackers.pid or 0) - attackers_cpu
    counted = answers.get(timeout=60)
    attackers.join(30)
    lines = [f"{args.clients} clients flooding POST /api/simulate for {args.seconds:g} s "
             "(carom serve, default limits: 1 simulation process, queue 8, 2 jobs per client; SQLite)",
             f"  attackers were answered: {json.dumps(counted, sort_keys=True)}",
             f"  baseline ({base_load})",
             f"    record write  {summary(base_writes)}",
             f"    page /m/{{id}} {summary(base_pages)}",
             f"  flood ({load})",
             f"    record write  {summary(writes)}   (target p99 < 200 ms)",
             f"    page /m/{{id}} {summary(pages)}   (target p99 < 200 ms)",
             f"  CPU in the flood's {elapsed:.0f} s: the server's event loop {main_cpu:.1f} s, "
             f"its simulation processes {server_cpu:.1f} s, the attackers {attackers_cpu:.1f} s"]
    for name, flooded, quiet in (("write", writes, base_writes), ("page", pages, base_pages)):
        ratio = percentile(flooded, .99) / percentile(quiet, .99)
        lines.append(f"  {name} p99, flood / baseline: {ratio:.2f}")
    for error in (base_errors + errors)[:5]:
        lines.append(f"  error: {error}")
    if base_errors or errors:
        lines.append(f"  {len(base_errors) + len(errors)} probes failed")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
