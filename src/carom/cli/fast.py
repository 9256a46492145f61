"""The plain form of ``carom replay``, run without typer.

``carom replay FILE [--json] [--lang en|sk]`` is what scripts run over and over, and
typer (with the pydantic it builds its converters with) costs more to start than the
replay of a whole match. So :func:`main` runs this exact form itself, with the same
code as the typer command (:func:`replay_text`), and leaves everything else (``--help``,
a missing file, an unknown option or language) to typer, which answers as documented.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

from carom.core.checks import printable  # the standard library only
from carom.core.sources import Source
from carom.notation.words import LANGUAGES


def replay_text(file: Source, as_json: bool, lang: str) -> str:
    """What ``carom replay`` prints: the rulings object (``--json``) or the scoresheet.
    A file that cannot be replayed raises ``CaromError`` (a ``ValueError``, naming the
    line) or ``OSError``."""
    import json

    from carom.core.records import Header
    from carom.match.state import Ruling
    from carom.notation.matchfile import replay_file
    from carom.notation.rulings_json import replay_json
    from carom.notation.scoresheet import scoresheet

    rulings: list[Ruling] = []
    headers: list[Header] = []
    state = replay_file(file, rulings.append, headers.append)
    if as_json:
        return json.dumps(replay_json(state, rulings), allow_nan=False) + "\n"
    return scoresheet(state, rulings, headers[0].players, lang)


def plain_replay(args: Sequence[str]) -> tuple[str, bool, str] | None:
    """``(FILE, --json, --lang)`` when ``args`` (after ``replay``) are exactly the plain
    form with a file (``-``: standard input) and a known language; ``None`` for anything
    else."""
    file: str | None = None
    as_json, lang = False, "en"
    rest = iter(args)
    for arg in rest:
        if arg == "--json":
            as_json = True
        elif arg == "--lang":
            lang = next(rest, "")
        elif arg.startswith("--lang="):
            lang = arg.removeprefix("--lang=")
        elif (arg.startswith("-") and arg != "-") or file is not None:
            return None
        else:
            file = arg
    if file is None or lang not in LANGUAGES:
        return None
    return file, as_json, lang


def run_plain(argv: Sequence[str]) -> int | None:
    """Run ``carom ARGV`` here when it is the plain replay; its exit status, or ``None``
    when typer must run it."""
    if not argv or argv[0] != "replay":
        return None
    plain = plain_replay(argv[1:])
    if plain is None:
        return None
    name, as_json, lang = plain
    source = sys.stdin.buffer if name == "-" else Path(name)
    try:
        text = replay_text(source, as_json, lang)
    except (ValueError, OSError) as error:  # a CaromError is a ValueError
        sys.stderr.write(f"carom: {printable(refusal(error, name))}\n")
        return 2
    sys.stdout.write(text)
    return 0


def refusal(error: Exception, path: object) -> str:
    """The message refusing the file at ``path`` (``-``: standard input): its name and
    the reason (which names the line); an ``OSError`` says what the system said, in words."""
    from carom.core.sources import why_not

    reason = why_not(error) if isinstance(error, OSError) else error
    return f"{path if isinstance(path, (str, Path)) else '-'}: {reason}"
