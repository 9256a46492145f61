"""A ball finder for made-up frames: a blue cloth, balls of a fixed radius, the table's box
and mask the whole of the planes, a pixel's table place its pixel in millimetres."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from carom.video.balls import PROTOTYPES, BallFinder
from carom.video.table import Cloth
from tests.video.conftest import TABLE

CLOTH = Cloth(0.27, -0.277, 0.02, 105.0)
"""A blue cloth, as measured on a broadcast clip: chroma over luma, spread, luma."""
RADIUS = 16.0
"""A ball's radius, full-resolution pixels."""


def finder(rows: int, columns: int, fields: bool = False) -> BallFinder:
    """A finder in frames whose half-resolution planes are ``rows`` × ``columns`` (and, with
    ``fields``, in the fields of such a picture too: half as many rows)."""
    registration = SimpleNamespace(
        table=TABLE, cloth=CLOTH,
        to_table=lambda pixels, z: pixels / 1000.0,
        ball_radius_pixels=lambda points: np.full(len(points), RADIUS))
    prototypes = {b: np.array(p) for b, p in PROTOTYPES.items()}
    field_grid = ((0, 0, columns, rows // 2), np.ones((rows // 2, columns), np.uint8)) if fields else None
    return BallFinder(registration, (0, 0, columns, rows), np.ones((rows, columns), np.uint8),  # type: ignore[arg-type]
                      RADIUS / 2.0, prototypes, field_grid=field_grid)
