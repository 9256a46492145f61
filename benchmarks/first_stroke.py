"""The first stroke in a fresh process, once the compiled kernels are cached
(docs/physics.md, "Speed and size": at most 1 s).

Runs one stroke in a fresh interpreter first, so that the kernels are compiled and
cached (the compile notice appears then, and only then), and then measures ``--runs``
fresh interpreters: the wall time of the whole process (start, imports, one stroke,
exit), and inside it the import of ``carom.physics`` and the first ``simulate`` call.
Prints the medians and, last, ``first stroke in a fresh process: N s``.

Usage: ``.venv/bin/python benchmarks/first_stroke.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

CHILD = r"""
import json, time
start = time.perf_counter()
from carom.physics import Strike, simulate
from carom.core.balls import Ball
from carom.core.position import starting_position
from carom.core.table import TABLES
imported = time.perf_counter()
table = TABLES["large"]
stroke = simulate(starting_position(table, Ball.WHITE), Strike(Ball.WHITE, 3.0, 80.0, 0.3, 0.2), table)
done = time.perf_counter()
print(json.dumps({"import": imported - start, "stroke": done - imported, "events": len(stroke.events)}))
"""


def fresh() -> tuple[float, dict[str, float]]:
    start = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True)
    return time.perf_counter() - start, json.loads(out.stdout)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="the first stroke in a fresh process")
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args(argv)
    first, _ = fresh()
    print(f"first process (compiles or loads the kernels): {first:.2f} s")
    walls, imports, strokes = [], [], []
    for _ in range(args.runs):
        wall, inside = fresh()
        walls.append(wall)
        imports.append(inside["import"])
        strokes.append(inside["stroke"])
    print(f"{args.runs} fresh processes, medians: whole process {statistics.median(walls):.3f} s "
          f"(best {min(walls):.3f}), import of carom.physics {statistics.median(imports):.3f} s, "
          f"first simulate call {statistics.median(strokes):.3f} s")
    print(f"first stroke in a fresh process: {statistics.median(walls):.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
