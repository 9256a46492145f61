"""Running a batch: chunks of the simulator's batch form, judged by the referee, written
as one table (Parquet and CSV), in one process or on a Dask cluster.

Work goes out in chunks, never one task per stroke. Each chunk is made from the spec
and its index alone (:meth:`BatchSpec.inputs`) and simulated deterministically, and
the writer takes the chunks in their order: the table is the same, byte for byte in
its values, whatever the number of workers.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from carom.batch.spec import STRIKE_FIELDS, BatchSpec
from carom.core.balls import BALLS
from carom.physics.batch import simulate_batch
from carom.solve.judging import route, verdicts

SCHEMA = pa.schema(
    [("stroke", pa.int64())]
    + [(f"{b.value}_{c}", pa.float64()) for b in BALLS for c in "xy"]
    + [(f, pa.float64()) for f in STRIKE_FIELDS]
    + [("points", pa.int8()), ("route", pa.string()), ("fouls", pa.string()),
       ("events", pa.int16()), ("status", pa.int8())]
    + [(f"end_{b.value}_{c}", pa.float64()) for b in BALLS for c in "xy"]
)
"""One row per stroke: its inputs, the referee's ruling, ball 1's route, the end position."""


def run_chunk(spec: BatchSpec, index: int, threads: int | None = 1) -> pa.Table:
    """Simulate and judge chunk ``index`` of ``spec``: one call of the batch form.
    ``threads``: numba threads for the simulation (1 on a worker: the cluster gives the
    parallelism; ``None`` leaves numba's setting alone)."""
    positions, strikes = spec.inputs(index)
    n = positions.shape[0]
    cue = np.full(n, BALLS.index(spec.ball), dtype=np.int64)
    with _numba_threads(threads):
        outcome = simulate_batch(positions, strikes, cue, spec.table, spec.params)
    points = np.empty(n, dtype=np.int8)
    routes: list[str] = []
    fouls: list[str] = []
    for k, (stroke, verdict) in enumerate(verdicts(outcome, positions, cue, spec.discipline, spec.table)):
        points[k] = verdict.points
        routes.append(" ".join(route(stroke)))
        fouls.append(" ".join(verdict.fouls))
    rows = spec.rows(index)
    columns: dict[str, Any] = {"stroke": np.arange(rows.start, rows.stop, dtype=np.int64)}
    for i, b in enumerate(BALLS):
        columns[f"{b.value}_x"], columns[f"{b.value}_y"] = positions[:, i, 0], positions[:, i, 1]
    for j, f in enumerate(STRIKE_FIELDS):
        columns[f] = strikes[:, j]
    columns.update(points=points, route=routes, fouls=fouls,
                   events=outcome.n_codes.astype(np.int16), status=outcome.status.astype(np.int8))
    for i, b in enumerate(BALLS):
        columns[f"end_{b.value}_x"], columns[f"end_{b.value}_y"] = outcome.end[:, i, 0], outcome.end[:, i, 1]
    return pa.table(columns, schema=SCHEMA)


@contextmanager
def _numba_threads(threads: int | None) -> Iterator[None]:
    if threads is None:
        yield
        return
    import numba

    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        yield
    finally:
        numba.set_num_threads(before)


def chunks_in_process(spec: BatchSpec, threads: int | None = 1) -> Iterator[pa.Table]:
    for index in range(spec.chunks):
        yield run_chunk(spec, index, threads)


def chunks_on_dask(spec: BatchSpec, client: Any, window: int) -> Iterator[pa.Table]:
    """The chunks computed on a Dask cluster, yielded in order; at most ``window`` are
    out at once, so neither the workers nor this process hold the whole table."""
    pending: deque[Any] = deque()
    submitted = 0
    while submitted < spec.chunks or pending:
        while submitted < spec.chunks and len(pending) < window:
            pending.append(client.submit(run_chunk, spec, submitted, 1, pure=False))
            submitted += 1
        table = pending.popleft().result()
        yield table


def run_batch(spec: BatchSpec, output: Path, *, formats: tuple[str, ...] = ("parquet", "csv"),
              workers: int | None = None, scheduler: str | None = None,
              on_chunk: Callable[[int], None] | None = None) -> dict[str, Path]:
    """Run ``spec`` and write ``output`` with each suffix of ``formats``.

    By default in this process; ``workers=N`` starts a local Dask cluster of N
    single-threaded workers; ``scheduler`` connects to a cluster the user already runs.
    ``on_chunk`` hears the number of strokes of each chunk written (a progress bar).
    """
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    paths = {fmt: output.with_suffix(f".{fmt}") for fmt in formats}
    with ExitStack() as stack:
        if workers is None and scheduler is None:
            chunks = chunks_in_process(spec)
        else:
            from dask.distributed import Client, LocalCluster

            if scheduler is not None:
                client = stack.enter_context(Client(scheduler))
            else:
                import dask

                # the workers' statistical profiler wakes every 10 ms to walk the stacks: it
                # costs the simulation a few per cent and nobody reads it here
                stack.enter_context(dask.config.set({"distributed.worker.profile.enabled": False}))
                cluster = stack.enter_context(LocalCluster(
                    n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                    silence_logs=logging.ERROR,
                ))
                client = stack.enter_context(Client(cluster))
            size = max(1, len(client.scheduler_info().get("workers", {})))
            chunks = chunks_on_dask(spec, client, window=2 * size + 1)
        writers: list[Any] = []
        if "parquet" in paths:
            # dictionary pages only for the text columns: a float never repeats, and
            # encoding them as dictionaries made writing four times slower
            writers.append(stack.enter_context(pq.ParquetWriter(paths["parquet"], SCHEMA,
                                                                use_dictionary=["route", "fouls"])))
        if "csv" in paths:
            writers.append(stack.enter_context(pacsv.CSVWriter(paths["csv"], SCHEMA)))
        for table in chunks:
            for writer in writers:
                writer.write_table(table)
            if on_chunk is not None:
                on_chunk(table.num_rows)
    return paths
