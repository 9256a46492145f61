"""The camera's colour balance, measured on the white ball and undone in every frame.

A camera whose white balance does not match the lamps over the table (a club's webcam
under warm lamps, a broadcast camera set for other light) multiplies each of red, green
and blue by its own gain. The ball finder knows each ball's colour under white light
(:data:`carom.video.balls.PROTOTYPES`); under a cast of a fifth, white reads as yellow or
blue and a ball is no ball's colour at all. One model undoes it:

* **the cast** is a gain per colour, ``seen = k · true``, the same for every pixel. A gain on
  linear light is the same gain on the gamma-encoded picture (``(k·x)^γ = k^γ · x^γ``), so
  it is one 3 × 3 matrix on the decoder's Y, U and V planes (:class:`Balance`);
* **measured** on the registration frames' median (the balls lie still before the first
  stroke): ball-sized patches unlike the cloth; the white ball is the camera's white card,
  its body's colour (highlight and edge left out) is ``k`` itself. Which patch is white is
  not assumed: each is tried, and the one that, undone, brings two others onto yellow's and
  red's colours is taken;
* **refused** (nothing undone) when three such balls are not seen, when no choice brings
  yellow and red within :data:`FITS` of their colours, or when a gain is beyond
  :data:`GAIN_RANGE`. The cloth's own colour is unknown (green, blue, any shade), so it
  cannot tell the cast: it is measured as seen and undone with the rest.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from carom.core.balls import Ball
from carom.video.camera import Array
from carom.video.colours import LIMITED_SCALE, LUMA_LIFT, OFFSETS, LevelMap, recoded, to_rgb
from carom.video.frames import Frame, Plane, median_frame
from carom.video.overlay import Overlay
from carom.video.table import Cloth

if TYPE_CHECKING:
    from carom.video.balls import BallFinder

F32 = npt.NDArray[np.float32]

FITS = math.radians(15.0)
"""Yellow's and red's bodies, the cast undone, lie within this angle of their colours'
directions of chroma. Only the direction is compared: a body is more saturated than its
whole blob, whose edge is mixed with the cloth, and the prototypes are the blobs'. On a
rendered clip without a cast the right choice lay within 10° (yellow) and 4° (red), the
next best 46° off."""
GAIN_RANGE = (0.5, 2.0)
"""A gain outside this is no camera's white balance: the patch taken for white is not it."""
UNCHANGED = 0.05
"""Gains all within this of 1 are left as they are (it saves a pass over every frame): the
measurement's own error was 2 % on a rendered clip without a cast (the white ball's edge
mixed with the cloth), and casts of 10–15 % were tracked unhurt without undoing them."""
LEAST_BODY = 6
"""Pixels of a ball's body left unclipped, at least (half-resolution pixels; a ball's disc
holds about 170 at 1080p, 43 at 540p): their mean, with a sensor's noise of 1–3 levels,
is within about a level, half a percent of a white body's 200."""
HIGHLIGHT = 80
"""Pixels of a ball's body brighter than this percentile are the lamps' highlights
(the lamps' colour and not the ball's) and are left out, with every pixel that may be
clipped (:data:`CLIPPED`); what is left of the disc is the ball's body."""
CLIPPED = 0.94
"""A pixel with a colour this near full scale may be clipped (a white ball under a warm
cast saturates its red first): left out."""
SHARE = (0.5, 1.6)
"""A still ball's patch weighs this share of a whole ball's disc (a lone still ball: 1)."""
MOST_PATCHES = 8
"""The heaviest patches tried (a player's hand or a cue over the table adds some)."""

_TO_RGB = to_rgb("BT.601")
"""BT.601's Y, Pb, Pr to R, G, B (the planes the cast is measured on are coded so)."""
_SCALE = LIMITED_SCALE
"""The decoder's levels (Y − 16, U − 128, V − 128) to Y, Pb, Pr."""
_LUMA = np.array([0.299, 0.587, 0.114])
_OFFSETS = OFFSETS
"""The decoder's levels of black and of no colour."""


