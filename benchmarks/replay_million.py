"""Replay speed and memory of a long match log (docs/speed.md).

    .venv/bin/python benchmarks/replay_million.py [--records 1000000]

Writes a match log of calls and innings (with an undo now and then) to a temporary
file, replays it as a stream in a fresh process, and prints the records per second
and the peak memory of that process; then does the same for a log a tenth as long,
so the two memories show whether memory grows with the log (it should not).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path


def write_log(path: Path, records: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    header = {"format": "carom/1", "discipline": "straight-rail", "table": "large",
              "players": ["A", "B"], "points": None, "innings": 10_000_000, "sets": None,
              "equalizing_inning": True}
    kinds = [
        '{"type": "call", "result": "carom"}', '{"type": "call", "result": "miss"}',
        '{"type": "call", "result": "foul", "rule": "F4"}',
    ]
    with path.open("w", encoding="utf-8") as out:
        out.write(json.dumps(header) + "\n")
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
            in_inning = line == kinds[0] or (in_inning and line == kinds[0])


def replay_in_child(path: Path) -> dict[str, float]:
    code = (
        "import json, resource, sys, time\n"
        "from carom.notation.matchfile import replay_file\n"
        "count = 0\n"
        "def seen(r):\n"
        "    global count\n"
        "    count += 1\n"
        "t = time.perf_counter()\n"
        f"state = replay_file({str(path)!r}, seen)\n"
        "dt = time.perf_counter() - t\n"
        "print(json.dumps({'seconds': dt, 'rulings': count,"
        " 'maxrss_mb': resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    result: dict[str, float] = json.loads(out.stdout)
    return result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=1_000_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        small, big = Path(tmp) / "small.carom.jsonl", Path(tmp) / "big.carom.jsonl"
        write_log(small, args.records // 10)
        write_log(big, args.records)
        lines = sum(1 for _ in big.open()) - 1
        r_small = replay_in_child(small)
        r_big = replay_in_child(big)
    rate = lines / r_big["seconds"]
    print(f"log: {lines:,} records ({big.name}); replayed in {r_big['seconds']:.2f} s, "
          f"{r_big['rulings']:,.0f} rulings standing")
    print(f"peak memory: {r_small['maxrss_mb']:.1f} MB at {lines // 10:,} records, "
          f"{r_big['maxrss_mb']:.1f} MB at {lines:,} records "
          f"(ratio {r_big['maxrss_mb'] / r_small['maxrss_mb']:.2f})")
    print(f"records per second: {rate:,.0f}")


if __name__ == "__main__":
    main()
