"""``carom draw``: the table before and after a stroke of a match, as SVG."""

from __future__ import annotations

from typing import Annotated

import typer

from carom.cli.app import app, choice, input_file, output_file, refuse


@app.command()
def draw(
    file: Annotated[str, typer.Argument(
        metavar="FILE", help="A carom/1 match file; - reads standard input.")],
    line: Annotated[int, typer.Option(
        "--line", "-n", min=1, metavar="LINE", help="The line of the stroke to draw.")],
    output: Annotated[str, typer.Option(
        "--output", "-o", metavar="FILE", help="Where to write the SVG (a file, or a device such as "
                                              "/dev/stdout).")] = "table.svg",
    which: Annotated[str, typer.Option(
        metavar="WHICH", help="before, after or both (side by side).")] = "both",
) -> None:
    """Draw the table before and after a stroke, as SVG.

    The stroke is the record at --line of the match file.
    The drawing shows the discipline's fields, anchors or corners, the balls, the
    stroke's path when the record has one, and the layout the referee must set
    when the rules move balls. An existing output file is replaced only when the
    drawing is complete.
    """
    from carom.core.outputs import is_written_through, write_text
    from carom.notation.drawing import draw_record
    from carom.notation.matchfile import read_match

    choice("--which", which, ("before", "after", "both"))
    target = output_file(output, "--output")
    try:
        match = read_match(input_file(file))
        svg = draw_record(match.header, match.records, line, which)
    except (ValueError, OSError) as error:  # a CaromError is a ValueError
        refuse(error, file)
    try:
        write_text(target, svg)
    except OSError as error:
        refuse(error, output)
    if not is_written_through(target):  # on /dev/stdout, the picture alone
        typer.echo(f"wrote {output}")
