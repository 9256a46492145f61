"""Pictures of a match for Gymnasium's render modes: ``"ansi"`` (text) and
``"rgb_array"`` (an image as a numpy array), from the positions and the score alone.

The image is drawn with numpy only: the frame, the cloth, the diamonds and the balls as
filled discs, the top cushion at the top of the image (GEOMETRY.md's y grows upwards).
"""

from __future__ import annotations

import numpy as np

from carom.core.balls import BALLS
from carom.core.table import TableSpec

PIXELS_PER_METRE = 200
RAIL = 24
"""Width of the frame around the cloth, pixels."""
CLOTH = (22, 96, 160)
FRAME = (96, 58, 30)
DIAMOND = (243, 239, 224)
BALL_COLOURS = ((248, 248, 240), (240, 200, 40), (200, 30, 40))
"""White, yellow, red."""
LETTERS = ("W", "Y", "R")
GRID = (8, 16)
"""Columns and rows of the text picture: one cell per half diamond."""


def rgb_array(positions: np.ndarray, table: TableSpec) -> np.ndarray:
    """The table seen from above, top cushion up (H × W × 3, uint8). ``positions``:
    3 × 2 centres of white, yellow and red, metres; a NaN row is a ball not on the table."""
    width = round(table.width * PIXELS_PER_METRE)
    length = round(table.length * PIXELS_PER_METRE)
    image = np.empty((length + 2 * RAIL, width + 2 * RAIL, 3), dtype=np.uint8)
    image[...] = FRAME
    image[RAIL:RAIL + length, RAIL:RAIL + width] = CLOTH
    for k in range(1, 4):  # the short cushions: three diamonds each
        _disc(image, (RAIL / 2, RAIL + k * width / 4), 2.5, DIAMOND)
        _disc(image, (RAIL + length + RAIL / 2, RAIL + k * width / 4), 2.5, DIAMOND)
    for k in range(1, 8):  # the long cushions: seven each
        _disc(image, (RAIL + k * length / 8, RAIL / 2), 2.5, DIAMOND)
        _disc(image, (RAIL + k * length / 8, RAIL + width + RAIL / 2), 2.5, DIAMOND)
    radius = table.ball_radius * PIXELS_PER_METRE
    for (x, y), colour in zip(np.asarray(positions, dtype=np.float64), BALL_COLOURS, strict=True):
        if np.isfinite(x) and np.isfinite(y):
            centre = (RAIL + (table.length - y) * PIXELS_PER_METRE, RAIL + x * PIXELS_PER_METRE)
            _disc(image, centre, radius, colour)
    return image


Colour = tuple[int, int, int]


def _disc(image: np.ndarray, centre: tuple[float, float], radius: float, colour: Colour) -> None:
    """Fill the pixels whose centres lie within ``radius`` of ``centre`` (row, column)."""
    row, col = centre
    r0, r1 = max(int(row - radius), 0), min(int(row + radius) + 2, image.shape[0])
    c0, c1 = max(int(col - radius), 0), min(int(col + radius) + 2, image.shape[1])
    rows, cols = np.ogrid[r0:r1, c0:c1]
    inside = (rows + 0.5 - row) ** 2 + (cols + 0.5 - col) ** 2 <= radius ** 2
    image[r0:r1, c0:c1][inside] = colour


def ansi(positions: np.ndarray, score: tuple[int, int], innings: tuple[int, int], striker: int,
         finished: bool, table: TableSpec) -> str:
    """The match as text: the score line, then the table as a grid of half diamonds with
    the balls' letters (W, Y, R), top cushion first."""
    columns, rows = GRID
    grid = [["." for _ in range(columns)] for _ in range(rows)]
    for (x, y), letter in zip(np.asarray(positions, dtype=np.float64), LETTERS, strict=True):
        if np.isfinite(x) and np.isfinite(y):
            col = min(int(x / table.width * columns), columns - 1)
            row = min(int((table.length - y) / table.length * rows), rows - 1)
            grid[row][col] = letter
    turn = "finished" if finished else ("agent to play" if striker == 0 else "opponent to play")
    head = f"agent {score[0]} ({innings[0]} innings) - opponent {score[1]} ({innings[1]} innings), {turn}"
    places = "  ".join(f"{b.value} ({x:.3f}, {y:.3f})" for b, (x, y) in zip(BALLS, positions, strict=True)
                       if np.isfinite(x))
    border = "+" + "-" * columns + "+"
    return "\n".join([head, places, border, *("|" + "".join(r) + "|" for r in grid), border]) + "\n"
