"""``carom solve``: the most forgiving scoring strokes from a position."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from carom.cli.app import app, choice, fail, input_file, output_file, refuse, within
from carom.notation.words import Words

if TYPE_CHECKING:
    from carom.solve import Shot
    from carom.solve.position_file import PositionFile



@app.command()
def solve(
    position: Annotated[str, typer.Argument(
        metavar="POSITION", help='POSITION.json: {"table", "ball", "start", "opening"}; - reads standard '
                                 "input.")],
    discipline: Annotated[str, typer.Option(
        metavar="NAME", help="three-cushion, one-cushion or straight-rail.")] = "three-cushion",
    count: Annotated[int, typer.Option(metavar="N", help="How many strokes to show (1 to 20).")] = 3,
    seed: Annotated[int, typer.Option(
        metavar="N", help="Seed of the search and of the chances (0 to 10^18 - 1).")] = 0,
    sigma_direction: Annotated[float, typer.Option(
        metavar="DEGREES", help="Player's direction error σ, degrees (0 to 10).")] = 0.3,
    sigma_speed: Annotated[float, typer.Option(
        metavar="FRACTION", help="Player's speed error σ, fraction of the speed (0 to 0.5).")] = 0.04,
    sigma_tip: Annotated[float, typer.Option(
        metavar="R", help="Player's tip error σ, fraction of R (0 to 0.2).")] = 0.03,
    elevation: Annotated[bool, typer.Option(
        "--elevation", help="Also search cue elevations up to 30°.")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list, best first.")] = False,
    svg: Annotated[str | None, typer.Option(
        metavar="PREFIX", help="Write each stroke's path as SVG: PREFIX-1.svg, PREFIX-2.svg, ...")] = None,
) -> None:
    """Find the most forgiving scoring strokes from a position.

    From the position, the search plays many cue strikes (direction, speed, tip
    offsets; a level cue unless --elevation) through the simulator, keeps those the
    referee judges a point, and estimates for the best the chance that the stroke
    still scores under the player's execution error (defaults: direction σ 0.3°,
    speed σ 4 %, tip σ 0.03 R) by simulating perturbed strokes. It prints each
    stroke's strike, chance and route (ball 1's cushions and balls up to the
    point). The ball to play is white or yellow (rule O1).
    """
    from carom.solve.finder import MAX_COUNT, MAX_SEED, NOISE_LIMITS, SOLVABLE
    from carom.solve.position_file import PositionError, read_position

    choice("--discipline", discipline, SOLVABLE)
    within("--count", count, 1, MAX_COUNT, "strokes")
    within("--seed", seed, 0, MAX_SEED)
    for option, value, field in (("--sigma-direction", sigma_direction, "direction"),
                                 ("--sigma-speed", sigma_speed, "speed"), ("--sigma-tip", sigma_tip, "tip")):
        high, unit = NOISE_LIMITS[field]
        within(option, value, 0.0, high, unit)
    try:
        spot = read_position(input_file(position))
    except PositionError as error:
        refuse(error, position)
    from carom.rules.disciplines import DISCIPLINES

    rules = DISCIPLINES[discipline]
    if spot.table.name not in rules.tables:
        fail(f"--discipline: {discipline} is not played on the {spot.table.name} table")
    prefix = None
    if svg is not None:
        output_file(f"{svg}-1.svg", "--svg")
        prefix = Path(svg)

    from carom.solve import ExecutionNoise, find_shots

    shots = find_shots(spot.start, spot.ball, rules, spot.table, seed=seed, count=count,
                       noise=ExecutionNoise(sigma_direction, sigma_speed, sigma_tip),
                       elevation=elevation, opening=spot.opening)
    if prefix is not None:
        _draw(prefix, spot, shots)
    if as_json:
        _print_json(shots)
        return
    if not shots:
        typer.echo("No scoring stroke found from this position.")
        raise typer.Exit(1)
    name = Words().discipline(rules.id)
    _print_table(f"{name}: strokes for {spot.ball.value}, most forgiving first", shots)


def _draw(prefix: Path, spot: PositionFile, shots: list[Shot]) -> None:
    from carom.core.outputs import write_text
    from carom.notation.svg import svg_table

    for i, shot in enumerate(shots, start=1):
        path = prefix.with_name(f"{prefix.name}-{i}.svg")
        title = f"{' → '.join(shot.route)} ({shot.chance:.0%})"
        try:
            write_text(path, svg_table(spot.table, spot.start, paths=shot.stroke.paths, cue=spot.ball,
                                       title=title, ghost=shot.stroke.end))
        except OSError as error:
            refuse(error, path)


def _print_json(shots: list[Shot]) -> None:
    import json

    from carom.notation.writer import record_json

    items = [{"strike": {"ball": s.strike.ball.value, "speed": s.strike.speed,
                         "direction": s.strike.direction, "side": s.strike.side,
                         "height": s.strike.height, "elevation": s.strike.elevation},
              "chance": s.chance, "route": list(s.route), "stroke": record_json(s.stroke)}
             for s in shots]
    sys.stdout.write(json.dumps(items, allow_nan=False) + "\n")


def _print_table(title: str, shots: list[Shot]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title=title)
    for column in ("#", "chance", "direction °", "cue speed m/s", "side R", "height R", "route"):
        table.add_column(column)
    for i, s in enumerate(shots, start=1):
        table.add_row(str(i), f"{s.chance:.0%}", f"{s.strike.direction:.1f}", f"{s.strike.speed:.2f}",
                      f"{s.strike.side:+.2f}", f"{s.strike.height:+.2f}", " → ".join(s.route))
    Console(highlight=False, markup=False).print(table)
