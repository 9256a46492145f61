"""A half-transparent panel drawn over the picture (a broadcaster's score box), found and undone.

Broadcast graphics are drawn in the picture's own axes: a panel is an axis-aligned
rectangle that stays where it is while the scene under it changes, and a half-transparent
one shows the scene as ``a · scene + g`` (one alpha ``a`` for all colours, one colour
``g``). YUV is affine in RGB, so the same holds in each of the decoder's planes, with one
``a`` and a ``g`` per plane.

* **Found** on the frames the table is registered on (their median: people walking past
  drop out): long straight horizontal and vertical edges, each row or column of the
  picture whose luma and chroma step over most of a side's length, that close a rectangle
  (a side may be the picture's own border) overlapping the table.
* **Measured** along its own edges: the pixels just inside and just outside see the same
  surfaces (cloth, rail, apron, floor), so ``inside = a · outside + g`` is fitted to them
  by least squares, outliers cut (the icons and letters near an edge, a ball lying across
  it). A rectangle is kept only when the fit is good, its outside shows surfaces different
  enough to tell ``a`` from ``g``, every side of it follows the fit, and ``a`` lies within
  :data:`ALPHA_RANGE`: an opaque panel hides what is under it, and nothing is undone.
* **Undone** before the balls are looked for (:meth:`Overlay.undo`): ``(O − g) / a`` in
  the rectangle's pixels, so the ball finder sees the scene's colours; the picture's noise
  there grows by ``1 / a``, and a ball's sample there is that much less sure. The opaque
  icons and letters become saturated blobs that lie still, fixtures of the picture
  (:mod:`carom.video.follow`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from carom.video.camera import Array
from carom.video.frames import Frame, median_frame

F32 = npt.NDArray[np.float32]
Levels = npt.NDArray[np.generic]
"""A plane of levels, as decoded (8 bits) or as floats."""
Ints = npt.NDArray[np.int_]

ALPHA_RANGE = (0.15, 0.9)
"""The panel's alpha is undone within this range: below it the scene's light under the
panel is lost in the noise (×1/a), above it the panel hardly dims anything."""
EDGE_STEP = 6
"""A side's pixel steps by at least this much, luma and chroma levels added."""
SIDE_COVER = 0.8
"""A side of the rectangle steps over at least this share of its length (where the scene
under it matches the panel's light, a stretch shows no step)."""
SHORTEST = 0.03
"""A side is at least this share of the picture's width (across) or height (up)."""
LARGEST = 0.25
"""The rectangle covers at most this share of the picture."""
CLOSE_GAP = 9
"""Pixels of a side without a step bridged when its runs are measured."""
ROWS_IN = (3, 4, 5)
"""Full-resolution pixels from a side at which inside and outside are compared (the
codec smears the step over a pixel or two)."""
CHROMA_IN = (2, 3)
"""The same for the chroma planes, in their half-resolution pixels."""
CORNER_MARGIN = 8
"""Full-resolution pixels left out at each end of a side (the corners)."""
FIT_SD = 4.0
"""The fit's residual standard deviation, levels, at most (over the kept pairs)."""
KEPT = 0.6
"""At least this share of the pairs fits the panel's model (the rest: icons, letters, a
ball across an edge, codec ringing)."""
SIDE_KEPT = 0.4
"""A side follows the panel's light when at least this share of its pairs fits it in each
plane: a side that is an edge of the scene (the cloth's against the rail) and no panel's
does not, nor does a side whose luma alone happens to fit (the picture's black border
against the floor)."""
OUTSIDE_SPREAD = 8.0
"""The outside pixels' spread, levels, at least (a standard deviation about each plane's
mean): a panel over one surface only cannot tell its alpha from its colour."""
ALPHA_SE = 0.02
"""The fitted alpha's standard error at most."""
TABLE_SPAN = 0.8
"""A rectangle at least this share of the table's width or height in the picture long is
the table's own (its cushion and rail along a side, seen straight down, make a strip of
straight edges whose light a panel's model can fit), not a panel: a broadcaster's graphics
cover a corner of the picture, not a whole side of the table."""


