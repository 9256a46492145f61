"""``carom serve``: the scoreboard for organisers, referees' tablets and the audience."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import app


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (0.0.0.0: every network).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    data: Annotated[Path, typer.Option(help="Folder of the SQLite database.")] = Path("carom-data"),
    database: Annotated[str | None, typer.Option(
        help="A database URL instead of SQLite, e.g. postgresql+psycopg://user:pw@host/carom.")] = None,
    organiser_password: Annotated[str | None, typer.Option(
        envvar="CAROM_ORGANISER_PASSWORD",
        help="Set (or reset) the organiser password; without it, the first start prints a "
        "setup link.")] = None,
    log_level: Annotated[str, typer.Option(help="Server log level.")] = "warning",
    access_log: Annotated[bool, typer.Option(help="Log every request.")] = False,
) -> None:
    """Run the scoreboard: organiser pages, the referee's tablet, the live audience board.

    Matches are stored as carom/1 records in SQLite (in --data) or in the database
    given by --database; every record is on disk before the tablet sees it accepted.
    """
    from carom.web.server import serve as run  # the web stack loads only for this command

    run(host, port, data, database, organiser_password, say=typer.echo, log_level=log_level,
        access_log=access_log)
