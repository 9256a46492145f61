"""The table found by itself: the cloth, the outline of its cloth-covered surface, the lens
distortion that bends that outline, the cushion noses inside it, and from them the camera.

1. **The cloth** is the most common saturated hue near the middle of the picture (a
   median of several frames, so that people walking past leave it); its region is the
   largest patch of that hue, holes (balls, hands) filled.
2. **The outline** (where the cloth of the cushions meets the rail) is four straight
   lines in the world: its edge points are found to a fraction of a pixel along each side.
3. **Distortion**: one radial coefficient chosen so that the outline's sides are
   straightest once undistorted (a golden-section search).
4. **The cushion noses** lie a few centimetres inside the outline: in a picture of the
   table rectified through the outline (smoothed first where its pixels are coarser than
   the picture's), the nose is the first dark line inside each side (the shade under its
   edge, where the cushion's top meets the bed), inside a band of 0.8–7 % of the table's
   length, measured on 24 pieces of the side, a valley at least 8 times the grey-level
   noise of the side's profiles deep; of the lines along the side that such valleys in
   at least half the pieces lie on, one a piece, the outermost (people, a cue, score
   graphics cover pieces).
5. **The camera**: the noses' four corners give the homography of the nose plane
   (37 mm above the bed) and from it the camera's pose and focal length
   (:func:`carom.video.camera.from_plane_homography`), so that a ball's centre is
   projected from its own height, 30.75 mm above the bed.

Which short cushion is the bottom (``y = 0``) cannot be seen on a table: by convention it
is the one at the picture's left when the table lies across the picture, at the bottom
when it lies along it (a ``--corners`` override names the corners itself).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from carom.core.table import TableSpec
from carom.video.camera import Array, Camera, apply_homography, from_plane_homography, homography
from carom.video.colours import over_luma
from carom.video.errors import VideoError
from carom.video.frames import Frame

NOSE_HEIGHT = 0.037
"""The cushion nose's height above the bed, m (PHYSICS.md's h)."""

HEIGHT_PRIOR = 3.5
"""A camera looking straight down is taken to hang this high above the table, m (its
height cannot be read from the table's rectangle); ``--camera-height`` overrides it."""

Image = npt.NDArray[np.uint8]

SMALL_WIDTH = 640
"""The outline is first found on the picture shrunk to this width."""
MIN_AREA = 0.08
"""The cloth must cover this share of the picture at least."""
CLOTH_SATURATION = 60
HUE_WINDOW = 14
DARKEST = 0.45
"""Cloth in shade is at least this share of the cloth's brightness in the middle (a
darker patch of its hue, such as a score box tinted like it, is not cloth)."""
EDGE_POINTS = 48
"""Points measured along each side of the outline."""
BEYOND_EDGE = 4.0
"""Pixels a line across a side cut by the picture's border must reach inside the rough
edge to be measured (a crossing found to a fraction of a pixel needs a few of cloth)."""
FROM_EDGE = 2.0
"""Pixels outside the rough edge, at most, where such a line's part in the picture must
begin (the rough edge is found to about a pixel)."""
OFF_SIDE = 2.0
"""An edge point farther than this from its side's straight line, pixels, lies on the edge
of something else: a score box tinted like the cloth over a corner, a player's arm. Such
points weigh no more on the lens than a point this far off, however many they are (a
score box in a corner can cover a quarter of a side, and the lens bent to straighten its
edge with the rail's puts the table a centimetre off)."""
NOSE_BAND = (0.008, 0.07)
"""Where the nose is searched inside the outline, as shares of the table's outer length."""
NOSE_PIECES = 24
NOSE_CONTRAST = 8.0
"""How much darker than the cloth on either side of it a nose's line is, in units of the
grey-level noise of the side's profiles (:func:`profile_noise`): a dark, noisy picture's
shade under a nose is a valley of two levels, a bright, clean one's of twenty."""
NOSE_SKEW = 0.005
"""The steepest slant of a nose's line across the rectified picture, depth over length
(1.4 cm over a long cushion: the outline it is rectified through is that good)."""
VALLEY_REACH = 4
"""Canvas pixels on either side of a nose's line that show the cloth beside it."""
CANVAS_PER_METRE = 300.0
"""Pixels per metre of the rectified picture the noses are searched in."""


@dataclass(frozen=True, slots=True)
class Cloth:
    """The cloth's chroma: U and V less 128, each over the luma plus 16 (unchanged by
    shade, as a shadow leaves a colour's hue), its median and spread."""

    u: float
    v: float
    spread: float
    luma: float


@dataclass(frozen=True, slots=True)
class Registration:
    """Where the table is in the picture and the camera that sees it."""

    table: TableSpec
    camera: Camera
    corners: Array
    """The cushion noses' corners in the picture (distorted pixels), in the order
    (0, 0), (W, 0), (W, L), (0, L)."""
    outline: Array
    """The outline's corners (distorted pixels), same order."""
    cloth: Cloth
    reference: npt.NDArray[np.float32]
    """The picture it was found in (see :func:`camera_shift`)."""
    found: str
    """How the table was found: ``cloth`` or ``corners`` (given)."""

    def to_table(self, pixels: Array, z: float) -> Array:
        """World ``x, y`` of the points at height ``z`` seen at ``pixels``."""
        return self.camera.to_plane(pixels, z)

    def to_pixels(self, points: Array, z: float) -> Array:
        """Pixels of table points ``(x, y)`` at height ``z``."""
        pts = np.column_stack((points, np.full(len(points), z)))
        return self.camera.project(pts)

    def ball_radius_pixels(self, points: Array) -> Array:
        """A ball's radius in pixels where it lies."""
        r = self.table.ball_radius
        pts = np.column_stack((points, np.full(len(points), r)))
        return self.camera.f * r / self.camera.depth(pts)


def median_picture(pictures: Sequence[Image]) -> Image:
    """The per-pixel median of a few frames: what stood still."""
    if len(pictures) == 1:
        return pictures[0]
    return np.asarray(np.median(np.stack(pictures), axis=0), dtype=np.uint8)


def find_table(frames: Sequence[Frame], table: TableSpec, height_prior: float = HEIGHT_PRIOR,
               corners: Array | None = None) -> Registration:
    """Register the table in ``frames`` of one still camera (a few, spread in time)."""
    picture = median_picture([f.bgr() for f in frames])
    h, w = picture.shape[:2]
    if corners is not None:
        return _given(frames, picture, table, np.asarray(corners, dtype=float), height_prior)
    region, hue = _cloth_region(picture)
    quad = _rough_quad(region, w, h)
    for _ in range(2):  # a score box over a corner tilts the rough outline: measure again along the lines
        sides = [_edge_points(picture, quad[k], quad[(k + 1) % 4], hue) for k in range(4)]
        first = [_fit_line(points) for points in sides]
        quad = np.array([_intersect(first[k - 1], first[k]) for k in range(4)])
    k_img = _straightest(sides, w, h)
    lines = [_fit_line(_undistort_img(p, k_img, w, h)) for p in sides]
    outline_u = np.array([_intersect(lines[k - 1], lines[k]) for k in range(4)])
    noses_u = _noses(picture, outline_u, k_img, w, h)
    cloth = cloth_of(frames, _redistort_img(noses_u, k_img, w, h))
    order = _orient(noses_u, w, h)
    noses_u, outline_u = noses_u[order], outline_u[order]
    camera = _camera(noses_u, table, w, h, k_img, height_prior)
    return Registration(table, camera, _redistort_img(noses_u, k_img, w, h),
                        _redistort_img(outline_u, k_img, w, h), cloth, reference(picture), "cloth")


def _given(frames: Sequence[Frame], picture: Image, table: TableSpec, corners: Array,
           height_prior: float) -> Registration:
    h, w = picture.shape[:2]
    if corners.shape != (4, 2) or not np.all(np.isfinite(corners)):
        raise VideoError("--corners: four corners x,y are needed")
    if np.any(corners < 0) or np.any(corners[:, 0] >= w) or np.any(corners[:, 1] >= h):
        raise VideoError(f"--corners: a corner lies outside the {w}×{h} picture")
    camera = _camera(corners, table, w, h, 0.0, height_prior)
    return Registration(table, camera, corners, corners, cloth_of(frames, corners), reference(picture),
                        "corners")


def _camera(noses: Array, table: TableSpec, w: int, h: int, k_img: float, height_prior: float) -> Camera:
    world = np.array([[0.0, 0.0], [table.width, 0.0], [table.width, table.length], [0.0, table.length]])
    hom = homography(world, noses)
    camera = from_plane_homography(hom, NOSE_HEIGHT, w, h, 0.0, height_prior)
    scale = _img_scale(w, h)
    return replace(camera, k1=k_img * (camera.f / scale) ** 2)


# --- the cloth ---

def _cloth_region(picture: Image) -> tuple[npt.NDArray[np.uint8], float]:
    h, w = picture.shape[:2]
    s = SMALL_WIDTH / w
    small = cv2.resize(picture, (SMALL_WIDTH, max(1, round(h * s))), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hue, sat, val = hsv[:, :, 0].astype(float), hsv[:, :, 1], hsv[:, :, 2]
    sh, sw = hue.shape
    yy, xx = np.mgrid[0:sh, 0:sw]
    centre = np.exp(-(((xx - sw / 2) / (0.3 * sw)) ** 2 + ((yy - sh / 2) / (0.3 * sh)) ** 2))
    coloured = (sat > CLOTH_SATURATION) & (val > 40)
    counts = np.bincount(hue[coloured].astype(int), weights=centre[coloured], minlength=180)
    if counts.sum() < 0.05 * sh * sw * 0.3:
        raise VideoError("no table found: no coloured cloth in the picture")
    smooth = np.convolve(np.concatenate((counts[-5:], counts, counts[:5])), np.ones(5) / 5, "same")[5:-5]
    peak = float(np.argmax(smooth))
    near = np.abs(((hue - peak + 90) % 180) - 90) < HUE_WINDOW
    middle = near & coloured & (centre > 0.5)
    bright = float(np.median(val[middle])) if np.any(middle) else float(np.median(val[near & coloured]))
    mask = (near & (sat > CLOTH_SATURATION * 0.8) & (val > DARKEST * bright)).astype(np.uint8)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask)
    if count < 2:
        raise VideoError("no table found: no patch of cloth")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    if stats[best, cv2.CC_STAT_AREA] < MIN_AREA * sh * sw:
        raise VideoError(f"no table found: the largest patch of cloth covers "
                         f"{100.0 * stats[best, cv2.CC_STAT_AREA] / (sh * sw):.0f} % of the picture "
                         f"(at least {100 * MIN_AREA:.0f} % is needed)")
    region = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros_like(region)
    cv2.drawContours(filled, contours, -1, 1, -1)
    big = cv2.resize(filled, (w, h), interpolation=cv2.INTER_NEAREST)
    return big, peak


def cloth_of(frames: Sequence[Frame], quad: Array) -> Cloth:
    """The chroma of the cloth inside ``quad`` (full-resolution pixels), from its middle
    half, read on the frames' own planes coded as the balls are read (BT.601, limited range)."""
    frame = frames[len(frames) // 2].recoded()
    centre = quad.mean(axis=0)
    inner = (centre + 0.5 * (quad - centre)) / 2.0
    mask = np.zeros(frame.u.shape, np.uint8)
    cv2.fillPoly(mask, [np.round(inner).astype(np.int32)], 1)
    sel = mask.astype(bool)
    y = frame.y[::2, ::2][sel].astype(float)
    u, v = frame.u[sel].astype(float), frame.v[sel].astype(float)
    nu, nv = over_luma(y, u, v)
    mu, mv = float(np.median(nu)), float(np.median(nv))
    spread = float(np.median(np.hypot(nu - mu, nv - mv))) * 1.5 + 0.01
    return Cloth(mu, mv, spread, float(np.median(y)))


def _rough_quad(region: npt.NDArray[np.uint8], w: int, h: int) -> Array:
    """The cloth's outline as four corners, roughly: its convex hull simplified until it
    has four corners, or five, one of them cut off (a score box over a corner of the
    table, left out of the cloth, cuts it): that corner is where the two sides beside
    the cut meet."""
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(max(contours, key=cv2.contourArea))
    perimeter = cv2.arcLength(hull, True)
    for share in np.linspace(0.005, 0.1, 40):
        approx = np.asarray(cv2.approxPolyDP(hull, share * perimeter, True)[:, 0, :], dtype=float)
        cut = _cut_corner(approx) if len(approx) == 5 else None
        if cut is not None:
            return _uncut(approx, cut)
        if len(approx) == 4:
            return approx
        if len(approx) < 4:
            break
    raise VideoError("no table found: the cloth's outline is not four-sided")


CUT_TURN = 10.0
"""A pentagon's side is a corner cut off when the outline turns by at least this many
degrees at each of its ends (a side bent by the lens, simplified in two, turns by 2-4°;
a score box 120 pixels tall over the corner of a table 800 tall cut it off turning 19.5°
at one end)."""


def _cut_corner(pentagon: Array) -> int | None:
    """The pentagon's shortest side (from its corner k to k + 1) if it cuts a corner off."""
    sides = np.roll(pentagon, -1, axis=0) - pentagon
    k = int(np.argmin(np.linalg.norm(sides, axis=1)))
    for end in (k, (k + 1) % 5):
        a, b = sides[end - 1], sides[end]
        turn = math.degrees(math.acos(float(np.clip(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)), -1, 1))))
        if turn < CUT_TURN:
            return None
    return k


