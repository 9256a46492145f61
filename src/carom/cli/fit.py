"""``carom fit``: read each tracked stroke's cue strike back by fitting the simulator."""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from carom.cli.app import app, fail, output_file, within
from carom.cli.track import DisciplineName, FormatName, TableName, TrackedFile

if TYPE_CHECKING:  # the fit (SciPy, the simulator, the auto-referee) loads when the command runs
    from carom.core.table import TableSpec
    from carom.fit import Agreement, Budget, FittedStroke
    from carom.track import TrackedRuling
    from carom.track.samples import TrackedStroke

PROGRESS_FROM = 2
"""Files with at least this many strokes show a progress bar (on a terminal)."""


@app.command()
def fit(
    file: TrackedFile,
    output: Annotated[Path | None, typer.Option(
        "-o", "--output", metavar="OUT", help="Write one JSON object per stroke, one a line, to OUT.",
        dir_okay=False)] = None,
    discipline: DisciplineName = "three-cushion",
    table: TableName = None,
    fmt: FormatName = None,
    simulations: Annotated[int, typer.Option(
        metavar="N", help="Most simulations one stroke's fit may run (100 to 100000).")] = 3000,
    seconds: Annotated[float, typer.Option(
        metavar="S", help="Most processor seconds one stroke's fit may take (0.1 to 600).")] = 1.0,
) -> None:
    """Read each stroke's cue strike back from its tracked balls.

    For every stroke of a tracked file the simulator is fitted to every ball's
    samples (least squares): the cue speed, its direction, the tip offsets side
    and height (fractions of R), the cue elevation and the moment of the strike,
    each with its uncertainty (one standard deviation from the fit's Jacobian,
    taking the simulator as exact). The strike is first read from the cue ball's
    run before any contact, then the whole stroke decides the side and the
    elevation. Each stroke's fit is bounded: --simulations and --seconds of
    processor time (the best strike found so far is the answer and says so).

    Each stroke prints its strike, how far the re-simulated stroke is from the
    tracked one (RMSE per ball) and whether its first contact, its cushions before
    ball 3 and its ruling are the recording's (the auto-referee's reading of the
    same tracks). A stroke is offered as what was played only when no ball was
    lost by the tracker, the cue ball's run before any contact is reproduced
    within the tracker's noise and every ball's RMSE is within 5 cm; otherwise
    its problems are listed, with the residual. -o writes all of it as JSON lines.
    A malformed file is refused with the line and the field (exit status 2).
    """
    from carom.cli.track import _setup, read_strokes
    from carom.fit import Budget

    rules, spec = _setup(discipline, table)
    within("--simulations", simulations, 100, 100_000, "simulations")
    within("--seconds", seconds, 0.1, 600.0, "seconds")
    if output is not None:
        output_file(output, "-o")
    strokes = read_strokes(file, fmt)
    rows = []
    for row in _fitted(strokes, rules, spec, Budget(simulations, seconds)):
        rows.append(row)
        sys.stdout.write(human(row))
    sys.stdout.write(summary(rows))
    if output is not None:
        from carom.core.outputs import write_text

        try:
            write_text(output, "".join(json.dumps(row) + "\n" for row in rows))
        except OSError as error:
            fail(f"{output}: {error}")


