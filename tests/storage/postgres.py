"""A throwaway PostgreSQL server for the tests: initdb and pg_ctl (as the ``postgres``
user when the tests run as root) in a temporary folder, on a free port, removed after."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from sqlalchemy import create_engine, text


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_bin(name: str) -> str:
    """A PostgreSQL program: on the PATH, else in Debian's /usr/lib/postgresql/N/bin."""
    found = shutil.which(name) or next(iter(sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                                                   reverse=True)), None)
    if found is None:
        raise RuntimeError(f"PostgreSQL's {name} is not installed (apt-get install postgresql)")
    return found


class Postgres:
    """A running server; :meth:`new_database` gives each test its own database."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.admin = create_engine(f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres",
                                   isolation_level="AUTOCOMMIT")

    def new_database(self) -> str:
        name = f"carom_{uuid.uuid4().hex[:12]}"
        with self.admin.connect() as connection:
            connection.execute(text(f'CREATE DATABASE "{name}"'))
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{name}"


@contextmanager
def temporary_postgres() -> Iterator[Postgres]:
    root = Path(tempfile.mkdtemp(prefix="carom-pg-"))
    as_root = os.geteuid() == 0
    prefix = ["runuser", "-u", "postgres", "--"] if as_root else []
    if as_root:
        shutil.chown(root, "postgres", "postgres")
    data, port = root / "data", free_port()

    def run(*args: str) -> None:
        subprocess.run([*prefix, *args], check=True, capture_output=True, timeout=120)

    try:
        run(pg_bin("initdb"), "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8",
            "--locale=C", "--no-sync")
        run(pg_bin("pg_ctl"), "-D", str(data), "-l", str(root / "log"), "-w", "-t", "60", "-o",
            f"-p {port} -k {root} -h 127.0.0.1 -c max_connections=200", "start")
        server = Postgres(port)
        try:
            yield server
        finally:
            server.admin.dispose()
            subprocess.run([*prefix, pg_bin("pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                           capture_output=True, timeout=60)
    finally:
        shutil.rmtree(root, ignore_errors=True)
