"""Running a batch: chunks of the simulator's batch form, judged by the referee, written
as one table (Parquet and CSV), in one process or on a Dask cluster.

Work goes out in chunks, never one task per stroke. Each chunk is made from the spec
and its index alone (:meth:`BatchSpec.inputs`) and simulated deterministically, and
the writer takes the chunks in their order: the table is the same, byte for byte in
its values, whatever the number of workers.
"""

from __future__ import annotations

import gc
import logging
import socket
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa

from carom.batch.plan import BatchError, check_runner, plan
from carom.batch.spec import STRIKE_FIELDS, BatchSpec
from carom.core.balls import BALLS
from carom.core.outputs import replacing
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


ROW_GROUP_ROWS = 20_000
"""Chunks are written in groups of at least this many rows: small chunks would otherwise
make one Parquet row group each, with its own metadata (5,000 chunks of one stroke made
a 20 MB file)."""
SCHEDULER_TIMEOUT = 5.0
"""Seconds to wait for a ``--scheduler`` to answer before giving up."""


def _grouped(chunks: Iterable[pa.Table], rows: int, on_chunk: Callable[[int], None] | None
             ) -> Iterator[pa.Table]:
    """The chunks joined into tables of at least ``rows`` rows (the last may be shorter)."""
    held: list[pa.Table] = []
    count = 0
    for table in chunks:
        if on_chunk is not None:
            on_chunk(table.num_rows)
        held.append(table)
        count += table.num_rows
        if count >= rows:
            yield pa.concat_tables(held)
            held, count = [], 0
    if held:
        yield pa.concat_tables(held)


def _connect(scheduler: str) -> Any:
    """A Dask client of the cluster at ``scheduler``, or a :class:`BatchError` within
    :data:`SCHEDULER_TIMEOUT` seconds."""
    from dask.distributed import Client
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(scheduler)
        if scheme == "tcp":  # a plain socket says at once when nobody listens
            with socket.create_connection(parse_host_port(location), timeout=SCHEDULER_TIMEOUT):
                pass
    except (ValueError, OSError) as error:
        raise BatchError(f"--scheduler {scheduler}: cannot reach it: {error}") from None
    hook = sys.unraisablehook
    try:
        return Client(scheduler, timeout=SCHEDULER_TIMEOUT)
    except Exception as error:  # whatever answered, it is not a Dask scheduler we can use
        sys.unraisablehook = lambda _: None  # the half-made client's clean-up has nothing to say
        gc.collect()
        raise BatchError(f"--scheduler {scheduler}: not a Dask scheduler that answers: "
                         f"{type(error).__name__}: {error}") from None
    finally:
        sys.unraisablehook = hook


def run_batch(spec: BatchSpec, output: Path, *, formats: tuple[str, ...] = ("parquet", "csv"),
              workers: int | None = None, scheduler: str | None = None,
              on_chunk: Callable[[int], None] | None = None) -> dict[str, Path]:
    """Run ``spec`` and write ``output`` with each suffix of ``formats`` (:func:`output_paths`).

    By default in this process; ``workers=N`` starts a local Dask cluster of N
    single-threaded workers (1 to :data:`MAX_WORKERS`); ``scheduler`` connects to a
    cluster the user already runs. ``on_chunk`` hears the number of strokes of each
    chunk done (a progress bar). The files are written beside their targets under
    temporary names and replace them only when the whole run succeeded: a run that
    fails or is interrupted leaves earlier files as they were.
    """
    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    check_runner(workers, scheduler)
    paths = plan(spec, output, formats).paths
    with ExitStack() as stack:
        if workers is None and scheduler is None:
            chunks = chunks_in_process(spec)
        else:
            if scheduler is not None:
                client = stack.enter_context(_connect(scheduler))
            else:
                import dask
                from dask.distributed import Client, LocalCluster

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
        partials = stack.enter_context(replacing(*paths.values()))
        temporary = dict(zip(paths, partials, strict=True))
        writers: list[Any] = []
        if "parquet" in temporary:
            # dictionary pages only for the text columns: a float never repeats, and
            # encoding them as dictionaries made writing four times slower
            writers.append(stack.enter_context(pq.ParquetWriter(temporary["parquet"], SCHEMA,
                                                                use_dictionary=["route", "fouls"])))
        if "csv" in temporary:
            writers.append(stack.enter_context(pacsv.CSVWriter(temporary["csv"], SCHEMA)))
        for table in _grouped(chunks, ROW_GROUP_ROWS, on_chunk):
            for writer in writers:
                writer.write_table(table)
    return paths
