"""The ``carom`` application object and what its commands share.

Start-up: ``carom --help`` and ``carom replay`` must start at once, so this module and
every command module import only typer and the standard library at the top; a
command imports the simulator (numba, numpy), Dask, rich or the web stack inside its
function, when it runs. Help and messages are plain text: a message may quote the
user's input, and square brackets in it are printed as they are (no markup).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, NoReturn

import typer

app = typer.Typer(
    name="carom",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback()
def carom() -> None:
    """carom: the open carom billiards system.

    Judge, replay and draw carom billiards matches recorded in the carom/1 format
    (one JSON object per line: a header, then lags, strokes, calls, innings,
    re-spots and undos); every ruling cites the rule of the rulebook that decided
    it. Run the scoreboard, simulate and search strokes, judge tracked strokes.

    Bad input is refused with a message that names the file's line, the field or
    the option, and exit status 2; a failed run never overwrites an earlier
    output file.
    """


Lang = Annotated[str, typer.Option("--lang", metavar="LANG", help="Language of the output: en or sk.")]


def fail(message: str) -> NoReturn:
    """Print ``carom: message`` on standard error, as it is, and exit with status 2."""
    typer.echo(f"carom: {message}", err=True)
    raise typer.Exit(2)


def refuse(error: Exception, path: Path) -> NoReturn:
    """Refuse a file: its name and the error (which names the line), exit status 2."""
    from carom.cli.fast import refusal

    fail(refusal(error, path))


def within(option: str, value: float, low: float, high: float, unit: str = "") -> float:
    """``value`` of ``option`` when it is a number from ``low`` to ``high`` (so finite:
    NaN compares false); otherwise exit 2 with the range."""
    if not low <= value <= high:
        shown = _number(value)
        shown = shown if len(shown) <= 24 else f"{shown[:20]}… ({len(shown)} digits)"
        fail(f"{option}: {shown} is out of range: from {_number(low)} to {_number(high)}"
             f"{' ' + unit if unit else ''}")
    return value


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def output_file(path: Path, option: str) -> Path:
    """``path`` when an output file can be written there; otherwise exit 2 naming
    ``option`` (checked before any work, so a bad path costs nothing)."""
    from carom.core.outputs import output_problem

    problem = output_problem(path)
    if problem is not None:
        fail(f"{option} {path}: {problem}")
    return path


def choice(option: str, value: str, known: tuple[str, ...] | list[str]) -> str:
    """``value`` when it is one of ``known``; otherwise exit 2 listing them."""
    if value not in known:
        fail(f"{option}: unknown {value!r} (known: {', '.join(known)})")
    return value
