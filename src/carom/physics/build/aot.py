"""An ahead-of-time build of the one-stroke kernels, so that the first stroke in a fresh
process does not wait for numba (docs/physics.md, "Speed and size": at most 1 s once
compiled code is cached).

Loading numba-cached code means importing numba and initialising its compiler: about a
second before the first stroke. So the two kernels ``simulate`` needs, ``strike_and_run``
and ``sample_positions``, are also compiled once by numba's ahead-of-time compiler
(``numba.pycc``) into an ordinary extension module that loads in milliseconds and needs
no numba at run time. It is the same code compiled by the same LLVM without fastmath, so
it gives the same results bit for bit as the JIT kernels (the tests check it against
the batch form).

The module's name carries a fingerprint of the kernels' sources (``fingerprint.py``), so a
build from other sources is never loaded. It is built on first use (with a notice on stderr), or at
install time by ``python -m carom.physics.build``, into the first writable of:
``$CAROM_CACHE_DIR``, the package's ``__pycache__``, ``~/.cache/carom``. Where it cannot
be built (no C compiler, numba without ``pycc``), ``simulate`` uses the JIT kernels; a
marker file remembers the failure so that no later process tries again.
``CAROM_PHYSICS_JIT=1`` forces the JIT kernels.
"""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import os
import shutil
import tempfile
import warnings
from pathlib import Path
from types import ModuleType

from carom.physics.build.fingerprint import SOURCES, source_fingerprint

PREFIX = "_carom_kernels_"

SIGNATURES = {
    "strike_and_run": "Tuple((i8, i8, i8, f8))(f8[:, ::1], i8, f8[::1], f8[::1], f8[::1], i8[::1], i8[::1], "
                      "i8[::1], f8[:, :, ::1], i8[:, ::1], u1[::1], f8[::1])",
    "sample_positions": "f8[:, :, ::1](f8[::1], f8[:, :, ::1], i8[:, ::1], i8, f8[::1], f8[::1])",
}
"""The exported kernels and their exact argument types (C-contiguous arrays)."""


def module_name() -> str:
    return PREFIX + source_fingerprint()[:16]


def folders() -> list[Path]:
    """Where the build may live, in order of preference."""
    out = []
    if os.environ.get("CAROM_CACHE_DIR"):
        out.append(Path(os.environ["CAROM_CACHE_DIR"]))
    out.append(SOURCES / "__pycache__")
    out.append(Path.home() / ".cache" / "carom")
    return out


def _file(folder: Path) -> Path:
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    return folder / (module_name() + suffix)


def load() -> ModuleType | None:
    """The built module, if a build of these sources exists."""
    for folder in folders():
        path = _file(folder)
        if path.exists():
            spec = importlib.util.spec_from_file_location(module_name(), path)
            if spec is None or spec.loader is None:
                continue
            module = importlib.util.module_from_spec(spec)
            try:
                spec.loader.exec_module(module)
            except ImportError:
                continue
            return module
    return None


def failed() -> bool:
    """A build of these sources was tried and could not be made."""
    return any((folder / (module_name() + ".failed")).exists() for folder in folders())


def build() -> ModuleType | None:
    """Compile the module into the first writable folder; None when it cannot be built."""
    folder = next((f for f in folders() if _writable(f)), None)
    if folder is None:
        return None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from numba.pycc import CC  # type: ignore[attr-defined]

            from carom.physics.engine import strike_and_run
            from carom.physics.paths import sample_positions

            kernels = {"strike_and_run": strike_and_run, "sample_positions": sample_positions}
            with tempfile.TemporaryDirectory(dir=folder) as work:
                cc = CC(module_name())  # type: ignore[no-untyped-call]
                cc.output_dir = work
                cc.verbose = False
                for name, signature in SIGNATURES.items():
                    function = kernels[name].py_func  # type: ignore[attr-defined]
                    cc.export(name, signature)(function)  # type: ignore[no-untyped-call]
                cc.compile()
                built = next(Path(work).glob(module_name() + "*"))
                os.replace(built, _file(folder))
    except Exception as error:  # no compiler, no pycc, ...: the JIT kernels serve instead
        with contextlib.suppress(OSError):
            (folder / (module_name() + ".failed")).write_text(f"{type(error).__name__}: {error}\n")
        return None
    _remove_old_builds(folder)
    return load()


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".carom-probe-{os.getpid()}"
        probe.write_text("")
        probe.unlink()
        return True
    except OSError:
        return False


def _remove_old_builds(folder: Path) -> None:
    for path in folder.glob(PREFIX + "*"):
        if not path.name.startswith(module_name()):
            with contextlib.suppress(OSError):
                path.unlink() if path.is_file() else shutil.rmtree(path)


def wanted() -> bool:
    return os.environ.get("CAROM_PHYSICS_JIT", "") not in ("1", "true", "yes")

