"""``POST /api/simulate`` latency over loopback (docs/table.md): the training table's Play.

    .venv/bin/python benchmarks/web_simulate.py [--strokes 300] [--seed 0] [--max-speed 8]

Starts ``carom serve`` on a fresh SQLite data folder, waits until its kernels are warm
(it loads them at start), then sends ``--strokes`` strokes one after another, each from
the starting position with a random strike (seeded: speed 1 m/s to ``--max-speed``, any
direction, tip within 0.4 R), paths sampled every 10 ms as the page asks. Measured: from
sending the request to having the whole answer (the stroke record with its paths, the
ruling, the contacts) read and parsed. Prints p50, p99 and the worst, the server's CPU
time per stroke (its own work, whatever else the machine runs), the answer's size and the
stroke's length; the target is p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import sys
import tempfile
import time
from pathlib import Path

import httpx
from web_load import cpu_seconds, free_port, start_server

START = {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]}, "red": {"r": [0.71, 2.13]}}


def strike(rng: random.Random, max_speed: float) -> dict[str, float | str]:
    angle, radius = rng.uniform(0, 2 * math.pi), 0.4 * math.sqrt(rng.random())
    return {"ball": "white", "speed": rng.uniform(1.0, max_speed), "direction": rng.uniform(0, 360),
            "side": radius * math.cos(angle), "height": radius * math.sin(angle)}


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(q * len(ordered)) - 1)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--strokes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--max-speed", type=float, default=8.0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        server = start_server(Path(tmp) / "data", port)
        try:
            with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as client:
                body = {"discipline": "three-cushion", "balls": START, "strike": strike(rng, args.max_speed)}
                t0 = time.perf_counter()
                client.post("/api/simulate", json=body).raise_for_status()
                first = time.perf_counter() - t0
                times, sizes, lengths, points = [], [], [], 0
                cpu = cpu_seconds(server.pid)
                for _ in range(args.strokes):
                    body["strike"] = strike(rng, args.max_speed)
                    t0 = time.perf_counter()
                    response = client.post("/api/simulate", json=body)
                    got = json.loads(response.content)
                    times.append(time.perf_counter() - t0)
                    response.raise_for_status()
                    sizes.append(len(response.content))
                    lengths.append(got["stroke"]["paths"]["white"][-1][0])
                    points += got["ruling"]["points"]
                cpu = cpu_seconds(server.pid) - cpu
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(timeout=20)
    ms = [t * 1000 for t in times]
    print(f"POST /api/simulate, {args.strokes} strokes (paths every 10 ms), seed {args.seed}")
    print(f"  first request after start: {first * 1000:.1f} ms")
    print(f"  latency: p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, "
          f"worst {max(ms):.1f} ms (target p99 < 50 ms)")
    print(f"  the server's CPU time: {cpu * 1000 / args.strokes:.1f} ms a stroke (what the latency "
          "would be on an idle core; the rest is waiting for one)")
    print(f"  answer: median {percentile(sizes, 0.5) / 1024:.0f} KiB, largest {max(sizes) / 1024:.0f} KiB; "
          f"stroke: median {percentile(lengths, 0.5):.1f} s, longest {max(lengths):.1f} s; "
          f"{points} points scored")
    sys.exit(0 if percentile(ms, 0.99) < 50 else 1)


if __name__ == "__main__":
    main()
