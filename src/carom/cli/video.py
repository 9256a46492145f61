"""``carom video``: video of a carom table in, tracked strokes out (and judged, or sent live)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from carom.cli.app import app, fail, output_file

if TYPE_CHECKING:
    from carom.core.table import TableSpec
    from carom.rules.disciplines import Discipline
    from carom.video.errors import VideoError
    from carom.video.pipeline import Progress


@app.command()
def video(
    file: Annotated[str | None, typer.Argument(metavar="FILE", help="A video file (MP4, MKV, MOV, TS, ...).")]
    = None,
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write the tracked strokes here (the format "
                                             "carom track reads).", dir_okay=False)] = None,
    judge: Annotated[bool, typer.Option("--judge", help="Judge the strokes at once (as carom track does).")]
    = False,
    carom_out: Annotated[Path | None, typer.Option("--carom-out",
                                                   help="Also write the judged strokes as a carom/1 "
                                                   "match record.", dir_okay=False)] = None,
    discipline: Annotated[str,
                          typer.Option(help="The discipline the strokes are judged by (live to a "
                                       "scoreboard: each match's own; this one for a stroke not "
                                       "written).")] = "three-cushion",
    table: Annotated[str | None, typer.Option(metavar="SIZE|NAME",
                                              help="A file: the table's size (large, small, half-match; "
                                              "default: the discipline's first). With --live and --server: "
                                              "the hall's table NAME whose match now each stroke is written "
                                              "to (its size is the hall's).")] = None,
    corners: Annotated[str | None,
                       typer.Option(help="The cushion noses' corners in pixels, 'x,y x,y x,y x,y', "
                                                     "from (0, 0) on to (W, 0), (W, L), (0, L): for "
                                                     "a camera whose table is not found by itself.")] = None,
    camera_height: Annotated[float, typer.Option(help="How high above the table a camera looking straight "
                                                      "down hangs, m (its height cannot be seen).")] = 3.5,
    live: Annotated[str | None, typer.Option("--live", metavar="DEVICE_OR_URL",
                                             help="Read a camera instead of "
                                             "a file: /dev/video0, rtsp://..., http://...")] = None,
    server: Annotated[str | None,
                      typer.Option(help="Live: the scoreboard's address, http://HOST:PORT.")] = None,
    match: Annotated[int | None, typer.Option(help="Live: one scoreboard match each stroke is written to "
                                                   "(instead of --table NAME), with --token.")] = None,
    token: Annotated[str | None, typer.Option(help="Live, with --match: the match's referee token.")] = None,
    pair: Annotated[str | None, typer.Option(metavar="CODE",
                                             help="Live, with --table: pair once as the table's device with "
                                             "the organiser's one-time code; the device token is kept in "
                                             "--device-token-file (default: a file per scoreboard and table "
                                             "under ~/.config/carom/devices, mode 0600). Without a video: "
                                             "pair and stop.")] = None,
    device_token: Annotated[str | None, typer.Option(help="Live, with --table: the table's device token. "
                                                     "Shown by ps to every user: prefer the environment "
                                                     "variable CAROM_DEVICE_TOKEN or the token's file.")]
    = None,
    device_token_file: Annotated[Path | None, typer.Option(help="Live, with --table: the file the device "
                                                           "token is kept in (read, or written by --pair).",
                                                           dir_okay=False)] = None,
    threads: Annotated[int | None, typer.Option(help="Decoder threads (default: as many as help).", min=1,
                                                max=64)] = None,
) -> None:
    """Follow the balls of a video and cut it into strokes.

    The tracked strokes (one a line, every ball's sampled centre with its
    uncertainty, the inning and the player) are printed, or written with -o,
    in the format carom track reads; --judge judges them at once. A file
    that is not a video, or in which no table is found, is refused (exit
    status 2); a video that breaks off or whose camera moves after some
    strokes keeps them all, names the frame and time, and exits with 1; so
    does a stroke in which a ball is never seen: it is said, not judged, and
    the others are (--carom-out is then not written).

    --live reads a camera and writes each judged stroke to a scoreboard:
    --server URL --table NAME writes to the match the hall's table NAME
    plays now, moving on with the table, with the table's device token
    (--pair CODE once; then the kept file, CAROM_DEVICE_TOKEN or
    --device-token-file); --server URL --match ID --token T writes to one
    match. A stroke not written is said with its reason, and counted at
    the end.
    """
    from carom.cli import video_live
    from carom.video.errors import VideoError
    from carom.video.pipeline import Progress, Settings, track_video

    scoreboarding = video_live.Scoreboarding(server, match, token, table if server else None, pair,
                                             device_token, device_token_file)
    if file is None and live is None and pair is not None:
        video_live.pair_only(scoreboarding)
        return
    if (file is None) == (live is None):
        fail("give a video FILE or --live DEVICE_OR_URL (one of them)")
    live_sink = video_live.sink(live, scoreboarding)
    rules, spec = _setup(discipline, table if live_sink is None else live_sink.size)
    live_log = None if live_sink is None else video_live.LiveLog(live_sink, rules, spec)
    for path, option in ((out, "-o"), (carom_out, "--carom-out")):
        if path is not None:
            output_file(path, option)
    settings = Settings(spec, _corners(corners), _height(camera_height), live is not None, threads)
    source = live or file
    assert source is not None
    progress = Progress()
    lines: list[dict[str, Any]] = []
    problem: VideoError | None = None
    try:
        for line in track_video(source, settings, progress):
            lines.append(line)
            if live_log is not None:
                live_log.send(line)
            elif not judge and out is None:
                sys.stdout.write(json.dumps(line) + "\n")
                sys.stdout.flush()
    except VideoError as error:
        if not lines and progress.frames == 0:
            fail(str(error))
        problem = error
    except KeyboardInterrupt:
        problem = VideoError("interrupted", source, progress.frames, progress.seconds)
    text = "".join(json.dumps(line) + "\n" for line in lines)
    if out is not None:
        _write(out, text)
    left = _judge(lines, rules, spec, carom_out, Path(source).name, show=judge) if judge or carom_out else 0
    if live_log is not None:
        typer.echo(live_log.summary(), err=True)
    for note in camera_notes(progress):
        typer.echo(f"carom: {note}", err=True)
    if problem is not None:
        typer.echo(f"carom: {problem} ({len(lines)} stroke(s) before it kept)", err=True)
    if problem is not None or left:
        raise typer.Exit(1)


def camera_notes(progress: Progress) -> list[str]:
    """What was undone in the camera's picture before the balls were looked for: a colour
    coding other than the tracker's, its colour cast, a score box over the table (said on
    the error stream, so that a user knows what the tracker saw)."""
    from carom.video.colours import REFERENCE

    notes = []
    if progress.coding != REFERENCE:
        notes.append(f"the stream's colours, coded {progress.coding}, were read as {REFERENCE}")
    if progress.balance is not None:
        red, green, blue = progress.balance.gains
        notes.append(f"the camera's colour cast was undone (its gains, measured on the white ball: red "
                     f"{red:.2f}, green {green:.2f}, blue {blue:.2f})")
    if progress.overlay is not None:
        box = progress.overlay
        notes.append(f"a score box over the table (x {box.x0}-{box.x1}, y {box.y0}-{box.y1}, "
                     f"{box.alpha:.0%} of the light through) was undone while drawn")
    return notes


def _corners(text: str | None) -> Any:
    if text is None:
        return None
    import numpy as np

    try:
        points = [tuple(float(v) for v in pair.split(",")) for pair in text.split()]
    except ValueError:
        fail(f"--corners {text}: expected four x,y pairs of numbers")
    if len(points) != 4 or any(len(p) != 2 for p in points):
        fail(f"--corners {text}: expected four x,y pairs (bottom-left, bottom-right, top-right, top-left)")
    return np.array(points, dtype=float)


def _height(value: float) -> float:
    if not 0.5 <= value <= 20.0:
        fail(f"--camera-height {value}: expected 0.5 to 20 m")
    return value


def _setup(name: str, table: str | None) -> tuple[Discipline, TableSpec]:
    from carom.cli.track import _setup as setup

    return setup(name, table)


def _write(path: Path, text: str) -> None:
    from carom.core.outputs import write_text

    try:
        write_text(path, text)
    except OSError as error:
        fail(f"{path}: {error}")


def _judge(lines: list[dict[str, Any]], rules: Discipline, spec: TableSpec, carom_out: Path | None,
           name: str, show: bool) -> int:
    """The strokes judged as one recording, the video's own doubts beside each ruling; a
    stroke the auto-referee cannot read (a ball never seen in it) is said in its place and
    the others judged. The match record is written only when every stroke is judged (one
    missing would put the score and the innings wrong). Returns how many were not judged."""
    from carom.cli.track import human, summary
    from carom.track import match_record
    from carom.video.doubts import read_doubts
    from carom.video.judged import NotJudged, apart, judge_strokes

    if not lines:
        if show:
            sys.stdout.write("no stroke found in the video\n")
        return 0
    judged = judge_strokes(lines, rules, spec)
    rulings, left = apart(judged)
    if show:
        for number, (entry, line) in enumerate(zip(judged, lines, strict=True), start=1):
            if isinstance(entry, NotJudged):
                sys.stdout.write(f"shot {entry.shot}  not judged: {entry.why}\n")
            else:
                sys.stdout.write(human(entry))
            seen = read_doubts(line.get("doubts"), number)
            sys.stdout.writelines(f"  video  {doubt['what']}\n" for doubt in seen)
        sys.stdout.write(summary(rulings))
        video_doubts = sum(1 for line in lines if line.get("doubts"))
        sys.stdout.write(f"strokes the video itself makes doubtful: {video_doubts}\n")
    for _, entry in left:
        typer.echo(f"carom: {name}: shot {entry.shot} cannot be judged ({entry.why}); the others are",
                   err=True)
    if carom_out is not None:
        if left:
            typer.echo(f"carom: {carom_out}: not written: {len(left)} stroke(s) not judged would be missing "
                       "from the match", err=True)
        else:
            from carom.core.outputs import write_text

            write_text(carom_out, match_record(rulings, rules, spec, name).text())
    return len(left)


__all__ = ["video"]
