"""Three server processes on one PostgreSQL under match-day load, and one of them killed
(beyond one process), over loopback (docs/deploy.md, "Measured").

    .venv/bin/python benchmarks/web_processes.py [--boards 2000] [--tablets 100] [--seconds 30]

Starts a throwaway PostgreSQL (as the tests do, ``tests/storage/postgres.py``) and
``carom serve --workers 3`` on it with its default limits (2,000 live channels in all),
opens ``--tablets`` matches and ``--boards`` audience boards spread over them (board
streams, ``/m/{id}/events``, from 100 addresses, so that the kernel spreads them over the
three processes). Which process holds each board and each tablet is read from the
kernel (``/proc/net/tcp`` and the processes' sockets). Then:

- **load**: each tablet writes a record a second for ``--seconds``; timed: a write, from
  sending it to its 201, and each board's update, from sending the record to the event
  that shows it, apart for boards held by the tablet's process and by another one;
- **kill**: the tablets go on for 15 s and one server process is killed with -9 after
  3 s; a tablet whose connection dies reads the match's number of records and goes on.
  Then every match's file is read: every record acknowledged (201) must be in it, as sent.

Also printed: each server process's resident memory and its simulation pool's (item of
docs/deploy.md: what a federation's machine needs), and the machine's load. Targets:
write p99 < 100 ms, an update on a board of another process p99 < 250 ms, nothing
acknowledged lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from attack_kit import MIB, LoadSampler, Server, descendants, memory, summary
from tests.storage.postgres import temporary_postgres
from web_load import Connection, open_matches

HOST = "127.0.0.1"
RECORD = {"type": "call", "result": "miss"}


def serving(server: Server) -> list[int]:
    """The server processes ``--workers`` started (its children running the server)."""
    found = []
    for pid in descendants(server.process.pid):
        try:
            parent = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except (OSError, IndexError, ValueError):
            continue
        if parent == server.process.pid and b"spawn_main" in command:
            found.append(pid)
    return sorted(found)


def holders(pids: list[int], port: int) -> dict[int, int]:
    """For each client port connected to the server's ``port``: the process holding its socket."""
    owner: dict[str, int] = {}
    for pid in pids:
        try:
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                target = os.readlink(fd)
                if target.startswith("socket:["):
                    owner[target[8:-1]] = pid
        except OSError:
            continue
    found: dict[int, int] = {}
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == port and inode in owner:
            found[int(remote.split(":")[1], 16)] = owner[inode]
    return found


def own_port(connection: Connection) -> int:
    return int(connection.writer.get_extra_info("sockname")[1])


class Day:
    """The tablets and boards of the benchmark, and what they measured."""

    def __init__(self, server: Server, tokens: dict[int, str]) -> None:
        self.server, self.tokens = server, tokens
        self.sent: dict[tuple[int, int], tuple[float, int]] = {}
        """(match, seq) -> when it was sent, and the port of the tablet that sent it."""
        self.writes: list[float] = []
        self.same: list[float] = []
        self.other: list[float] = []
        self.errors: list[str] = []
        self.acknowledged: dict[int, list[int]] = {m: [] for m in tokens}
        self.where: dict[int, int] = {}
        """Client port -> server process."""
        self.boards_open = 0

    async def board(self, match_id: int, local: str, opened: asyncio.Event) -> None:
        connection = await Connection(HOST, self.server.port, local=local).open()
        port = own_port(connection)
        try:
            async for seq in connection.events(f"/m/{match_id}/events?view=board"):
                if not opened.is_set():
                    self.boards_open += 1
                    opened.set()
                sent = self.sent.get((match_id, seq))
                if sent is not None and sent[1] in self.where and port in self.where:
                    same = self.where[sent[1]] == self.where[port]
                    (self.same if same else self.other).append(time.perf_counter() - sent[0])
        except (OSError, asyncio.IncompleteReadError, ValueError, AssertionError):
            pass
        finally:
            connection.close()

    async def tablet(self, match_id: int, seq: int, until: float, timed: bool) -> int:
        """A record a second until ``until``; the next record's ``after``."""
        rng = random.Random(match_id)
        due = time.perf_counter() + rng.random()
        connection: Connection | None = None
        while due < until:
            await asyncio.sleep(max(0.0, due - time.perf_counter()))
            due += 1.0
            try:
                if connection is None:
                    connection = await Connection(HOST, self.server.port).open()
                    self.where.update(holders(serving(self.server), self.server.port))
                self.sent[(match_id, seq + 1)] = (time.perf_counter(), own_port(connection))
                status, _, body = await asyncio.wait_for(connection.request(
                    "POST", f"/api/matches/{match_id}/records", {"after": seq, "record": RECORD},
                    {"X-Referee-Token": self.tokens[match_id]}), 30)
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError, TimeoutError) as error:
                self.errors.append(f"match {match_id}: {type(error).__name__} (not acknowledged)")
                if connection is not None:
                    connection.close()
                connection = None
                seq = await self.seq_now(match_id)
                continue
            if status == 201:
                if timed:
                    self.writes.append(time.perf_counter() - self.sent[(match_id, seq + 1)][0])
                seq = json.loads(body)["seq"]
                self.acknowledged[match_id].append(seq)
            else:
                self.errors.append(f"match {match_id}: {status} {body[:100]!r}")
                seq = await self.seq_now(match_id)
        if connection is not None:
            connection.close()
        return seq

    async def seq_now(self, match_id: int) -> int:
        for _ in range(100):
            try:
                async with httpx.AsyncClient(timeout=10) as client:
                    answer = await client.get(f"{self.server.url}/api/matches/{match_id}")
                return int(answer.json()["seq"])
            except (httpx.HTTPError, ValueError, KeyError):
                await asyncio.sleep(0.2)
        raise SystemExit(f"match {match_id}: the server did not answer")


