"""10,000 attempted live streams against the scoreboard's other users (the security review's H4),
over loopback, on SQLite (docs/deploy.md, "Measured").

    .venv/bin/python benchmarks/web_streams.py [--streams 10000] [--seconds 30] [--baseline 15]

Starts ``carom serve`` with its default limits (2,000 live channels in all, 32 per
client address, 4,000 connections) on a fresh SQLite data folder and opens a match.
Then two phases of the same probes, in this order:

- **baseline**: a referee's tablet writes a record every second (``--write-every``) and
  a reader asks for the match's page (``/m/{id}``) every 200 ms, nothing else;
- **streams**: the same, while an attacker (a process of its own, so that its work does
  not delay the probes' clock) tries ``--streams`` server-sent event streams, half
  ``/hall/events`` and half the match's board ``/m/{id}/events``, from 250 addresses
  (``127.0.3.n`` and on), as fast as the server answers, and keeps every one it is
  given open until the phase ends.

Each probe is timed from when it was due (a fixed schedule). Printed: what the
attempts were answered (200, 503, nothing), p50, p99 and the worst of the probes in
each phase and their ratio, the server's memory (its processes' resident memory
together, sampled every 250 ms: at the start and the highest) and the machine's load.
Target (docs/deploy.md): every probe answered, p99 < 250 ms, server memory < 1 GiB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from attack_kit import MIB, MemorySampler, Server, cpu_seconds, on_fresh_server, percentile, summary
from web_flood import HOST, probes
from web_load import open_matches

ADDRESSES = 250


def attack(port: int, match_id: int, streams: int, hold: float, ready: object, answers: object) -> None:
    """The attacker's process: ``streams`` attempts, each kept open if it is given."""
    asyncio.run(_attack(port, match_id, streams, hold, ready, answers))


async def _attack(port: int, match_id: int, streams: int, hold: float, ready: object,
                  answers: object) -> None:
    counted: Counter[str] = Counter()
    until = time.monotonic() + hold
    gate = asyncio.Semaphore(500)  # attempts on their way at once
    held: list[asyncio.StreamWriter] = []
    started = time.monotonic()

    async def attempt(n: int) -> None:
        path = "/hall/events" if n % 2 else f"/m/{match_id}/events?view=board"
        local = f"127.0.3.{1 + n % ADDRESSES}"
        async with gate:
            try:
                reader, writer = await asyncio.wait_for(
                    asyncio.open_connection(HOST, port, local_addr=(local, 0)), 30)
                writer.write(f"GET {path} HTTP/1.1\r\nHost: {HOST}:{port}\r\n"
                             "Accept: text/event-stream\r\n\r\n".encode())
                line = await asyncio.wait_for(reader.readline(), 30)
            except (OSError, TimeoutError) as error:
                counted[f"no answer ({type(error).__name__})"] += 1
                return
            status = line.split()[1].decode() if len(line.split()) > 1 else "closed"
            counted[status] += 1
            if status == "200":
                held.append(writer)
            else:
                writer.close()

    ready.set()  # type: ignore[attr-defined]
    await asyncio.gather(*(attempt(n) for n in range(streams)))
    counted["seconds to attempt them all"] = round(time.monotonic() - started)
    await asyncio.sleep(max(0.0, until - time.monotonic()))
    for writer in held:
        writer.close()
    answers.put(dict(counted))  # type: ignore[attr-defined]


async def phase(server: Server, match_id: int, token: str, seconds: float, first_seq: int,
                write_every: float
                ) -> tuple[list[float], list[float], list[str], str, int, MemorySampler, float]:
    """One phase of probes, with the server's memory sampled while it runs, and the CPU
    its event loop used (seconds per second)."""
    sampler = MemorySampler(server.process.pid).start()
    cpu, started = cpu_seconds(server.process.pid), time.perf_counter()
    try:
        writes, pages, errors, load, seq = await probes(server.port, match_id, token, seconds, first_seq,
                                                        write_every)
    finally:
        sampler.stop()
    share = (cpu_seconds(server.process.pid) - cpu) / (time.perf_counter() - started)
    return writes, pages, errors, load, seq, sampler, share


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline", type=float, default=15.0)
    parser.add_argument("--write-every", type=float, default=1.0, help="seconds between the tablet's records")
    args = parser.parse_args()
    on_fresh_server("carom-streams-", lambda server: run(server, args))


def run(server: Server, args: argparse.Namespace) -> str:
    tokens = asyncio.run(open_matches(HOST, server.port, [["Stream A", "Stream B"]]))
    match_id, token = next(iter(tokens.items()))
    base = asyncio.run(phase(server, match_id, token, args.baseline, 1, args.write_every))
    context = multiprocessing.get_context("spawn")
    ready, answers = context.Event(), context.Queue()
    attacker = context.Process(target=attack, args=(server.port, match_id, args.streams,
                                                    args.seconds + 1, ready, answers))
    attacker.start()
    ready.wait(60)
    loaded = asyncio.run(phase(server, match_id, token, args.seconds, base[4], args.write_every))
    counted = answers.get(timeout=120)
    attacker.join(30)
    lines = [f"{args.streams} attempted live streams (half /hall/events, half a board) from {ADDRESSES} "
             f"addresses, held for {args.seconds:g} s (carom serve, default limits: 2,000 channels, "
             "32 per client, 4,000 connections; SQLite)",
             f"  the attempts were answered: {json.dumps(counted, sort_keys=True)}"]
    for name, (writes, pages, errors, load, _, memory, share) in (("baseline", base), ("streams", loaded)):
        lines += [f"  {name} ({load}); the server's event loop used {share:.0%} of a core",
                  f"    record write  {summary(writes)}",
                  f"    page /m/{{id}} {summary(pages)}   (target p99 < 250 ms)",
                  f"    server memory {memory.first / MIB:.0f} MiB at the start, "
                  f"at most {memory.highest / MIB:.0f} MiB   (target < 1024 MiB)",
                  f"    {len(errors)} probes unanswered or refused   (target 0)"]
        lines += [f"    error: {error}" for error in errors[:5]]
    for n, name in ((0, "write"), (1, "page")):
        ratio = percentile(loaded[n], .99) / percentile(base[n], .99)
        lines.append(f"  {name} p99, streams / baseline: {ratio:.2f}")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