def _uncut(pentagon: Array, k: int) -> Array:
    """The four corners of a pentagon whose side from corner ``k`` to ``k + 1`` cut off a
    corner: that side's ends replaced by where the sides beside it meet."""
    sides = np.roll(pentagon, -1, axis=0) - pentagon
    before = (pentagon[k - 1], sides[k - 1] / np.linalg.norm(sides[k - 1]))
    after = (pentagon[(k + 1) % 5], sides[(k + 1) % 5] / np.linalg.norm(sides[(k + 1) % 5]))
    corner = _intersect(before, after)
    kept = [pentagon[(k + j) % 5] for j in range(2, 5)]
    return np.array([corner, *kept])


def _edge_points(picture: Image, a: Array, b: Array, hue: float) -> Array:
    """Points where the cloth ends along the side ``a``–``b``, each to a fraction of a
    pixel: on a line across the side, where the cloth's likeness falls through half."""
    h, w = picture.shape[:2]
    direction = (b - a) / np.linalg.norm(b - a)
    normal = np.array([-direction[1], direction[0]])
    centre = np.array([w / 2.0, h / 2.0])
    if (centre - a) @ normal < 0:
        normal = -normal  # pointing into the table
    reach = max(6.0, 0.012 * max(w, h))
    offsets = np.linspace(-reach, reach, int(2 * reach) + 1)
    out = []
    length = float(np.linalg.norm(b - a))
    for s in np.linspace(0.06, 0.94, EDGE_POINTS):
        base = a + direction * s * length
        line = base[None, :] + offsets[:, None] * normal[None, :]
        inside = (line[:, 0] >= 0) & (line[:, 0] < w - 1) & (line[:, 1] >= 0) & (line[:, 1] < h - 1)
        kept = _within_picture(offsets, inside)
        if kept is None:
            continue
        line, across = line[kept], offsets[kept]
        colours = cv2.remap(picture, line[:, 0].astype(np.float32).reshape(1, -1),
                            line[:, 1].astype(np.float32).reshape(1, -1), cv2.INTER_LINEAR)[0]
        hsv = cv2.cvtColor(colours.reshape(1, -1, 3), cv2.COLOR_BGR2HSV)[0].astype(float)
        likeness = (np.abs(((hsv[:, 0] - hue + 90) % 180) - 90) < HUE_WINDOW) * np.clip(hsv[:, 1] / 120.0,
                                                                                        0, 1)
        likeness = np.convolve(likeness, np.ones(3) / 3, "same")
        crossing = _crossing(across, likeness)
        if crossing is not None:
            out.append(base + crossing * normal)
    if len(out) < EDGE_POINTS // 3:
        raise VideoError("no table found: the cloth's edge is not clear along a side")
    return np.array(out)


