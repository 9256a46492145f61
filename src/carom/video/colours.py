"""How a stream codes colour in its Y, U and V planes, and the one affine map that brings
them to the coding every colour constant of the tracker was set in.

A camera's 8-bit planes code its gamma-encoded red, green and blue through a **matrix**
(the luma weights of red and blue: BT.601's for standard definition, BT.709's for HD
cameras and broadcasts, BT.2020's for UHD) and a **range** (limited, the studio levels:
luma 16–235, chroma 16–240 about 128; full, the JPEG levels a webcam's MJPEG often
sends: 0–255 both). The ball finder's colours, the cast's measurement and the cloth's
chroma were all set on the renderer's clips, coded BT.601 in limited range
(:data:`REFERENCE`). Planes coded otherwise are brought to it by one affine map on the
column ``(Y, U, V)`` (:meth:`Coding.to_reference`): to R', G', B' through the stream's own
matrix and range, back through BT.601's. Between two matrices of one range the chroma
rows do not depend on luma (the difference of two lumas is a difference of colours), so
the chroma planes can be mapped at their own half resolution once luma is known there.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

Plane = npt.NDArray[np.uint8]
Matrix = npt.NDArray[np.float64]

LUMA_WEIGHTS: dict[str, tuple[float, float]] = {
    "BT.601": (0.299, 0.114), "BT.709": (0.2126, 0.0722), "BT.2020": (0.2627, 0.0593),
    "FCC": (0.30, 0.11), "SMPTE 240M": (0.212, 0.087),
}
"""Each matrix's weights of red and blue in luma (green's is the rest)."""
OFFSETS = np.array([16.0, 128.0, 128.0])
"""Limited range's levels of black and of no colour (Y, U, V)."""
LUMA_LIFT = 16.0
"""The ball finder reads a pixel's colour as its chroma over its luma lifted by this,
``(U − 128, V − 128) / (Y + 16)`` in limited range's levels (:func:`over_luma`): a shade of
one colour keeps about its ratio, and the darkest pixels' chroma is not divided by nothing."""
FULL_OFFSETS = np.array([0.0, 128.0, 128.0])
"""Full range's."""
LIMITED_SCALE = np.diag([1.0 / 219.0, 1.0 / 224.0, 1.0 / 224.0])
"""Limited range's levels less their offsets (Y − 16, U − 128, V − 128) to Y', Pb, Pr."""
FULL_SCALE = np.diag([1.0 / 255.0] * 3)
"""Full range's (Y, U − 128, V − 128) to Y', Pb, Pr."""


def to_rgb(matrix: str) -> Matrix:
    """``matrix``'s Y', Pb, Pr (Pb and Pr in −½ … ½) to R', G', B'."""
    kr, kb = LUMA_WEIGHTS[matrix]
    kg = 1.0 - kr - kb
    cr, cb = 2.0 * (1.0 - kr), 2.0 * (1.0 - kb)
    return np.array([[1.0, 0.0, cr], [1.0, -cb * kb / kg, -cr * kr / kg], [1.0, cb, 0.0]])


@dataclass(frozen=True, slots=True)
class LevelMap:
    """An affine map of ``(Y, U, V)`` levels: ``matrix · (x − before) + after``."""

    matrix: Matrix
    before: Matrix
    after: Matrix

    @property
    def affine(self) -> npt.NDArray[np.float32]:
        """The map on the column ``(Y, U, V)``, its offsets in the last column (for :func:`cv2.transform`)."""
        return np.hstack([self.matrix, (self.after - self.matrix @ self.before)[:, None]]).astype(np.float32)

    def then(self, outer: LevelMap) -> LevelMap:
        """This map followed by ``outer``."""
        return LevelMap(outer.matrix @ self.matrix, self.before,
                        outer.matrix @ (self.after - outer.before) + outer.after)

    def panel(self, alpha: float, colour: tuple[float, float, float]) -> tuple[float, float, float]:
        """The colour ``g`` of a half-transparent panel, ``a · scene + g`` in the levels
        before the map, as it shows after it: a panel is affine and so is the map, so only
        its colour changes (``g`` less ``(1 − a)`` times the offsets, mapped, plus them)."""
        centred = np.asarray(colour) - (1.0 - alpha) * self.before
        mapped = self.matrix @ centred + (1.0 - alpha) * self.after
        return float(mapped[0]), float(mapped[1]), float(mapped[2])


@dataclass(frozen=True, slots=True)
class Coding:
    """How a stream codes colour: its matrix (a key of :data:`LUMA_WEIGHTS`) and range."""

    matrix: str
    full: bool

    def __str__(self) -> str:
        return f"{self.matrix} {'full' if self.full else 'limited'} range"

    def to_reference(self) -> LevelMap | None:
        """The map bringing this coding's levels to :data:`REFERENCE`'s (None: it is that
        coding; levels are then read untouched)."""
        if self == REFERENCE:
            return None
        scale, before = (FULL_SCALE, FULL_OFFSETS) if self.full else (LIMITED_SCALE, OFFSETS)
        matrix = np.linalg.inv(LIMITED_SCALE) @ np.linalg.inv(to_rgb("BT.601")) @ to_rgb(self.matrix) @ scale
        matrix[1:, 0] = 0.0  # exactly: two lumas differ by a colour, and a range's scale is per plane
        return LevelMap(matrix, before, OFFSETS)


REFERENCE = Coding("BT.601", False)
"""The coding the tracker's colours were set in: the renderer's, libswscale's default."""


def recoded(y: Plane, u: Plane, v: Plane, affine: npt.NDArray[np.float32]) -> tuple[Plane, Plane, Plane]:
    """Planes of one size mapped by ``affine`` (rounded, clipped to 0–255)."""
    out = cv2.split(cv2.transform(cv2.merge((y, u, v)), affine))
    return out[0], out[1], out[2]


def mapped(y: Plane, u: Plane, v: Plane, affine: npt.NDArray[np.float32]
           ) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """Planes of one size mapped by ``affine``, in floating point (not rounded again to 8
    bits: on a BT.709 clip the rounding put the balls' median error up from 1.07 to 1.81 mm;
    :func:`cv2.transform` in floating point took ten times as long)."""
    planes = [plane.astype(np.float32) for plane in (y, u, v)]
    out = []
    for row in affine:
        level = planes[0] * row[0]
        level += planes[1] * row[1]
        level += planes[2] * row[2]
        level += row[3]
        out.append(level)
    return out[0], out[1], out[2]


def over_luma(y: npt.NDArray[np.float64], u: npt.NDArray[np.float64],
              v: npt.NDArray[np.float64]) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Chroma over luma as the ball finder reads it (:data:`LUMA_LIFT`), of levels
    ``y``, ``u``, ``v`` as coded (limited range)."""
    lifted = y + LUMA_LIFT
    return (u - 128.0) / lifted, (v - 128.0) / lifted