@dataclass(frozen=True, slots=True)
class Balance:
    """A camera's gains on red, green and blue (a white ball seen at ``k`` times neutral,
    with its luma kept), and the matrix that undoes them on the planes."""

    gains: tuple[float, float, float]
    """Red, green, blue."""
    affine: npt.NDArray[np.float32]
    """On the column ``(Y, U, V)``, its offsets in the last column (for
    :func:`cv2.transform`): the levels the camera would have given under a balance
    matching the lamps."""

    @property
    def matrix(self) -> npt.NDArray[np.float64]:
        """The same on the column ``(Y − 16, U − 128, V − 128)``, which needs no offsets."""
        return self.affine[:, :3].astype(float)

    @property
    def levels_map(self) -> LevelMap:
        """The same as a map of levels (to follow another, :meth:`LevelMap.then`)."""
        return LevelMap(self.matrix, _OFFSETS, _OFFSETS)

    @classmethod
    def of(cls, gains: Sequence[float]) -> Balance:
        """The balance undoing ``gains`` (red, green, blue; scaled to keep luma)."""
        k = np.asarray(gains, float)
        k = k / float(_LUMA @ k)
        to_rgb = _TO_RGB @ _SCALE
        matrix = np.linalg.inv(to_rgb) @ np.diag(1.0 / k) @ to_rgb
        affine = np.hstack([matrix, (_OFFSETS - matrix @ _OFFSETS)[:, None]])
        gains = (float(k[0]), float(k[1]), float(k[2]))
        return cls(gains, affine.astype(np.float32))

    def undo(self, y: Plane, u: Plane, v: Plane) -> tuple[Plane, Plane, Plane]:
        """Y, U and V planes of one size with the cast undone (rounded, clipped to 0–255:
        1.2 ms for a 1080p table's box, against 2.2 ms in floating point)."""
        return recoded(y, u, v, self.affine)

    def panel(self, overlay: Overlay) -> Overlay:
        """``overlay`` (measured on the picture as the camera gave it) as it shows in planes
        whose cast is undone: a panel is affine, ``a · scene + g``, and so is the cast's
        undoing, so only its colour changes: ``g`` less ``(1 − a)`` times the offsets of
        the levels, undone, plus them again."""
        return replace(overlay, colour=self.levels_map.panel(overlay.alpha, overlay.colour))

    def cloth(self, cloth: Cloth) -> Cloth:
        """The cloth's chroma and luma with the cast undone (its spread kept)."""
        lifted = cloth.luma + LUMA_LIFT
        seen = np.array([cloth.luma - OFFSETS[0], cloth.u * lifted, cloth.v * lifted])
        undone = self.levels(seen)
        u, v = chroma(undone)[0]
        return Cloth(float(u), float(v), cloth.spread, float(undone[0] + OFFSETS[0]))

    def levels(self, colour: Array) -> Array:
        """``(Y − 16, U − 128, V − 128)`` rows of colours, the cast undone."""
        return np.asarray(colour, float) @ self.matrix.T


def chroma(levels: Array) -> Array:
    """Chroma over luma as the ball finder reads it, ``(U − 128, V − 128) / (Y + 16)``, of
    rows of ``(Y − 16, U − 128, V − 128)``."""
    levels = np.atleast_2d(levels)
    return levels[:, 1:] / (levels[:, :1] + (OFFSETS[0] + LUMA_LIFT))


def white_gains(levels: Array) -> tuple[float, float, float]:
    """The gains that make a white ball's body seen at ``levels`` (``Y − 16, U − 128,
    V − 128``) neutral, luma kept."""
    rgb = _TO_RGB @ (_SCALE @ np.asarray(levels, float))
    rgb = rgb / float(_LUMA @ rgb)
    return float(rgb[0]), float(rgb[1]), float(rgb[2])


