"""Which compiled code ``simulate`` runs: the ahead-of-time build of the one-stroke
kernels (built now, once, if it is missing), or numba's JIT kernels where it cannot be
built or ``CAROM_PHYSICS_JIT=1`` asks for them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from carom.physics.build import aot
from carom.physics.build.notice import compile_notice

Kernels = tuple[Callable[..., Any], Callable[..., Any]]
"""``strike_and_run`` and ``sample_positions``, from the ahead-of-time build or numba."""
_kernels: Kernels | None = None


def stroke_kernels() -> Kernels:
    """The one-stroke kernels, chosen once per process."""
    global _kernels
    if _kernels is None:
        module = None
        if aot.wanted():
            module = aot.load()
            if module is None and not aot.failed():
                with compile_notice("a stroke"):
                    module = aot.build()
        if module is not None:
            _kernels = (module.strike_and_run, module.sample_positions)
        else:
            from carom.physics.engine import strike_and_run
            from carom.physics.paths import sample_positions

            _kernels = (strike_and_run, sample_positions)
    return _kernels
