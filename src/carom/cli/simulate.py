"""``carom simulate`` and ``carom play``: the physics simulator on the command line
(PHYSICS.md, "The simulator's command")."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from carom.cli.app import app, err
from carom.core.balls import BALLS, Ball
from carom.core.events import BallContact, CushionContact
from carom.core.position import starting_position
from carom.core.table import TABLES
from carom.core.table import table as table_named
from carom.notation.writer import record_json
from carom.physics import DEFAULT_PARAMS, Strike
from carom.physics import simulate as run_stroke
from carom.physics.spec import parse_spec
from carom.rules.disciplines import discipline as discipline_named
from carom.rules.referee import StrokeContext, Verdict, judge


def _fail(message: str) -> None:
    err.print(f"[bold red]carom:[/] {message}", soft_wrap=True, markup=True)
    raise typer.Exit(2)


@app.command("simulate")
def simulate_command(
    spec: Annotated[Path, typer.Argument(help="A simulation spec (JSON): table, balls, strike, params, "
                                              "sample.", exists=True, dir_okay=False)],
) -> None:
    """Simulate one stroke and print it as a carom/1 stroke record (JSON) on stdout.

    The spec gives the table, each ball's position r (and optional velocity v and spin w),
    an optional strike (ball, speed in m/s, direction in degrees counter-clockwise from +x,
    side and height as fractions of R, elevation in degrees), parameter overrides and an
    optional sampling interval for the balls' paths. The record carries the parameters
    under "physics". A bad spec exits with status 2 and the reason on stderr.
    """
    try:
        parsed = parse_spec(json.loads(spec.read_text(encoding="utf-8")))
        stroke = run_stroke(parsed.position, parsed.strike, parsed.table, parsed.params,
                            motion=parsed.motion, sample=parsed.sample)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ValueError) as error:
        _fail(f"{spec}: {error}")
        return
    sys.stdout.write(json.dumps(record_json(stroke), ensure_ascii=False, allow_nan=False) + "\n")


def _pair(text: str, what: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        raise typer.BadParameter(f"{what} must look like NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


@app.command()
def play(
    direction: Annotated[float, typer.Option(help="Cue direction, degrees counter-clockwise from +x.")],
    speed: Annotated[float, typer.Option(help="Cue speed, m/s.")] = 3.0,
    side: Annotated[float, typer.Option(help="Side offset of the tip, fraction of R (+ right).")] = 0.0,
    height: Annotated[float, typer.Option(help="Height offset of the tip, fraction of R (+ above).")] = 0.0,
    elevation: Annotated[float, typer.Option(help="Cue elevation, degrees.")] = 0.0,
    ball: Annotated[str, typer.Option(help="The ball struck: white or yellow.")] = "white",
    discipline: Annotated[str, typer.Option(help="The discipline that judges the stroke.")] = "three-cushion",
    table: Annotated[str | None, typer.Option(help=f"{', '.join(TABLES)} (default: the "
                                                   "discipline's table).")] = None,
    at: Annotated[list[str] | None, typer.Option(
        "--at", help="Place a ball: BALL=X,Y (metres). Repeat for each ball moved; the others "
                     "stand in the starting position.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", help="Override a physics parameter: NAME=VALUE (e.g. mu_roll=0.005).")] = None,
    opening: Annotated[bool, typer.Option(help="Judge it as the opening stroke (rule O3).")] = False,
    svg: Annotated[Path | None, typer.Option(help="Also draw the table and the stroke's paths to this "
                                                  "SVG file.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the stroke record and the ruling as "
                                                         "JSON.")] = False,
) -> None:
    """Strike from a position and print what happened and the referee's ruling.

    The balls stand in the starting position unless --at moves them; --svg draws the paths.
    """
    try:
        rules = discipline_named(discipline)
        spec_table = table_named(table if table is not None else rules.tables[0])
        struck = Ball(ball)
        position: dict[Ball, tuple[float, float]] = dict(starting_position(spec_table, struck))
        for item in at or []:
            name, value = _pair(item, "--at")
            x, _, y = value.partition(",")
            position[Ball(name)] = (float(x), float(y))
        overrides: dict[str, Any] = {}
        for item in param or []:
            name, value = _pair(item, "--param")
            overrides[name] = value if name == "cushion_model" else float(value)
        params = DEFAULT_PARAMS.with_overrides(overrides)
        strike = Strike(struck, speed, direction, side, height, elevation)
        sample = 0.01 if svg is not None or rules.has_zones else None
        stroke = run_stroke(position, strike, spec_table, params, sample=sample)
    except (KeyError, ValueError) as error:
        _fail(str(error.args[0] if isinstance(error, KeyError) else error))
        return
    verdict = judge(StrokeContext.of(rules, spec_table, cue_ball=struck, opening=opening,
                                     position=stroke.start), stroke)
    if svg is not None:
        from carom.notation.svg import svg_table

        title = f"{rules.en}: {struck} at {speed:g} m/s, {direction:g}°: {_ruling(verdict)}"
        svg.write_text(svg_table(spec_table, stroke.end, discipline=rules, paths=stroke.paths, title=title,
                                 cue=struck, ghost=stroke.start), encoding="utf-8")
    if as_json:
        ruling = {"points": verdict.points, "fouls": list(verdict.fouls), "cites": list(verdict.cites)}
        out = {"stroke": record_json(stroke), "ruling": ruling}
        sys.stdout.write(json.dumps(out, ensure_ascii=False) + "\n")
        return
    lines = [f"{struck} struck at {speed:g} m/s, {direction:g}°, side {side:+g} R, height {height:+g} R, "
             f"elevation {elevation:g}° ({rules.en}, {spec_table.name} table)"]
    for event in stroke.events:
        t = f"{event.t:7.3f} s" if event.t is not None else ""
        if isinstance(event, BallContact):
            lines.append(f"  {t}  {event.ball:<6} meets {event.other}")
        elif isinstance(event, CushionContact):
            lines.append(f"  {t}  {event.ball:<6} meets the {event.cushion} cushion")
    assert stroke.end is not None
    lines.append("  at rest: " + ", ".join(f"{b} ({stroke.end[b][0]:.3f}, {stroke.end[b][1]:.3f})"
                                           for b in BALLS if b in stroke.end))
    lines.append(f"ruling: {_ruling(verdict)} ({', '.join(verdict.cites)})")
    sys.stdout.write("\n".join(lines) + "\n")


def _ruling(verdict: Verdict) -> str:
    if verdict.fouls:
        return "fault " + ", ".join(verdict.fouls)
    if verdict.points:
        return f"{verdict.points} point"
    return "no point"
