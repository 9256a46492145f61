"""``carom track``: judge strokes from tracked ball trajectories (the auto-referee)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from carom.cli.app import app, fail, output_file
from carom.core.balls import BALLS

if TYPE_CHECKING:  # the auto-referee (numba, numpy) loads when the command runs
    from carom.core.events import Event
    from carom.core.table import TableSpec
    from carom.rules.disciplines import Discipline
    from carom.track import TrackedRuling
    from carom.track.samples import TrackedStroke

PROGRESS_FROM = 20
"""Files with at least this many strokes show a progress bar (on a terminal)."""


TrackedFile = Annotated[str, typer.Argument(
    metavar="FILE", help="A tracked file (one stroke a line: shot, cue, balls); - reads standard input.")]
DisciplineName = Annotated[str, typer.Option(help="The discipline the strokes are judged by.")]
TableName = Annotated[str | None, typer.Option(help="A table of carom.core.table.TABLES: large, small, "
                                                    "half-match, ... (default: the discipline's first "
                                                    "table).")]
FormatName = Annotated[str | None, typer.Option("--format", help="The tracked file's format (default: "
                                                                 "recognised from its first line).")]
"""The options ``carom track`` and ``carom fit`` share."""


@app.command()
def track(
    file: TrackedFile,
    discipline: DisciplineName = "three-cushion",
    table: TableName = None,
    fmt: FormatName = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object per stroke, one a line.")]
    = False,
    carom_out: Annotated[str | None, typer.Option("--carom-out", help="Also write the strokes as a "
                                                  "carom/1 match record (MATCH.carom.jsonl).")] = None,
) -> None:
    """Judge tracked strokes and say how sure each ruling is.

    Each stroke's ball–ball contacts, cushion contacts and jumps are
    reconstructed from the sampled ball centres (straight motions with
    deceleration between samples, reflections on the cushion lines, contacts
    that only a collision explains), then judged by the referee like any
    carom/1 stroke. Every ruling comes with a confidence (the chance that no
    single measurement error changes it); below 0.99 the stroke is listed as
    doubtful for a human to look at, and so is a stroke after which the next
    one does not start where it left the balls (the recording misses
    something). A malformed file is refused with the line
    and the field (exit status 2) before anything is printed.
    """
    from carom.core.outputs import write_text
    from carom.track import corrections, match_record

    rules, spec = _setup(discipline, table)
    record_file = None if carom_out is None else output_file(carom_out, "--carom-out")
    strokes = read_strokes(file, fmt)
    rulings: list[TrackedRuling] = []
    out = sys.stdout
    for ruling in _judged(strokes, rules, spec):
        rulings.append(ruling)
        out.write(json.dumps(stroke_json(ruling)) + "\n" if as_json else human(ruling))
    if not as_json:
        out.write(summary(rulings))
    if record_file is not None:
        record = match_record(rulings, rules, spec, Path(file).name if file != "-" else "standard input")
        try:
            write_text(record_file, record.text())
        except OSError as error:
            fail(f"{carom_out}: {error}")
        if corrections(record):
            typer.echo(f"carom: {carom_out}: {corrections(record)} place(s) where the recording's course "
                       "differs from the rulings were bridged (see the notes in the file)", err=True)


def read_strokes(name: str, fmt: str | None) -> list[TrackedStroke]:
    """The tracked strokes of the file called ``name`` (``-``: standard input), read once,
    a line at a time within the bound of ``carom.core.sources``; a file that cannot be read
    exits 2 naming the line (a line that is not UTF-8 with its number)."""
    from carom.cli.app import input_file
    from carom.core.errors import InputError
    from carom.core.sources import opened, text_lines
    from carom.notation.matchfile import checked
    from carom.track import TrackFormatError, read_lines

    def lines(handle: Any) -> Iterator[str]:
        for number, text in enumerate(text_lines(handle), start=1):
            try:
                yield checked(text)
            except ValueError as error:  # a RecordError: bytes that are not UTF-8
                raise TrackFormatError(str(error), number) from None

    try:
        with opened(input_file(name)) as handle:
            return list(read_lines(lines(handle), fmt))
    except (TrackFormatError, InputError) as error:
        fail(f"{name}: {error}")


def _setup(name: str, table: str | None) -> tuple[Discipline, TableSpec]:
    from carom.core.table import TABLES
    from carom.rules.disciplines import DISCIPLINES

    rules = DISCIPLINES.get(name)
    if rules is None:
        fail(f"unknown discipline {name!r} (known: {', '.join(DISCIPLINES)})")
    chosen = table or rules.tables[0]
    if chosen not in TABLES or chosen not in rules.tables:
        fail(f"{name} is not played on a table called {chosen!r} (its tables: {', '.join(rules.tables)})")
    return rules, TABLES[chosen]


def _judged(strokes: list[TrackedStroke], rules: Discipline, spec: TableSpec) -> Iterator[TrackedRuling]:
    """The strokes judged as one recording (:func:`track_sequence`), with a progress bar."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from carom.track import track_sequence

    err = Console(stderr=True, highlight=False)
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
    from carom.notation.writer import record_json

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
    from carom.core.events import BallContact, CushionContact

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
    from carom.track import DOUBTFUL_BELOW

    rulings = list(rulings)
    points = sum(1 for r in rulings if r.points)
    doubtful = [r for r in rulings if r.doubtful]
    lines = ["", f"{len(rulings)} strokes: {points} scored, {len(rulings) - points} did not"]
    labelled = [r for r in rulings if r.tracked.label is not None]
    if labelled:
        agree = sum(1 for r in labelled if (r.points > 0) == r.tracked.label)
        lines.append(f"agreement with the file's point field: {agree}/{len(labelled)} "
                     f"({100.0 * agree / len(labelled):.1f} %)")
    camera = rulings[0].camera if rulings else None  # one recording: every ruling holds the same
    lines.append(f"camera bias near other balls, measured over the recording: {camera.describe()}"
                 if camera is not None else "camera bias near other balls: too few samples near resting "
                 "balls to measure it over the recording (each stroke weighed as alone)")
    lines.append(f"doubtful strokes (confidence below {DOUBTFUL_BELOW}, or a recording that misses something "
                 f"after them): {len(doubtful)}")
    for r in doubtful:
        first = r.doubts[0].what if r.doubts else ""
        lines.append(f"  shot {r.tracked.shot}  confidence {r.confidence:.3f}  {ruling_words(r)}  ({first})")
    return "\n".join(lines) + "\n"


__all__ = ["track"]
