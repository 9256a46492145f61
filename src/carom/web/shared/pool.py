"""The simulation pool: the expensive work of the web (a stroke simulated, a shot searched
for, a big PDF printed) in a few processes of its own, apart from the event loop that
answers every page and from the writer that stores every record.

- **Bounded.** :attr:`Limits.workers` processes, at a lower priority than the server
  (``nice``), each running one job at a time. A job is admitted only while at most
  :attr:`Limits.queue` jobs wait: beyond, 503 and ``Retry-After``, never queued
  without end. A client that comes back before its ``Retry-After`` is over is held
  until it is, then refused again (:attr:`Busy.hold`): a flood of clients that ignore
  it sends a request per connection every second or two, instead of as many as the
  event loop can refuse, which would leave it no time for anybody else.
- **Fair.** One client has at most :attr:`Limits.jobs_per_client` jobs running or waiting
  (429 beyond), counted across the server's processes (:mod:`carom.web.shared.tally`);
  the waiting jobs are taken client by client in turn, not first come first served.
- **Cancelled.** A job whose request gave up (its client went away, or its time bound
  passed) stops: taken out of the queue if it waits, its process killed and replaced if
  it runs. Nothing a job computes is kept, so nothing is lost.

The processes are forked from a server process made once (``forkserver``) that has
loaded the simulator and warmed its kernels, so a replacement starts warm in
milliseconds (:mod:`carom.web.shared.work`).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import Any

from carom.core.errors import CaromError
from carom.notation.words import N_
from carom.web.shared.limits import Limits
from carom.web.shared.tally import Tally

Task = Callable[..., bytes]


REMEMBERED = 4096
"""Clients whose last refusal is remembered (for :attr:`Busy.hold`); beyond, the oldest
are forgotten."""
LONGEST_HOLD = 10.0
"""The longest a refusal is held (a client with many requests at once has each held a
``Retry-After`` longer than the one before, up to this)."""


FULL = N_("Every simulation process is busy and the queue is full; try again in a moment.")
SHARE = N_("Simulations per client at once: at most %(most)s; try again in a moment.")
TOO_LONG = N_("The work was stopped after %(seconds)s seconds, its longest; nothing was kept.")
STOPPED = N_("The work was stopped before it was done; nothing was kept.")


class Refused(Exception):
    """A job refused or stopped: its message (for the catalogues: shown in the page's
    language with its ``values``) and the English text as the exception's."""

    def __init__(self, message: str, **values: Any) -> None:
        super().__init__(message % values)
        self.message, self.values = message, values


class Busy(Refused):
    """The pool cannot take the job now: 503 (the queue is full) or 429 (this client has
    its share), with the seconds to wait before trying again, and the seconds to hold
    the answer first (``hold``: what is left of the ``Retry-After`` this client was given
    last time and did not wait out; 0 for a client that waited)."""

    def __init__(self, status: int, retry_after: int, hold: float, message: str, **values: Any) -> None:
        super().__init__(message, **values)
        self.status, self.retry_after, self.hold = status, retry_after, hold


class Gone(Refused):
    """The job was cancelled: its request gave up, its process was stopped, or its time
    bound passed."""


class JobFailed(CaromError):
    """The job refused its input (the message names the field): a 422."""


class Broken(CaromError):
    """A simulation process that did not start or failed: the server's fault, answered 500
    (the request is not refused as bad input)."""


@dataclass(eq=False)
class Job:
    client: str
    task: Task
    args: tuple[Any, ...]
    done: asyncio.Future[bytes]
    started: asyncio.Future[None]
    worker: Worker | None = None


@dataclass(eq=False)
class Worker:
    """One process of the pool and the pipe to it."""

    context: Any
    process: Any = None
    pipe: Connection | None = None
    current: Job | None = None
    """The job it runs (set and cleared under ``lock``: a job is killed only while it runs)."""
    lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> None:
        """Start the process and wait until it has warmed up (in a thread of the pool)."""
        from carom.web.shared import work

        ours, theirs = self.context.Pipe()
        self.process = self.context.Process(target=work.serve, args=(theirs,), daemon=True,
                                            name="carom-simulation")
        self.process.start()
        theirs.close()
        self.pipe = ours
        if ours.recv() != work.READY:
            raise Broken("a simulation process did not start")

    def call(self, task: Task, args: tuple[Any, ...]) -> bytes:
        """Run ``task(*args)`` in the process (blocks a thread of the pool, not the loop);
        :class:`Gone` when the process was killed meanwhile, :class:`JobFailed` when the
        task refused its input."""
        assert self.pipe is not None
        try:
            self.pipe.send((task, args))
            outcome, value = self.pipe.recv()
        except (EOFError, OSError):
            raise Gone(STOPPED) from None
        if outcome == "refused":
            raise JobFailed(value)
        if outcome == "failed":
            raise Broken(f"a simulation process failed: {value}")
        return value  # type: ignore[no-any-return]

    def kill(self) -> None:
        if self.process is not None and self.process.is_alive():
            self.process.kill()

    def stop(self) -> None:
        self.kill()
        if self.pipe is not None:
            self.pipe.close()