def _within_picture(offsets: Array, inside: npt.NDArray[np.bool_]) -> slice | None:
    """The part of a line across a side that lies in the picture, when it reaches the rough
    edge (within :data:`FROM_EDGE` pixels) and :data:`BEYOND_EDGE` pixels at least inside
    it: a table framed so tightly that its rail runs off the picture (its rough edge on
    the picture's border) still shows where its cloth ends, when a strip of rail is left;
    when none is, no rise of the cloth's likeness is found on the line, and the side is not
    measured there."""
    if inside.all():
        return slice(None)
    where = np.nonzero(inside)[0]
    if not where.size:
        return None
    first, last = int(where[0]), int(where[-1])
    if not inside[first:last + 1].all() or offsets[first] > FROM_EDGE or offsets[last] < BEYOND_EDGE:
        return None
    return slice(first, last + 1)


def _crossing(offsets: Array, likeness: Array) -> float | None:
    """Where ``likeness`` rises through half its range going inwards, nearest the middle."""
    lo, hi = float(np.percentile(likeness, 10)), float(np.percentile(likeness, 90))
    if hi - lo < 0.3:
        return None
    half = (lo + hi) / 2.0
    above = likeness >= half
    rises = np.nonzero(~above[:-1] & above[1:])[0]
    if not rises.size:
        return None
    k = int(rises[np.argmin(np.abs(offsets[rises]))])
    frac = (half - likeness[k]) / (likeness[k + 1] - likeness[k])
    return float(offsets[k] + frac * (offsets[k + 1] - offsets[k]))


