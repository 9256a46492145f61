"""Request bodies of every framing against the scoreboard's memory (the security review's H1 and H2),
over loopback, on SQLite (docs/deploy.md, "Measured").

    .venv/bin/python benchmarks/web_bodies.py [--scale 1.0]

Starts ``carom serve`` with its default limits (a record 256 KiB, an import or a review
17 MiB, a simulation 16 KiB, anything else 64 KiB; 15 s of silence inside a body)
on a fresh SQLite data folder, and sends it, without logging in, one kind of body after
another, each from many addresses (``127.0.4.n``):

- **Content-Length**: a declared 300 MiB to each of six routes (``/api/solve``,
  ``/api/simulate``, a match's records, ``/review``, ``/organiser/import``, ``/login``),
  four connections each, up to 32 MiB sent as fast as the server takes them;
- **chunked**: the same with ``Transfer-Encoding`` spelt ``chunked``, ``Chunked``,
  ``CHUNKED`` and ``cHuNkEd``, one connection of each spelling to each route;
- **slow**: 400 connections trickling 1 KiB every half second for 20 s to the same
  routes, half chunked, half with a length (48 KiB declared), then silent before the
  end of their bodies;
- **many at once**: 2,000 connections each sending a body just under its route's limit
  (``/login`` 64 KiB, ``/api/simulate`` and ``/api/solve`` 16 KiB) in pieces, all held
  one byte short of the end together, then closed;
- **logins at once**: 300 wrong passwords sent together in small bodies, to tell a
  body's cost from a password check's (an scrypt hash of 16 MiB each).

Before each kind the server's peak resident memory is started again from its memory
then (``/proc/PID/clear_refs``); after it, ``VmHWM`` less that is the figure, the growth
of its peak. Also printed: what the connections were answered (200, 303, 400, 408,
413, 422, 429, closed), the highest memory of all the server's processes together,
sampled every 250 ms, and the machine's load. Target (docs/deploy.md): no kind grows
the server's peak by more than 64 MiB.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from attack_kit import KIB, MIB, LoadSampler, MemorySampler, Server, memory, reset_peak
from web_flood import HOST, warm
from web_load import open_matches

SPELLINGS = ("chunked", "Chunked", "CHUNKED", "cHuNkEd")


@dataclass
class Offer:
    """One connection's body: where, how framed (``None``: a Content-Length of
    ``declared``), how much at most, in what pieces, how often."""

    path: str
    chunked: str | None
    size: int
    piece: int
    pause: float = 0.0
    declared: int = 0
    held: asyncio.Event | None = None
    """If given: send all but the last byte, then wait for it before the last."""
    finish: bool = True
    """After ``held``, send the last byte (else close the connection there)."""


async def offer(port: int, local: str, body: Offer, arrived: Callable[[], None]) -> str:
    """Send ``body`` until it is all sent or the server answers or closes: its status."""
    try:
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection(HOST, port, local_addr=(local, 0)), 60)
    except (OSError, TimeoutError) as error:
        return f"no connection ({type(error).__name__})"
    framing = (f"Transfer-Encoding: {body.chunked}" if body.chunked
               else f"Content-Length: {body.declared or body.size}")
    kind = "application/x-www-form-urlencoded" if body.path == "/login" else "application/json"
    writer.write(f"POST {body.path} HTTP/1.1\r\nHost: {HOST}:{port}\r\nContent-Type: {kind}\r\n"
                 f"{framing}\r\n\r\n".encode())
    answer = asyncio.ensure_future(reader.readline())
    sent = 0
    try:
        while sent < body.size and not answer.done():
            n = min(body.piece, body.size - sent)
            if body.held is not None and sent + n == body.size:
                n -= 1
                if n == 0:
                    arrived()
                    await body.held.wait()
                    if not body.finish:
                        return "held, then closed"
                    n = 1
            data = b"a" * n
            writer.write(f"{n:x}\r\n".encode() + data + b"\r\n" if body.chunked else data)
            await asyncio.wait_for(writer.drain(), 30)
            sent += n
            if body.pause:
                await asyncio.sleep(body.pause)
        if body.chunked and not answer.done() and body.declared <= body.size:
            writer.write(b"0\r\n\r\n")  # else it stops short, as a declared length larger than sent does
        await asyncio.wait_for(asyncio.shield(answer), 60)
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        pass  # the server stopped reading: what it answered, if anything, is read below
    try:
        line = await asyncio.wait_for(answer, 5)
        return line.split()[1].decode() if len(line.split()) > 1 else "closed"
    except (OSError, TimeoutError, asyncio.IncompleteReadError):
        return "closed"
    finally:
        answer.cancel()
        writer.close()


def routes(match_id: int) -> list[str]:
    return ["/api/solve", "/api/simulate", f"/api/matches/{match_id}/records", "/review",
            "/organiser/import", "/login"]


def kinds(match_id: int, scale: float) -> dict[str, Callable[[], list[Offer]]]:
    """Each kind's offers, made when it starts (the held ones share one event)."""
    paths = routes(match_id)

    def many() -> list[Offer]:
        held = asyncio.Event()
        limits = {"/login": 64 * KIB, "/api/simulate": 16 * KIB, "/api/solve": 16 * KIB}
        chosen = list(limits)
        return [Offer(chosen[n % 3], None if n % 2 else "chunked", limits[chosen[n % 3]] - 64,
                      4 * KIB, 0.2, held=held, finish=False) for n in range(int(2000 * scale))]

    def logins() -> list[Offer]:
        held = asyncio.Event()
        return [Offer("/login", None, 64, 64, held=held) for _ in range(int(300 * scale))]

    return {
        "Content-Length 300 MiB": lambda: [Offer(p, None, 32 * MIB, 64 * KIB, declared=300 * MIB)
                                           for p in paths for _ in range(4)],
        "chunked, 4 spellings": lambda: [Offer(p, s, 32 * MIB, 64 * KIB) for p in paths for s in SPELLINGS],
        "slow (1 KiB / 0.5 s for 20 s, then silence)": lambda: [
            Offer(paths[n % 6], None if n % 2 else "chunked", 40 * KIB, KIB, 0.5, declared=48 * KIB)
            for n in range(int(400 * scale))],
        "many at once, held one byte short, then closed": many,
        "wrong logins at once (64-byte bodies; not a body's cost: each check of a password)": logins,
    }


