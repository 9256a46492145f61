"""``carom solve``: the most forgiving scoring strokes from a position."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from carom.cli.app import app, err
from carom.notation.svg import svg_table
from carom.notation.words import Words
from carom.notation.writer import record_json
from carom.rules.disciplines import DISCIPLINES
from carom.solve import ExecutionError, find_shots
from carom.solve.position_file import PositionError, read_position

SOLVABLE = ("three-cushion", "one-cushion", "straight-rail")


@app.command()
def solve(
    position: Annotated[Path, typer.Argument(help='POSITION.json: {"table", "ball", "start"}.',
                                             exists=True, dir_okay=False)],
    discipline: Annotated[str, typer.Option(help="three-cushion, one-cushion or straight-rail.")]
    = "three-cushion",
    count: Annotated[int, typer.Option(help="How many strokes to show.")] = 3,
    seed: Annotated[int, typer.Option(help="Seed of the search and of the chances.")] = 0,
    sigma_direction: Annotated[float, typer.Option(help="Player's direction error σ, degrees.")] = 0.3,
    sigma_speed: Annotated[float, typer.Option(help="Player's speed error σ, fraction of the speed.")]
    = 0.04,
    sigma_tip: Annotated[float, typer.Option(help="Player's tip error σ, fraction of R.")] = 0.03,
    elevation: Annotated[bool, typer.Option("--elevation", help="Also search cue elevations up to 30°.")]
    = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list, best first.")] = False,
    svg: Annotated[Path | None, typer.Option(help="Write each stroke's path as SVG: PREFIX-1.svg, …")]
    = None,
) -> None:
    """Find strokes the referee judges a point, ranked by how forgiving they are.

    From the position, the search plays many cue strikes (direction, speed, tip offsets;
    a level cue unless --elevation) through the simulator, keeps those the referee
    judges a point, and estimates for the best the chance that the stroke still scores
    under the player's execution error (defaults: direction σ 0.3°, speed σ 4 %, tip σ
    0.03 R) by simulating perturbed strokes. It prints each stroke's strike, chance and
    route (ball 1's cushions and balls up to the point).
    """
    if discipline not in SOLVABLE:
        raise typer.BadParameter(f"--discipline must be one of {', '.join(SOLVABLE)}")
    try:
        spot = read_position(position)
    except PositionError as error:
        err.print(f"[bold red]carom:[/] {position}: {error}")
        raise typer.Exit(2) from None
    d = DISCIPLINES[discipline]
    if spot.table.name not in d.tables:
        err.print(f"[bold red]carom:[/] {discipline} is not played on the {spot.table.name} table")
        raise typer.Exit(2)
    shots = find_shots(spot.start, spot.ball, d, spot.table, seed=seed, count=count,
                       error=ExecutionError(sigma_direction, sigma_speed, sigma_tip),
                       elevation=elevation, opening=spot.opening)
    if svg is not None:
        for i, shot in enumerate(shots, start=1):
            path = svg.with_name(f"{svg.name}-{i}.svg")
            title = f"{' → '.join(shot.route)} ({shot.chance:.0%})"
            path.write_text(svg_table(spot.table, spot.start, paths=shot.stroke.paths, cue=spot.ball,
                                      title=title, ghost=shot.stroke.end), encoding="utf-8")
    if as_json:
        items = [{"strike": {"ball": s.strike.ball.value, "speed": s.strike.speed,
                             "direction": s.strike.direction, "side": s.strike.side,
                             "height": s.strike.height, "elevation": s.strike.elevation},
                  "chance": s.chance, "route": list(s.route), "stroke": record_json(s.stroke)}
                 for s in shots]
        sys.stdout.write(json.dumps(items) + "\n")
        return
    if not shots:
        Console().print("No scoring stroke found from this position.")
        raise typer.Exit(1)
    table = Table(title=f"{Words().discipline(d.id)}: strokes for {spot.ball.value}, most forgiving first")
    for column in ("#", "chance", "direction °", "cue speed m/s", "side R", "height R", "route"):
        table.add_column(column)
    for i, s in enumerate(shots, start=1):
        table.add_row(str(i), f"{s.chance:.0%}", f"{s.strike.direction:.1f}", f"{s.strike.speed:.2f}",
                      f"{s.strike.side:+.2f}", f"{s.strike.height:+.2f}", " → ".join(s.route))
    Console().print(table)