def settled(server: Server, seconds: float = 300) -> None:
    """Until the three processes are up and each one's simulation pool has started (it
    warms up in the background, on the same cores: not to be timed with the load)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        pids = serving(server)
        if len(pids) == 3 and all(sum(memory(p)[0] for p in descendants(pid)) > 200 * MIB for pid in pids):
            time.sleep(2)
            return
        time.sleep(0.5)
    raise SystemExit(f"the server processes' pools did not start within {seconds:g} s")


def memory_of(server: Server) -> list[str]:
    """Each server process's resident memory and its simulation pool's."""
    lines = []
    for pid in serving(server):
        pool = descendants(pid)
        lines.append(f"    process {pid}: {memory(pid)[0] / MIB:.0f} MiB, its simulation pool "
                     f"({len(pool)} process{'es' if len(pool) != 1 else ''}) "
                     f"{sum(memory(p)[0] for p in pool) / MIB:.0f} MiB")
    lines.append(f"    the starting process {memory(server.process.pid)[0] / MIB:.0f} MiB")
    return lines


async def day(server: Server, args: argparse.Namespace) -> list[str]:
    pairs = [[f"Table {n} A", f"Table {n} B"] for n in range(args.tablets)]
    tokens = await open_matches(HOST, server.port, pairs)
    play = Day(server, tokens)
    matches = sorted(tokens)
    openings = [asyncio.Event() for _ in range(args.boards)]
    boards = []
    for n in range(args.boards):
        boards.append(asyncio.create_task(play.board(matches[n % len(matches)], f"127.0.5.{1 + n % 100}",
                                                     openings[n])))
        if n % 100 == 99:
            await asyncio.sleep(0.2)
    await asyncio.wait_for(asyncio.gather(*(o.wait() for o in openings)), 300)
    play.where.update(holders(serving(server), server.port))
    spread = sorted(list(play.where.values()).count(pid) for pid in serving(server))
    lines = [f"  {play.boards_open} boards open, spread over the processes {spread}"]
    load = LoadSampler().start()
    until = time.perf_counter() + args.seconds
    seqs = await asyncio.gather(*(play.tablet(m, 1, until, True) for m in matches))
    said = load.stop()
    await asyncio.sleep(1.0)
    lines += [f"  load, {args.tablets} tablets x 1 record/s for {args.seconds:g} s ({said})",
              f"    write                        {summary(play.writes)}   (target p99 < 100 ms)",
              f"    board, the writer's process  {summary(play.same)}",
              f"    board, another process       {summary(play.other)}   (target p99 < 250 ms)",
              f"    {len(play.errors)} writes not acknowledged"]
    lines += [f"    error: {e}" for e in play.errors[:3]]
    play.errors.clear()
    before = serving(server)
    victim = before[len(before) // 2]

    async def kill() -> None:
        await asyncio.sleep(3)
        os.kill(victim, signal.SIGKILL)

    until = time.perf_counter() + 15
    killed = asyncio.ensure_future(kill())
    await asyncio.gather(*(play.tablet(m, s, until, False) for m, s in zip(matches, seqs, strict=True)),
                         killed)
    for task in boards:
        task.cancel()
    await asyncio.gather(*boards, return_exceptions=True)
    lost, checked = 0, 0
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as client:
        for match_id in matches:
            lines_of = (await client.get(f"/api/matches/{match_id}/file")).text.splitlines()
            for seq in play.acknowledged[match_id]:
                checked += 1
                if seq >= len(lines_of) or json.loads(lines_of[seq]) != RECORD:
                    lost += 1
    await asyncio.sleep(2)
    after = serving(server)
    lines += [f"  kill -9 of process {victim} 3 s into 15 s of writes: {len(play.errors)} writes cut off "
              f"(not acknowledged, written again), {checked} acknowledged records checked, {lost} lost "
              f"(target 0); the processes now {len(after)}, the killed one "
              f"{'started again' if victim not in after and len(after) == 3 else 'NOT replaced'}"]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--tablets", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    with temporary_postgres() as postgres, tempfile.TemporaryDirectory(prefix="carom-processes-") as tmp:
        server = Server(Path(tmp) / "data", "--workers", "3", database=postgres.new_database()).wait()
        try:
            settled(server)
            idle = memory_of(server)
            lines = asyncio.run(day(server, args))
            busy = memory_of(server)
        finally:
            server.stop()
    print(f"carom serve --workers 3 on one PostgreSQL: {args.boards} board streams, {args.tablets} tablets")
    print("\n".join(lines))
    print("  memory when started:")
    print("\n".join(idle))
    print("  memory at the end:")
    print("\n".join(busy))


if __name__ == "__main__":
    main()
