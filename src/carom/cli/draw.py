"""``carom draw``: the table before and after a stroke of a match, as SVG."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from carom.cli.app import app, refuse
from carom.core.errors import RecordError
from carom.notation.drawing import draw_record
from carom.notation.matchfile import read_match


@app.command()
def draw(
    file: Annotated[Path, typer.Argument(help="A carom/1 match file.", exists=True, dir_okay=False)],
    line: Annotated[int, typer.Option("--line", "-n", help="The line of the stroke to draw.")],
    output: Annotated[Path, typer.Option("--output", "-o", help="Where to write the SVG.")]
    = Path("table.svg"),
    which: Annotated[str, typer.Option(help="before, after or both (side by side).")] = "both",
) -> None:
    """Draw the table before and after the record at --line, with the discipline's
    fields, anchors or corners, the balls, the stroke's path when recorded, and the
    layout the referee must set when the rules move balls."""
    if which not in ("before", "after", "both"):
        raise typer.BadParameter("--which must be before, after or both")
    try:
        match = read_match(file)
        svg = draw_record(match.header, match.records, line, which)
    except RecordError as error:
        refuse(error, file)
        return
    output.write_text(svg, encoding="utf-8")
    typer.echo(f"wrote {output}")
