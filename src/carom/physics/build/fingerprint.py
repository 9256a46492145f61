"""A hash of the kernels' sources: compiled code built from other sources is stale."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

BUILD = Path(__file__).resolve().parent
SOURCES = BUILD.parent
"""The folder of the kernels (``carom/physics``)."""

ALWAYS = (SOURCES / "layout.py", BUILD / "jit.py", BUILD / "aot.py")
"""The slots and constants every kernel reads, how they are compiled, and what the
ahead-of-time build exports."""


def kernel_sources() -> list[Path]:
    """The files whose change changes compiled code: those that define kernels (they import
    ``carom.physics.build.jit``) and :data:`ALWAYS`."""
    defining = [path for path in sorted(SOURCES.glob("*.py"))
                if "from carom.physics.build.jit import" in path.read_text(encoding="utf-8")]
    return sorted({*defining, *ALWAYS})


@lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """A hash of :func:`kernel_sources`."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
