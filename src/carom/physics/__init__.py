"""The physics simulator (PHYSICS.md): a cue strike in, a ``carom/1`` stroke record out.

``simulate(position, strike, table, params)`` plays one stroke; ``simulate_batch`` plays
many in one parallel compiled call and returns outcome arrays. The numba kernels behind
them take arrays and numbers only; ``carom.physics.twin`` holds their slow pure-Python
twins, the oracle of the tests. Importing this package does not import numba: the batch
form loads it when first asked for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from carom.physics.params import DEFAULT_PARAMS, PARAMS_VERSION, Params
from carom.physics.simulate import Motion, simulate
from carom.physics.strike import Strike

if TYPE_CHECKING:
    from carom.physics.batch import BatchOutcome, simulate_batch

__all__ = ["DEFAULT_PARAMS", "PARAMS_VERSION", "BatchOutcome", "Motion", "Params", "Strike", "simulate",
           "simulate_batch"]


def __getattr__(name: str) -> Any:
    if name in ("simulate_batch", "BatchOutcome"):
        from carom.physics import batch

        return getattr(batch, name)
    raise AttributeError(f"module 'carom.physics' has no attribute {name!r}")
