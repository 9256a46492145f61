"""What named accounts cost: a login's password hash, and a request's session looked up in
the database.

- The hash: argon2id at the cost ``carom.web.shared.auth`` uses (19 MiB, two passes, one
  lane) against the scrypt of before (N = 2^14, r = 8, p = 1), each timed ``--runs`` times
  in this process, alternating, so that both see the same load.
- The session: ``GET /api/session`` through the whole application (guard, routing, JSON)
  on SQLite in a temporary folder, with a session cookie (one query: the session and its
  account) and without (no query), alternating, ``--requests`` times each.

Usage: ``.venv/bin/python benchmarks/accounts.py [--runs 20] [--requests 2000]``. Prints the
medians and the ratios; the last line is the figure for the README.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

ORGANISER, PASSWORD = "organiser", "a password of a club"


def _time(work: Any) -> float:
    started = time.perf_counter()
    work()
    return time.perf_counter() - started


def hashes(runs: int) -> tuple[float, float]:
    """Median seconds of one argon2id verification and of one scrypt of before."""
    from carom.web.shared.auth import hash_password, verify_password

    stored = hash_password("a password of a club")
    salt = os.urandom(16)
    argon, scrypt = [], []
    for _ in range(runs):
        argon.append(_time(lambda: verify_password("a password of a club", stored)))
        scrypt.append(_time(lambda: hashlib.scrypt(b"a password of a club", salt=salt, n=2**14, r=8, p=1,
                                                   dklen=32)))
    return statistics.median(argon), statistics.median(scrypt)


def requests(count: int) -> tuple[float, float]:
    """Median seconds of ``GET /api/session`` with a session cookie and without."""
    from fastapi.testclient import TestClient

    from carom.storage import open_store
    from carom.storage.accounts import Accounts
    from carom.storage.book import MatchBook
    from carom.storage.roles import Role
    from carom.web.app import create_app
    from carom.web.shared.auth import hash_password

    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder))
        try:
            Accounts(store).create(ORGANISER, Role.ORGANISER, hash_password(PASSWORD), by=None)
            app = create_app(MatchBook(store))
            signed, anonymous = TestClient(app), TestClient(app)
            signed.post("/login", data={"name": ORGANISER, "password": PASSWORD})
            with_session, without = [], []
            for _ in range(count):
                with_session.append(_time(lambda: signed.get("/api/session")))
                without.append(_time(lambda: anonymous.get("/api/session")))
            assert signed.get("/api/session").json()["account"]["name"] == ORGANISER
        finally:
            store.close()
    return statistics.median(with_session), statistics.median(without)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--requests", type=int, default=2000)
    args = parser.parse_args()
    argon, scrypt = hashes(args.runs)
    print(f"login hash, median of {args.runs}: argon2id {argon * 1000:.1f} ms, scrypt of before "
          f"{scrypt * 1000:.1f} ms, ratio {argon / scrypt:.2f}")
    signed, anonymous = requests(args.requests)
    print(f"GET /api/session, median of {args.requests}: with a session {signed * 1e6:.0f} µs, without "
          f"{anonymous * 1e6:.0f} µs, the session's lookup {(signed - anonymous) * 1e6:.0f} µs")
    print(f"figure: a login's hash {argon * 1000:.0f} ms (scrypt of before {scrypt * 1000:.0f} ms); "
          f"a session looked up in the database adds {(signed - anonymous) * 1e6:.0f} µs to a request")


if __name__ == "__main__":
    main()