@dataclass(frozen=True, slots=True)
class Overlay:
    """A half-transparent panel: its rectangle and the light it lets through."""

    x0: int
    y0: int
    x1: int
    y1: int
    """Full-resolution pixels: columns ``x0 .. x1 − 1``, rows ``y0 .. y1 − 1``."""
    alpha: float
    """The share of the scene's light the panel lets through."""
    colour: tuple[float, float, float]
    """The panel's own light added, in Y, U and V levels (``g``)."""
    sd: float
    """The fit's residual standard deviation, levels."""

    def contains(self, pixel: Array) -> bool:
        """Whether the full-resolution ``pixel`` (x, y) lies under the panel."""
        return self.x0 <= float(pixel[0]) < self.x1 and self.y0 <= float(pixel[1]) < self.y1

    def shown_in(self, frame: Frame) -> bool:
        """Whether ``frame`` shows the panel (a broadcaster's graphics come and go): the
        pairs across its sides that fit its light (within three of its fit's standard
        deviations, at least 2 levels) are at least as many as those that fit no panel at
        all (the inside as the outside)."""
        pairs = _across((self.x0, self.y0, self.x1, self.y1), frame.y, frame.u, frame.v)
        if pairs is None:
            return True
        outside, inside, plane, _ = pairs
        tolerance = max(3.0 * self.sd, 2.0)
        panel = np.abs(inside - self.alpha * outside - np.asarray(self.colour)[plane]) <= tolerance
        bare = np.abs(inside - outside) <= tolerance
        return int(panel.sum()) >= int(bare.sum())

    def in_field(self, field: int) -> Overlay:
        """The panel as one field's own rows show it (:attr:`carom.video.frames.Frame.field`:
        their row ``r`` is the picture's row ``2 r + field``)."""
        return replace(self, y0=(self.y0 - field + 1) // 2, y1=(self.y1 - field + 1) // 2)

    def undo(self, planes: tuple[F32, F32, F32], box: tuple[int, int, int, int]) -> None:
        """Undo the panel in place in half-resolution Y, U and V planes cut to ``box``
        (half-resolution x0, y0, x1, y1): ``S = (O − f·g) / (1 − f + f·a)``, ``f`` each
        pixel's share under the panel (1 inside, ½ on an edge at an odd full-resolution
        pixel, whose half-resolution pixel straddles it), clipped to 0..255."""
        bx0, by0, bx1, by1 = box
        fx = _shares(self.x0, self.x1, bx0, bx1)
        fy = _shares(self.y0, self.y1, by0, by1)
        if fx is None or fy is None:
            return
        (cx0, xs), (cy0, ys) = fx, fy
        share = np.outer(ys, xs).astype(np.float32)
        scale = 1.0 / (1.0 - share + share * np.float32(self.alpha))
        rows, cols = slice(cy0, cy0 + len(ys)), slice(cx0, cx0 + len(xs))
        for plane, g in zip(planes, self.colour, strict=True):
            part = plane[rows, cols]
            np.clip((part - share * np.float32(g)) * scale, 0.0, 255.0, out=part)


def _shares(lo: int, hi: int, box_lo: int, box_hi: int) -> tuple[int, F32] | None:
    """The half-resolution pixels of ``box_lo .. box_hi`` that the full-resolution span
    ``lo .. hi`` covers, from the first (relative to ``box_lo``), and each one's share."""
    first, last = max(lo // 2, box_lo), min((hi + 1) // 2, box_hi)
    if first >= last:
        return None
    pixels = np.arange(first, last)
    covered = np.clip(np.minimum(2 * pixels + 2, hi) - np.maximum(2 * pixels, lo), 0, 2) / 2.0
    return first - box_lo, covered.astype(np.float32)


def find_overlay(frames: Sequence[Frame], table: Array) -> Overlay | None:
    """The half-transparent panel over the table in ``frames`` (a few of one still camera),
    if there is one whose light can be undone; ``table``: the table's outline (its corners,
    full-resolution pixels), which the panel must overlap."""
    still = median_frame(frames)
    y, u, v = (plane.astype(np.float32) for plane in (still.y, still.u, still.v))
    h, w = y.shape
    up = (np.repeat(np.repeat(u, 2, axis=0), 2, axis=1), np.repeat(np.repeat(v, 2, axis=0), 2, axis=1))
    across = _steps(y, *up, axis=0) > EDGE_STEP  # [b - 1, c]: rows b - 1 and b differ at column c
    along = _steps(y, *up, axis=1) > EDGE_STEP  # [r, b - 1]: columns b - 1 and b differ at row r
    rows = _lines(across, int(SHORTEST * w))
    cols = _lines(along.T, int(SHORTEST * h))
    found = []
    for rect in _rectangles(across, along, rows, cols, w, h):
        if _over_table(rect, table) and not _along_table(rect, table):
            measured = _measure(rect, y, u, v)
            if measured is not None:
                found.append(measured)
    if not found:
        return None
    # the most sides shown to follow the panel's light; then a side found in the picture
    # rather than its border (a panel drawn a little in from it); then the largest
    best = min(found, key=lambda m: (-m[1], -_inner_sides(m[0], w, h), -_area(m[0]), m[0].sd))
    return best[0]


def _inner_sides(overlay: Overlay, w: int, h: int) -> int:
    """How many of the panel's sides lie inside the picture, not on its border."""
    return (overlay.x0 > 0) + (overlay.y0 > 0) + (overlay.x1 < w) + (overlay.y1 < h)


def _area(overlay: Overlay) -> int:
    return (overlay.x1 - overlay.x0) * (overlay.y1 - overlay.y0)


def _steps(y: F32, u: F32, v: F32, axis: int) -> F32:
    """How much each pixel differs from the one before it along ``axis``, luma and chroma
    levels added."""
    return np.abs(np.diff(y, axis=axis)) + np.abs(np.diff(u, axis=axis)) + np.abs(np.diff(v, axis=axis))


def _lines(edges: npt.NDArray[np.bool_], shortest: int) -> list[int]:
    """The boundaries (``b``: between pixel rows ``b − 1`` and ``b`` of ``edges``' rows)
    along which the steps run unbroken (gaps of :data:`CLOSE_GAP` bridged) at least
    ``shortest`` pixels."""
    closed = cv2.morphologyEx(edges.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((1, CLOSE_GAP), np.uint8))
    padded = np.pad(closed, ((0, 0), (1, 1))).astype(np.int8)
    change = np.diff(padded, axis=1)
    start_rows, start_cols = np.nonzero(change == 1)
    _, end_cols = np.nonzero(change == -1)  # row-major: each run's end follows its start
    long = end_cols - start_cols >= shortest
    return [int(b) + 1 for b in np.unique(start_rows[long])]


def _rectangles(across: npt.NDArray[np.bool_], along: npt.NDArray[np.bool_], rows: list[int], cols: list[int],
                w: int, h: int) -> list[tuple[int, int, int, int]]:
    """Rectangles (x0, y0, x1, y1) whose four sides step over :data:`SIDE_COVER` of their
    length or lie on the picture's border (at least one side does not), of sides at least
    :data:`SHORTEST` of the picture and an area at most :data:`LARGEST` of it."""
    row_sums = np.zeros((h + 1, w + 1))  # row_sums[b, c]: steps at boundary b in columns < c
    row_sums[1:h, 1:] = np.cumsum(across, axis=1)
    row_sums[0, :] = row_sums[h, :] = np.arange(w + 1)  # the border counts as a step everywhere
    col_sums = np.zeros((w + 1, h + 1))
    col_sums[1:w, 1:] = np.cumsum(along.T, axis=1)
    col_sums[0, :] = col_sums[w, :] = np.arange(h + 1)
    ys, xs = sorted({0, h, *rows}), np.array(sorted({0, w, *cols}))
    left, right = np.meshgrid(xs, xs, indexing="ij")
    pair = (right - left >= SHORTEST * w)
    left, right = left[pair], right[pair]
    out = []
    for k, top in enumerate(ys):
        for bottom in ys[k + 1:]:
            tall = bottom - top
            if tall < SHORTEST * h or (top == 0 and bottom == h):
                continue
            width = right - left
            cover = np.minimum(_cover(row_sums[top], left, right), _cover(row_sums[bottom], left, right))
            ok = (cover >= SIDE_COVER) & (width * tall <= LARGEST * w * h)
            ok &= _cover2(col_sums, left, top, bottom) >= SIDE_COVER
            ok &= _cover2(col_sums, right, top, bottom) >= SIDE_COVER
            out.extend((int(a), top, int(b), bottom) for a, b in zip(left[ok], right[ok], strict=True))
    return out


def _cover(sums: Array, lo: npt.NDArray[np.int_], hi: npt.NDArray[np.int_]) -> Array:
    return np.asarray((sums[hi] - sums[lo]) / np.maximum(hi - lo, 1))


def _cover2(sums: Array, at: npt.NDArray[np.int_], lo: int, hi: int) -> Array:
    return np.asarray((sums[at, hi] - sums[at, lo]) / max(hi - lo, 1))


def _over_table(rect: tuple[int, int, int, int], table: Array) -> bool:
    """Whether the rectangle overlaps the table's outline (a convex quadrilateral)."""
    x0, y0, x1, y1 = rect
    box = np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]], np.float32)
    area, _ = cv2.intersectConvexConvex(box, np.asarray(table, np.float32))
    return bool(area > 0.0)


