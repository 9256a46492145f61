"""``carom serve``: open the store, make sure an organiser's account can be made, run."""

from __future__ import annotations

import gc
import secrets
from collections.abc import Callable
from pathlib import Path

import uvicorn

from carom.storage import open_store
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.web.app import create_app
from carom.web.shared.addresses import is_everywhere, reachable_host
from carom.web.shared.auth import hash_password, verify_password

FIRST_ORGANISER = "organiser"


def serve(host: str, port: int, data: Path, database: str | None, password: str | None,
          say: Callable[[str], None] = print, log_level: str = "warning",
          access_log: bool = False, organiser: str = FIRST_ORGANISER) -> None:
    store = open_store(data, database)
    try:
        accounts = Accounts(store)
        if password:
            set_organiser_password(accounts, organiser, password)
        code = None
        where = database or str((Path(data) / "carom.sqlite3").resolve())
        tablet_host = reachable_host(host)
        shown = tablet_host or ("127.0.0.1" if is_everywhere(host) else _bracketed(host))
        say(f"carom serve: http://{shown}:{port}/  (database: {_safe(where)})")
        if tablet_host is None and not is_everywhere(host):
            say("  this computer only: start with --host 0.0.0.0 for tablets and the hall screen")
        if not accounts.exist():
            code = secrets.token_hex(4)
            say(f"first start: make the organiser's account at http://{shown}:{port}/setup?code={code}")
        app = create_app(MatchBook(store), setup_code=code, tablet_host=tablet_host)
        spare_the_collector()
        uvicorn.run(app, host=host, port=port, log_level=log_level, access_log=access_log,
                    proxy_headers=False, timeout_graceful_shutdown=2)
    finally:
        store.close()


def set_organiser_password(accounts: Accounts, name: str, password: str) -> None:
    """``--organiser-password``: the organiser account ``name`` gets this password (made
    when there is none, given the organiser's role when it had another). A password it
    already has is left as it is, and so are its sessions."""
    found = accounts.credentials(name)
    if found is not None and found[0].role.value == "organiser" and verify_password(password, found[1]):
        return
    accounts.reset_organiser(name, hash_password(password))


def spare_the_collector() -> None:
    """Keep the cycle collector's pauses short on a long match day.

    What the server holds (replays, records) is immutable, free of cycles and kept
    for the whole match, so the collector's full passes would only walk it again and
    again, longer every time (hundreds of milliseconds after a few thousand records).
    After each full pass the survivors are frozen: later passes look at new objects
    only. Young passes run less often too. Memory is still freed by reference counts.
    """
    gc.set_threshold(10_000, 20, 10)

    def freeze_survivors(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info.get("generation") == 2:
            gc.freeze()

    gc.callbacks.append(freeze_survivors)
    gc.freeze()


def _bracketed(host: str) -> str:
    """An IPv6 address as a URL writes it."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def _safe(url: str) -> str:
    """A database URL without its password."""
    head, at, tail = url.rpartition("@")
    if not at or "://" not in head:
        return url
    scheme, _, creds = head.partition("://")
    user = creds.split(":")[0]
    return f"{scheme}://{user}:***@{tail}" if ":" in creds else url
