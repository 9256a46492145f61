"""``carom serve``: open the store, make sure an organiser's account can be made, run one
server process, or several on one port (:mod:`carom.web.workers`)."""

from __future__ import annotations

import contextlib
import ctypes
import dataclasses
import gc
import secrets
import socket
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn

from carom.storage import open_store
from carom.storage.accounts import Accounts
from carom.storage.book import MatchBook
from carom.storage.store import SqlStore
from carom.web.app import create_app
from carom.web.connections import guarded_protocol
from carom.web.shared.addresses import is_everywhere, reachable_host
from carom.web.shared.auth import hash_password, verify_password
from carom.web.shared.limits import Limits
from carom.web.shared.tally import Tally

FIRST_ORGANISER = "organiser"


@dataclass(frozen=True)
class Serving:
    """How a server process serves: what ``carom serve`` was told, and what it found."""

    host: str
    port: int
    data: Path
    database: str | None
    setup_code: str | None = None
    tablet_host: str | None = None
    limits: Limits = field(default_factory=Limits)
    log_level: str = "warning"
    access_log: bool = False
    proxy: str | None = None
    """The reverse proxies whose ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed
    (addresses, comma-separated; ``None``: none is)."""
    warm_pool: bool = True
    """Start the simulation pool's processes with the server (the first stroke, search or
    PDF answers at once); ``False``: at the first request that needs one."""


def serve(host: str, port: int, data: Path, database: str | None, password: str | None,
          say: Callable[[str], None] = print, log_level: str = "warning",
          access_log: bool = False, limits: Limits | None = None, workers: int = 1,
          proxy: str | None = None, organiser: str = FIRST_ORGANISER, warm_pool: bool = True) -> None:
    serving = Serving(host, port, data, database, limits=limits or Limits(), log_level=log_level,
                      access_log=access_log, proxy=proxy, warm_pool=warm_pool)
    store = open_store(data, database)
    try:
        serving = _prepared(store, serving, password, organiser, say)
        if workers > 1:
            store.close()
            from carom.web.workers import supervise

            supervise(serving, workers, say)
        else:
            run(serving, store)
    finally:
        store.close()


def _prepared(store: SqlStore, serving: Serving, password: str | None, organiser: str,
              say: Callable[[str], None]) -> Serving:
    """Set the organiser account's password if given, say where the server is, and make
    the first start's setup code while there is no account."""
    accounts = Accounts(store)
    if password:
        set_organiser_password(accounts, organiser, password)
    code = None
    host, port = serving.host, serving.port
    where = serving.database or str((Path(serving.data) / "carom.sqlite3").resolve())
    tablet_host = reachable_host(host)
    shown = tablet_host or ("127.0.0.1" if is_everywhere(host) else _bracketed(host))
    say(f"carom serve: http://{shown}:{port}/  (database: {_safe(where)})")
    if tablet_host is None and not is_everywhere(host):
        say("  this computer only: start with --host 0.0.0.0 for tablets and the hall screen")
    if not accounts.exist():
        code = secrets.token_hex(4)
        say(f"first start: make the organiser's account at http://{shown}:{port}/setup?code={code}")
    return dataclasses.replace(serving, setup_code=code, tablet_host=tablet_host)


def set_organiser_password(accounts: Accounts, name: str, password: str) -> None:
    """``--organiser-password``: the organiser account ``name`` gets this password (made
    when there is none, given the organiser's role when it had another). A password it
    already has is left as it is, and so are its sessions."""
    found = accounts.credentials(name)
    if found is not None and found[0].role.value == "organiser" and verify_password(password, found[1]):
        return
    accounts.reset_organiser(name, hash_password(password))


def run(serving: Serving, store: SqlStore, tally: Tally | None = None,
        sockets: list[socket.socket] | None = None) -> None:
    """Serve ``store`` in this process until stopped (on ``sockets`` when given: a worker's)."""
    return_big_blocks()
    limits = serving.limits
    app = create_app(MatchBook(store), setup_code=serving.setup_code, tablet_host=serving.tablet_host,
                     limits=limits, tally=tally, data=Path(serving.data))
    if serving.warm_pool:
        app.router.add_event_handler("startup", app.state.services.jobs().start)
    spare_the_collector()
    config = uvicorn.Config(app, host=serving.host, port=serving.port, log_level=serving.log_level,
                            access_log=serving.access_log, proxy_headers=serving.proxy is not None,
                            forwarded_allow_ips=serving.proxy or "", timeout_graceful_shutdown=2,
                            http=guarded_protocol(limits, app.state.channel_refusal,
                                                  behind_proxy=serving.proxy is not None),
                            ws_max_size=WS_MAX_SIZE,
                            ws_per_message_deflate=False)
    uvicorn.Server(config).run(sockets=sockets)


WS_MAX_SIZE = 4096
"""The largest message a page may send on a live channel (it sends none; the server
reads none); compression is off, which would cost each of thousands of channels its
own buffers."""


BIG_BLOCK = 1024 * 1024
"""Bytes from which the C allocator gives every block its own mapping, returned to the
system when freed (:func:`return_big_blocks`)."""
M_MMAP_THRESHOLD = -3
"""glibc's ``mallopt`` parameter for that size."""


def return_big_blocks() -> None:
    """Have the C allocator map each block of :data:`BIG_BLOCK` or more apart and give it
    back when freed (glibc; elsewhere nothing is done).

    A password check takes 19 MiB (argon2id), in whichever of the request threads runs
    it. glibc starts with such blocks mapped apart, but the first one freed raises its
    threshold above them, after which each thread's arena keeps the 19 MiB it once held:
    300 wrong logins at once grew the server by 153 MiB although only ten were checked
    (ten threads, ten arenas), and it kept them. A threshold set once is no longer moved.
    """
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL("libc.so.6").mallopt(M_MMAP_THRESHOLD, BIG_BLOCK)


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
