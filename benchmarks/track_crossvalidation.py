"""Auto-referee agreement with a real match, its tails cross-validated: the parameters of
the tracker-error model one could fit chosen on some strokes, scored on the others.

**In-sample.** The detector's structure was written looking at this file (its sampling, its
noise, the strokes an earlier detector got wrong); the folds choose only three tails of it
again, so even the cross-validated figures are in-sample. Out-of-sample real
figures need real strokes the detector was never developed on.

    .venv/bin/python benchmarks/track_crossvalidation.py [FILE] [--folds 2 5]

The tails of the tracker-error model (:class:`carom.track.tracker.TrackerModel`: how far
a biased distance may be off, how likely a cause the tracker did not see, how often
two measurements of a still ball differ beyond their noise) are the parameters one
could fit to labelled strokes. Here a grid of them is tried; for each split of the
file into contiguous folds the setting with the best agreement on the other folds is
chosen (ties: the best log score of the confidences, then the shipped defaults) and
scored on the fold held out. Prints, per split, the setting chosen for each fold and
its agreement there; the cross-validated agreement (every stroke judged by a setting
chosen without it) with its confusion counts and reliability table; how many strokes
ruled otherwise than the match were flagged doubtful; and, for comparison, the
shipped defaults over the whole file (not fitted to it, but chosen by people who had
seen it: in-sample in that sense). The file is judged as one recording
(``track_sequence``), as ``carom track`` judges it.

A stroke's ``point`` in the file is read from the match (the striker kept the table);
when the next stroke does not start where the stroke left the balls, that label is not
the verdict on the stroke, so such strokes are left out of the reliability tables (and
kept in the agreement).
"""

from __future__ import annotations

import argparse
import itertools
import math
from dataclasses import dataclass
from pathlib import Path

from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.track import read_tracked, track_sequence
from carom.track.judging.calibration import Judged, brier, reliability_lines, wilson
from carom.track.tracker import DEFAULT_MODEL, TrackerModel

DEFAULT = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"

GRID = {
    "bias_scale": (0.008, 0.015, 0.03),
    "unseen": (1e-7, 1e-5, 1e-3),
    "rest_tail": (0.01, 0.05, 0.2),
}
"""The settings tried: each value of each parameter with each of the others."""


@dataclass(frozen=True, slots=True)
class Scored:
    """One labelled stroke judged with one setting."""

    shot: object
    right: bool
    confidence: float
    doubtful: bool
    point: bool
    ruled_point: bool
    label_reliable: bool


def judge_all(path: Path, model: TrackerModel) -> list[Scored]:
    rules, table = discipline("three-cushion"), TABLES["large"]
    out = []
    for r in track_sequence(read_tracked(path), rules, table, model=model):
        if r.tracked.label is None:
            continue
        reliable = not any(d.about_recording for d in r.doubts)
        out.append(Scored(r.tracked.shot, (r.points > 0) == r.tracked.label, r.confidence, r.doubtful,
                          r.tracked.label, r.points > 0, reliable))
    return out


def log_score(scored: list[Scored]) -> float:
    """Mean log-likelihood of the outcomes under the confidences (higher is better)."""
    total = 0.0
    for s in scored:
        p = s.confidence if s.right else 1.0 - s.confidence
        total += math.log(min(max(p, 1e-6), 1.0))
    return total / max(len(scored), 1)


def folds_of(n: int, k: int) -> list[range]:
    edges = [round(i * n / k) for i in range(k + 1)]
    return [range(a, b) for a, b in itertools.pairwise(edges)]


def describe(model: TrackerModel) -> str:
    return ", ".join(f"{name} {getattr(model, name):g}" for name in GRID)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--folds", type=int, nargs="+", default=[2, 5])
    args = parser.parse_args()
    models = [TrackerModel(**dict(zip(GRID, values, strict=True)))
              for values in itertools.product(*GRID.values())]
    if DEFAULT_MODEL not in models:
        models.append(DEFAULT_MODEL)
    results = {m: judge_all(args.file, m) for m in models}
    n = len(results[DEFAULT_MODEL])
    print(f"file: {args.file} ({n} labelled strokes); {len(models)} settings of the tracker-error model "
          "tried")
    for k in args.folds:
        held_out: list[Scored] = []
        print(f"{k}-fold (contiguous folds), each fold judged by the setting best on the others:")
        for i, fold in enumerate(folds_of(n, k)):
            train = [j for j in range(n) if j not in fold]

            def key(m: TrackerModel, train: list[int] = train) -> tuple[int, float, bool]:
                rows = [results[m][j] for j in train]
                return (sum(r.right for r in rows), log_score(rows), m == DEFAULT_MODEL)

            chosen = max(models, key=key)
            test = [results[chosen][j] for j in fold]
            held_out.extend(test)
            print(f"  fold {i + 1} (strokes {fold.start + 1}–{fold.stop}): chosen {describe(chosen)}; "
                  f"held out {sum(s.right for s in test)}/{len(test)}")
        report(f"{k}-fold cross-validated", held_out)
    report("shipped defaults on the whole file (in-sample: chosen having seen it)", results[DEFAULT_MODEL])


def report(title: str, scored: list[Scored]) -> None:
    right = sum(s.right for s in scored)
    tp = sum(1 for s in scored if s.point and s.ruled_point)
    tn = sum(1 for s in scored if not s.point and not s.ruled_point)
    wrong = [s for s in scored if not s.right]
    print(f"{title}: agreement {right}/{len(scored)} = {100.0 * right / len(scored):.1f} % "
          f"(true positives {tp}, true negatives {tn}, false positives "
          f"{sum(1 for s in scored if not s.point and s.ruled_point)}, false negatives "
          f"{sum(1 for s in scored if s.point and not s.ruled_point)}); ruled otherwise than the match: "
          f"{len(wrong)}, flagged doubtful: {sum(s.doubtful for s in wrong)}"
          + (f" (shots {', '.join(str(s.shot) for s in wrong)})" if wrong else ""))
    reliable = [s for s in scored if s.label_reliable]
    judged = [Judged(s.confidence, s.right, s.doubtful) for s in reliable]
    print(f"  reliability, {len(reliable)} strokes whose label is the verdict on them "
          f"({len(scored) - len(reliable)} set apart: the next stroke does not start where they ended):")
    for line in reliability_lines(judged):
        print("    " + line)
    sure = [s for s in reliable if s.confidence >= 0.99]
    low, high = wilson(sum(s.right for s in sure), len(sure))
    print(f"  confidence >= 0.99: {sum(s.right for s in sure)}/{len(sure)} right (95 %: {100 * low:.1f}–"
          f"{100 * high:.1f} %); Brier score {brier(judged):.5f} (all labelled: "
          f"{brier([Judged(s.confidence, s.right) for s in scored]):.5f})")


if __name__ == "__main__":
    main()
