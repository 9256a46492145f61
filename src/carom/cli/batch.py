"""``carom batch``: simulate and judge a large set of strokes, in one process or on Dask."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from carom.batch.run import run_batch
from carom.batch.spec import SpecError, read_spec
from carom.cli.app import app, err


@app.command()
def batch(
    spec: Annotated[Path, typer.Argument(help="The batch spec (JSON or TOML).", exists=True, dir_okay=False)],
    output: Annotated[Path, typer.Option("--output", "-o", help="Output path; .parquet and .csv are added.")]
    = Path("batch"),
    formats: Annotated[str, typer.Option("--formats", help="parquet, csv or both, comma-separated.")]
    = "parquet,csv",
    workers: Annotated[int | None, typer.Option(help="Start a local Dask cluster of N workers.")] = None,
    scheduler: Annotated[str | None, typer.Option(help="Use the Dask cluster at this address.")] = None,
) -> None:
    """Simulate and judge the strokes a spec describes and write the outcome table.

    The spec gives the table, discipline, struck ball, number of strokes, seed, chunk
    size, positions (starting, fixed or random) and strikes (a random sample or a grid);
    see carom.batch.spec. One row per stroke: its inputs, the referee's points and
    faults, ball 1's route, the end position. Runs in this process by default; with
    --workers N on a local Dask cluster, with --scheduler on a cluster you already run.
    The table is the same whatever runs it.
    """
    try:
        parsed = read_spec(spec)
    except SpecError as error:
        err.print(f"[bold red]carom:[/] {spec}: {error}")
        raise typer.Exit(2) from None
    kinds = tuple(f.strip() for f in formats.split(",") if f.strip())
    if not kinds or any(k not in ("parquet", "csv") for k in kinds):
        raise typer.BadParameter("--formats takes parquet, csv or both")
    columns = (TextColumn("[bold]simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err) as progress:
        task = progress.add_task("strokes", total=parsed.strokes)
        paths = run_batch(parsed, output, formats=kinds, workers=workers, scheduler=scheduler,
                          on_chunk=lambda n: progress.advance(task, n))
    for path in paths.values():
        typer.echo(f"wrote {path}")
