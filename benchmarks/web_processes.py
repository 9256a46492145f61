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

The load phase's writes and updates are also split by the machine when each was sent: at
most the phase's median of other processes runnable, or more (the tail follows it).

Also printed: each server process's resident memory and its simulation pool's (item of
docs/deploy.md: what a federation's machine needs), and the machine's load. Targets:
write p99 < 100 ms, an update on a board of another process p99 < 250 ms, nothing
acknowledged lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from attack_kit import MIB, LoadSampler, Server, cpu_seconds, descendants, memory, percentile, summary
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


def watch(port: int, boards: list[tuple[int, str]], opened: object, stop: object, seen: object) -> None:
    """A process of audience boards (``(match, address)`` each), apart from the tablets so
    that reading their events does not delay the tablets' clock: puts the ports of those
    opened, then at ``stop`` every update it saw, ``(match, seq, when, port)`` (not a board's
    first event: the match as it stood when the board opened)."""
    asyncio.run(_watch(port, boards, opened, stop, seen))


async def _watch(port: int, boards: list[tuple[int, str]], opened: object, stop: object,
                 seen: object) -> None:
    arrivals: list[tuple[int, int, float, int]] = []
    ports: list[int] = []
    ready = [asyncio.Event() for _ in boards]

    async def board(match_id: int, local: str, first: asyncio.Event) -> None:
        connection = await Connection(HOST, port, local=local).open()
        own = own_port(connection)
        try:
            events = connection.events(f"/m/{match_id}/events?view=board")
            await anext(events)  # the match as it stood when the board opened: a record sent
            ports.append(own)    # before, maybe seconds before, not an update of this board
            first.set()
            async for seq in events:
                arrivals.append((match_id, seq, time.perf_counter(), own))
        except (OSError, asyncio.IncompleteReadError, ValueError, AssertionError):
            first.set()
        finally:
            connection.close()

    tasks = []
    for n, (match_id, local) in enumerate(boards):
        tasks.append(asyncio.create_task(board(match_id, local, ready[n])))
        if n % 100 == 99:
            await asyncio.sleep(0.2)
    await asyncio.gather(*(r.wait() for r in ready))
    opened.put(ports)  # type: ignore[attr-defined]
    while not stop.is_set():  # type: ignore[attr-defined]
        await asyncio.sleep(0.2)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    seen.put(arrivals)  # type: ignore[attr-defined]


class Boards:
    """A process of boards, started and stopped."""

    def __init__(self, port: int, boards: list[tuple[int, str]]) -> None:
        context = multiprocessing.get_context("spawn")
        self.opened, self.seen, self.stop_at = context.Queue(), context.Queue(), context.Event()
        self.process = context.Process(target=watch,
                                       args=(port, boards, self.opened, self.stop_at, self.seen))
        self.process.start()
        self.ports: list[int] = self.opened.get(timeout=600)

    def stop(self) -> list[tuple[int, int, float, int]]:
        self.stop_at.set()
        arrivals: list[tuple[int, int, float, int]] = self.seen.get(timeout=120)
        self.process.join(30)
        return arrivals


class Day:
    """The tablets of the benchmark, and what they measured."""

    def __init__(self, server: Server, tokens: dict[int, str]) -> None:
        self.server, self.tokens = server, tokens
        self.sent: dict[tuple[int, int], tuple[float, int, str]] = {}
        """(match, seq) -> when it was sent, the port of the tablet that sent it, the phase."""
        self.writes: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.cut: list[tuple[int | None, str, int]] = []
        """For each write not acknowledged: the server process its connection was on, why, the match."""
        self.acknowledged: dict[int, list[int]] = {m: [] for m in tokens}
        self.where: dict[int, int] = {}
        """Client port -> server process."""
        self.write_sent: dict[str, list[float]] = {}
        """When each timed write of a phase was sent (in the order of :attr:`writes`)."""
        self.load: dict[str, LoadSampler] = {}
        """The machine's load sampled while each phase ran."""

    async def tablet(self, match_id: int, seq: int, until: float, phase: str) -> int:
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
                self.sent[(match_id, seq + 1)] = (time.perf_counter(), own_port(connection), phase)
                status, _, body = await asyncio.wait_for(connection.request(
                    "POST", f"/api/matches/{match_id}/records", {"after": seq, "record": RECORD},
                    {"X-Referee-Token": self.tokens[match_id]}), 30)
            except (OSError, asyncio.IncompleteReadError, ValueError, IndexError, TimeoutError) as error:
                self.errors.append(f"match {match_id}: {type(error).__name__} (not acknowledged)")
                self.cut.append((self._holder(connection), type(error).__name__, match_id))
                if connection is not None:
                    connection.close()
                connection = None
                seq = await self.seq_now(match_id)
                continue
            if status == 201:
                took = time.perf_counter() - self.sent[(match_id, seq + 1)][0]
                self.writes.setdefault(phase, []).append(took)
                self.write_sent.setdefault(phase, []).append(self.sent[(match_id, seq + 1)][0])
                seq = json.loads(body)["seq"]
                self.acknowledged[match_id].append(seq)
            else:
                self.errors.append(f"match {match_id}: {status} {body[:100]!r}")
                self.cut.append((self._holder(connection), str(status), match_id))
                seq = await self.seq_now(match_id)
        if connection is not None:
            connection.close()
        return seq

    def _holder(self, connection: Connection | None) -> int | None:
        """The server process that held ``connection`` when last mapped (None: not known)."""
        try:
            return None if connection is None else self.where.get(own_port(connection))
        except (OSError, TypeError):
            return None

    async def seq_now(self, match_id: int) -> int:
        for _ in range(100):
            try:
                async with httpx.AsyncClient(timeout=10) as client:
                    answer = await client.get(f"{self.server.url}/api/matches/{match_id}")
                return int(answer.json()["seq"])
            except (httpx.HTTPError, ValueError, KeyError):
                await asyncio.sleep(0.2)
        raise SystemExit(f"match {match_id}: the server did not answer")

    def updates(self, arrivals: list[tuple[int, int, float, int]], phase: str, *, calm: bool | None = None
                ) -> tuple[list[float], list[float]]:
        """The boards' updates of ``phase``: on the writer's process, on another. ``calm``:
        only those sent while the machine was calm (or busy, :meth:`calm`)."""
        same: list[float] = []
        other: list[float] = []
        for match_id, seq, when, port in arrivals:
            sent = self.sent.get((match_id, seq))
            if sent is None or sent[2] != phase or sent[1] not in self.where or port not in self.where:
                continue
            if calm is not None and self.calm(phase, sent[0]) != calm:
                continue
            (same if self.where[sent[1]] == self.where[port] else other).append(when - sent[0])
        return same, other

    def calm(self, phase: str, when: float) -> bool:
        """At most :meth:`calm_at_most` other processes were runnable around ``when``."""
        return self.load[phase].running_at(when) <= self.calm_at_most(phase)

    def calm_at_most(self, phase: str) -> int:
        """The median of the phase's samples of other processes runnable (the benchmark's
        own clients, the three processes and PostgreSQL's among them)."""
        return sorted(self.load[phase].running)[len(self.load[phase].running) // 2]

    def writes_when(self, phase: str, calm: bool) -> list[float]:
        timed = zip(self.writes.get(phase, []), self.write_sent.get(phase, []), strict=True)
        return [took for took, sent in timed if self.calm(phase, sent) == calm]


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


def cpu_of(server: Server) -> float:
    return sum(cpu_seconds(pid) for pid in serving(server))


async def phase(play: Day, matches: list[int], seqs: dict[int, int], seconds: float, name: str) -> str:
    """``matches``' tablets writing for ``seconds``: the load, and the servers' CPU share."""
    load = play.load[name] = LoadSampler().start()
    cpu, started = cpu_of(play.server), time.perf_counter()
    until = started + seconds

    async def map_connections() -> None:  # which process holds each connection, read aside
        while True:
            play.where.update(await asyncio.to_thread(holders, serving(play.server), play.server.port))
            await asyncio.sleep(1.0)

    mapper = asyncio.ensure_future(map_connections())
    done = await asyncio.gather(*(play.tablet(m, seqs[m], until, name) for m in matches))
    mapper.cancel()
    seqs.update(zip(matches, done, strict=True))
    share = (cpu_of(play.server) - cpu) / (time.perf_counter() - started)
    return f"{load.stop()}; the three processes used {share:.0%} of a core"


def spread(play: Day, ports: list[int], server: Server) -> list[int]:
    play.where.update(holders(serving(server), server.port))
    return sorted([play.where.get(p) for p in ports].count(pid) for pid in serving(server))


async def day(server: Server, args: argparse.Namespace) -> list[str]:
    pairs = [[f"Table {n} A", f"Table {n} B"] for n in range(args.tablets)]
    tokens = await open_matches(HOST, server.port, pairs)
    play = Day(server, tokens)
    matches = sorted(tokens)
    seqs = dict.fromkeys(matches, 1)
    few = matches[:10]
    quiet = Boards(server.port, [(few[n % 10], f"127.0.5.{1 + n % 100}") for n in range(100)])
    said = await phase(play, few, seqs, args.baseline, "baseline")
    crowd = Boards(server.port, [(matches[n % len(matches)], f"127.0.6.{1 + n % 100}")
                                 for n in range(args.boards - 100)])
    lines = [f"  baseline: 10 tablets x 1 record/s for {args.baseline:g} s, 100 boards "
             f"{spread(play, quiet.ports, server)} ({said})"]
    said = await phase(play, matches, seqs, args.seconds, "load")
    lines.append(f"  load: {args.tablets} tablets x 1 record/s for {args.seconds:g} s, "
                 f"{len(quiet.ports) + len(crowd.ports)} boards "
                 f"{spread(play, quiet.ports + crowd.ports, server)} ({said})")
    arrivals = quiet.stop() + crowd.stop()
    for name in ("baseline", "load"):
        same, other = play.updates(arrivals, name)
        lines += [f"    {name}: write                        {summary(play.writes.get(name, []))}"
                  "   (target p99 < 100 ms)",
                  f"    {name}: board, the writer's process  {summary(same)}",
                  f"    {name}: board, another process       {summary(other)}   (target p99 < 250 ms)"]
    base_other, load_other = play.updates(arrivals, "baseline")[1], play.updates(arrivals, "load")[1]
    lines.append(f"    p99, load / baseline: write "
                 f"{percentile(play.writes['load'], .99) / percentile(play.writes['baseline'], .99):.1f}, "
                 f"board of another process {percentile(load_other, .99) / percentile(base_other, .99):.1f}")
    median = play.calm_at_most("load")
    lines.append(f"    load, by the machine when sent (calm: at most {median} other processes runnable, "
                 "the phase's median; busy: more):")
    for calm in (True, False):
        state = "calm" if calm else "busy"
        other = play.updates(arrivals, "load", calm=calm)[1]
        lines += [f"      {state}: write                   {summary(play.writes_when('load', calm))}",
                  f"      {state}: board, another process  {summary(other)}"]
    lines.append(f"    {len(play.errors)} writes not acknowledged")
    lines += [f"    error: {e}" for e in play.errors[:3]]
    play.errors.clear()
    play.cut.clear()
    before = serving(server)
    victim = before[len(before) // 2]

    async def kill() -> None:
        await asyncio.sleep(3)
        os.kill(victim, signal.SIGKILL)

    killed = asyncio.ensure_future(kill())
    await phase(play, matches, seqs, 15, "kill")
    await killed
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
    on_victim = Counter(why for holder, why, _ in play.cut if holder == victim)
    elsewhere = Counter(why for holder, why, _ in play.cut if holder != victim)
    tablets = len({m for holder, _, m in play.cut if holder == victim})
    lines.append(f"    the writes cut off: {sum(on_victim.values())} on connections the killed process held "
                 f"(of {tablets} tablets: {dict(on_victim)}), {sum(elsewhere.values())} elsewhere or on "
                 f"connections not mapped ({dict(elsewhere)})")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=2000)
    parser.add_argument("--tablets", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--baseline", type=float, default=15.0)
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
