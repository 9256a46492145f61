"""A hash of the kernels' sources: compiled code built from other sources is stale."""

from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

SOURCES = Path(__file__).resolve().parent

ALWAYS = ("layout.py", "jit.py", "aot.py")
"""The slots and constants every kernel reads, how they are compiled, and what the
ahead-of-time build exports."""


def kernel_sources() -> list[Path]:
    """The files whose change changes compiled code: those that define kernels (they import
    ``carom.physics.jit``) and :data:`ALWAYS`."""
    return [path for path in sorted(SOURCES.glob("*.py"))
            if path.name in ALWAYS or "from carom.physics.jit import" in path.read_text(encoding="utf-8")]


@lru_cache(maxsize=1)
def source_fingerprint() -> str:
    """A hash of :func:`kernel_sources`."""
    digest = hashlib.sha256()
    for path in kernel_sources():
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()
