"""The video tracker on rendered clips of the family kept for measuring (never tuned on).

Renders ``--clips`` clips of ``--strokes`` strokes each (1080p30 broadcast style unless
told otherwise: an overhead camera, players, a referee, score graphics, H.264 at 4-9
Mbit/s), runs ``carom video``'s pipeline on each with one decoder thread, and prints:

* the position error of every sample against the truth at its own time (its frame's; for a
  field of an interlaced clip, read as a picture of its own, the field's) (median, 99th
  percentile, mm): out of sample for seeds never tracked before, in-sample once a
  clip has been looked at (say which: ``--seen``);
* identity swaps (a sample lying nearer another ball's true centre than its own, within
  a ball's diameter);
* strokes missed and invented (a found stroke matches a true one starting within 0.5 s);
* the auto-referee's rulings on the found strokes against the rendered strokes' own
  rulings (the points, and the cue ball they were played with: points with the wrong cue
  ball go to the wrong player), and how many disagreements are flagged doubtful;
* speed: CPU seconds of tracking per second of video (below 1: faster than real time).

``--cast B,G,R`` renders the clips through a camera whose white balance does not match the
lamps (gains on blue, green and red light), ``--graphics-gone FROM,TO`` with the score box
not drawn for a while, ``--interlaced`` woven from two fields (1080i), ``--matrix BT.709``
and ``--full-range`` coded as an HD camera or a webcam codes colour (marked in the stream),
``--chroma 4:2:2`` with colour at half the width only, as studios send it (H.264 High 4:2:2);
``--without balance``, ``--without panel-watch`` or ``--without coding`` (every stream read
as BT.601 in limited range, as before the stream's marks were read) tracks them with that
part switched off.

    .venv/bin/python benchmarks/video_accuracy.py --clips 3 --strokes 3
"""

from __future__ import annotations

import argparse
import os
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.table import TABLES
from carom.rules.disciplines import DISCIPLINES
from carom.video import frames, pipeline
from carom.video.colours import REFERENCE, Coding
from carom.video.errors import VideoError
from carom.video.judged import NotJudged, judge_strokes
from carom.video.pipeline import Settings, track_video
from carom.video.render.clip import PIXEL_FORMATS, TAGS, Truth, render_match
from carom.video.render.look import FAMILY_FIRST, Look, draw_look
from carom.video.render.play import play_match

TABLE = TABLES["large"]
RULES = DISCIPLINES["three-cushion"]
SAME_TIME = 1e-6
"""A sample within this of a frame's time, s, was taken from that frame."""


def _no_balance() -> None:
    pipeline.find_balance = lambda *_args, **_kw: None


def _no_panel_watch() -> None:
    pipeline.PanelWatch.check = lambda *_args, **_kw: False  # type: ignore[method-assign]


def _no_coding() -> None:
    frames.coding_of = lambda *_args, **_kw: REFERENCE


PARTS = {"balance": _no_balance, "panel-watch": _no_panel_watch, "coding": _no_coding}
"""Parts of the tracker that ``--without`` switches off: the camera's colour cast left as
it is; the score box found at the start undone in every frame, drawn or not; the stream's
colour matrix and range (read as BT.601's limited range whatever it says)."""


def measure(truth: Truth, lines: list[dict]) -> dict:
    errors: list[float] = []
    swaps = 0
    for line in lines:
        t0 = line["video"]["time"]
        for name, cols in line["balls"].items():
            ball = Ball(name)
            for t, x, y in zip(cols["t"], cols["x"], cols["y"], strict=True):
                centres = _true_centres(truth, t + t0)
                own = float(np.hypot(x - centres[ball][0], y - centres[ball][1]))
                errors.append(own * 1000.0)
                others = [float(np.hypot(x - centres[b][0], y - centres[b][1]))
                          for b in BALLS if b is not ball]
                if min(others) < own and min(others) < 2.0 * TABLE.ball_radius:
                    swaps += 1
    found = [line["video"]["time"] + 0.3 for line in lines]
    true_starts = [s.start for s in truth.match.strokes]
    matched = {i: j for i, s in enumerate(true_starts) for j, f in enumerate(found) if abs(f - s) < 0.5}
    rulings = judge_strokes(lines, RULES, TABLE)
    agree = flagged = compared = 0
    for i, j in matched.items():
        compared += 1
        played, ruling = truth.match.strokes[i], rulings[j]
        # the same ruling of the same striker's ball: points scored with the wrong cue ball
        # go to the wrong player; a stroke not judged disagrees, and is put before a human
        same = (not isinstance(ruling, NotJudged) and ruling.points == played.verdict.points
                and ruling.tracked.cue is played.cue)
        agree += same
        unsure = isinstance(ruling, NotJudged) or ruling.doubtful or bool(lines[j]["doubts"])
        flagged += (not same) and unsure
    return {"errors": errors, "swaps": swaps, "missed": len(true_starts) - len(matched),
            "invented": len(found) - len(set(matched.values())), "compared": compared, "agree": agree,
            "flagged": flagged, "not judged": sum(isinstance(r, NotJudged) for r in rulings)}


