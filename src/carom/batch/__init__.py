"""Batch simulation: many strokes simulated and judged, in one process or on Dask
(docs/search.md).

A spec (:mod:`carom.batch.spec`) describes positions and strikes as a grid or as a
seeded random sample; the work is cut into chunks, each one call of the simulator's
batch form, and every chunk is made from the spec and its index alone, so the
outcome table is the same whatever runs it: one process, a local cluster or a
cluster the user already has (:mod:`carom.batch.run`).
"""

from __future__ import annotations

from carom.batch.spec import BatchSpec, SpecError, read_spec

__all__ = ["BatchSpec", "SpecError", "read_spec"]
