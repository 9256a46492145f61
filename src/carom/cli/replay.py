"""``carom replay``: judge a match file and print its scoresheet or its rulings."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import Lang, app, choice, refuse


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(metavar="FILE", help="A carom/1 match file (.carom.jsonl).",
                                         exists=True, dir_okay=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rulings object of the carom/1 "
                                                         "format instead of the scoresheet.")] = False,
    lang: Lang = "en",
) -> None:
    """Judge a match file; print its scoresheet or its rulings.

    Every record is judged and the scoresheet printed.
    With --json, print the replay object of the carom/1 format: the lag winner, one
    ruling per stroke, call, inning and respot record, each player's totals and the
    result. A file that cannot be replayed is refused with its line and the reason
    (exit status 2), and nothing is printed on standard output.
    """
    import json

    from carom.core.records import Header
    from carom.match.state import Ruling
    from carom.notation.matchfile import replay_file
    from carom.notation.rulings_json import replay_json
    from carom.notation.scoresheet import scoresheet

    choice("--lang", lang, ("en", "sk"))
    rulings: list[Ruling] = []
    headers: list[Header] = []
    try:
        state = replay_file(file, rulings.append, headers.append)
        out = (json.dumps(replay_json(state, rulings), allow_nan=False) + "\n" if as_json
               else scoresheet(state, rulings, headers[0].players, lang))
    except (ValueError, OSError) as error:  # a CaromError is a ValueError
        refuse(error, file)
    sys.stdout.write(out)
