"""``carom track``: judge strokes from tracked ball trajectories (the auto-referee)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from carom.cli.app import app, err
from carom.core.balls import BALLS
from carom.core.events import BallContact, CushionContact, Event
from carom.core.table import TABLES, TableSpec
from carom.notation.writer import format_match, record_json
from carom.rules.disciplines import DISCIPLINES, Discipline
from carom.track import READERS, TrackedRuling, TrackFormatError, match_record, read_tracked, track_sequence
from carom.track.confidence import DOUBTFUL_BELOW
from carom.track.samples import TrackedStroke

PROGRESS_FROM = 20
"""Files with at least this many strokes show a progress bar (on a terminal)."""


@app.command()
def track(
    file: Annotated[Path, typer.Argument(help="A tracked file (one stroke a line: shot, cue, balls).",
                                         exists=True, dir_okay=False)],
    discipline: Annotated[str, typer.Option(help="The discipline the strokes are judged by.")]
    = "three-cushion",
    table: Annotated[str | None, typer.Option(help=f"{', '.join(TABLES)} (default: the "
                                                   "discipline's first table).")] = None,
    fmt: Annotated[str | None, typer.Option("--format", help="The tracked file's format (default: "
                                                             "recognised from its first line).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per stroke, one a line.")]
    = False,
    carom_out: Annotated[Path | None, typer.Option("--carom-out", help="Also write the strokes as a "
                                                   "carom/1 match record (MATCH.carom.jsonl).",
                                                   dir_okay=False)] = None,
) -> None:
    """Judge tracked strokes: derive each stroke's events, rule, say how sure.

    Each stroke's ball–ball contacts, cushion contacts and jumps are
    reconstructed from the sampled ball centres (straight motions with
    deceleration between samples, reflections on the cushion lines, contacts
    that only a collision explains), then judged by the referee like any
    carom/1 stroke. Every ruling comes with a confidence (the chance that no
    single measurement error changes it); below 0.9 the stroke is listed as
    doubtful for a human to look at, and so is a stroke after which the next
    one does not start where it left the balls (the recording misses
    something). A malformed file is refused with the line
    and the field (exit status 2) before anything is printed.
    """
    rules, spec = _setup(discipline, table)
    try:
        strokes = list(read_tracked(file, fmt))
    except TrackFormatError as error:
        err.print(f"[bold red]carom:[/] {file}: {error}", soft_wrap=True, markup=True, highlight=False)
        raise typer.Exit(2) from None
    except (OSError, UnicodeDecodeError) as error:
        err.print(f"[bold red]carom:[/] {file}: {error}")
        raise typer.Exit(2) from None
    rulings: list[TrackedRuling] = []
    out = sys.stdout
    for ruling in _judged(strokes, rules, spec):
        rulings.append(ruling)
        out.write(json.dumps(stroke_json(ruling)) + "\n" if as_json else human(ruling))
    if not as_json:
        out.write(summary(rulings))
    if carom_out is not None:
        record = match_record(rulings, rules, spec, file.name)
        try:
            carom_out.write_text(format_match(record.header, list(record.records)), encoding="utf-8")
        except OSError as error:
            err.print(f"[bold red]carom:[/] {carom_out}: {error}")
            raise typer.Exit(2) from None
        if record.corrections:
            err.print(f"carom: {carom_out}: {record.corrections} place(s) where the recording's course "
                      "differs from the rulings were bridged (see the notes in the file)",
                      highlight=False, soft_wrap=True)


def _setup(name: str, table: str | None) -> tuple[Discipline, TableSpec]:
    rules = DISCIPLINES.get(name)
    if rules is None:
        err.print(f"[bold red]carom:[/] unknown discipline {name!r} (known: {', '.join(DISCIPLINES)})",
                  soft_wrap=True)
        raise typer.Exit(2)
    chosen = table or rules.tables[0]
    if chosen not in TABLES or chosen not in rules.tables:
        err.print(f"[bold red]carom:[/] {name} is not played on a table called {chosen!r} "
                  f"(its tables: {', '.join(rules.tables)})")
        raise typer.Exit(2)
    return rules, TABLES[chosen]


def _judged(strokes: list[TrackedStroke], rules: Discipline, spec: TableSpec) -> Iterator[TrackedRuling]:
    """The strokes judged as one recording (:func:`track_sequence`), with a progress bar."""
    show = err.is_terminal and len(strokes) >= PROGRESS_FROM
    columns = (TextColumn("tracking"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=err, transient=True, disable=not show) as progress:
        task = progress.add_task("tracking", total=len(strokes))

        def counted() -> Iterator[TrackedStroke]:
            for tracked in strokes:
                yield tracked
                progress.advance(task)

        yield from track_sequence(counted(), rules, spec)


def stroke_json(ruling: TrackedRuling) -> dict[str, Any]:
    """The ``--json`` object of one stroke."""
    tracked = ruling.tracked
    out: dict[str, Any] = {
        "shot": tracked.shot,
        "line": tracked.line,
        "cue": tracked.cue.value,
        "points": ruling.points,
        "fouls": list(ruling.verdict.fouls),
        "cites": list(ruling.verdict.cites),
        "confidence": round(ruling.confidence, 4),
        "doubtful": ruling.doubtful,
        "doubts": [{"probability": None if d.probability is None else round(d.probability, 4), "what": d.what}
                   for d in ruling.doubts],
        "stroke": record_json(ruling.stroke),
    }
    if tracked.label is not None:
        out["tracked_point"] = tracked.label
    return out


def ruling_words(ruling: TrackedRuling) -> str:
    verdict = ruling.verdict
    if verdict.points:
        return f"carom, {verdict.points} point"
    if verdict.fouls:
        return "foul " + ", ".join(verdict.fouls)
    if verdict.contacts.ball3 is None:
        return "no point: ball 1 did not hit both balls (C1)"
    cushion_rule = next((c for c in verdict.cites if c in ("1C1", "3C1")), None)
    if cushion_rule is not None:
        return (f"no point: {verdict.contacts.cushions_before_ball3} cushion(s) before ball 3 "
                f"({cushion_rule})")
    return "no point"


def event_words(event: Event) -> str:
    when = f"{event.t:6.2f} s" if event.t is not None else "       "
    if isinstance(event, BallContact):
        return f"{when}  {event.ball} hits {event.other}"
    if isinstance(event, CushionContact):
        return f"{when}  {event.ball}: {event.cushion} cushion"
    return f"{when}  {event.ball} jumps off the table"


def _where(position: Any) -> str:
    if position is None:
        return "unknown"
    return "  ".join(f"{b} ({position[b][0]:.3f}, {position[b][1]:.3f})" for b in BALLS if b in position)


def human(ruling: TrackedRuling) -> str:
    """One stroke for people: the ruling and confidence, the events, start and end."""
    tracked, stroke = ruling.tracked, ruling.stroke
    flag = "  DOUBTFUL" if ruling.doubtful else ""
    lines = [f"shot {tracked.shot}  {tracked.cue}  {ruling_words(ruling)}  "
             f"confidence {ruling.confidence:.3f}{flag}"]
    lines.extend(f"  {event_words(e)}" for e in stroke.events)
    lines.append(f"  start  {_where(stroke.start)}")
    lines.append(f"  end    {_where(stroke.end)}")
    lines.extend(f"  exit   {e.ball} left {e.zone} and came back" for e in stroke.exits)
    if ruling.doubtful:
        lines.extend(f"  doubt  {d.what}" for d in ruling.doubts[:3])
    return "\n".join(lines) + "\n"


def summary(rulings: Iterable[TrackedRuling]) -> str:
    """The closing lines: counts, agreement with the input's labels, the doubtful strokes."""
    rulings = list(rulings)
    points = sum(1 for r in rulings if r.points)
    doubtful = [r for r in rulings if r.doubtful]
    lines = ["", f"{len(rulings)} strokes: {points} scored, {len(rulings) - points} did not"]
    labelled = [r for r in rulings if r.tracked.label is not None]
    if labelled:
        agree = sum(1 for r in labelled if (r.points > 0) == r.tracked.label)
        lines.append(f"agreement with the file's point field: {agree}/{len(labelled)} "
                     f"({100.0 * agree / len(labelled):.1f} %)")
    lines.append(f"doubtful strokes (confidence below {DOUBTFUL_BELOW}, or a recording that misses something "
                 f"after them): {len(doubtful)}")
    for r in doubtful:
        first = r.doubts[0].what if r.doubts else ""
        lines.append(f"  shot {r.tracked.shot}  confidence {r.confidence:.3f}  {ruling_words(r)}  ({first})")
    return "\n".join(lines) + "\n"


__all__ = ["READERS", "track"]