def _fitted(strokes: list[TrackedStroke], rules: Any, spec: TableSpec,
            budget: Budget) -> Iterator[dict[str, Any]]:
    """Each stroke fitted and compared with the recording's ruling, with a progress bar."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from carom.core.errors import CaromError
    from carom.fit import agreement, fit_stroke
    from carom.track import track_sequence

    err = Console(stderr=True, highlight=False)
    show = err.is_terminal and len(strokes) >= PROGRESS_FROM
    columns = (TextColumn("fitting"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True, disable=not show) as progress:
        task = progress.add_task("fitting", total=len(strokes))
        recorded = list(track_sequence(iter(strokes), rules, spec))
        for tracked, ruling in zip(strokes, recorded, strict=True):
            try:
                fitted = fit_stroke(tracked, spec, budget=budget)
            except CaromError as error:
                yield unfitted_json(tracked, str(error))
            else:
                agreed = agreement(fitted.stroke, ruling.verdict, rules, spec)
                yield stroke_json(tracked, fitted, agreed, ruling)
            progress.advance(task)


def _head(tracked: TrackedStroke) -> dict[str, Any]:
    """What every ``-o`` object begins with: which stroke of the file."""
    return {"shot": tracked.shot, "line": tracked.line, "cue": tracked.cue.value}


def unfitted_json(tracked: TrackedStroke, why: str) -> dict[str, Any]:
    return {**_head(tracked), "played": False, "problems": [why]}


def stroke_json(tracked: TrackedStroke, fitted: FittedStroke, agreed: Agreement,
                ruling: TrackedRuling) -> dict[str, Any]:
    """The ``-o`` object of one stroke (docs/fit.md, "carom fit")."""
    strike = fitted.strike
    out: dict[str, Any] = {
        **_head(tracked),
        "played": fitted.played,
        "problems": list(fitted.problems),
        "strike": {"speed": round(strike.speed, 4), "direction": round(strike.direction, 3),
                   "side": round(strike.side, 4), "height": round(strike.height, 4),
                   "elevation": round(strike.elevation, 2), "time": round(fitted.strike_time, 4)},
        "uncertainty": {name: float(f"{value:.3g}") for name, value in fitted.uncertainty.items()},
        "rmse": {ball.value: round(value, 4) for ball, value in fitted.rmse.items()},
        "moved": [ball.value for ball in fitted.moved],
        "free_run_rms": round(fitted.free_run_rms, 5),
        "first_contact": _pair(agreed.fitted.first_contact, agreed.recorded.first_contact),
        "cushions_before_ball3": _pair(agreed.fitted.cushions, agreed.recorded.cushions),
        "ruling": _pair(agreed.fitted.words(), agreed.recorded.words()),
        "recorded_confidence": round(ruling.confidence, 4),
        "simulations": fitted.simulations,
        "seconds": round(fitted.seconds, 3),
    }
    if tracked.label is not None:
        out["tracked_point"] = tracked.label
    return out


def _pair(fitted: Any, recorded: Any) -> dict[str, Any]:
    return {"fitted": _plain(fitted), "recorded": _plain(recorded), "same": fitted == recorded}


def _plain(value: Any) -> Any:
    """A ball by its name; anything else as it is."""
    from carom.core.balls import Ball

    return value.value if isinstance(value, Ball) else value


def human(row: dict[str, Any]) -> str:
    """One stroke for people: the strike, the worst RMSE, what agrees, the problems."""
    head = f"shot {row['shot']}  {row['cue']}"
    if "strike" not in row:
        return f"{head}  not fitted: {'; '.join(row['problems'])}\n"
    s, u = row["strike"], row["uncertainty"]
    lines = [f"{head}  {'played' if row['played'] else 'NOT what was played'}  "
             f"speed {s['speed']:.2f}±{u['speed']:.2g} m/s  "
             f"direction {s['direction']:.2f}±{u['direction']:.2g}°  "
             f"side {s['side']:+.2f}±{u['side']:.2g}  height {s['height']:+.2f}±{u['height']:.2g}  "
             f"elevation {s['elevation']:.1f}±{u['elevation']:.2g}°",
             "  RMSE " + "  ".join(f"{b} {100 * v:.1f} cm" for b, v in row["rmse"].items())]
    same = [name for name in ("first_contact", "cushions_before_ball3", "ruling") if row[name]["same"]]
    differ = [f"{name}: {row[name]['fitted']} (recording {row[name]['recorded']})"
              for name in ("first_contact", "cushions_before_ball3", "ruling") if not row[name]["same"]]
    lines.append("  same as the recording: " + (", ".join(same) or "nothing")
                 + ("; differs: " + ", ".join(differ) if differ else ""))
    lines.extend(f"  problem: {p}" for p in row["problems"])
    return "\n".join(lines) + "\n"


def summary(rows: list[dict[str, Any]]) -> str:
    """The closing lines: how many fitted and played, the median RMSE, what agrees."""
    fitted = [r for r in rows if "strike" in r]
    played = sum(r["played"] for r in rows)
    lines = ["", f"{len(rows)} strokes: {len(fitted)} fitted, {played} offered as what was played"]
    if fitted:
        moved = [r["rmse"][b] for r in fitted for b in r["moved"]]
        if moved:
            lines.append(f"median RMSE of the balls that moved: {100 * statistics.median(moved):.1f} cm "
                         f"({len(moved)} balls)")
        for name in ("first_contact", "cushions_before_ball3", "ruling"):
            same = sum(r[name]["same"] for r in fitted)
            lines.append(f"same {name.replace('_', ' ')} as the recording: {same}/{len(fitted)}")
        seconds = statistics.median(r["seconds"] for r in fitted)
        lines.append(f"median processor time per stroke: {seconds:.2f} s")
    return "\n".join(lines) + "\n"


__all__ = ["fit"]
