"""Writing output files so that a failed run never spoils what was there before.

Every command that writes a file checks the place first (:func:`output_problem`: the
folder exists, is a folder, may be written) and writes through :func:`replacing`:
the text goes to a hidden temporary file beside the target, which replaces the
target only when everything was written. A run that fails or is interrupted leaves
the old file as it was and removes its temporary file.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

PARTIAL = ".part"
"""The suffix of a temporary file being written (``.NAME.PID.part`` beside ``NAME``)."""


def output_problem(path: Path) -> str | None:
    """Why ``path`` cannot be written as an output file, or ``None`` when it can."""
    folder = path.parent
    if path.is_dir():
        return "is a folder, not a file"
    if not folder.exists():
        return f"the folder {str(folder)!r} does not exist"
    if not folder.is_dir():
        return f"{str(folder)!r} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"not allowed to write in the folder {str(folder)!r}"
    return None


def partial_path(path: Path) -> Path:
    """The temporary file beside ``path`` that :func:`replacing` writes first."""
    return path.with_name(f".{path.name}.{os.getpid()}{PARTIAL}")


@contextlib.contextmanager
def replacing(*paths: Path) -> Iterator[tuple[Path, ...]]:
    """Temporary paths, one for each of ``paths``, to write in the block. When the block
    ends normally each replaces its target (``os.replace``, atomic on one file system);
    when it raises anything (an error, Ctrl-C, ``SystemExit``) they are removed and the
    targets are left untouched."""
    partials = tuple(partial_path(p) for p in paths)
    try:
        yield partials
        for partial, path in zip(partials, paths, strict=True):
            os.replace(partial, path)
    except BaseException:
        for partial in partials:
            with contextlib.suppress(OSError):
                partial.unlink()
        raise


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`replacing`."""
    with replacing(path) as (partial,):
        partial.write_text(text, encoding="utf-8")
