"""``carom replay``: judge a match file and print its scoresheet or its rulings."""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from carom.cli.app import Lang, app, choice, input_file, refuse


@app.command()
def replay(
    file: Annotated[str, typer.Argument(metavar="FILE", help="A carom/1 match file (.carom.jsonl); - reads "
                                                             "standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the rulings object of the carom/1 "
                                                         "format instead of the scoresheet.")] = False,
    lang: Lang = "en",
) -> None:
    """Judge a match file; print its scoresheet or its rulings.

    Every record is judged and the scoresheet printed. With --json, print the
    replay object of the carom/1 format: the lag winner, one ruling per stroke,
    call, inning and respot record, each player's totals and the result. A file
    that cannot be replayed is refused with its line and the reason (exit status
    2), and nothing is printed on standard output.
    """
    from carom.cli.fast import LANGUAGES, replay_text

    choice("--lang", lang, LANGUAGES)
    try:
        text = replay_text(input_file(file), as_json, lang)
    except (ValueError, OSError) as error:  # a CaromError is a ValueError
        refuse(error, file)
    sys.stdout.write(text)
