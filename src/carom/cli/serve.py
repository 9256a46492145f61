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
    from sqlalchemy.exc import SQLAlchemyError

    from carom.web.server import serve as run  # the web stack loads only for this command

    try:
        run(host, port, data, database, organiser_password, say=typer.echo, log_level=log_level,
            access_log=access_log, organiser=organiser)
    except SQLAlchemyError as error:
        where = "--database" if database else f"--data {data}"
        fail(f"{where}: cannot open the database: {getattr(error, 'orig', None) or error}")
