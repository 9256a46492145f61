"""``carom inspect``: a venue's equipment against the rulebook (Q1–Q7)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from carom.cli.app import app, choice, input_file, refuse

if TYPE_CHECKING:
    from carom.rules.equipment import Check

MAX_VENUE_BYTES = 64 * 1024
"""A venue file is a few hundred bytes; larger ones are refused unread."""


@app.command("inspect")
def inspect_venue(
    venue: Annotated[str, typer.Argument(
        metavar="VENUE", help="Measurements of a venue (TOML); - reads standard input.")],
    lang: Annotated[str, typer.Option("--lang", metavar="LANG",
                                      help="Language of the output: en or sk.")] = "en",
) -> None:
    """Check a venue's equipment against rules Q1-Q7.

    The TOML file has the sections [table] (length, width, height, cushion_height,
    bed_temperature), [balls] (diameters, masses, discipline), [lighting]
    (surface_lux, lamp_height, room_lux) and [venue] (wall_distance,
    non_slip_floor), in metres, kilograms, lux and degrees Celsius (see
    examples/venue.toml).

    Prints each rule as met or not, with the measured and the allowed values. Exit
    status 1 when any rule is not met; 2 for a file that is not a venue: an
    unknown field or discipline, a value that is not a number (non_slip_floor:
    true or false), or a number that cannot be a measurement in its unit (a
    length of 284 is refused with the hint that it looks like centimetres).
    """
    from carom.core.inputs import parse_toml, read_text
    from carom.rules.equipment import inspect

    choice("--lang", lang, ("en", "sk"))
    try:
        checks = inspect(parse_toml(read_text(input_file(venue), MAX_VENUE_BYTES)))
    except ValueError as error:  # InputError, VenueError: both CaromErrors, ValueErrors
        refuse(error, venue)
    _print_checks(checks, lang == "sk")
    if not all(c.met for c in checks):
        raise typer.Exit(1)


def _print_checks(checks: list[Check], sk: bool) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from carom.notation.words import Words

    table = Table(title="Vybavenie a priestor (Q1–Q7)" if sk else "Equipment and venue (Q1–Q7)")
    for column in (("pravidlo", "rule"), ("čo", "what"), ("namerané", "measured"),
                   ("povolené", "allowed"), ("", "")):
        table.add_column(column[0] if sk else column[1])
    for c in checks:
        words = ("splnené" if c.met else "nesplnené") if sk else ("met" if c.met else "not met")
        mark = Text(f"{'✓' if c.met else '✗'} {words}", style="green" if c.met else "red")
        what = f"{c.what} ({Words('sk').rule(c.rule)})" if sk else c.what
        table.add_row(c.rule, Text(what), Text(c.measured), Text(c.allowed), mark)
    Console(highlight=False).print(table)