async def one_kind(port: int, pid: int, offers: list[Offer]) -> tuple[Counter[str], int, int, float, str]:
    """Send ``offers`` at once: their answers, the growth of the server's peak, the
    highest memory of its processes, the seconds it took, the machine's load."""
    waiting = {"n": sum(o.held is not None for o in offers)}
    held = next((o.held for o in offers if o.held is not None), None)

    def arrived() -> None:
        waiting["n"] -= 1
        if waiting["n"] <= 0 and held is not None:
            held.set()

    async def release_late() -> None:  # those that never get there do not hold the others
        if held is not None:
            await asyncio.sleep(60)
            held.set()

    before, _ = memory(pid)
    reset_peak(pid)
    sampler = MemorySampler(pid).start()
    load = LoadSampler().start()
    started = time.perf_counter()
    late = asyncio.ensure_future(release_late())
    async def one(n: int, body: Offer) -> str:
        reached = {"done": False}

        def once() -> None:
            if not reached["done"]:
                reached["done"] = True
                arrived()

        try:
            return await offer(port, f"127.0.4.{1 + n % 250}", body, once)
        finally:
            once()  # answered before the end: the others need not wait for it

    answers = await asyncio.gather(*(one(n, o) for n, o in enumerate(offers)))
    late.cancel()
    answers = [f"{answer} {re.sub(r'/[0-9]+/', '/{id}/', o.path)}"
               for answer, o in zip(answers, offers, strict=True)]
    elapsed = time.perf_counter() - started
    sampler.stop()
    said = load.stop()
    _, peak = memory(pid)
    return Counter(answers), peak - before, sampler.highest, elapsed, said


async def attack(server: Server, scale: float) -> list[str]:
    tokens = await open_matches(HOST, server.port, [["Body A", "Body B"]])
    match_id = next(iter(tokens))
    for body in [Offer(path, None, 100, 100) for path in routes(match_id)]:  # what a first use loads
        await offer(server.port, HOST, body, lambda: None)
    lines = []
    for name, make in kinds(match_id, scale).items():
        offers = make()
        answers, growth, highest, elapsed, load = await one_kind(server.port, server.process.pid, offers)
        lines += [f"  {name}: {len(offers)} connections, {elapsed:.0f} s ({load})",
                  f"    answered: {json.dumps(dict(sorted(answers.items())))}",
                  f"    the server's peak grew by {growth / MIB:.1f} MiB   (target < 64 MiB); "
                  f"all its processes together at most {highest / MIB:.0f} MiB"]
        await asyncio.sleep(2)
    rss, _ = memory(server.process.pid)
    lines.append(f"  after them all: the server's resident memory {rss / MIB:.0f} MiB")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0, help="of the slow and the many connections")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="carom-bodies-") as tmp:
        server = Server(Path(tmp) / "data").wait()
        try:
            warm(server)
            start, _ = memory(server.process.pid)
            lines = asyncio.run(attack(server, args.scale))
        finally:
            server.stop()
    print("Bodies of every framing, without logging in (carom serve, default limits; SQLite); "
          f"the server's resident memory at the start {start / MIB:.0f} MiB")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