def _along_table(rect: tuple[int, int, int, int], table: Array) -> bool:
    """Whether the rectangle runs along the table: across :data:`TABLE_SPAN` of its
    outline's width or height in the picture."""
    x0, y0, x1, y1 = rect
    outline = np.asarray(table, float)
    width, height = np.ptp(outline[:, 0]), np.ptp(outline[:, 1])
    return bool(x1 - x0 >= TABLE_SPAN * width or y1 - y0 >= TABLE_SPAN * height)


def _measure(rect: tuple[int, int, int, int], y: F32, u: F32, v: F32) -> tuple[Overlay, int] | None:
    """The panel's alpha and colour fitted along the rectangle's sides, and how many of its
    sides follow that fit in every plane (:data:`SIDE_KEPT`), or ``None`` when the sides do
    not show a panel (see the module's notes). A side may fail where the panel's edge lies
    on an edge of the scene (a rail's outer edge, the picture's black border just outside):
    the surfaces inside and outside it differ; two sides at least must follow."""
    pairs = _across(rect, y, u, v)
    if pairs is None:
        return None
    outside, inside, plane, side = pairs
    fit = _robust_fit(outside, inside, plane)
    if fit is None:
        return None
    alpha, colour, sd, kept = fit
    if not ALPHA_RANGE[0] <= alpha <= ALPHA_RANGE[1] or sd > FIT_SD or kept.mean() < KEPT:
        return None
    follow = sum(all(kept[(side == k) & (plane == p)].mean() >= SIDE_KEPT for p in range(3))
                 for k in np.unique(side))
    if follow < 2:
        return None
    centred = outside[kept] - np.array([outside[kept & (plane == p)].mean() for p in range(3)])[plane[kept]]
    spread = float(np.sqrt(np.mean(centred ** 2)))
    if spread < OUTSIDE_SPREAD or sd / (spread * math.sqrt(int(kept.sum()))) > ALPHA_SE:
        return None
    return Overlay(*rect, alpha, colour, sd), follow