# --- distortion ---

def _img_scale(w: int, h: int) -> float:
    return 0.5 * math.hypot(w, h)


def _undistort_img(points: Array, k: float, w: int, h: int) -> Array:
    """Undistort with the coefficient ``k`` of the picture's own scale (half its diagonal)."""
    c = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
    s = _img_scale(w, h)
    d = (points - c) / s
    n = d.copy()
    for _ in range(12):
        n = d / (1.0 + k * np.sum(n * n, axis=1, keepdims=True))
    return c + s * n


def _redistort_img(points: Array, k: float, w: int, h: int) -> Array:
    c = np.array([(w - 1) / 2.0, (h - 1) / 2.0])
    s = _img_scale(w, h)
    n = (points - c) / s
    return c + s * n * (1.0 + k * np.sum(n * n, axis=1, keepdims=True))


def _straightness(sides: Sequence[Array], k: float, w: int, h: int) -> float:
    """How far the outline's sides, undistorted with ``k``, are from straight: each edge
    point's squared distance from its side's line, a point off the line by more than
    :data:`OFF_SIDE` counting as if it lay that far (it lies on another edge, whatever
    share of the side it covers)."""
    total = 0.0
    for points in sides:
        p = _undistort_img(points, k, w, h)
        mean, direction = _fit_line(p, OFF_SIDE)
        off = ((p - mean) @ np.array([-direction[1], direction[0]])) ** 2
        total += float(np.minimum(off, OFF_SIDE ** 2).sum())
    return total