def best_balance(bodies: Sequence[Array], prototypes: dict[Ball, Array]) -> Balance | None:
    """The cast that one of ``bodies`` (each ``Y − 16, U − 128, V − 128``) shows as the
    white ball, chosen so that two others then lie on yellow's and red's colours; None when
    no choice fits (:data:`FITS`, :data:`GAIN_RANGE`)."""
    best: tuple[float, Balance] | None = None
    for white, yellow, red in itertools.permutations(range(len(bodies)), 3):
        gains = white_gains(bodies[white])
        if not all(GAIN_RANGE[0] <= g <= GAIN_RANGE[1] for g in gains):
            continue
        balance = Balance.of(gains)
        seen = chroma(balance.levels(np.array([bodies[yellow], bodies[red]])))
        misfit = max(_angle(seen[0], prototypes[Ball.YELLOW]), _angle(seen[1], prototypes[Ball.RED]))
        if misfit <= FITS and (best is None or misfit < best[0]):
            best = (misfit, balance)
    return None if best is None else best[1]


def body_levels(y: F32, nu: F32, nv: F32, weight: F32, radius: float, cloth: Array) -> Array | None:
    """The mean ``(Y − 16, U − 128, V − 128)`` of a still ball's body in a patch (planes as
    the ball finder reads them: ``y`` is luma + 16), highlights and clipped pixels left out;
    None when its weight is not one ball's or too little of it is left. Of what is left,
    the half farthest from ``cloth`` (the cloth's chroma) is taken: the rest is the edge,
    where the lens and the codec mix the ball's colour with the cloth's."""
    mass = float(weight.sum())
    share = mass / (math.pi * radius * radius)
    if not SHARE[0] <= share <= SHARE[1]:
        return None
    rows, cols = np.mgrid[0:weight.shape[0], 0:weight.shape[1]]
    cx, cy = float((weight * cols).sum()) / mass, float((weight * rows).sum()) / mass
    body = ((cols - cx) ** 2 + (rows - cy) ** 2 <= radius ** 2) & (weight > 0.5)
    luma = y[body].astype(float)
    levels = np.column_stack((luma - 32.0, nu[body] * luma, nv[body] * luma))
    rgb = levels @ (_TO_RGB @ _SCALE).T
    kept = (luma <= np.percentile(luma, HIGHLIGHT)) & (rgb.max(axis=1) < CLIPPED)
    if kept.sum() < LEAST_BODY:
        return None
    levels = levels[kept]
    apart = np.hypot(nu[body][kept] - cloth[0], nv[body][kept] - cloth[1])
    return levels[apart >= np.median(apart)].mean(axis=0)


def find_balance(frames: Sequence[Frame], finder: BallFinder, overlay: Overlay | None = None
                 ) -> Balance | None:
    """The camera's cast, measured on the still balls of ``frames``' median, if it shows
    one beyond :data:`UNCHANGED`; ``finder``: the ball finder of the registered table, with
    no balance of its own."""
    y, nu, nv = finder.planes(median_frame(frames))
    weight = finder.likeness(nu, nv)
    bodies = []
    patches = sorted(finder.patches(weight), key=lambda p: -float((weight[p[0], p[1]] * p[2]).sum()))
    for rows, cols, near in patches[:MOST_PATCHES]:
        centre = 2.0 * np.array([cols.start + (cols.stop - cols.start) / 2.0 + finder.box[0],
                                 rows.start + (rows.stop - rows.start) / 2.0 + finder.box[1]])
        if overlay is not None and overlay.contains(centre):
            continue  # the panel's icons are drawn over the picture, not seen by the camera
        body = body_levels(y[rows, cols], nu[rows, cols], nv[rows, cols], weight[rows, cols] * near,
                           finder.radius, np.array([finder.cloth.u, finder.cloth.v]))
        if body is not None:
            bodies.append(body)
    balance = best_balance(bodies, finder.prototypes)
    if balance is None or all(abs(g - 1.0) < UNCHANGED for g in balance.gains):
        return None
    return balance


def _angle(a: Array, b: Array) -> float:
    """The angle between two chroma directions, radians."""
    return abs(math.remainder(math.atan2(float(a[1]), float(a[0])) - math.atan2(float(b[1]), float(b[0])),
                              math.tau))
