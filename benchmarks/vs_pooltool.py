"""carom against pooltool 0.6.0 on the same 200 seeded three-cushion strokes, in one run
(docs/physics.md, "Speed and size").

From the starting position (white on the right-hand starting spot), cue speed 1–6 m/s,
any direction, tip offsets within 0.5 R, level cue. Each simulator plays each stroke
once after a warm-up (its compiled code loaded); the time of one stroke is the wall time
of the call that simulates it: ``carom.physics.simulate`` (the whole narrow interface,
record included) and ``pooltool.simulate`` on a fresh copy of the system. Prints both
medians and, last, ``speedup: N`` (pooltool's median ÷ carom's).

pooltool is a benchmark tool, never a dependency of carom: it lives in its own virtual
environment, ``benchmarks/.pooltool-venv``, created here when missing with
``pip install --no-deps pooltool-billiards==0.6.0`` and then its declared dependencies
with ``panda3d==1.10.16`` (its pinned development build is not on PyPI).

``--against-version V`` also times carom with the default parameters of version V, stroke
by stroke alternating with today's, and prints the ratio of the medians.

Usage: ``.venv/bin/python benchmarks/vs_pooltool.py [--strokes 200] [--seed 2024]
[--against-version 1]``.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import time
import venv
from pathlib import Path
from typing import Any

import numpy as np

VENV = Path(__file__).resolve().parent / ".pooltool-venv"
POOLTOOL = "pooltool-billiards==0.6.0"
PANDA = "panda3d==1.10.16"

POOLTOOL_RUN = r"""
import json, sys, time, warnings
warnings.filterwarnings("ignore")
import pooltool as pt

strokes = json.load(sys.stdin)
table = pt.Table.from_game_type(pt.GameType.THREECUSHION)
balls = pt.get_rack(pt.GameType.THREECUSHION, table)
base = pt.System(table=table, balls=balls, cue=pt.Cue(cue_ball_id="white"))

def one(speed, direction, side, height):
    system = base.copy()
    # pooltool's a is +1 at the ball's left: carom's side (+ right) with the sign turned
    system.cue.set_state(V0=speed, phi=direction, a=-side, b=height, theta=0.0)
    start = time.perf_counter()
    done = pt.simulate(system, inplace=True)
    return time.perf_counter() - start, len(done.events)

for s in strokes[:3]:
    one(*s)
out = [one(*s) for s in strokes]
json.dump({"version": pt.__version__, "times": [t for t, _ in out], "events": [n for _, n in out]},
          sys.stdout)
"""


def python_of(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def ensure_pooltool() -> Path:
    """The pooltool environment's interpreter, building the environment when missing."""
    python = python_of(VENV)
    check = [str(python), "-c", "import pooltool"]
    if python.exists() and subprocess.run(check, capture_output=True).returncode == 0:
        return python
    print(f"building {VENV} for {POOLTOOL} (once)...", file=sys.stderr)
    venv.create(VENV, with_pip=True, clear=True)
    pip = [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*pip, "--no-deps", POOLTOOL], check=True)
    ask = "import importlib.metadata as m; print('\\n'.join(m.requires('pooltool-billiards')))"
    declared = subprocess.run([str(python), "-c", ask], capture_output=True, text=True,
                              check=True).stdout.split("\n")
    subprocess.run([*pip, *dependencies(declared)], check=True)
    return python


def dependencies(declared: list[str]) -> list[str]:
    """pooltool's declared run-time requirements, its panda3d pins replaced by PANDA and
    optional extras left out."""
    wanted = []
    for requirement in filter(None, (r.strip() for r in declared)):
        spec, _, marker = requirement.partition(";")
        name = spec.split("=")[0].split("<")[0].split(">")[0].split("[")[0].strip()
        if "extra" in marker:
            continue
        wanted.append(PANDA if name == "panda3d" else spec.strip())
    return list(dict.fromkeys(wanted))


def strokes(n: int, seed: int) -> list[tuple[float, float, float, float]]:
    """Cue speed 1–6 m/s, any direction, tip offset anywhere within 0.5 R (level cue)."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        radius = 0.5 * math.sqrt(rng.uniform())
        angle = rng.uniform(0, 2 * math.pi)
        out.append((float(rng.uniform(1.0, 6.0)), float(rng.uniform(0.0, 360.0)),
                    radius * math.cos(angle), radius * math.sin(angle)))
    return out


def carom_times(cases: list[tuple[float, float, float, float]],
                against: int | None = None) -> tuple[list[float], list[int], list[float]]:
    """carom's time and contacts for each stroke, and (``against``) its time with the
    defaults of that physics version, measured right after."""
    from carom.core.balls import Ball
    from carom.core.position import starting_position
    from carom.core.table import TABLES
    from carom.physics import DEFAULT_PARAMS, Strike, simulate
    from carom.physics.params import defaults_of

    table = TABLES["large"]
    position = starting_position(table, Ball.WHITE)
    earlier = defaults_of(against) if against is not None else None
    for s in cases[:3]:
        simulate(position, Strike(Ball.WHITE, *s), table)
    times, events, then = [], [], []
    for k, s in enumerate(cases):
        strike = Strike(Ball.WHITE, *s)
        if earlier is not None and k % 2:   # who goes first alternates: neither gets the warmer cache
            then.append(_timed(position, strike, table, earlier)[0])
        seconds, stroke = _timed(position, strike, table, DEFAULT_PARAMS)
        times.append(seconds)
        events.append(len(stroke.events))
        if earlier is not None and not k % 2:
            then.append(_timed(position, strike, table, earlier)[0])
    return times, events, then


def _timed(position: Any, strike: Any, table: Any, params: Any) -> tuple[float, Any]:
    from carom.physics import simulate

    start = time.perf_counter()
    stroke = simulate(position, strike, table, params)
    return time.perf_counter() - start, stroke


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="carom vs pooltool 0.6.0, same strokes, same run")
    ap.add_argument("--strokes", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--against-version", type=int, help="also time carom with the defaults of this version")
    args = ap.parse_args(argv)
    cases = strokes(args.strokes, args.seed)
    python = ensure_pooltool()
    theirs = subprocess.run([str(python), "-c", POOLTOOL_RUN], input=json.dumps(cases), capture_output=True,
                            text=True, check=True)
    pooltool = json.loads(theirs.stdout)
    mine, contacts, then = carom_times(cases, args.against_version)
    ours = statistics.median(mine)
    their = statistics.median(pooltool["times"])
    print(f"{len(cases)} three-cushion strokes from the starting position (seed {args.seed}), "
          "cue 1–6 m/s, any direction, tip within 0.5 R, level cue")
    print(f"carom:    median {1e3 * ours:.3f} ms per stroke (mean {1e3 * statistics.mean(mine):.3f} ms, "
          f"median {statistics.median(contacts):.0f} ball/cushion contacts)")
    print(f"pooltool {pooltool['version']}: median {1e3 * their:.3f} ms per stroke "
          f"(mean {1e3 * statistics.mean(pooltool['times']):.3f} ms, "
          f"median {statistics.median(pooltool['events']):.0f} events of every kind)")
    if then:
        from carom.physics import PARAMS_VERSION

        print(f"carom, physics version {args.against_version} in the same run: median "
              f"{1e3 * statistics.median(then):.3f} ms; version {PARAMS_VERSION} takes "
              f"{ours / statistics.median(then):.3f} of its time")
    print(f"speedup: {their / ours:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
