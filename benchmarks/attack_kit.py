"""What the scoreboard's attack benchmarks share (the security review: web_flood, web_streams,
web_bodies, web_workers): the machine's load while a phase ran, a server's memory,
timed requests on a fixed schedule, and percentiles.

The project's machine has two cores shared with other engineers (a load of 15 to 25 is
usual), so every benchmark measures an idle baseline in the same run and prints the
load of each phase beside its figures.
"""

from __future__ import annotations

import asyncio
import bisect
import math
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from web_load import PASSWORD, Connection, free_port

KIB, MIB = 1024, 1024 * 1024
ROOT = Path(__file__).resolve().parent.parent


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank) of ``values``; NaN when there are none."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q * len(ordered)) - 1)] if ordered else float("nan")


def summary(values: list[float]) -> str:
    """p50, p99 and the worst of a list of seconds, in milliseconds."""
    worst = max(values, default=float("nan"))
    return (f"p50 {percentile(values, .5) * 1000:7.1f} ms  p99 {percentile(values, .99) * 1000:7.1f} ms  "
            f"max {worst * 1000:7.1f} ms  (n={len(values)})")


def runnable() -> int:
    """Processes running or ready to run on the machine now (``procs_running``)."""
    for line in Path("/proc/stat").read_text().splitlines():
        if line.startswith("procs_running"):
            return int(line.split()[1])
    return 0


@dataclass
class LoadSampler:
    """The machine's load, sampled each half second while a phase runs."""

    averages: list[float] = field(default_factory=list)
    running: list[int] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    """When each sample was taken (``time.perf_counter``)."""
    _task: asyncio.Task[None] | None = None

    def start(self) -> LoadSampler:
        self._task = asyncio.ensure_future(self._sample())
        return self

    async def _sample(self) -> None:
        while True:
            self.averages.append(os.getloadavg()[0])
            self.running.append(runnable() - 1)  # this sampler is running as it looks
            self.times.append(time.perf_counter())
            await asyncio.sleep(0.5)

    def stop(self) -> str:
        if self._task is not None:
            self._task.cancel()
        return self.said()

    def running_at(self, when: float) -> int:
        """Processes runnable besides this one at ``when`` (the most of the two samples
        around it)."""
        after = bisect.bisect_left(self.times, when)
        around = self.running[max(0, after - 1):after + 1]
        return max(around, default=0)

    def said(self) -> str:
        if not self.averages:
            return "load not sampled"
        mean = sum(self.running) / len(self.running)
        return (f"load average {min(self.averages):.1f}-{max(self.averages):.1f} on {os.cpu_count()} cores, "
                f"{mean:.1f} other processes runnable on average (at most {max(self.running)})")


def memory(pid: int) -> tuple[int, int]:
    """A process's resident memory now and at its peak (``VmRSS``, ``VmHWM``), in bytes."""
    found = {"VmRSS:": 0, "VmHWM:": 0}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key = line.split(maxsplit=1)[0] if line else ""
            if key in found:
                found[key] = int(line.split()[1]) * KIB
    except OSError:
        pass
    return found["VmRSS:"], found["VmHWM:"]


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children...)."""
    parents: dict[int, int] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            parents[int(stat.parent.name)] = int(stat.read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Server:
    """``carom serve`` started for a benchmark, with its options; stopped with SIGTERM."""

    def __init__(self, data: Path, *options: str, database: str | None = None) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        command = [sys.executable, "-m", "carom.cli.main", "serve", "--port", str(self.port),
                   "--data", str(data), "--organiser-password", PASSWORD, *options]
        if database:
            command += ["--database", database]
        self.log = data.parent / f"server-{self.port}.log"
        data.parent.mkdir(parents=True, exist_ok=True)
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
        print(f"carom serve: pid {self.process.pid}, port {self.port}", file=sys.stderr, flush=True)

    def wait(self, seconds: float = 300) -> Server:
        """Until it answers, and its simulation pool has computed a stroke."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"carom serve exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=2).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.2)
        raise SystemExit(f"carom serve did not answer within {seconds:g} s")

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def on_fresh_server(prefix: str, run: Callable[[Server], str]) -> None:
    """Print what ``run`` reports of a fresh ``carom serve`` on SQLite (a temporary data
    folder named ``prefix``...), stopped after it."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        server = Server(Path(tmp) / "data").wait()
        try:
            report = run(server)
        finally:
            server.stop()
    print(report)


async def on_schedule(period: float, until: float, act: Callable[[], Awaitable[None]],
                      times: list[float], errors: list[str], offset: float = 0.0) -> None:
    """Call ``act`` every ``period`` seconds until ``until`` (``time.perf_counter``), each
    call timed from when it was due, not from when it could be sent: a server that makes
    the next call late is charged for the wait too. A call that raises is an error."""
    due = time.perf_counter() + offset
    while due < until:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        try:
            await act()
            times.append(time.perf_counter() - due)
        except Exception as error:  # counted and shown: an unanswered request fails the figure
            errors.append(f"{type(error).__name__}: {str(error)[:200]}")
        due += period


async def page_probe(host: str, port: int, path: str, period: float, until: float,
                     times: list[float], errors: list[str]) -> None:
    """A reader of ``path`` every ``period`` seconds, on a kept-alive connection (opened again
    when the server closed it); anything but a 200 is an error."""
    holder: list[Connection] = []

    async def get() -> None:
        if not holder:
            holder.append(await Connection(host, port).open())
        try:
            status, _, body = await holder[0].request("GET", path)
        except (OSError, asyncio.IncompleteReadError, ValueError, IndexError):
            holder.pop().close()
            raise
        if status != 200:
            raise RuntimeError(f"GET {path}: {status} {body[:120]!r}")

    await on_schedule(period, until, get, times, errors)
    for connection in holder:
        connection.close()


def tree_memory(pid: int) -> int:
    """The resident memory of a process and every process below it, in bytes."""
    return sum(memory(each)[0] for each in {pid} | descendants(pid))


def reset_peak(pid: int) -> None:
    """Start a process's ``VmHWM`` again from its resident memory now (``clear_refs`` 5)."""
    Path(f"/proc/{pid}/clear_refs").write_text("5")


@dataclass
class MemorySampler:
    """The resident memory of a server's processes together, sampled while a phase runs:
    the first sample and the highest."""

    pid: int
    period: float = 0.25
    first: int = 0
    highest: int = 0
    _task: asyncio.Task[None] | None = None

    def start(self) -> MemorySampler:
        self.first = self.highest = tree_memory(self.pid)
        self._task = asyncio.ensure_future(self._sample())
        return self

    async def _sample(self) -> None:
        while True:
            self.highest = max(self.highest, await asyncio.to_thread(tree_memory, self.pid))
            await asyncio.sleep(self.period)

    def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
