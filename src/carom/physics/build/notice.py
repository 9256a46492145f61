"""The one line a user sees while the physics kernels compile (docs/physics.md: compile
once, with a progress message, never silently for 20 s)."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager

NOTICE_AFTER = 1.5
"""Seconds a first call may take before the notice is printed: loading compiled code
takes less, compiling takes far more."""

_warm: set[str] = set()


@contextmanager
def compile_notice(what: str) -> Iterator[None]:
    """Around the first call of ``what`` in this process: if it takes longer than
    :data:`NOTICE_AFTER`, say on standard error that the kernels are being compiled."""
    if what in _warm:
        yield
        return
    timer = threading.Timer(NOTICE_AFTER, say_compiling, (what,))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        _warm.add(what)


def say_compiling(what: str) -> None:
    sys.stderr.write(f"carom: compiling the physics kernels for {what} "
                     "(once per installation; cached afterwards)...\n")
    sys.stderr.flush()