def _straightest(sides: Sequence[Array], w: int, h: int) -> float:
    """The distortion coefficient that straightens the outline's sides best."""
    grid = np.linspace(-0.5, 0.3, 33)
    costs = [_straightness(sides, k, w, h) for k in grid]
    i = int(np.argmin(costs))
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    golden = (math.sqrt(5.0) - 1.0) / 2.0
    for _ in range(40):
        a = hi - golden * (hi - lo)
        b = lo + golden * (hi - lo)
        if _straightness(sides, a, w, h) < _straightness(sides, b, w, h):
            hi = b
        else:
            lo = a
    return float((lo + hi) / 2.0)


def _fit_line(points: Array, reach: float = 1.0) -> tuple[Array, Array]:
    """A robust line through points: a point on it and its unit direction. Of the lines
    through every pair of points, the one with most points within ``reach`` wins (a
    score box or a player covering a third of a side gives a line of its own, shorter);
    it is then fitted by least squares to those points."""
    first, second = np.triu_indices(len(points), 1)  # every pair, in order
    d = points[second] - points[first]
    length = np.hypot(d[:, 0], d[:, 1])
    keep = length >= 1e-9
    first, d, length = first[keep], d[keep], length[keep]
    best = np.ones(len(points), bool)
    if len(first):
        normals = np.column_stack((-d[:, 1], d[:, 0])) / length[:, None]
        off = np.einsum("pk,pnk->pn", normals, points[None, :, :] - points[first][:, None, :])
        near = np.abs(off) <= reach
        counts = near.sum(axis=1)
        if counts.max() > 0:
            best = near[int(np.argmax(counts))]  # the first pair with the most, as counted in order
    p = points[best]
    mean = p.mean(axis=0)
    _, _, vt = np.linalg.svd(p - mean)
    return mean, vt[0]