def _true_centres(truth: Truth, t: float) -> dict[Ball, tuple[float, float]]:
    """Every ball's true centre at a sample's time ``t``: the one kept for the frame at that
    time, or, for a sample between frames (a field of an interlaced clip, half a frame after
    its frame), the match's own centres at ``t``."""
    k = int(np.argmin(np.abs(truth.times - t)))
    if abs(float(truth.times[k]) - t) < SAME_TIME:
        return {b: (float(truth.centres[b][k, 0]), float(truth.centres[b][k, 1])) for b in BALLS}
    return truth.match.positions(t)


def _errors(errors: list[float]) -> str:
    """The position errors' median, 99th percentile and largest (none: no sample at all,
    a clip refused before its first stroke)."""
    if not errors:
        return "no sample"
    e = np.array(errors)
    return f"median {np.median(e):.2f} mm, p99 {np.percentile(e, 99):.2f} mm (max {e.max():.1f})"


def _rendered(path: Path, seed: int, strokes: int, look: Look) -> Truth:
    """The clip at ``path``, rendered unless it is there with its truth (frame times and
    centres, beside it); the match is played again (the simulator is deterministic)."""
    kept = path.with_suffix(".truth.npz")
    if path.exists() and kept.exists():
        data = np.load(kept)
        match = play_match(seed, strokes, RULES, TABLE)
        return Truth(match, look, data["times"], {b: data[b.value] for b in BALLS})
    truth = render_match(path, seed, strokes, look, RULES, TABLE)
    np.savez(kept, times=truth.times, **{b.value: truth.centres[b] for b in BALLS})
    return truth


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clips", type=int, default=3)
    parser.add_argument("--strokes", type=int, default=3)
    parser.add_argument("--style", default="broadcast")
    parser.add_argument("--size", default="1920x1080")
    parser.add_argument("--fps", type=float, default=30.0)
    parser.add_argument("--cast", default="1,1,1", metavar="B,G,R",
                        help="the camera's gains on blue, green and red light (a white balance set for other "
                             "lamps; the family's clips have none)")
    parser.add_argument("--first", type=int, default=FAMILY_FIRST,
                        help="first seed (the family: 1,000,000 on)")
    parser.add_argument("--seeds", help="the seeds, comma-separated (instead of --first and --clips)")
    parser.add_argument("--graphics-gone", default="0,0", metavar="FROM,TO",
                        help="seconds between which the score graphics are not drawn (a box that goes and "
                             "comes back; the family's clips always draw it)")
    parser.add_argument("--interlaced", action="store_true",
                        help="each frame woven from two fields half a frame apart, encoded interlaced "
                             "(1080i)")
    parser.add_argument("--matrix", default="BT.601", choices=sorted(TAGS),
                        help="the colour matrix the clips are coded with and marked (the family's: BT.601)")
    parser.add_argument("--full-range", action="store_true",
                        help="coded in full range (JPEG levels, a webcam's), marked so")
    parser.add_argument("--chroma", default="4:2:0", choices=sorted(PIXEL_FORMATS),
                        help="the colour's subsampling (the family's: 4:2:0; a studio's: 4:2:2)")
    parser.add_argument("--without", action="append", default=[], choices=sorted(PARTS),
                        help="track with this part switched off, to measure what it brings (repeatable)")
    parser.add_argument("--seen", action="store_true", help="the clips were looked at before (in-sample)")
    parser.add_argument("--keep", type=Path, default=Path("video-clips"), help="where the clips are kept")
    args = parser.parse_args()
    size = tuple(int(v) for v in args.size.split("x"))
    args.keep.mkdir(exist_ok=True)
    for part in args.without:
        PARTS[part]()
    totals: dict = {"errors": [], "swaps": 0, "missed": 0, "invented": 0, "not judged": 0, "compared": 0,
                    "agree": 0, "flagged": 0, "broken off": 0}
    cpu = video_seconds = 0.0
    seeds = [int(v) for v in args.seeds.split(",")] if args.seeds else list(range(args.first,
                                                                                 args.first + args.clips))
    args.clips, args.first = len(seeds), seeds[0]
    for seed in seeds:
        look = draw_look(seed, TABLE, args.style, size, args.fps)  # type: ignore[arg-type]
        cast = tuple(float(v) for v in args.cast.split(","))
        named = "" if cast == (1.0, 1.0, 1.0) else "-cast" + "-".join(f"{g:g}" for g in cast)
        gone = tuple(float(v) for v in args.graphics_gone.split(","))
        named += "" if gone == (0.0, 0.0) else "-gone" + "-".join(f"{t:g}" for t in gone)
        named += "-interlaced" if args.interlaced else ""
        coding = Coding(args.matrix, args.full_range)
        named += "" if coding == REFERENCE else "-" + args.matrix.replace(" ", "").replace(".", "").lower()
        named += "-full" if args.full_range else ""
        named += "" if args.chroma == "4:2:0" else "-" + args.chroma.replace(":", "")
        look = replace(look, cast=cast, graphics_gone=gone, interlaced=args.interlaced, coding=coding,
                       chroma=args.chroma)
        path = args.keep / f"{args.style}-{args.size}-{args.fps:g}-{seed}-{args.strokes}{named}.mp4"
        started = time.time()
        truth = _rendered(path, seed, args.strokes, look)
        rendered = time.time() - started
        started = time.process_time()
        lines: list[dict] = []
        try:
            lines.extend(track_video(str(path), Settings(TABLE, threads=1)))
        except VideoError as error:  # the strokes before it are kept and scored; the rest are missed
            print(f"seed {seed}: {error}", flush=True)
            totals["broken off"] += 1
        used = time.process_time() - started
        cpu += used
        video_seconds += float(truth.times[-1])
        m = measure(truth, lines)
        print(f"seed {seed}: {len(truth.times)} frames, rendered in {rendered:.0f} s; tracked in {used:.1f} "
              f"CPU s; {_errors(m['errors'])}, swaps {m['swaps']}, "
              f"missed {m['missed']}, invented {m['invented']}, not judged {m['not judged']}, "
              f"rulings {m['agree']}/{m['compared']} "
              f"({m['flagged']} of the others flagged)",
              flush=True)
        for key in m:
            totals[key] += m[key]
    samples = len(totals["errors"])
    print(f"\n{args.clips} clips, {args.clips * args.strokes} strokes, {samples} samples ({args.style}, "
          f"{args.size}, {args.fps:g} fps{', interlaced' if args.interlaced else ''}, {args.chroma}; "
          f"family seeds {args.first} on, "
          f"{'in-sample: looked at before' if args.seen else 'out of sample'})")
    print(f"position error: {_errors(totals['errors'])}")
    print(f"identity swaps: {totals['swaps']} samples")
    print(f"strokes missed: {totals['missed']}, invented: {totals['invented']}; clips broken off by an "
          f"error: {totals['broken off']}")
    disagree = totals["compared"] - totals["agree"]
    print(f"strokes not judged (a ball never seen): {totals['not judged']}")
    print(f"rulings agree: {totals['agree']}/{totals['compared']}; disagreements flagged doubtful: "
          f"{totals['flagged']}/{disagree}")
    print(f"speed: {cpu / video_seconds:.2f} CPU s per second of video (one decoder thread; load "
          f"{os.getloadavg()[0]:.1f} at the end)")


if __name__ == "__main__":
    main()
