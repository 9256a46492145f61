"""``carom backup`` while the server writes, and the restore docs/deploy.md describes, on
both databases: the restored server has every match as it was when the copy was made."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import httpx
from sqlalchemy.engine import make_url

from tests.web.server import Server


def _records(server: Server, match: tuple[int, str], count: int, after: int = 0) -> None:
    for seq in range(after, after + count):
        record = {"type": "opener", "player": 0} if seq == 0 else {"type": "call", "result": "miss"}
        answer = httpx.post(f"{server.url}/api/matches/{match[0]}/records", timeout=30,
                            headers={"X-Referee-Token": match[1]}, json={"after": seq, "record": record})
        assert answer.status_code == 201, answer.text


def _backup(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "carom.cli.main", "backup", *args], capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_a_backup_made_while_serving_restores(server: Server, tmp_path: Path) -> None:
    organiser = server.organiser()
    match = server.create(organiser)
    organiser.close()
    _records(server, match, 5)
    copy = tmp_path / "copy"
    if server.database:
        _backup("--database", server.database, "-o", str(copy))
    else:
        _backup("--data", str(server.data), "-o", str(copy))
    _records(server, match, 3, after=5)  # written after the copy: not in it
    kept = httpx.get(f"{server.url}/api/matches/{match[0]}/file").text.splitlines()[:6]
    server.stop()
    if server.database:  # pg_restore into a new, empty database
        url = make_url(server.database)
        fresh = f"carom_restored_{url.database}"[:60]
        admin = url.set(drivername="postgresql", database="postgres").render_as_string(hide_password=False)
        subprocess.run(["psql", admin, "-c", f'CREATE DATABASE "{fresh}"'], check=True, capture_output=True)
        target = url.set(database=fresh).render_as_string(hide_password=False)
        done = subprocess.run(["pg_restore", "--no-owner", "-d",
                               make_url(target).set(drivername="postgresql").render_as_string(hide_password=False),
                               str(copy)], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        restored = Server(tmp_path / "restored", target).start()
    else:  # the copy put in a data folder as carom.sqlite3
        (tmp_path / "restored").mkdir()
        shutil.copy(copy, tmp_path / "restored" / "carom.sqlite3")
        restored = Server(tmp_path / "restored").start()
    try:
        lines = httpx.get(f"{restored.url}/api/matches/{match[0]}/file").text.splitlines()
        assert lines == kept
        _records(restored, match, 1, after=5)  # and it goes on from there
    finally:
        restored.stop()


def test_a_backup_into_no_folder_is_refused(tmp_path: Path) -> None:
    command = [sys.executable, "-m", "carom.cli.main", "backup", "-o", str(tmp_path / "no" / "x")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and "is not a folder" in done.stderr