def _intersect(first: tuple[Array, Array], second: tuple[Array, Array]) -> Array:
    (p, d), (q, e) = first, second
    matrix = np.column_stack((d, -e))
    if abs(np.linalg.det(matrix)) < 1e-9:
        raise VideoError("no table found: two sides of the outline are parallel")
    s, _ = np.linalg.solve(matrix, q - p)
    return np.asarray(p + s * d, dtype=float)


# --- the noses ---

def _noses(picture: Image, outline: Array, k_img: float, w: int, h: int) -> Array:
    """The cushion noses' corners (undistorted pixels) inside the ``outline``."""
    long_first = np.linalg.norm(outline[1] - outline[0]) + np.linalg.norm(outline[3] - outline[2]) > \
        np.linalg.norm(outline[2] - outline[1]) + np.linalg.norm(outline[0] - outline[3])
    outer_long, outer_short = 2.98, 1.56  # any rectangle of about the table's shape will do
    a, b = (outer_long, outer_short) if long_first else (outer_short, outer_long)
    cw, ch = int(a * CANVAS_PER_METRE), int(b * CANVAS_PER_METRE)
    rect = np.array([[0.0, 0.0], [cw - 1.0, 0.0], [cw - 1.0, ch - 1.0], [0.0, ch - 1.0]])
    to_picture = homography(rect, outline)
    ys, xs = np.mgrid[0:ch, 0:cw].astype(float)
    grid = np.column_stack((xs.ravel(), ys.ravel()))
    source = _redistort_img(apply_homography(to_picture, grid), k_img, w, h).astype(np.float32)
    gray = cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY).astype(np.float32)  # interpolated, not rounded again
    step = (np.linalg.norm(outline[1] - outline[0]) + np.linalg.norm(outline[2] - outline[1])) / (cw + ch)
    if step > 1.0:  # a canvas pixel spans more than a picture's: smoothed, so no thin line falls between
        gray = cv2.GaussianBlur(gray, (0, 0), step / 2.0)
    canvas = cv2.remap(gray, source[:, 0].reshape(ch, cw), source[:, 1].reshape(ch, cw), cv2.INTER_LINEAR)
    canvas = canvas.astype(float)
    longest = max(cw, ch)
    band = (max(2, int(NOSE_BAND[0] * longest)), int(NOSE_BAND[1] * longest))
    lines = [_nose_line(canvas, side, band) for side in range(4)]
    corners = np.array([_intersect(lines[k - 1], lines[k]) for k in range(4)])
    return apply_homography(to_picture, corners)


