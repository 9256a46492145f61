"""``carom serve``: the scoreboard for organisers, referees' tablets and the audience."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import app, choice, fail

LOG_LEVELS = ("critical", "error", "warning", "info", "debug", "trace")


@app.command()
def serve(
    host: Annotated[str, typer.Option(
        metavar="ADDRESS", help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(
        min=1, max=65535, metavar="PORT", help="Port to listen on (1-65535).")] = 8000,
    data: Annotated[Path, typer.Option(
        metavar="FOLDER", help="Folder of the SQLite database (created when missing).")]
    = Path("carom-data"),
    database: Annotated[str | None, typer.Option(
        metavar="URL",
        help="A database URL instead of SQLite, e.g. postgresql+psycopg://user:pw@host/carom.")] = None,
    organiser_password: Annotated[str | None, typer.Option(
        envvar="CAROM_ORGANISER_PASSWORD", metavar="PASSWORD",
        help="Set (or reset) the password of the organiser's account named by --organiser "
             "(made when missing); without it, the first start prints a setup link.")] = None,
    organiser: Annotated[str, typer.Option(
        metavar="NAME", help="The organiser's account --organiser-password sets.")] = "organiser",
    log_level: Annotated[str, typer.Option(
        metavar="LEVEL", help=f"Server log level: {', '.join(LOG_LEVELS)}.")] = "warning",
    access_log: Annotated[bool, typer.Option(help="Log every request.")] = False,
    workers: Annotated[int, typer.Option(
        min=1, max=64, metavar="N",
        help="Server processes on the one port (1-64); more than one needs PostgreSQL "
             "(--database), which carries the live updates between them.")] = 1,
    proxy: Annotated[str | None, typer.Option(
        metavar="ADDRESSES",
        help="Behind a reverse proxy: its addresses (comma-separated, e.g. 127.0.0.1), whose "
             "X-Forwarded-For and X-Forwarded-Proto are then believed (docs/deploy.md).")] = None,
    limit: Annotated[list[str] | None, typer.Option(
        metavar="NAME=VALUE",
        help="Raise or lower a limit (repeatable): streams, streams-per-client, connections, workers, "
             "queue, jobs-per-client, header-seconds, body-idle-seconds, body-seconds "
             "(docs/deploy.md).")] = None,
    warm_pool: Annotated[bool, typer.Option(
        "--warm-pool/--cold-pool",
        help="Start the simulation processes (training table, review, shot finder, PDFs) with the "
             "server, so the first stroke answers at once; --cold-pool starts them at the first "
             "request that needs one (less memory and work on a machine that seldom uses them).")] = True,
) -> None:
    """Run the scoreboard: organiser, referee's tablet, audience.

    It serves the organiser's pages, the referee's tablet and the live audience
    board.
    Matches are stored as carom/1 records in SQLite (in --data) or in the database
    given by --database; every record is on disk before the tablet sees it
    accepted. A database that cannot be opened is refused with exit status 2.
    """
    choice("--log-level", log_level, LOG_LEVELS)
    if not host.strip():
        fail("--host: an address is needed, e.g. 127.0.0.1")
    problem = _listen_problem(host, port)
    if problem is not None:  # before anything is created or printed
        fail(problem)
    if database is None:
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            fail(f"--data {data}: cannot be the database's folder: {error.strerror or error}")
    if organiser_password is not None and not organiser_password:
        fail("--organiser-password: the password is empty")
    if organiser_password is not None:
        from carom.storage.accounts import AccountError, checked_name

        try:
            checked_name(organiser)
        except AccountError as error:
            fail(f"--organiser: {error}")
    if workers > 1 and not (database or "").startswith("postgresql"):
        fail(f"--workers {workers}: several server processes need PostgreSQL (--database "
             "postgresql+psycopg://...), which carries the live updates from one to the others")
    if proxy is not None:
        proxy = _proxies(proxy)
    from carom.web.shared.limits import LimitError, with_limits

    try:
        limits = with_limits(limit or [])
    except LimitError as error:
        fail(str(error))
    from sqlalchemy.exc import SQLAlchemyError

    from carom.web.server import serve as run  # the web stack loads only for this command

    try:
        run(host, port, data, database, organiser_password, say=typer.echo, log_level=log_level,
            access_log=access_log, limits=limits, workers=workers, proxy=proxy,
            organiser=organiser, warm_pool=warm_pool)
    except SQLAlchemyError as error:
        where = "--database" if database else f"--data {data}"
        said = str(getattr(error, "orig", None) or error)  # PostgreSQL's is several lines: one here
        fail(f"{where}: cannot open the database: "
             f"{'; '.join(part.strip() for part in said.splitlines() if part.strip())}")


def _proxies(value: str) -> str:
    """The proxies' addresses (or networks) as uvicorn takes them; each must be one."""
    import ipaddress

    found = [part.strip() for part in value.split(",") if part.strip()]
    if not found:
        fail("--proxy: name the reverse proxy's address, e.g. 127.0.0.1")
    for part in found:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            fail(f"--proxy: {part[:40]!r} is not an address or a network (127.0.0.1, 10.0.0.0/8, ::1)")
    return ",".join(found)


def _listen_problem(host: str, port: int) -> str | None:
    """Why the scoreboard could not listen on ``host``:``port`` (a name that does not
    resolve, an address not of this machine, a port in use or not allowed), or ``None``:
    tried with a socket of our own, closed at once, before anything is set up."""
    import errno
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                             flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or error
        return f"--host {host}: no address of this machine by that name ({reason})"
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server's own socket
        try:
            probe.bind(address)
        except PermissionError:
            return f"--port {port}: not allowed to listen on it (a port below 1024 needs the administrator)"
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return f"--port {port}: in use on {host}: another program listens there"
            if error.errno == errno.EADDRNOTAVAIL:
                return f"--host {host}: not an address of this machine"
            return f"--host {host} --port {port}: cannot listen there: {error.strerror or error}"
    return None
