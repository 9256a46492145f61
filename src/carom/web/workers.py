"""``carom serve --workers N``: N server processes on one listening socket and one
PostgreSQL database, kept running.

The starting process binds the socket, makes the table of counts the processes share
(:class:`~carom.web.shared.tally.SharedTally`: the live channels' caps and the simulation
pool's shares hold for all of them together) and starts each process with its row of
the table. Then it watches them: a process that dies (killed, out of memory) is started
again within a second, its row cleared first, so that what it held is given back; what
it had acknowledged is in the database. ``SIGTERM`` or ``SIGINT`` stops them all.

What every process shares otherwise is in the database: records, sessions (their
generation), settings, and the changes other processes make to a match, which reach
each process's boards through PostgreSQL's notifications (:mod:`carom.storage.changes`).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import socket
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from carom.web.server import Serving
from carom.web.shared.tally import ENVIRONMENT, SharedTally

RESTART_PAUSE = 1.0
"""Seconds between a process's death and its restart (a process that dies at once is not
started in a tight loop)."""


def supervise(serving: Serving, workers: int, say: Callable[[str], None]) -> None:
    """Run ``workers`` server processes until ``SIGTERM`` or ``SIGINT``."""
    listening = _bind(serving.host, serving.port)
    tally = SharedTally.made(Path(tempfile.gettempdir()), rows=workers)
    context = multiprocessing.get_context("spawn")
    processes: list[Any] = [None] * workers
    stopping = False

    def stop(_signal: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    def start(row: int) -> None:
        tally.clear(row)
        process = context.Process(target=work, args=(serving, listening, tally.environment(row)),
                                  name=f"carom-serve-{row}", daemon=False)
        process.start()
        processes[row] = process

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        for row in range(workers):
            start(row)
        say(f"  {workers} server processes (pids {', '.join(str(p.pid) for p in processes)})")
        while not stopping:
            time.sleep(0.2)
            for row, process in enumerate(processes):
                if not stopping and not process.is_alive():
                    say(f"  server process {process.pid} ended ({process.exitcode}): started again")
                    time.sleep(RESTART_PAUSE)
                    start(row)
    finally:
        for process in processes:
            if process is not None and process.is_alive():
                process.terminate()
        for process in processes:
            if process is not None:
                process.join(timeout=10)
                if process.is_alive():
                    process.kill()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        tally.close(remove=True)
        listening.close()


def work(serving: Serving, listening: socket.socket, tally_environment: str) -> None:
    """One server process: its own store and application on the shared socket."""
    from carom.storage import open_store
    from carom.web.server import run

    os.environ[ENVIRONMENT] = tally_environment
    tally = SharedTally.from_environment()
    store = open_store(serving.data, serving.database)
    try:
        run(serving, store, tally=tally, sockets=[listening])
    finally:
        store.close()


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host.strip("[]"), port))
    sock.listen(4096)
    sock.set_inheritable(True)
    return sock