def _nose_line(canvas: Array, side: int, band: tuple[int, int]) -> tuple[Array, Array]:
    """The nose along one side of the rectified canvas (0 top, 1 right, 2 bottom, 3 left)."""
    ch, cw = canvas.shape
    view = {0: canvas, 1: canvas[:, ::-1].T, 2: canvas[::-1, :], 3: canvas.T}[side]
    along = view.shape[1]
    pieces = [(int(along * (0.1 + 0.8 * k / NOSE_PIECES)), int(along * (0.1 + 0.8 * (k + 1) / NOSE_PIECES)))
              for k in range(NOSE_PIECES)]
    profiles = [np.median(view[band[0]:band[1], s0:s1], axis=1) for s0, s1 in pieces]
    least = NOSE_CONTRAST * profile_noise(profiles, min(s1 - s0 for s0, s1 in pieces))
    found = [(k, (s0 + s1) / 2.0, band[0] + d)
             for k, ((s0, s1), profile) in enumerate(zip(pieces, profiles, strict=True))
             for d in _valleys(profile, least)]
    line = _outermost_line(found)
    if line is None:
        raise VideoError("no table found: the cushion noses are not seen inside the cloth's outline")
    mean, direction = line
    # back to canvas coordinates: (along, depth) in the side's view
    def to_canvas(p: Array) -> Array:
        s, d = p[:, 0], p[:, 1]
        if side == 0:
            return np.column_stack((s, d))
        if side == 1:
            return np.column_stack((cw - 1 - d, s))
        if side == 2:
            return np.column_stack((s, ch - 1 - d))
        return np.column_stack((d, s))
    ends = to_canvas(np.array([mean - direction * 100.0, mean + direction * 100.0]))
    return ends[0], (ends[1] - ends[0]) / np.linalg.norm(ends[1] - ends[0])


def profile_noise(profiles: Sequence[Array], columns: int) -> float:
    """The grey-level noise of a side's profiles (each the median of ``columns`` columns of
    the rectified picture, across the side): the spread of each profile's second
    differences (a median absolute deviation, robust to the nose's one valley), over √6,
    the median over the profiles; at least the rounding of 8-bit levels, 1/√12 of a level,
    over √``columns``."""
    spreads = []
    for profile in profiles:
        second = np.diff(profile, 2)
        spreads.append(1.4826 * float(np.median(np.abs(second - np.median(second)))) / math.sqrt(6.0))
    return max(float(np.median(spreads)), 1.0 / math.sqrt(12.0 * max(columns, 1)))


def _valleys(profile: Array, least: float) -> list[float]:
    """Where ``profile`` has a dark line at least ``least`` below its highest on either
    side within :data:`VALLEY_REACH`, each to a fraction of a sample (a parabola through
    the lowest and its neighbours)."""
    out = []
    for i in range(VALLEY_REACH, len(profile) - VALLEY_REACH):
        here = profile[i]
        if not (here < profile[i - 1] and here <= profile[i + 1]):
            continue
        sides = min(profile[i - VALLEY_REACH:i].max(), profile[i + 1:i + 1 + VALLEY_REACH].max())
        if sides - here < least:
            continue
        a, b, c = profile[i - 1], here, profile[i + 1]
        out.append(i + (0.5 * (a - c) / (a - 2 * b + c) if (a - 2 * b + c) != 0 else 0.0))
    return out


def _outermost_line(found: list[tuple[int, float, float]]) -> tuple[Array, Array] | None:
    """Of the lines that valleys in at least half the pieces lie on (within a canvas
    pixel), the outermost: the nose, before anything further in. The nose runs along
    the outline (a cushion is as wide all along), so a line slanting across the side by
    more than :data:`NOSE_SKEW` is none: it joins valleys of different things."""
    pts = np.array([(s, d) for _, s, d in found]) if found else np.zeros((0, 2))
    pieces = np.array([k for k, _, _ in found])
    best: tuple[float, npt.NDArray[np.bool_]] | None = None
    for i in range(len(pts)):
        for j in range(i + 1, len(pts)):
            if pieces[i] == pieces[j]:
                continue
            d = pts[j] - pts[i]
            if abs(d[1]) > NOSE_SKEW * abs(d[0]):
                continue
            normal = np.array([-d[1], d[0]]) / float(np.hypot(*d))
            near = _nearest_each_piece(np.abs((pts - pts[i]) @ normal), pieces)
            if near.sum() < NOSE_PIECES // 2:
                continue
            depth = float(pts[near, 1].mean())
            outer = best is None or depth < best[0] - 0.5
            if outer or (best is not None and abs(depth - best[0]) <= 0.5 and near.sum() > best[1].sum()):
                best = (depth, near)
    if best is None:
        return None
    p = pts[best[1]]
    mean = p.mean(axis=0)
    _, _, vt = np.linalg.svd(p - mean)
    return mean, vt[0]


