"""``carom batch``: simulate and judge a large set of strokes, in one process or on Dask."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

from carom.cli.app import app, fail, input_file, refuse


@app.command()
def batch(
    spec: Annotated[str, typer.Argument(
        metavar="SPEC", help="The batch spec (JSON, or TOML when it ends in .toml); - reads standard "
                             "input (JSON).")],
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="PATH",
        help="Output path; .parquet and .csv are added (a .parquet or .csv suffix given is "
             "replaced).")] = "batch",
    formats: Annotated[str, typer.Option(
        "--formats", metavar="FORMATS", help="parquet, csv or both, comma-separated.")] = "parquet,csv",
    workers: Annotated[int | None, typer.Option(
        metavar="N", help="Start a local Dask cluster of N workers (1 to twice the CPUs).")] = None,
    scheduler: Annotated[str | None, typer.Option(
        metavar="ADDRESS",
        help="Use the Dask cluster at this address (e.g. tcp://host:8786); it must answer within "
             "5 s.")] = None,
) -> None:
    """Simulate and judge many strokes; write their outcome table.

    The spec gives the table, discipline, struck ball (white or yellow, rule O1),
    number of strokes, seed, chunk size, positions (starting, fixed or random) and
    strikes (a random sample or a grid); see docs/search.md. One row per stroke:
    its inputs, the referee's points and faults, ball 1's route, the end position.
    Runs in this process by default; with --workers N on a local Dask cluster,
    with --scheduler on a cluster you already run. The table is the same whatever
    runs it.

    The whole spec is checked first, and the run says how much it will write and
    refuses when that cannot fit on the disk (docs/limits.md). The files are
    written under temporary names and replace earlier ones only when the run
    succeeded: a failed or interrupted run leaves them as they were.
    """
    import signal

    from carom.batch.plan import FORMATS, BatchError, check_runner, plan
    from carom.batch.run import run_batch
    from carom.batch.spec import SpecError, read_spec

    try:
        parsed = read_spec(input_file(spec))
    except SpecError as error:
        refuse(error, spec)
    if output.endswith("/"):
        fail(f"--output {output}: ends in / (a folder's name): give the name of the files "
             f"(e.g. {output}outcomes)")
    kinds = tuple(dict.fromkeys(f.strip() for f in formats.split(",") if f.strip()))
    if not kinds or any(k not in FORMATS for k in kinds):
        fail(f"--formats: expected parquet, csv or both, not {formats!r}")
    try:
        check_runner(workers, scheduler)
        planned = plan(parsed, Path(output), kinds)
    except BatchError as error:
        fail(str(error))
    typer.echo(f"carom: batch: {planned.words(parsed)}", err=True)
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    stop = _StopRequest()
    # A terminated run cleans up as after Ctrl-C; both also stop at the next chunk, since a
    # KeyboardInterrupt raised inside a native callback (the JIT's cache) is swallowed there.
    earlier = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    earlier_hook, sys.unraisablehook = sys.unraisablehook, stop.quiet(sys.unraisablehook)
    try:
        with Progress(*columns, console=Console(stderr=True, highlight=False)) as progress:
            task = progress.add_task("strokes", total=parsed.strokes)

            def advance(n: int) -> None:
                stop.check()
                progress.advance(task, n)

            paths = run_batch(parsed, Path(output), formats=kinds, workers=workers, scheduler=scheduler,
                              on_chunk=advance)
    except BatchError as error:
        fail(str(error))
    except ValueError as error:  # what the spec's checks let through and the simulator refuses
        fail(f"{spec}: {error}; no file was written or replaced")
    except (OSError, TimeoutError) as error:  # the disk or the cluster failed during the run
        typer.echo(f"carom: batch: the run stopped ({error}); no file was written or replaced", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("carom: batch: interrupted; no file was written or replaced", err=True)
        raise typer.Exit(130) from None
    finally:
        for number, handler in earlier.items():
            signal.signal(number, handler)
        if not stop.requested:
            sys.unraisablehook = earlier_hook
        # else: the process ends now, and the JIT's objects that the interrupt left half built
        # complain from their finalizers (llvmlite); the quiet hook keeps that from the user
    for path in paths.values():
        typer.echo(f"wrote {path}")


class _StopRequest:
    """A signal handler that interrupts at once and remembers that it did."""

    def __init__(self) -> None:
        self.requested = False

    def __call__(self, _signum: int, _frame: object) -> NoReturn:
        self.requested = True
        raise KeyboardInterrupt

    def quiet(self, hook: Callable[[Any], object]) -> Callable[[Any], object]:
        """``hook`` for unraisable errors, silent once a stop was asked for: the interrupt a
        callback swallowed, and the finalizers of what it left half built."""

        def unraisable(report: Any) -> object:
            if self.requested:
                return None
            return hook(report)

        return unraisable

    def check(self) -> None:
        """Interrupt now if a stop was asked for and its first interrupt got lost."""
        if self.requested:
            raise KeyboardInterrupt
