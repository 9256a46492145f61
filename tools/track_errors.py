"""Where the auto-referee's wrong rulings on simulated strokes come from (development only).

    .venv/bin/python tools/track_errors.py [--strokes 600] [--seed 20000] [--camera harsh-every-frame]
        [--recording 50]

For each stroke ruled otherwise than the true events are, prints the kind of stroke, the
first event of the record that differs from the truth (a contact missed, a contact added,
a cushion missed or added, the frozen reading), with what a tracker could see of it: the
true closest approach of the two balls, how far the touched ball moved, its samples. Use
development seeds only (below 200,000, 300,000–309,999 from the eighteenth round and
310,000–319,999 from the nineteenth;
below 100,000 until the eleventh): the benchmark's seeds are for the figure, the tests'
start at 200,000.
``--recording N``: strokes in recordings of ``N`` seen by one camera and judged together,
as ``benchmarks/track_synthetic.py --recording`` does.
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Iterator

import numpy as np

from carom.core.balls import Ball
from carom.core.events import BallContact, CushionContact
from carom.core.table import TABLES, TableSpec
from carom.rules.disciplines import Discipline, discipline
from carom.track import TrackedRuling, track_stroke
from carom.track.judging.recording import track_recording
from carom.track.synthetic import CAMERAS, Cameras, LabelledStroke, labelled_recordings, labelled_stroke


def key(e: object) -> tuple[object, ...]:
    if isinstance(e, BallContact):
        return ("ball", frozenset((e.ball, e.other)))
    if isinstance(e, CushionContact):
        return ("cushion", e.ball, e.cushion)
    return (type(e).__name__, getattr(e, "ball", None))


def describe(e: object) -> str:
    if isinstance(e, BallContact):
        return f"{e.ball.value}-{e.other.value}@{e.t:.2f}"
    if isinstance(e, CushionContact):
        return f"{e.ball.value}|{e.cushion.value}@{e.t:.2f}"
    return f"{type(e).__name__}@{getattr(e, 't', 0) or 0:.2f}"


def diff(truth: list, found: list, window: float = 0.08) -> tuple[list, list]:
    """Events of ``truth`` with no match in ``found`` and the other way round."""
    used: set[int] = set()
    missed = []
    for e in truth:
        hit = None
        for i, f in enumerate(found):
            if i not in used and key(f) == key(e) and abs((f.t or 0) - (e.t or 0)) <= window:
                hit = i
                break
        if hit is None:
            missed.append(e)
        else:
            used.add(hit)
    added = [f for i, f in enumerate(found) if i not in used]
    return missed, added


def closest(paths: dict, a: Ball, b: Ball) -> tuple[float, float]:
    ta, xa = paths[a]
    tb, xb = paths[b]
    t = np.union1d(ta, tb)
    pa = np.column_stack((np.interp(t, ta, xa[:, 0]), np.interp(t, ta, xa[:, 1])))
    pb = np.column_stack((np.interp(t, tb, xb[:, 0]), np.interp(t, tb, xb[:, 1])))
    d = np.hypot(*(pa - pb).T)
    k = int(np.argmin(d))
    return float(d[k]), float(t[k])


def travel(path: tuple) -> float:
    _, xy = path
    return float(np.hypot(*np.diff(xy, axis=0).T).sum())


def moving_at(paths: dict, ball: Ball, t: float) -> bool:
    """Whether ``ball`` moved (faster than 1 cm/s) just before ``t`` in truth."""
    tt, xy = paths[ball]
    k = int(np.searchsorted(tt, t))
    a = max(k - 3, 0)
    b = max(k - 1, a + 1)
    if b >= len(tt):
        return False
    return float(np.hypot(*(xy[b] - xy[a]))) / max(float(tt[b] - tt[a]), 1e-9) > 0.01


def _evidence(s, ruling, missed: list, added: list, paths: dict) -> str:
    """The evidence that failed, for one wrong ruling."""
    if "F9" in set(s.verdict.fouls) ^ set(ruling.verdict.fouls):
        return "frozen reading (F9): touching balls measured apart/together by the bias"
    if any(type(e).__name__ == "Jump" for e in added):
        return "jump: a lone sample beyond the cushion nose"
    ball1 = s.tracked.cue
    for e in missed:
        if isinstance(e, BallContact) and e.involves(ball1):
            other = e.partner(ball1)
            pair = {e.ball, e.other}
            again = [f for f in added if isinstance(f, BallContact) and {f.ball, f.other} == pair]
            if again:
                return "struck/touch: the contact found at the wrong moment (order with a cushion)"
            if moving_at(paths, ball1, e.t) and moving_at(paths, other, e.t):
                return "turned: a contact of two moving balls not seen"
            return "struck/touch: a contact with a resting ball not seen"
    for e in added:
        if isinstance(e, BallContact) and e.involves(ball1):
            return "touch/struck: a near pass taken for a contact"
    if any(isinstance(e, CushionContact) and e.ball is ball1 for e in missed + added):
        return "cushion of ball 1 missed or added"
    return "order of two close events / other"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strokes", type=int, default=600)
    parser.add_argument("--seed", type=int, default=20_000)
    parser.add_argument("--camera", choices=tuple(CAMERAS), default="harsh")
    parser.add_argument("--recording", type=int, default=0, metavar="N")
    args = parser.parse_args()
    ranges = CAMERAS[args.camera]
    rules, table = discipline("three-cushion"), TABLES["large"]
    r2 = 2.0 * table.ball_radius
    causes: Counter[str] = Counter()
    evidence: Counter[str] = Counter()
    flagged: Counter[str] = Counter()
    sure: Counter[str] = Counter()
    for s, ruling in _judged(args.seed, args.strokes, args.recording, ranges, rules, table):
        seed = s.tracked.shot
        if (ruling.points, ruling.verdict.fouls) == (s.verdict.points, s.verdict.fouls):
            continue
        truth_events = [e for e in s.truth.events]
        found_events = list(ruling.stroke.events)
        missed, added = diff(truth_events, found_events)
        paths = {b: (np.array([r[0] for r in rows]), np.array([r[1:] for r in rows]))
                 for b, rows in s.truth.paths.items()}
        cause = []
        for e in missed:
            tag = "missed " + ("contact" if isinstance(e, BallContact) else "cushion")
            cause.append(tag)
        for e in added:
            cause.append("added " + ("contact" if isinstance(e, BallContact) else "cushion"))
        if s.verdict.fouls != ruling.verdict.fouls:
            cause.append("fouls " + ",".join(s.verdict.fouls) + "->" + ",".join(ruling.verdict.fouls))
        causes[f"{s.kind}: {'; '.join(sorted(set(cause))) or 'order'}"] += 1
        failed = _evidence(s, ruling, missed, added, paths)
        evidence[failed] += 1
        flagged[failed] += ruling.doubtful
        sure[("sure" if ruling.confidence >= 0.99 else "doubtful" if ruling.doubtful else "0.9-0.99")] += 1
        cam = s.camera
        print(f"seed {seed} {s.kind} conf {ruling.confidence:.3f}{' D' if ruling.doubtful else ''} "
              f"true {s.verdict.points}{s.verdict.fouls} found {ruling.points}{ruling.verdict.fouls}  "
              f"cam: period {cam.frame_period * 1000:.0f}ms step {cam.send_step * 1000:.0f}mm "
              f"every {cam.every_frame} bias {cam.bias * 1000:+.1f}mm "
              f"drop {cam.drop:.2f} noise {max(cam.noise) * 1000:.1f}mm")
        print("   failed:", failed)
        print("   truth:", " ".join(describe(e) for e in truth_events))
        print("   found:", " ".join(describe(e) for e in found_events))
        print("   missed:", " ".join(describe(e) for e in missed),
              "| added:", " ".join(describe(e) for e in added))
        for e in missed + added:
            if isinstance(e, BallContact):
                d, t = closest(paths, e.ball, e.other)
                moves = {b.value: f"{travel(paths[b]) * 1000:.1f}mm" for b in (e.ball, e.other)}
                n = {b.value: len(s.tracked.balls[b].t) for b in (e.ball, e.other)}
                print(f"     {describe(e)}: true closest {1000 * (d - r2):+.2f} mm beyond 2R at {t:.2f}s, "
                      f"travel {moves}, samples {n}")
        for d in ruling.doubts[:3]:
            print("     doubt:", d.what)
    print()
    for c, n in causes.most_common():
        print(f"{n:4d}  {c}")
    print()
    print("by the evidence that failed:")
    for c, n in evidence.most_common():
        print(f"{n:4d}  ({flagged[c]} flagged doubtful)  {c}")
    print("wrong rulings by confidence:", dict(sure))


def _judged(first: int, count: int, recording: int, ranges: Cameras, rules: Discipline,
            table: TableSpec) -> Iterator[tuple[LabelledStroke, TrackedRuling]]:
    """Each stroke with its ruling: alone, or judged with its recording of ``recording``."""
    if not recording:
        for seed in range(first, first + count):
            s = labelled_stroke(seed, rules, table, None, ranges)
            yield s, track_stroke(s.tracked, rules, table)
        return
    for strokes in labelled_recordings(count, first, recording, rules, table, ranges):
        rulings = track_recording([s.tracked for s in strokes], rules, table)
        yield from zip(strokes, rulings, strict=True)


if __name__ == "__main__":
    main()
