"""``carom simulate`` and ``carom play``: the physics simulator on the command line
(PHYSICS.md, "The simulator's command"; docs/limits.md lists every range)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from carom.cli.app import app, choice, fail, input_file, output_file, refuse, within
from carom.notation.words import Words

if TYPE_CHECKING:
    from carom.core.balls import Ball
    from carom.core.records import Stroke
    from carom.core.table import TableSpec
    from carom.physics import Params
    from carom.rules.disciplines import Discipline
    from carom.rules.referee import Verdict


@app.command("simulate")
def simulate_command(
    spec: Annotated[str, typer.Argument(metavar="SPEC", help="A simulation spec (JSON): table, balls, "
                                             "strike, params, sample; - reads standard input.")],
) -> None:
    """Simulate one stroke; print it as a carom/1 stroke record (JSON).

    The spec gives the table, each ball's position r (and optional velocity v and
    spin w), an optional strike (ball, speed in m/s, direction in degrees
    counter-clockwise from +x, side and height as fractions of R, elevation in
    degrees), parameter overrides and an optional sampling interval for the balls'
    paths. The record carries the parameters under "physics".

    Limits: cue speed 0-15 m/s, direction -360 to 360 degrees, tip within 0.5 R,
    elevation 0-89 degrees, the struck ball white or yellow (rule O1); ball speeds
    up to 30 m/s, spins up to 2000 rad/s; sample 0.001-10 s; parameters within
    their ranges (docs/limits.md). A bad spec exits with status 2 and the reason
    on stderr.
    """
    from carom.core.inputs import read_document
    from carom.physics.spec import MAX_SPEC_BYTES, parse_spec

    try:
        parsed = parse_spec(read_document(input_file(spec), MAX_SPEC_BYTES))
    except ValueError as error:  # a CaromError is a ValueError
        refuse(error, spec)
    from carom.physics import simulate

    try:
        stroke = simulate(parsed.position, parsed.strike, parsed.table, parsed.params,
                          motion=parsed.motion, sample=parsed.sample)
    except ValueError as error:  # the position: off the table, overlapping balls
        refuse(error, spec)
    sys.stdout.write(_json(stroke) + "\n")


def _json(stroke: Stroke, **more: Any) -> str:
    """The stroke record (and ``more``) as JSON; a number that is not finite would be a
    bug of the simulator, and is reported rather than printed."""
    import json

    from carom.notation.writer import record_json

    try:
        return json.dumps({"stroke": record_json(stroke), **more} if more else record_json(stroke),
                          ensure_ascii=False, allow_nan=False)
    except ValueError:
        fail("the simulation gave a number that is not finite; nothing was printed")


def _pair(text: str, option: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep:
        fail(f"{option}: expected NAME=VALUE, not {text!r}")
    return name.strip(), value.strip()


def _float(text: str, option: str) -> float:
    try:
        return float(text)
    except ValueError:
        fail(f"{option}: {text!r} is not a number")


@app.command()
def play(
    direction: Annotated[float, typer.Option(
        metavar="DEGREES", help="Cue direction, degrees counter-clockwise from +x (-360 to 360).")],
    speed: Annotated[float, typer.Option(metavar="M/S", help="Cue speed, m/s (0 to 15).")] = 3.0,
    side: Annotated[float, typer.Option(
        metavar="R", help="Side offset of the tip, fraction of R, + right (within 0.5 R with "
                          "--height).")] = 0.0,
    height: Annotated[float, typer.Option(
        metavar="R", help="Height offset of the tip, fraction of R, + above the centre.")] = 0.0,
    elevation: Annotated[float, typer.Option(
        metavar="DEGREES", help="Cue elevation, degrees (0 to 89).")] = 0.0,
    ball: Annotated[str, typer.Option(
        metavar="BALL", help="The ball struck: white or yellow (rule O1).")] = "white",
    discipline: Annotated[str, typer.Option(
        metavar="NAME", help="The discipline that judges the stroke.")] = "three-cushion",
    table: Annotated[str | None, typer.Option(
        metavar="TABLE", help="A table of carom.core.table.TABLES: large, small, half-match, ... "
                              "(default: the discipline's table).")] = None,
    at: Annotated[list[str] | None, typer.Option(
        "--at", metavar="BALL=X,Y",
        help="Place a ball at X,Y in metres. Repeat for each ball moved; the others stand in "
             "the starting position.")] = None,
    param: Annotated[list[str] | None, typer.Option(
        "--param", metavar="NAME=VALUE",
        help="Override a physics parameter (e.g. mu_roll=0.005); docs/limits.md gives each "
             "range.")] = None,
    opening: Annotated[bool, typer.Option(help="Judge it as the opening stroke (rule O3).")] = False,
    svg: Annotated[str | None, typer.Option(
        metavar="FILE", help="Also draw the table and the stroke's paths to this SVG file (or a device "
                             "such as /dev/stdout).")] = None,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print the stroke record and the ruling as JSON.")] = False,
) -> None:
    """Strike from a position; print what happened and the ruling.

    The referee judges the simulated stroke like any other. The balls stand in
    the starting position unless --at moves them; --svg draws the paths. A number
    out of its range, an unknown ball, discipline, table or parameter, and red as
    the struck ball are refused with exit status 2.
    """
    from carom.core.balls import Ball, cue_ball_problem
    from carom.core.table import TABLES
    from carom.physics.strike import LIMITS, miscue_problem
    from carom.rules.disciplines import DISCIPLINES

    for option, value in (("speed", speed), ("direction", direction), ("side", side),
                          ("height", height), ("elevation", elevation)):
        low, high, unit = LIMITS[option]
        within(f"--{option}", value, low, high, unit)
    problem = miscue_problem(side, height)
    if problem is not None:
        fail(f"--side, --height: {problem}")
    struck = Ball(choice("--ball", ball, ("white", "yellow", "red")))
    problem = cue_ball_problem(struck)
    if problem is not None:
        fail(f"--ball: {problem}")
    rules = DISCIPLINES[choice("--discipline", discipline, list(DISCIPLINES))]
    chosen = choice("--table", table if table is not None else rules.tables[0], list(TABLES))
    if chosen not in rules.tables:
        fail(f"--table: {rules.id} is not played on the {chosen} table "
             f"(its tables: {', '.join(rules.tables)})")
    spec_table = TABLES[chosen]
    position = _position(spec_table, struck, at or [])
    params = _params(param or [])
    picture = None if svg is None else output_file(svg, "--svg")

    from carom.physics import Strike, simulate
    from carom.rules.referee import StrokeContext, judge

    strike = Strike(struck, speed, direction, side, height, elevation)
    sample = 0.01 if picture is not None or rules.has_zones else None
    try:
        stroke = simulate(position, strike, spec_table, params, sample=sample)
    except ValueError as error:  # the position (overlapping balls), a path too long to sample
        fail(f"--at: {error}" if at else str(error))
    verdict = judge(StrokeContext.of(rules, spec_table, cue_ball=struck, opening=opening,
                                     position=stroke.start), stroke)
    if picture is not None:
        _draw(picture, stroke, verdict, rules, spec_table, f"{struck} at {speed:g} m/s, {direction:g}°")
    if as_json:
        ruling = {"points": verdict.points, "fouls": list(verdict.fouls), "cites": list(verdict.cites)}
        sys.stdout.write(_json(stroke, ruling=ruling) + "\n")
        return
    head = (f"{struck} struck at {speed:g} m/s, {direction:g}°, side {side:+g} R, height {height:+g} R, "
            f"elevation {elevation:g}° ({Words().discipline(rules.id)}, {spec_table.name} table)")
    sys.stdout.write(_story(head, stroke, verdict))


def _position(table: TableSpec, struck: Ball, items: list[str]) -> dict[Ball, tuple[float, float]]:
    """The starting position for ``struck``, with the balls ``--at`` moves (on the table)."""
    from carom.core.balls import Ball
    from carom.core.position import starting_position

    position: dict[Ball, tuple[float, float]] = dict(starting_position(table, struck))
    for item in items:
        name, value = _pair(item, "--at")
        moved = Ball(choice("--at", name, ("white", "yellow", "red")))
        x, comma, y = value.partition(",")
        if not comma:
            fail(f"--at {item}: expected BALL=X,Y in metres")
        option = f"--at {name}"
        position[moved] = (within(option, _float(x, option), 0.0, table.width, "m"),
                           within(option, _float(y, option), 0.0, table.length, "m"))
    return position


def _params(items: list[str]) -> Params:
    from carom.physics import DEFAULT_PARAMS

    overrides: dict[str, Any] = {}
    for item in items:
        name, value = _pair(item, "--param")
        overrides[name] = value if name == "cushion_model" else _float(value, f"--param {name}")
    try:
        return DEFAULT_PARAMS.with_overrides(overrides)
    except ValueError as error:
        fail(f"--param: {error}")


def _draw(svg: Path, stroke: Stroke, verdict: Verdict, rules: Discipline, table: TableSpec,
          what: str) -> None:
    from carom.core.outputs import write_text
    from carom.notation.svg import svg_table

    assert stroke.end is not None
    title = f"{Words().discipline(rules.id)}: {what}: {_ruling(verdict)}"
    try:
        write_text(svg, svg_table(table, stroke.end, discipline=rules, paths=stroke.paths, title=title,
                                  cue=stroke.ball, ghost=stroke.start))
    except OSError as error:
        refuse(error, svg)


def _story(head: str, stroke: Stroke, verdict: Verdict) -> str:
    from carom.core.balls import BALLS
    from carom.core.events import BallContact, CushionContact

    lines = [head]
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
    return "\n".join(lines) + "\n"


def _ruling(verdict: Verdict) -> str:
    if verdict.fouls:
        return "fault " + ", ".join(verdict.fouls)
    if verdict.points:
        return f"{verdict.points} point"
    return "no point"
