"""What warming the simulation pool at start costs, and what it saves the first stroke:
``carom serve`` (its default, ``--warm-pool``) against ``carom serve --cold-pool``.

Each run starts a fresh server on a fresh SQLite folder, waits until it answers, then
``--settle`` seconds (a warm pool has loaded the simulator and forked its process by
then), and reads from ``/proc`` the processor time and the resident memory of the server
and every process under it; then it simulates one stroke (``POST /api/simulate``) and
times the answer. The two kinds alternate, so that both see the same load.

Usage: ``.venv/bin/python benchmarks/serve_pool.py [--runs 3] [--settle 15]``.
Prints one line per run and the medians.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

import httpx
from attack_kit import MIB, cpu_seconds, descendants, tree_memory
from web_load import free_port

CAROM = [sys.executable, "-c", "from carom.cli.main import main; main()"]
STROKE = {"balls": {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]}, "red": {"r": [0.71, 2.13]}},
          "strike": {"ball": "white", "speed": 3.0, "direction": 80.0, "side": 0.3, "height": 0.2}}


def one_run(cold: bool, folder: str, settle: float) -> tuple[float, float, float, float]:
    """Seconds until the server answers, processor seconds and MiB of its processes after
    ``settle`` more seconds, seconds for the first stroke."""
    port = free_port()
    command = [*CAROM, "serve", "--port", str(port), "--data", folder, "--organiser-password", "benchmark"]
    start = time.perf_counter()
    process = subprocess.Popen(command + (["--cold-pool"] if cold else []),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = f"http://127.0.0.1:{port}"
        while True:
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                if process.poll() is not None:
                    raise SystemExit("carom serve stopped before it answered") from None
                time.sleep(0.01)
        answered = time.perf_counter() - start
        time.sleep(settle)
        processes = {process.pid} | descendants(process.pid)
        processor = sum(cpu_seconds(pid) for pid in processes)
        memory = tree_memory(process.pid) / MIB
        before = time.perf_counter()
        stroke = httpx.post(f"{url}/api/simulate", json=STROKE, timeout=120)
        if stroke.status_code != 200:
            raise SystemExit(f"the stroke was refused: {stroke.status_code} {stroke.text[:200]}")
        return answered, processor, memory, time.perf_counter() - before
    finally:
        process.terminate()
        process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--settle", type=float, default=15.0, help="seconds after the first answer")
    options = parser.parse_args()
    results: dict[str, list[tuple[float, float, float, float]]] = {"--warm-pool": [], "--cold-pool": []}
    with tempfile.TemporaryDirectory() as tmp:
        for run in range(options.runs):
            for kind in results:
                measured = one_run(kind == "--cold-pool", tempfile.mkdtemp(dir=tmp), options.settle)
                results[kind].append(measured)
                answered, processor, memory, first = measured
                print(f"run {run + 1} {kind}: answers after {answered:.2f} s; {processor:.2f} processor s, "
                      f"{memory:.0f} MiB after {options.settle:g} s more; first stroke {first:.2f} s",
                      flush=True)
    print(f"medians of {options.runs} (load average {os.getloadavg()[0]:.2f}):")
    for kind, runs in results.items():
        answered, processor, memory, first = (statistics.median(r[i] for r in runs) for i in range(4))
        print(f"carom serve {kind}: answers after {answered:.2f} s; {processor:.2f} processor s and "
              f"{memory:.0f} MiB until the first stroke; first stroke {first:.2f} s")


if __name__ == "__main__":
    main()
