"""The shot finder on real positions (docs/search.md).

    .venv/bin/python benchmarks/solve_real.py [--data tests/data/real-3c-match-part1.jsonl]

Every stroke of the tracked real match starts from a real three-cushion position:
the balls' first tracked samples, with the ball the player struck. For each,
``find_shots`` searches (seeded) and the script prints for how many positions it
found a scoring stroke, the median time per position, and the median chance of
the best stroke under the default execution error. Tracking noise can leave two
balls a fraction of a millimetre too close or a centre just outside the cushion
line; such a position is nudged apart, and the count of nudged ones is printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from carom.core.balls import BALLS, Ball
from carom.core.position import position_problems
from carom.core.table import TABLES, Point, TableSpec
from carom.rules.disciplines import DISCIPLINES
from carom.solve import find_shots

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "real-3c-match-part1.jsonl"


def tidy(position: dict[Ball, Point], table: TableSpec) -> tuple[dict[Ball, Point], bool]:
    """The position inside the surface and with no two balls overlapping."""
    r = table.ball_radius
    xy = {b: np.array([min(max(p[0], r), table.width - r), min(max(p[1], r), table.length - r)])
          for b, p in position.items()}
    for _ in range(20):
        moved = False
        for i, a in enumerate(BALLS):
            for b in BALLS[i + 1:]:
                d = xy[b] - xy[a]
                gap = float(np.hypot(*d))
                if gap < 2 * r + 1e-4:
                    push = (2 * r + 2e-4 - gap) / 2 * (d / gap if gap > 0 else np.array([1.0, 0.0]))
                    xy[a] -= push
                    xy[b] += push
                    moved = True
        if not moved:
            break
    out = {b: (float(v[0]), float(v[1])) for b, v in xy.items()}
    return out, out != position


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, default=DATA)
    parser.add_argument("--limit", type=int, default=None)
    args = parser.parse_args()
    table = TABLES["large"]
    d = DISCIPLINES["three-cushion"]
    lines = args.data.read_text(encoding="utf-8").splitlines()[: args.limit]
    find_shots({Ball.WHITE: (0.5, 0.7), Ball.YELLOW: (0.7, 0.7), Ball.RED: (0.7, 2.1)}, Ball.WHITE, d, table)
    times, chances, found, nudged = [], [], 0, 0
    for line in lines:
        shot = json.loads(line)
        start = {Ball(b): (float(v["x"][0]), float(v["y"][0])) for b, v in shot["balls"].items()}
        start, moved = tidy(start, table)
        nudged += moved
        assert not position_problems(start, table)
        t = time.perf_counter()
        shots = find_shots(start, Ball(shot["cue"]), d, table, seed=int(shot["shot"]), sample=None)
        times.append(time.perf_counter() - t)
        if shots:
            found += 1
            chances.append(shots[0].chance)
        print(f"shot {shot['shot']}: {len(shots)} strokes, best chance "
              f"{shots[0].chance if shots else 0:.0%}, {times[-1]:.2f} s", flush=True)
    n = len(lines)
    print(f"positions: {n} ({nudged} nudged apart by tracking noise)")
    print(f"scoring stroke found: {found}/{n} = {100 * found / n:.1f} %")
    print(f"median chance of the best stroke: {100 * statistics.median(chances):.0f} %")
    print(f"median time per position: {statistics.median(times):.2f} s")


if __name__ == "__main__":
    main()
