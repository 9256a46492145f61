"""``carom serve`` in a subprocess, as a user starts it, for the tests that need a real server."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx

from carom.web.shared.auth import COOKIE as SESSION_COOKIE
from tests.storage.postgres import free_port

PASSWORD = "organiser-secret"
ORGANISER = "organiser"
"""The organiser's account ``--organiser-password`` makes (its default name)."""


class Server:
    """A ``carom serve`` process on a free loopback port."""

    def __init__(self, data: Path, database: str | None = None, *, password: bool = True,
                 host: str = "127.0.0.1", options: tuple[str, ...] = (),
                 open_files: int | None = None, warm_pool: bool = False) -> None:
        self.data = data
        self.database = database
        self.password = password
        self.host = host
        self.options = options
        """More options of ``carom serve`` (``--limit header-seconds=1``)."""
        self.open_files = open_files
        """The process's limit of open files (``ulimit -n``), when not the test's."""
        self.warm_pool = warm_pool
        """Start the simulation pool with the server (``carom serve``'s default); most tests
        never simulate, and a warmed pool is a second of a core per server
        (``--cold-pool``: it starts at the first stroke, search or PDF)."""
        self.one_login = False
        """Log the organiser in once and hand every later client that session (a server that
        a module's tests share: each login takes from the client's allowance, five at once)."""
        self.session: tuple[str, str] | None = None
        """The organiser's session cookie and its CSRF token, once logged in with ``one_login``."""
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = data.parent / f"server-{self.port}.log"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        command = [sys.executable, "-m", "carom.cli.main", "serve", "--port", str(self.port),
                   "--host", self.host, "--data", str(self.data)]
        if self.password:
            command += ["--organiser-password", PASSWORD]
        if self.database:
            command += ["--database", self.database]
        if not self.warm_pool:
            command.append("--cold-pool")
        command += self.options
        log = open(self.log, "ab")  # noqa: SIM115
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT,
                                        preexec_fn=None if self.open_files is None else self._limit_files)
        deadline = time.monotonic() + 120  # a busy machine: several servers start at once
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"carom serve exited with {self.process.returncode}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError("carom serve did not answer within 120 s")

    def _limit_files(self) -> None:
        assert self.open_files is not None
        resource.setrlimit(resource.RLIMIT_NOFILE, (self.open_files, self.open_files))

    def printed(self) -> str:
        """What ``carom serve`` printed so far."""
        return self.log.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush, nothing."""
        assert self.process is not None
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.kill()

    def organiser(self) -> httpx.Client:
        """An HTTP client logged in as the organiser (in the session of before, ``one_login``)."""
        client = httpx.Client(base_url=self.url, timeout=30)
        if self.one_login and self.session is not None:
            client.cookies.set(SESSION_COOKIE, self.session[0])
            client.headers["X-CSRF-Token"] = self.session[1]
            return client
        response = client.post("/login", data={"name": ORGANISER, "password": PASSWORD, "next": "/organiser"})
        assert response.status_code in (200, 303), response.text
        client.headers["X-CSRF-Token"] = client.get("/api/session").json()["csrf"]
        if self.one_login:
            self.session = (str(client.cookies[SESSION_COOKIE]), client.headers["X-CSRF-Token"])
        return client

    def session_cookie(self) -> str:
        """The cookie of the organiser's one session (``one_login``), logged in first if not yet."""
        assert self.one_login
        if self.session is None:
            self.organiser().close()
        assert self.session is not None
        return self.session[0]

    def create(self, client: httpx.Client, **header: object) -> tuple[int, str]:
        """A new match through the API; returns its id and referee token."""
        body = {"discipline": "three-cushion", "table": "large", "players": ["Anna", "Boris"],
                "points": 10, "innings": None, "sets": None, "equalizing_inning": True, **header}
        response = client.post("/api/matches", json=body)
        assert response.status_code == 201, response.text
        return int(response.json()["id"]), str(response.json()["referee_token"])