class Pool:
    """The bounded pool; :meth:`run` is called from the event loop."""

    def __init__(self, limits: Limits, tally: Tally | None = None) -> None:
        self.limits = limits
        self.tally = tally or Tally()
        self._waiting: OrderedDict[str, deque[Job]] = OrderedDict()
        self._idle: list[Worker] = []
        self._workers: list[Worker] = []
        self._threads = ThreadPoolExecutor(max_workers=limits.workers, thread_name_prefix="carom-pool")
        self._started = False
        self._admitted = 0
        self._loop: asyncio.AbstractEventLoop | None = None
        self._refused: OrderedDict[str, float] = OrderedDict()
        """Each recently refused client: until when it was asked to wait (``time.monotonic``)."""

    def start(self) -> None:
        """Start the processes (in the background: jobs wait until one is ready)."""
        if self._started:
            return
        self._started = True
        self._loop = asyncio.get_running_loop()
        context = _context()
        for _ in range(self.limits.workers):
            worker = Worker(context)
            self._workers.append(worker)
            self._loop.run_in_executor(self._threads, self._ready_after, worker, worker.start)

    def close(self) -> None:
        for worker in self._workers:
            worker.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def admit(self, client: str) -> None:
        """Take a place for one of ``client``'s jobs (before its body is read), or
        :class:`Busy`; :meth:`release` gives it back when its request is answered."""
        if self._admitted >= self.limits.workers + self.limits.queue:
            raise self._busy(client, 503, 2, FULL)
        if not self.tally.take(_key(client), self.limits.jobs_per_client):
            raise self._busy(client, 429, 1, SHARE, most=self.limits.jobs_per_client)
        self._admitted += 1

    def _busy(self, client: str, status: int, retry_after: int, message: str, **values: Any) -> Busy:
        """The refusal of ``client``, held for what is left of its last ``Retry-After``."""
        now = time.monotonic()
        hold = min(LONGEST_HOLD, max(0.0, self._refused.pop(client, now) - now))
        self._refused[client] = now + hold + retry_after
        while len(self._refused) > REMEMBERED:
            self._refused.popitem(last=False)
        return Busy(status, retry_after, hold, message, **values)

    def release(self, client: str) -> None:
        self._admitted -= 1
        self.tally.give(_key(client))

    async def run(self, client: str, task: Task, args: tuple[Any, ...], seconds: float,
                  gone: Callable[[], Awaitable[object]] | None = None) -> bytes:
        """``task(*args)`` in a process of the pool, for an admitted client: its bytes, or
        :class:`JobFailed` (the input refused), :class:`Gone` (``gone`` resolved first: the
        client left; or ``seconds`` passed since the job started)."""
        return await self._run_admitted(client, task, args, seconds, gone)

    async def _run_admitted(self, client: str, task: Task, args: tuple[Any, ...], seconds: float,
                            gone: Callable[[], Awaitable[object]] | None) -> bytes:
        self.start()
        loop = asyncio.get_running_loop()
        job = Job(client, task, args, loop.create_future(), loop.create_future())
        self._waiting.setdefault(client, deque()).append(job)
        self._dispatch()
        watcher = asyncio.ensure_future(gone()) if gone is not None else None
        deadline: float | None = None
        try:
            while True:
                waits: set[asyncio.Future[Any]] = {job.done}
                if watcher is not None:
                    waits.add(watcher)
                if job.worker is None:
                    waits.add(job.started)
                elif deadline is None:  # the time bound runs from the job's start
                    deadline = loop.time() + seconds
                timeout = None if deadline is None else max(0.0, deadline - loop.time())
                finished, _ = await asyncio.wait(waits, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
                if job.done in finished:
                    return job.done.result()
                if watcher is not None and watcher in finished:
                    raise Gone(STOPPED)
                if deadline is not None and loop.time() >= deadline:
                    raise Gone(TOO_LONG, seconds=f"{seconds:g}")
        finally:
            if watcher is not None:
                watcher.cancel()
            self._cancel(job)

    def _dispatch(self) -> None:
        while self._idle and self._waiting:
            client, jobs = next(iter(self._waiting.items()))
            job = jobs.popleft()
            del self._waiting[client]
            if jobs:  # the client's next job waits behind every other client's (fair turns)
                self._waiting[client] = jobs
            worker = self._idle.pop()
            job.worker = worker
            job.started.set_result(None)
            assert self._loop is not None
            self._loop.run_in_executor(self._threads, self._work, worker, job)

    def _work(self, worker: Worker, job: Job) -> None:
        """In a thread of the pool: run the job, settle its future, free the worker (or
        replace its process, if it was killed)."""
        with worker.lock:
            worker.current = job
        try:
            result: Any = worker.call(job.task, job.args)
            ok = True
        except (Gone, JobFailed, Broken) as error:
            result, ok = error, False
        with worker.lock:
            worker.current = None
        assert self._loop is not None
        self._loop.call_soon_threadsafe(_settle, job.done, ok, result)
        if ok or not isinstance(result, Gone):
            self._loop.call_soon_threadsafe(self._free, worker)
            return
        worker.stop()
        self._ready_after(worker, worker.start)

    def _ready_after(self, worker: Worker, start: Callable[[], None]) -> None:
        try:
            start()
        except Exception:  # the process could not start: the pool has one process less
            return
        assert self._loop is not None
        self._loop.call_soon_threadsafe(self._free, worker)

    def _free(self, worker: Worker) -> None:
        self._idle.append(worker)
        self._dispatch()

    def _cancel(self, job: Job) -> None:
        if job.done.done():
            return
        job.done.cancel()
        if job.worker is None:  # still waiting: out of the queue
            jobs = self._waiting.get(job.client)
            if jobs is not None and job in jobs:
                jobs.remove(job)
                if not jobs:
                    del self._waiting[job.client]
        else:  # running: its process is killed, and replaced
            with job.worker.lock:
                if job.worker.current is job:
                    job.worker.kill()


def _settle(future: asyncio.Future[bytes], ok: bool, result: Any) -> None:
    if future.done():
        return
    if ok:
        future.set_result(result)
    else:
        future.set_exception(result)


def _key(client: str) -> str:
    return f"jobs:{client}"


_context_lock = threading.Lock()


def _context() -> Any:
    """The forkserver context, its server warmed with the simulator (made once)."""
    with _context_lock:
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload(["carom.web.shared.forkserver"])
        return context
