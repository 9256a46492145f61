"""How fast the command line starts: ``carom --help`` and ``carom replay FILE --json`` must
take at most 0.3 s (median of 5 fresh processes); ``carom play``, ``carom simulate`` and
``carom serve`` must be no slower than before.

Each command runs in a fresh interpreter (``python -c "from carom.cli.main import main;
main()" ARGS``, what the ``carom`` script does); the wall time and the peak memory of the
whole process are measured. ``carom serve`` is timed until its port answers. With
``--baseline SRC`` the same commands also run with another checkout's ``src`` folder first
on the path (e.g. ``/work/main/src``), in the same run, so that the two can be compared
under the same load; both use the same compiled kernels (``CAROM_CACHE_DIR``).

Usage: ``.venv/bin/python benchmarks/cli_startup.py [--runs 5] [--baseline SRC]``.
Prints a table, and last the two figures the bar is about.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MATCH = ROOT / "examples" / "three-cushion.carom.jsonl"
SPEC = {"balls": {"white": {"r": [0.892, 0.71]}, "yellow": {"r": [0.71, 0.71]}, "red": {"r": [0.71, 2.13]}},
        "strike": {"ball": "white", "speed": 3.0, "direction": 80.0, "side": 0.3, "height": 0.2}}
CAROM = [sys.executable, "-c", "from carom.cli.main import main; main()"]


def kernel_cache() -> str | None:
    """The folder of this checkout's compiled one-stroke kernels, shared with the baseline."""
    from carom.physics.build import aot

    return next((str(folder) for folder in aot.folders() if aot._file(folder).exists()), None)


def environment(src: Path | None, cache: str | None) -> dict[str, str]:
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src)
    if cache is not None:
        env["CAROM_CACHE_DIR"] = cache
    return env


def timed(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak MB of one fresh ``carom ARGS``."""
    start = time.perf_counter()
    process = subprocess.Popen([*CAROM, *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(process.pid, 0)
    elapsed = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"carom {' '.join(args)} failed: {process.stderr.read().decode()[-400:]}")
    return elapsed, usage.ru_maxrss / 1024


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def serving(env: dict[str, str], folder: str) -> tuple[float, float]:
    """Seconds until ``carom serve`` answers on its port, and its peak MB by then."""
    port = free_port()
    start = time.perf_counter()
    process = subprocess.Popen([*CAROM, "serve", "--port", str(port), "--data", folder,
                                "--organiser-password", "benchmark"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    try:
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.05):
                    break
            except OSError:
                if process.poll() is not None:
                    raise SystemExit("carom serve stopped before it answered") from None
                time.sleep(0.005)
        elapsed = time.perf_counter() - start
    finally:
        process.terminate()
    _, _, usage = os.wait4(process.pid, 0)
    return elapsed, usage.ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--baseline", type=Path, help="another checkout's src folder, measured too")
    options = parser.parse_args()
    cache = kernel_cache()
    with tempfile.TemporaryDirectory() as tmp:
        spec = Path(tmp) / "spec.json"
        spec.write_text(json.dumps(SPEC))
        commands: dict[str, list[str] | None] = {
            "carom --help": ["--help"],
            "carom replay FILE --json": ["replay", str(MATCH), "--json"],
            "carom replay FILE": ["replay", str(MATCH)],
            "carom play --direction 80": ["play", "--direction", "80"],
            "carom simulate SPEC": ["simulate", str(spec)],
            "carom serve (until it answers)": None,
        }
        trees: dict[str, Path | None] = {"this checkout": None}
        if options.baseline is not None:
            trees = {"baseline": options.baseline, **trees}
        medians: dict[tuple[str, str], tuple[float, float]] = {}
        for name, args in commands.items():
            for tree, src in trees.items():
                env = environment(src, cache)
                if args is None:
                    timed(["serve", "--help"], env)  # bytecode written before timing
                    runs = [serving(env, tempfile.mkdtemp(dir=tmp)) for _ in range(options.runs)]
                else:
                    timed(args, env)  # warm: bytecode written, kernels loaded once
                    runs = [timed(args, env) for _ in range(options.runs)]
                medians[name, tree] = (statistics.median(r[0] for r in runs),
                                       statistics.median(r[1] for r in runs))
    print(f"median of {options.runs} fresh processes (load average {os.getloadavg()[0]:.2f}):")
    print(f"{'command':34}" + "".join(f"{tree:>24}" for tree in trees))
    for name in commands:
        cells = "".join(f"{medians[name, t][0]:>13.3f} s {medians[name, t][1]:>5.0f} MB" for t in trees)
        print(f"{name:34}{cells}")
    ours = "this checkout"
    print(f"carom --help: {medians['carom --help', ours][0]:.3f} s, carom replay FILE --json: "
          f"{medians['carom replay FILE --json', ours][0]:.3f} s (median of {options.runs}; bar: 0.3 s)")


if __name__ == "__main__":
    main()
