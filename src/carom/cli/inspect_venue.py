"""``carom inspect``: a venue's equipment against the rulebook (Q1–Q7)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from carom.cli.app import app, err
from carom.notation.words import Words
from carom.rules.equipment import VenueError, inspect


@app.command("inspect")
def inspect_venue(
    venue: Annotated[Path, typer.Argument(help="Measurements of a venue (TOML).", exists=True,
                                          dir_okay=False)],
    lang: Annotated[str, typer.Option("--lang", help="Language: en or sk.")] = "en",
) -> None:
    """Check a venue's measurements against rules Q1–Q7 of the rulebook.

    The TOML file has the sections [table] (length, width, height, cushion_height,
    bed_temperature), [balls] (diameters, masses, discipline), [lighting]
    (surface_lux, lamp_height, room_lux) and [venue] (wall_distance, non_slip_floor),
    in metres, kilograms, lux and °C. Prints each rule as met or not with the measured
    and the allowed values; exit status 1 when any is not met, 2 for a bad file.
    """
    try:
        checks = inspect(tomllib.loads(venue.read_text(encoding="utf-8")))
    except tomllib.TOMLDecodeError as error:
        err.print(f"[bold red]carom:[/] {venue}: not TOML: {error}")
        raise typer.Exit(2) from None
    except VenueError as error:
        err.print(f"[bold red]carom:[/] {venue}: {error}")
        raise typer.Exit(2) from None
    sk = lang == "sk"
    table = Table(title="Vybavenie a priestor (Q1–Q7)" if sk else "Equipment and venue (Q1–Q7)")
    for column in (("pravidlo", "rule"), ("čo", "what"), ("namerané", "measured"),
                   ("povolené", "allowed"), ("", "")):
        table.add_column(column[0] if sk else column[1])
    for c in checks:
        mark = "[green]✓ splnené[/]" if sk and c.met else "[green]✓ met[/]" if c.met else (
            "[red]✗ nesplnené[/]" if sk else "[red]✗ not met[/]")
        what = f"{c.what} ({Words(lang).rule(c.rule)})" if sk else c.what
        table.add_row(c.rule, what, c.measured, c.allowed, mark)
    Console(highlight=False).print(table)
    if not all(c.met for c in checks):
        raise typer.Exit(1)
