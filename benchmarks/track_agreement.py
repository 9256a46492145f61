"""Auto-referee agreement (docs/auto-referee.md): ``carom track`` against the verdicts of a real match.

    .venv/bin/python benchmarks/track_agreement.py [FILE]

FILE defaults to ``tests/data/real-3c-match-part1.jsonl``. A stroke's verdict in the
file (``point``) is read from the match itself: the striker kept the table. The file is
judged as one recording, as ``carom track`` judges it (:func:`track_sequence`: a stroke
the next one does not follow is doubtful). Prints the agreement over the labelled
strokes, the confusion counts (a point is a positive), every stroke ruled otherwise with
its confidence and whether it was flagged doubtful, and the doubtful strokes.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from carom.core.balls import object_balls
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import TrackedRuling, read_tracked, track_sequence
from carom.track.judging.sequence import displacement_allowed, farthest_moved, missing_between

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"


def _nearest_miss(r: TrackedRuling, radius: float) -> str:
    """How close ball 1 came to the object balls it did not touch."""
    if r.detection is None:
        return ""
    ball1 = r.tracked.cue
    path = r.detection.paths[ball1]
    out = []
    for other in object_balls(ball1):
        if other in (r.verdict.contacts.ball2, r.verdict.contacts.ball3):
            continue
        theirs = r.detection.paths[other]
        grid = np.linspace(0.0, r.tracked.duration, 20001)
        mine = np.column_stack((np.interp(grid, path.times, path.points[:, 0]),
                                np.interp(grid, path.times, path.points[:, 1])))
        them = np.column_stack((np.interp(grid, theirs.times, theirs.points[:, 0]),
                                np.interp(grid, theirs.times, theirs.points[:, 1])))
        gap = float(np.min(np.hypot(*(mine - them).T))) - 2.0 * radius
        out.append(f"its centre never came nearer than {gap * 100:.1f} cm to touching {other}")
    return "; ".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--discipline", default="three-cushion")
    parser.add_argument("--table", default="large")
    args = parser.parse_args()
    rules, table = discipline(args.discipline), TABLES[args.table]
    allowed = displacement_allowed(table)
    rulings = list(track_sequence(read_tracked(args.file), rules, table))
    labelled = [r for r in rulings if r.tracked.label is not None]
    tp = sum(1 for r in labelled if r.points and r.tracked.label)
    tn = sum(1 for r in labelled if not r.points and not r.tracked.label)
    fp = sum(1 for r in labelled if r.points and not r.tracked.label)
    fn = sum(1 for r in labelled if not r.points and r.tracked.label)
    agree = tp + tn
    print(f"file: {args.file}")
    print(f"strokes: {len(rulings)}, labelled: {len(labelled)}, unlabelled (point null): "
          f"{len(rulings) - len(labelled)}")
    print(f"agreement: {agree}/{len(labelled)} = {100.0 * agree / len(labelled):.1f} %")
    print(f"confusion (point = positive): true positives {tp}, true negatives {tn}, "
          f"false positives {fp}, false negatives {fn}")
    wrong = [r for r in labelled if (r.points > 0) != r.tracked.label]
    print(f"strokes ruled otherwise than the match: {len(wrong)}, of which flagged doubtful: "
          f"{sum(1 for r in wrong if r.doubtful)}")
    following = {id(a): b for a, b in itertools.pairwise(rulings)}
    for r in wrong:
        said = "point" if r.tracked.label else "no point"
        fouls = ",".join(r.verdict.fouls)
        ruled = "point" if r.points else (f"foul {fouls}" if fouls else "no point")
        why = f"; {r.doubts[0].what}" if r.doubts else ""
        print(f"  shot {r.tracked.shot} ({r.tracked.cue}): match {said}, carom track {ruled}, "
              f"confidence {r.confidence:.3f}, {'doubtful' if r.doubtful else 'not flagged'}{why}")
        after = following.get(id(r))
        if after is not None:
            print(f"    the next stroke in the file ({after.tracked.shot}, which the label is read from) "
                  + _follows(r, after, allowed))
        contacts = r.verdict.contacts
        if contacts.ball3 is not None:
            print(f"    ball 1 hit {contacts.ball2}, then {contacts.ball3} after "
                  f"{contacts.cushions_before_ball3} cushion(s)")
        else:
            print(f"    ball 1 hit {contacts.ball2 or 'no ball'}; {_nearest_miss(r, table.ball_radius)}")
    doubtful = [r for r in rulings if r.doubtful]
    broken = [r for r in doubtful if any(d.about_recording for d in r.doubts)]
    print(f"doubtful strokes: {len(doubtful)} ({len(broken)} for the recording, a ball more than "
          f"{allowed * 100:.1f} cm from where the stroke left it when the next one starts)")
    for r in doubtful:
        label = {True: "point", False: "no point", None: "unknown"}[r.tracked.label]
        print(f"  shot {r.tracked.shot}: confidence {r.confidence:.3f}, ruled "
              f"{'point' if r.points else 'no point'}, match {label}; {r.doubts[0].what if r.doubts else ''}")


def _follows(before: TrackedRuling, after: TrackedRuling, allowed: float) -> str:
    """Whether ``after`` starts where ``before`` left the balls, in words."""
    missing = missing_between(before.tracked, after.tracked)
    if missing:
        return f"comes after {missing} stroke(s) missing from the recording"
    moved = farthest_moved(before, after)
    if moved is None or moved.distance <= allowed:
        return "starts where this one ended"
    return f"does not start where this one ended: {moved.ball} lies {moved.distance:.2f} m away"


if __name__ == "__main__":
    main()
