"""What a batch run will write and where, said and checked before it starts: the output
files (a suffix per format, added), their estimated size against the free space, the
workers. A :class:`BatchError` names the option at fault."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from carom.batch.spec import BatchSpec
from carom.core.errors import CaromError
from carom.core.outputs import output_problem

FORMATS = {"parquet": "Parquet", "csv": "CSV"}
ROW_BYTES = {"parquet": 160, "csv": 420}
"""About what a row takes on disk (measured: 141 and 350 bytes with random positions and
strikes; longer routes take more)."""
MAX_WORKERS = 2 * (os.cpu_count() or 1)
"""A local cluster has at most two workers per CPU: more only costs memory (each worker
is a process of about 200 MB)."""


class BatchError(CaromError):
    """A batch that cannot start: the output place, the workers, the scheduler."""


@dataclass(frozen=True)
class Plan:
    """What a run will write, said before it starts."""

    paths: dict[str, Path]
    bytes: dict[str, int]
    free: int

    def words(self, spec: BatchSpec) -> str:
        sizes = " and ".join(f"{_size(n)} of {FORMATS[fmt]}" for fmt, n in self.bytes.items())
        return (f"{spec.strokes:,} strokes in {spec.chunks:,} chunk(s): about {sizes} to "
                f"{', '.join(map(str, self.paths.values()))} ({_size(self.free)} free)")


def _size(n: int) -> str:
    for unit, scale in (("GB", 10**9), ("MB", 10**6), ("kB", 10**3)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} bytes"


def output_paths(output: Path, formats: tuple[str, ...]) -> dict[str, Path]:
    """``output`` with each format's suffix added (``results.v1`` → ``results.v1.parquet``);
    a suffix that is already one of the formats is replaced (``out.csv`` → ``out.parquet``
    and ``out.csv``)."""
    base = output.with_suffix("") if output.suffix in (".parquet", ".csv") else output
    return {fmt: base.with_name(f"{base.name}.{fmt}") for fmt in formats}


def plan(spec: BatchSpec, output: Path, formats: tuple[str, ...]) -> Plan:
    """The files a run of ``spec`` will write and their estimated sizes; a
    :class:`BatchError` when they cannot be written there or cannot fit on the disk."""
    if output.is_dir():
        raise BatchError(f"--output {output}: is a folder; give the name of the files "
                         f"(e.g. {output}/outcomes)")
    paths = output_paths(output, formats)
    for path in paths.values():
        problem = output_problem(path)
        if problem is not None:
            raise BatchError(f"--output {path}: {problem}")
    sizes = {fmt: spec.strokes * ROW_BYTES[fmt] for fmt in formats}
    folder = output.parent
    free = shutil.disk_usage(folder).free
    problem = room_problem(sum(sizes.values()), free, folder)
    if problem is not None:
        raise BatchError(f"--output: {problem}")
    return Plan(paths, sizes, free)


def room_problem(needed: int, free: int, folder: Path) -> str | None:
    """Why ``needed`` bytes cannot be written in ``folder`` with ``free`` bytes free, or ``None``."""
    if needed <= free:
        return None
    return f"the outcome table needs about {_size(needed)}, but {folder} has {_size(free)} free"


def check_runner(workers: int | None, scheduler: str | None) -> None:
    """A :class:`BatchError` unless at most one of ``workers`` and ``scheduler`` is given
    and ``workers`` is from 1 to :data:`MAX_WORKERS`."""
    if workers is not None and scheduler is not None:
        raise BatchError("--workers and --scheduler: give one of them (a local cluster or yours)")
    if scheduler is not None and not scheduler.strip():
        raise BatchError("--scheduler: an address is needed, e.g. tcp://host:8786")
    if workers is not None and not 1 <= workers <= MAX_WORKERS:
        raise BatchError(f"--workers: {workers} is out of range: from 1 to {MAX_WORKERS} "
                         f"(two per CPU of this machine)")
