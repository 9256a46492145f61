"""The ``carom`` command: replay, judge, draw, inspect, simulate, serve."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from carom.core.errors import RecordError
from carom.match.state import Ruling
from carom.notation.matchfile import replay_file
from carom.notation.rulings_json import replay_json
from carom.notation.scoresheet import scoresheet

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


Lang = Annotated[str, typer.Option("--lang", help="Language of the output: en or sk.")]


def refuse(error: RecordError, path: Path) -> None:
    """Print a refusal on standard error and exit with status 2."""
    err.print(f"[bold red]carom:[/] {path}: {error}", soft_wrap=True)
    raise typer.Exit(2)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A carom/1 match file (.carom.jsonl).",
                                         exists=True, dir_okay=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rulings object of FORMAT.md.")] = False,
    lang: Lang = "en",
) -> None:
    """Replay a match file: judge every record and print the scoresheet.

    With --json, print the replay object of the carom/1 format: the lag winner, one
    ruling per stroke, call, inning and respot record, each player's totals and the
    result. A file that cannot be replayed is refused with its line and the reason
    (exit status 2), and nothing is printed on standard output.
    """
    rulings: list[Ruling] = []
    headers = []
    try:
        state = replay_file(file, rulings.append, headers.append)
    except RecordError as error:
        refuse(error, file)
        return
    except (OSError, UnicodeDecodeError) as error:
        err.print(f"[bold red]carom:[/] {file}: {error}")
        raise typer.Exit(2) from None
    if as_json:
        sys.stdout.write(json.dumps(replay_json(state, rulings)) + "\n")
    else:
        sys.stdout.write(scoresheet(state, rulings, headers[0].players, lang))


def main() -> None:
    """Entry point of the ``carom`` command."""
    app()


if __name__ == "__main__":
    main()
