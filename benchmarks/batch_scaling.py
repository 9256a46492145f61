"""Batch scaling (docs/speed.md): the same batch in one process and on a local Dask cluster
of 2 workers, in the same run.

    .venv/bin/python benchmarks/batch_scaling.py [--strokes 1000000]

Prints both wall times and the speed-up, whether the two outcome tables are
identical, and the peak memory of the single process and of each worker. The machine
is shared and its speed drifts, so the two are run alternately, twice each, and the
better time of each counts. The batch:
three-cushion strokes from random positions with random strikes (cue speed 1–6 m/s,
any direction, tip offsets within 0.4 R), chunks of 10,000 (a hundred tasks: the last
one leaves a worker idle for less time).
"""

from __future__ import annotations

import argparse
import resource
import tempfile
import time
from pathlib import Path

import pyarrow.parquet as pq

from carom.batch.run import run_batch
from carom.batch.spec import spec_from


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strokes", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=10_000)
    args = parser.parse_args()
    spec = spec_from({"discipline": "three-cushion", "strokes": args.strokes, "seed": 2026,
                      "chunk": args.chunk, "positions": {"kind": "random"}, "strikes": {"kind": "random"}})
    warm = spec_from({"discipline": "three-cushion", "strokes": 100, "chunk": 100})
    with tempfile.TemporaryDirectory() as tmp:
        run_batch(warm, Path(tmp) / "warm", formats=("parquet",))

        import dask
        from dask.distributed import Client, LocalCluster

        with dask.config.set({"distributed.worker.profile.enabled": False}), \
                LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster, \
                Client(cluster) as client:
            client.run(lambda: run_batch(warm, Path(tmp) / "w", formats=()))
            t_one = t_two = float("inf")
            for _ in range(2):
                t = time.perf_counter()
                one = run_batch(spec, Path(tmp) / "one", formats=("parquet",))
                t_one = min(t_one, time.perf_counter() - t)
                t = time.perf_counter()
                two = run_batch(spec, Path(tmp) / "two", formats=("parquet",),
                                scheduler=cluster.scheduler_address)
                t_two = min(t_two, time.perf_counter() - t)
            one_mb = peak_mb()
            workers = client.run(lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
        same = pq.read_table(one["parquet"]).equals(pq.read_table(two["parquet"]))
    print(f"{args.strokes:,} three-cushion strokes, chunks of {args.chunk:,}")
    print(f"one process: {t_one:.1f} s ({args.strokes / t_one:,.0f} strokes/s), peak memory {one_mb:.0f} MB")
    print(f"2 Dask workers: {t_two:.1f} s ({args.strokes / t_two:,.0f} strokes/s), peak memory per worker "
          + ", ".join(f"{mb:.0f} MB" for mb in workers.values()))
    print(f"identical outcome tables: {same}")
    print(f"speedup on 2 workers: {t_one / t_two:.2f}")


if __name__ == "__main__":
    main()
