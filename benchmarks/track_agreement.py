"""Auto-referee agreement (issue 6): ``carom track`` against the verdicts of a real match.

    .venv/bin/python benchmarks/track_agreement.py [FILE]

FILE defaults to ``../shared/data/real-3c-match-part1.jsonl``. A stroke's verdict in the
file (``point``) is read from the match itself: the striker kept the table. Prints the
agreement over the labelled strokes, the confusion counts (a point is a positive), every
stroke ruled otherwise with its confidence and whether it was flagged doubtful, and the
doubtful strokes.
"""

from __future__ import annotations

import argparse
import itertools
from math import hypot
from pathlib import Path

import numpy as np

from carom.core.balls import object_balls
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import TrackedRuling, read_tracked, track_stroke

DEFAULT = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "real-3c-match-part1.jsonl"


def _moved(before: TrackedRuling, after: TrackedRuling) -> float:
    """How far the farthest ball lies, at the start of ``after``, from where ``before`` left it."""
    end, start = before.stroke.end, after.stroke.start
    if end is None or start is None:
        return 0.0
    return max((hypot(end[b][0] - start[b][0], end[b][1] - start[b][1]) for b in end if b in start),
               default=0.0)


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
    rulings = [track_stroke(s, rules, table) for s in read_tracked(args.file)]
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
            gap = _moved(r, after)
            print(f"    the next stroke in the file ({after.tracked.shot}, which the label is read from) "
                  + ("starts where this one ended" if gap <= 0.02 else
                     f"does not start where this one ended: a ball lies {gap:.2f} m away"))
        contacts = r.verdict.contacts
        if contacts.ball3 is not None:
            print(f"    ball 1 hit {contacts.ball2}, then {contacts.ball3} after "
                  f"{contacts.cushions_before_ball3} cushion(s)")
        else:
            print(f"    ball 1 hit {contacts.ball2 or 'no ball'}; {_nearest_miss(r, table.ball_radius)}")
    doubtful = [r for r in rulings if r.doubtful]
    print(f"doubtful strokes: {len(doubtful)}")
    for r in doubtful:
        label = {True: "point", False: "no point", None: "unknown"}[r.tracked.label]
        print(f"  shot {r.tracked.shot}: confidence {r.confidence:.3f}, ruled "
              f"{'point' if r.points else 'no point'}, match {label}; {r.doubts[0].what if r.doubts else ''}")


if __name__ == "__main__":
    main()