def _across(rect: tuple[int, int, int, int], y: Levels, u: Levels, v: Levels
            ) -> tuple[Array, Array, Ints, Ints] | None:
    """The outside and inside values facing each other across every side of the rectangle
    not on the picture's border (:func:`_pairs`), each one's plane, and the number of its
    side among those; ``None`` when every side lies on the border."""
    sides = [s for s in (_pairs(rect, side, y, u, v) for side in range(4)) if s is not None]
    if not sides:
        return None
    side = np.concatenate([np.full(len(s[0]), k) for k, s in enumerate(sides)])
    return (np.concatenate([s[0] for s in sides]), np.concatenate([s[1] for s in sides]),
            np.concatenate([s[2] for s in sides]), side)


def _pairs(rect: tuple[int, int, int, int], side: int, y: Levels, u: Levels, v: Levels
           ) -> tuple[Array, Array, Ints] | None:
    """Outside and inside values facing each other across one side (0 top, 1 right,
    2 bottom, 3 left), a few pixels from it, in the three planes, and each one's plane;
    ``None`` for a side on the picture's border."""
    x0, y0, x1, y1 = rect
    h, w = y.shape
    boundary, lo, hi, vertical, inward = {0: (y0, x0, x1, False, 1), 1: (x1, y0, y1, True, -1),
                                          2: (y1, x0, x1, False, -1), 3: (x0, y0, y1, True, 1)}[side]
    if boundary in (0, w if vertical else h):
        return None
    outs, ins, planes = [], [], []
    for p, (image, steps, scale) in enumerate(((y, ROWS_IN, 1), (u, CHROMA_IN, 2), (v, CHROMA_IN, 2))):
        along = np.arange((lo + CORNER_MARGIN) // scale, (hi - CORNER_MARGIN) // scale)
        first_in = -(-boundary // scale) if inward > 0 else boundary // scale - 1  # wholly inside
        first_out = first_in - inward if boundary % scale == 0 else first_in - 2 * inward
        limit = image.shape[1] if vertical else image.shape[0]
        for d in steps:
            i, o = first_in + inward * (d - 1), first_out - inward * (d - 1)
            if not (0 <= i < limit and 0 <= o < limit):
                continue
            lines = image.T if vertical else image  # one line of pixels a row of ``lines``
            outs.append(lines[o, along])
            ins.append(lines[i, along])
            planes.append(np.full(len(along), p))
    if not outs:
        return None
    return (np.concatenate(outs).astype(float), np.concatenate(ins).astype(float),
            np.concatenate(planes).astype(int))


def _robust_fit(outside: Array, inside: Array, plane: npt.NDArray[np.int_]
                ) -> tuple[float, tuple[float, float, float], float, npt.NDArray[np.bool_]] | None:
    """``inside = a · outside + g[plane]`` by least squares, robustly: fitted again and
    again to the :data:`KEPT` share of the pairs it fits best (a least-trimmed-squares
    descent, so that a third of the pairs on letters, icons and other edges cannot pull
    it), then to every pair within three standard deviations of that fit (at least 2
    levels): a, g, the kept pairs' residual deviation and which were kept."""
    design = np.zeros((len(outside), 4))
    design[:, 0] = outside
    design[np.arange(len(outside)), 1 + plane] = 1.0
    if len(outside) < 16 or any(np.count_nonzero(plane == p) < 4 for p in range(3)):
        return None
    best = max(int(KEPT * len(outside)), 8)
    kept = np.ones(len(outside), bool)
    for _ in range(20):
        solution, *_ = np.linalg.lstsq(design[kept], inside[kept], rcond=None)
        residual = np.abs(inside - design @ solution)
        now = np.zeros(len(outside), bool)
        now[np.argpartition(residual, best - 1)[:best]] = True
        if np.array_equal(now, kept):
            break
        kept = now
    sd = 1.4826 * float(np.median(residual))  # robust while fewer than half the pairs are off
    for _ in range(2):
        kept = residual <= max(3.0 * sd, 2.0)
        if any(not np.any(kept & (plane == p)) for p in range(3)):
            return None
        solution, *_ = np.linalg.lstsq(design[kept], inside[kept], rcond=None)
        residual = np.abs(inside - design @ solution)
        sd = float(np.sqrt(np.mean(residual[kept] ** 2)))
    return float(solution[0]), (float(solution[1]), float(solution[2]), float(solution[3])), sd, kept
