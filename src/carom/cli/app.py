"""The ``carom`` application object and what its commands share.

Start-up: ``carom --help`` and ``carom replay`` must start at once, so this module and
every command module import only typer and the standard library at the top; a
command imports the simulator (numba, numpy), Dask, rich or the web stack inside its
function, when it runs. Help and messages are plain text: a message may quote the
user's input, and square brackets in it are printed as they are (no markup).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, NoReturn

import typer

from carom.notation.words import LANGUAGES  # the standard library only: a catalogue's list

if TYPE_CHECKING:
    from carom.core.sources import Source

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


Lang = Annotated[str, typer.Option("--lang", metavar="LANG",
                                   help=f"Language of the output: {', '.join(LANGUAGES)}.")]


def fail(message: str) -> NoReturn:
    """Print ``carom: message`` on standard error, as it is but for control characters
    (an escape code in a name or a file name is shown, not obeyed), and exit with status 2."""
    from carom.core.checks import printable

    typer.echo(f"carom: {printable(message)}", err=True)
    raise typer.Exit(2)


def refuse(error: Exception, path: object) -> NoReturn:
    """Refuse a file: its name and the error (which names the line), exit status 2."""
    from carom.cli.fast import refusal

    fail(refusal(error, path))


def input_file(name: str) -> Source:
    """What a command reads: the file called ``name``, or standard input for ``-``. It is
    opened when read, once; a name that cannot be opened is refused then, with its reason."""
    from carom.core.sources import STDIN, standard_input

    return standard_input() if name == STDIN else Path(name)


def shown_name(source: object) -> str:
    """How a refusal names what was read: the file's name, or ``-`` for standard input."""
    from carom.core.sources import STDIN

    return str(source) if isinstance(source, (str, Path)) else STDIN


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


def output_file(name: str | Path, option: str) -> Path:
    """The path of ``name``, as typed (``out.svg/`` is a folder's name), when an output
    file can be written there: a file (replaced once whole), or a device or a FIFO
    (written through); otherwise exit 2 naming ``option``. Checked before any work, so a
    bad path costs nothing."""
    from carom.core.outputs import output_problem

    problem = output_problem(name)
    if problem is not None:
        fail(f"{option} {name}: {problem}")
    return Path(name)


def choice(option: str, value: str, known: tuple[str, ...] | list[str]) -> str:
    """``value`` when it is one of ``known``; otherwise exit 2 listing them."""
    if value not in known:
        fail(f"{option}: unknown {value!r} (known: {', '.join(known)})")
    return value
