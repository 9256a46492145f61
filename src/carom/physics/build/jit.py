"""How the kernels are compiled: numba, lazily, cached on disk.

Every kernel is compiled by numba on first use and cached on disk (``cache=True``), so
only the first use on a machine pays for compiling; later processes load the machine
code. (``simulate`` itself runs from an ahead-of-time build of the same kernels, see
``aot.py``; the batch form and the tests use these.)

Numba checks a cached kernel against its own source file only, not against the kernels
it calls from other files: after an edit to ``motion.py`` it would load an ``engine.run``
built with the old motion. So when the first kernel is declared, before any is compiled,
:func:`ensure_fresh_cache` compares a fingerprint of the kernels' source files
(``fingerprint.py``) with the one stored beside numba's cache of them and, when they
differ, deletes the physics kernels' cache files.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from numba import njit

from carom.physics.build.fingerprint import SOURCES, source_fingerprint

F = TypeVar("F", bound=Callable[..., Any])

FINGERPRINT = "carom-physics.fingerprint"

_checked: set[Path] = set()
"""Cache folders already compared with the sources in this process."""


def kernel(fn: F) -> F:
    """A numba kernel: compiled lazily, cached on disk, IEEE arithmetic (no fastmath),
    no Python exceptions for division by zero (inf/nan instead)."""
    return _fresh(njit(cache=True, nogil=True, error_model="numpy")(fn))  # type: ignore[no-any-return]


def parallel_kernel(fn: F) -> F:
    """A kernel whose ``prange`` loops run on all cores."""
    return _fresh(njit(cache=True, nogil=True, error_model="numpy", parallel=True)(fn))  # type: ignore[no-any-return]


def _fresh(dispatcher: Any) -> Any:
    """Before the first kernel of a cache folder is compiled or loaded, make sure the
    folder holds no kernels built from other sources."""
    folder = cache_folder(dispatcher)
    if folder is not None and folder not in _checked:
        _checked.add(folder)
        ensure_fresh_cache(folder)
    return dispatcher


def cache_folder(dispatcher: Any) -> Path | None:
    """Where numba keeps the cached code of ``dispatcher`` (numba's own choice: beside
    the kernel's file, or in a user cache when that is read-only)."""
    try:
        return Path(dispatcher._cache._cache_path)
    except AttributeError:
        return None


def ensure_fresh_cache(folder: Path) -> None:
    """Delete the cached physics kernels in ``folder`` if any physics source changed
    since they were built (numba would only notice a change in the kernel's own file)."""
    stamp = folder / FINGERPRINT
    now = source_fingerprint()
    try:
        if stamp.read_text() == now:
            return
    except OSError:
        pass
    modules = {path.stem for path in SOURCES.glob("*.py")}
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for cached in folder.iterdir():
            if cached.suffix in (".nbi", ".nbc") and cached.name.split(".")[0] in modules:
                cached.unlink()
        stamp.write_text(now)
    except OSError:
        pass  # a read-only cache: numba falls back to compiling in memory