def _nearest_each_piece(distance: Array, pieces: npt.NDArray[np.int_]) -> npt.NDArray[np.bool_]:
    """Of each piece's valleys, the one nearest a line, if within a canvas pixel of it:
    the nose crosses a piece once (a faint valley beside it is the picture's noise)."""
    order = np.lexsort((distance, pieces))
    first = np.ones(len(order), bool)
    first[1:] = pieces[order][1:] != pieces[order][:-1]
    nearest = np.zeros(len(order), bool)
    nearest[order[first]] = True
    return nearest & (distance <= 1.0)


def _orient(corners: Array, w: int, h: int) -> list[int]:
    """The corners' order (0, 0), (W, 0), (W, L), (0, L): the long sides are ``x = 0`` and
    ``x = W``; ``y = 0`` is the short side at the picture's left (a table across the
    picture) or bottom (along it); the order is the one a camera above the table sees
    turning the same way as the world's axes."""
    centre = corners.mean(axis=0)
    angles = np.arctan2(corners[:, 1] - centre[1], corners[:, 0] - centre[0])
    ring = [int(i) for i in np.argsort(angles)]  # clockwise on the screen (y down)
    best: tuple[float, list[int]] | None = None
    for start in range(4):
        for turn in (ring, ring[::-1]):
            order = [turn[(start + k) % 4] for k in range(4)]
            p = corners[order]
            short = np.linalg.norm(p[1] - p[0]) + np.linalg.norm(p[3] - p[2])
            long = np.linalg.norm(p[2] - p[1]) + np.linalg.norm(p[0] - p[3])
            if short > long:
                continue
            if _handedness(p) <= 0:
                continue
            bottom = (p[0] + p[1]) / 2.0 - (p[2] + p[3]) / 2.0  # from the top short side to the bottom
            across = abs(bottom[0]) > abs(bottom[1])
            score = -bottom[0] if across else bottom[1]
            if best is None or score > best[0]:
                best = (float(score), order)
    if best is None:
        raise VideoError("no table found: the outline's corners cannot be ordered")
    return best[1]


def _handedness(p: Array) -> float:
    """Positive when the world's x then y axes turn as a camera above sees them: the
    picture is the world seen from above, with its y axis down."""
    x_axis = p[1] - p[0]
    y_axis = p[3] - p[0]
    return float(-(x_axis[0] * y_axis[1] - x_axis[1] * y_axis[0]))


# --- a camera that moved ---

SHIFT_SCALE = 4
"""The picture is shrunk this many times to measure a camera's shift."""


def reference(picture: Image) -> npt.NDArray[np.float32]:
    """The still picture a camera's later frames are compared with (luma, shrunk)."""
    return _shrink(cv2.cvtColor(picture, cv2.COLOR_BGR2GRAY))


def camera_shift(registration: Registration, frame: Frame) -> float:
    """How far, in pixels, the picture moved since the table was found: the phase
    correlation of the whole shrunk picture with the one it was found in (people walking
    past change a part of it; a camera that pans or zooms moves all of it). Infinite when
    no one shift explains the change (a zoom, a cut to another camera)."""
    return picture_shift(registration.reference, shrunk(frame))


def shrunk(frame: Frame) -> npt.NDArray[np.float32]:
    """The frame's luma shrunk as :func:`reference` shrinks a picture."""
    return _shrink(frame.y)


def _shrink(luma: npt.NDArray[np.uint8]) -> npt.NDArray[np.float32]:
    h, w = luma.shape
    return np.asarray(cv2.resize(luma, (w // SHIFT_SCALE, h // SHIFT_SCALE), interpolation=cv2.INTER_AREA),
                      dtype=np.float32)


def picture_shift(ref: npt.NDArray[np.float32], now: npt.NDArray[np.float32]) -> float:
    """How far, in full-size pixels, the shrunk picture ``now`` lies from ``ref`` (infinite
    when no one shift explains the change)."""
    window = cv2.createHanningWindow((ref.shape[1], ref.shape[0]), cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(ref, now, window)
    if response < SHIFT_RESPONSE:
        return math.inf
    return float(math.hypot(dx, dy)) * SHIFT_SCALE


SHIFT_RESPONSE = 0.05
"""A phase correlation peak below this explains nothing: the picture changed too much."""
