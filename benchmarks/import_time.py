"""How long ``import carom`` takes in a fresh interpreter, and what it imports.

    .venv/bin/python benchmarks/import_time.py [--runs 15]

Each run starts a new Python process and times, inside it, ``import carom`` alone, then
the light API: the first use of ``carom.read`` and ``carom.judge``, which loads the pure
core. It prints the median of the runs for each, and the heavy packages (numpy, numba,
typer, rich, the web stack) that were imported (there should be none). The budget is
50 ms for the light API (docs/api.md); the last line is its median.

The children may write and use compiled bytecode (``__pycache__``), as an installed
package does, whatever ``PYTHONDONTWRITEBYTECODE`` says here; a first run, not counted,
writes it.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HEAVY = ("numpy", "numba", "scipy", "typer", "rich", "fastapi", "starlette", "uvicorn",
         "sqlalchemy", "jinja2", "gymnasium", "dask", "pyarrow")

CHILD = f"""
import json, sys, time
t0 = time.perf_counter()
import carom
t1 = time.perf_counter()
carom.read, carom.judge
t2 = time.perf_counter()
heavy = [m for m in {HEAVY!r} if m in sys.modules]
print(json.dumps({{"import": t1 - t0, "light": t2 - t0, "heavy": heavy}}))
"""


def run_once() -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    out = subprocess.run([sys.executable, "-c", CHILD], capture_output=True, text=True, check=True,
                         env=env)
    result: dict[str, object] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    run_once()  # writes the bytecode
    runs = [run_once() for _ in range(args.runs)]
    bare = statistics.median(float(r["import"]) for r in runs) * 1000  # type: ignore[arg-type]
    light = statistics.median(float(r["light"]) for r in runs) * 1000  # type: ignore[arg-type]
    heavy = sorted({m for r in runs for m in r["heavy"]})  # type: ignore[attr-defined]
    print(f"{args.runs} fresh interpreters")
    print(f"import carom: median {bare:.1f} ms")
    print(f"heavy packages imported: {', '.join(heavy) if heavy else 'none'}")
    fastest = min(float(r["light"]) for r in runs) * 1000  # type: ignore[arg-type]
    print(f"fastest run of the light API: {fastest:.1f} ms (the least disturbed by other load)")
    print(f"import carom and load the light API (carom.read, carom.judge): median {light:.1f} ms")


if __name__ == "__main__":
    main()
