"""Replay speed and memory of long match logs, two kinds (docs/speed.md).

    .venv/bin/python benchmarks/replay_million.py [--records 1000000] [--strokes 200000]

1. A scoreboard's log: calls and innings with an undo now and then. Its lines repeat
   (27 distinct ones), which is the best case of the reader's cache of parsed lines.
2. A tracker's log: three-cushion ``stroke`` records, every one different, with its end
   position, 4 to 14 events with their times, now and then a jump (the end leaves the ball
   out), a called fault or an undo. Every line is parsed; the cache never helps.

Each log is written to a temporary file and replayed as a stream in a fresh process, which
reports its time and peak memory; then a log a tenth as long, so that the two memories show
whether memory grows with the log (it should not). The stream is ``replay_file``, what
``carom replay FILE`` runs. With ``--read``, the calls log is also read whole by
``carom.read``, which keeps every record, ruling and state, as a notebook does: its
memory grows with the log. The figures printed last are the records per second of each log.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

LARGE_W, LARGE_L, R = 1.42, 2.84, 0.03075


def _header(discipline: str) -> str:
    return json.dumps({"format": "carom/1", "discipline": discipline, "table": "large",
                       "players": ["A", "B"], "points": None, "innings": 10_000_000, "sets": None,
                       "equalizing_inning": True})


def write_calls(out: TextIO, records: int, rng: random.Random) -> None:
    """The scoreboard's log: calls and innings, an undo about every hundredth line."""
    kinds = [
        '{"type": "call", "result": "carom"}', '{"type": "call", "result": "miss"}',
        '{"type": "call", "result": "foul", "rule": "F4"}',
    ]
    out.write(_header("straight-rail") + "\n")
    out.write('{"type": "opener", "player": 0}\n')
    in_inning = False
    for i in range(records - 1):
        r = rng.random()
        if r < 0.01 and i > 10:
            out.write('{"type": "undo"}\n')
            in_inning = True  # an undo may reopen an inning: no whole inning until it ends
            continue
        if not in_inning and r < 0.3:
            out.write(f'{{"type": "inning", "points": {rng.randint(0, 20)}}}\n')
            continue
        line = kinds[0] if r < 0.75 else kinds[1] if r < 0.98 else kinds[2]
        out.write(line + "\n")
        in_inning = line == kinds[0]


CUSHIONS = ("top", "bottom", "left", "right")


