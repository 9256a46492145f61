"""The ``carom`` application object and what its commands share."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from carom.core.errors import RecordError
from carom.notation.words import LANGUAGES

app = typer.Typer(
    name="carom",
    help="carom: the open carom billiards system. Judge, replay, draw and simulate "
    "carom billiards matches recorded in the carom/1 format.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
)

err = Console(stderr=True, highlight=False)


@app.callback()
def carom() -> None:
    """carom: the open carom billiards system.

    Judge, replay, draw and simulate carom billiards matches recorded in the carom/1
    format (one JSON object per line: a header, then lags, strokes, calls, innings,
    re-spots and undos). Every ruling cites the rule of the rulebook that decided it.
    """


def _language(value: str) -> str:
    if value not in LANGUAGES:
        raise typer.BadParameter(f"{value!r} is not one of {', '.join(LANGUAGES)}")
    return value


Lang = Annotated[str, typer.Option("--lang", callback=_language,
                                   help=f"Language of the output: {', '.join(LANGUAGES)}.")]


def refuse(error: RecordError, path: Path) -> None:
    """Print a refusal on standard error and exit with status 2."""
    err.print(f"[bold red]carom:[/] {path}: {error}", soft_wrap=True)
    raise typer.Exit(2)
