"""``carom replay``: judge a match file and print its scoresheet or its rulings."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import Lang, app, err, refuse
from carom.core.errors import RecordError
from carom.core.records import Header
from carom.match.state import Ruling
from carom.notation.matchfile import replay_file
from carom.notation.rulings_json import replay_json
from carom.notation.scoresheet import scoresheet


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
    headers: list[Header] = []
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