def _rest(rng: random.Random, balls: tuple[str, ...]) -> dict[str, list[float]]:
    """Balls at rest anywhere on the large table, apart from each other."""
    placed: dict[str, list[float]] = {}
    while len(placed) < len(balls):
        p = [round(rng.uniform(R, LARGE_W - R), 4), round(rng.uniform(R, LARGE_L - R), 4)]
        if all((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2 > (2 * R + 0.002) ** 2 for q in placed.values()):
            placed[balls[len(placed)]] = p
    return placed


def _stroke(rng: random.Random, ball: str, scores: bool) -> tuple[dict[str, Any], bool]:
    """A three-cushion stroke of ``ball``: a carom (three cushions, then both balls) or a
    miss, with kisses and object-ball cushions mixed in; now and then a jump or a call."""
    other = "yellow" if ball == "white" else "white"
    t = 0.0
    events: list[dict[str, Any]] = []

    def add(event: dict[str, Any]) -> None:
        nonlocal t
        t += rng.uniform(0.05, 0.6)
        events.append({**event, "t": round(t, 3)})

    first, second = ("red", other) if rng.random() < 0.5 else (other, "red")
    add({"kind": "ball", "ball": ball, "other": first})
    for _ in range(3 if scores else rng.randint(0, 2)):
        add({"kind": "cushion", "ball": ball, "cushion": rng.choice(CUSHIONS)})
    for _ in range(rng.randint(0, 3)):
        add({"kind": "cushion", "ball": first, "cushion": rng.choice(CUSHIONS)})
    if rng.random() < 0.2:
        add({"kind": "ball", "ball": first, "other": second})
    if scores:
        add({"kind": "ball", "ball": ball, "other": second})
    for _ in range(rng.randint(0, 3)):
        add({"kind": "cushion", "ball": ball, "cushion": rng.choice(CUSHIONS)})
    stroke: dict[str, Any] = {"type": "stroke", "ball": ball, "events": events}
    at_rest: tuple[str, ...] = ("white", "yellow", "red")
    fault = False
    if rng.random() < 0.003:
        jumped = rng.choice(at_rest)
        add({"kind": "jump", "ball": jumped})
        at_rest = tuple(b for b in at_rest if b != jumped)
        fault = True
    stroke["end"] = _rest(rng, at_rest)
    stroke["exits"] = []
    stroke["fouls"] = []
    if rng.random() < 0.01:
        stroke["fouls"] = [rng.choice(["F4", "F7", "F8", "F10"])]
        fault = True
    return stroke, scores and not fault


def write_strokes(out: TextIO, records: int, rng: random.Random) -> None:
    """The tracker's log: every stroke different; the striker follows the rulings (a
    carom keeps the table), an undo about every two hundredth line gives it back."""
    out.write(_header("three-cushion") + "\n")
    out.write('{"type": "opener", "player": 0}\n')
    strikers = ["white"]  # the striker before each standing stroke, for undo
    striker = "white"
    for i in range(records - 1):
        if rng.random() < 0.005 and i > 10 and len(strikers) > 1:
            out.write('{"type": "undo"}\n')
            striker = strikers.pop()
            continue
        stroke, scored = _stroke(rng, striker, rng.random() < 0.45)
        out.write(json.dumps(stroke) + "\n")
        strikers.append(striker)
        if not scored:
            striker = "yellow" if striker == "white" else "white"


def replay_in_child(path: Path) -> dict[str, float]:
    code = (
        "import json, resource, sys, time\n"
        "from carom.notation.matchfile import replay_file\n"
        "count = 0\n"
        "def seen(r):\n"
        "    global count\n"
        "    count += 1\n"
        "t, cpu = time.perf_counter(), time.process_time()\n"
        f"state = replay_file({str(path)!r}, seen)\n"
        "dt, dcpu = time.perf_counter() - t, time.process_time() - cpu\n"
        "print(json.dumps({'seconds': dt, 'cpu': dcpu, 'rulings': count,"
        " 'maxrss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def measure(name: str, write: Any, records: int, tmp: Path) -> float:
    """Write a log and one a tenth as long, replay both; print and return records/s."""
    small, big = tmp / f"{name}-small.carom.jsonl", tmp / f"{name}.carom.jsonl"
    for path, n in ((small, records // 10), (big, records)):
        with path.open("w", encoding="utf-8") as out:
            write(out, n, random.Random(1))
    r_small, r_big = replay_in_child(small), replay_in_child(big)
    # Counted after the replays: a child inherits its parent's peak memory on Linux.
    with big.open(encoding="utf-8") as handle:
        seen = {hash(line) for line in handle}
    lines = sum(1 for _ in big.open(encoding="utf-8")) - 1
    distinct = len(seen) - 1
    size = big.stat().st_size / 1e6
    rate = lines / r_big["seconds"]
    print(f"{name}: {lines:,} records, {distinct:,} distinct lines, {size:.0f} MB; replayed in "
          f"{r_big['seconds']:.2f} s ({r_big['cpu']:.2f} s of CPU: {lines / r_big['cpu']:,.0f} records "
          f"per CPU second), {r_big['rulings']:,.0f} rulings standing")
    print(f"  peak memory: {r_small['maxrss_mb']:.1f} MB at {lines // 10:,} records, "
          f"{r_big['maxrss_mb']:.1f} MB at {lines:,} (ratio {r_big['maxrss_mb'] / r_small['maxrss_mb']:.2f})")
    return rate


def read_in_child(path: Path) -> dict[str, float]:
    """``carom.read`` of the whole log (every record, ruling and state kept, as a notebook
    holds a match), in a fresh process: its time and peak memory."""
    code = (
        "import json, resource, time, carom\n"
        "t = time.perf_counter()\n"
        f"match = carom.read({str(path)!r})\n"
        "print(json.dumps({'seconds': time.perf_counter() - t, 'plays': len(match),"
        " 'maxrss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000, help="records of the calls log")
    parser.add_argument("--strokes", type=int, default=200_000, help="records of the strokes log")
    parser.add_argument("--read", action="store_true",
                        help="also read the calls log whole with carom.read: its peak memory")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        calls = measure("calls and innings", write_calls, args.records, Path(tmp))
        strokes = measure("tracked strokes", write_strokes, args.strokes, Path(tmp))
        if args.read:
            whole = read_in_child(Path(tmp) / "calls and innings.carom.jsonl")
            print(f"carom.read of the calls log, every record kept: {whole['seconds']:.1f} s, peak memory "
                  f"{whole['maxrss_mb']:.0f} MB ({whole['plays']:,.0f} plays)")
    print(f"records per second: {calls:,.0f} (calls and innings, repeated lines); "
          f"{strokes:,.0f} (tracked strokes, every line different)")


if __name__ == "__main__":
    main()
