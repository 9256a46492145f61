"""``carom backup``: a consistent copy of the scoreboard's database, while it serves."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import app, fail


@app.command()
def backup(
    output: Annotated[Path, typer.Option("-o", "--output", metavar="FILE",
                                         help="The copy to write (in an existing folder).")],
    data: Annotated[Path, typer.Option(metavar="FOLDER", help="Folder of the SQLite database.")]
    = Path("carom-data"),
    database: Annotated[str | None, typer.Option(
        metavar="URL", help="A PostgreSQL URL instead of SQLite (copied with pg_dump).")] = None,
) -> None:
    """Copy the database, even while the server runs.

    SQLite is copied with its online backup (a database file), PostgreSQL with pg_dump's
    custom format. docs/deploy.md says how to restore."""
    if not output.parent.is_dir():
        fail(f"-o {output}: {output.parent} is not a folder")
    if output.is_dir():
        fail(f"-o {output}: a folder, not a file")
    from carom.storage.backup import BackupError
    from carom.storage.backup import backup as copy

    try:
        copy(output, data, database)
    except BackupError as error:
        fail(str(error))
    typer.echo(f"carom backup: {output}")
