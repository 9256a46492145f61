"""The still part of a picture: floor, table, cushions, rails and diamonds, lit by the
lamps, drawn once per clip through the camera without its distortion (the frame is
distorted last, as a lens does).

The table's build beyond GEOMETRY.md's surface (the renderer's own choice, within what
match tables have): the cushion's nose 37 mm above the bed, its top 50 mm wide rising to
the rail at 45 mm, the rail 120 mm wide with the diamonds on its middle line.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from carom.core.table import TableSpec
from carom.video.camera import Array, Camera
from carom.video.render.look import Look

NOSE_HEIGHT = 0.037
CUSHION_WIDTH = 0.05
RAIL_HEIGHT = 0.045
RAIL_WIDTH = 0.12
FLOOR = -0.75
UNDERCUT = 0.012
NOSE_SHADOW = (0.35, 0.006)
"""The nose's shadow on the bed: its darkness where the bed shows past the nose, and its
fall-off, m."""
DIAMOND_RADIUS = 0.007

WOOD: tuple[float, float, float] = (0.035, 0.07, 0.16)
FLOOR_COLOUR: tuple[float, float, float] = (0.05, 0.05, 0.06)
DIAMOND_COLOUR: tuple[float, float, float] = (0.85, 0.85, 0.8)

Image = npt.NDArray[np.uint8]

GAMMA = 1.0 / 2.2


def encode(linear: npt.NDArray[np.float32]) -> Image:
    """Linear light (0–1) to 8-bit picture levels."""
    return np.asarray(np.clip(np.power(np.clip(linear, 0.0, None), GAMMA) * 255.0 + 0.5, 0, 255),
                      dtype=np.uint8)


DECODE = (np.arange(256, dtype=np.float32) / 255.0) ** (1.0 / GAMMA)
"""8-bit picture levels to linear light."""


@dataclass(frozen=True, slots=True)
class Scene:
    """What every frame of a clip starts from."""

    camera: Camera
    """The camera without its distortion (the frame is drawn in its pixels)."""
    background: Image
    front: npt.NDArray[np.bool_] | None
    """Pixels of the cushion and rail nearest an oblique camera, which hide a ball behind them."""
    light: npt.NDArray[np.float32]
    """The light falling on each pixel's point of the bed, relative to the table's mean."""


def illumination(look: Look, points: Array) -> Array:
    """Relative light at bed points (n × 2): the lamps' cosine-cubed falloff, mixed with an
    even light by the look's unevenness; 1 on average over the table."""
    total = np.zeros(len(points))
    for lx, ly, lz in look.lamps:
        d2 = (points[:, 0] - lx) ** 2 + (points[:, 1] - ly) ** 2 + lz * lz
        total += lz ** 3 / d2 ** 1.5
    total /= len(look.lamps) * 0.55
    return look.brightness * ((1.0 - look.unevenness) + look.unevenness * total)


def build_scene(look: Look, table: TableSpec, rng: np.random.Generator) -> Scene:
    camera = Camera(look.camera.width, look.camera.height, look.camera.f, look.camera.cx, look.camera.cy,
                    look.camera.rotation, look.camera.centre, 0.0)
    h, w = camera.height, camera.width
    fine = Camera(2 * w, 2 * h, 2.0 * camera.f, 2.0 * camera.cx + 0.5, 2.0 * camera.cy + 0.5, camera.rotation,
                  camera.centre, 0.0)
    canvas = _outlines(fine, look, table)
    canvas = cv2.resize(canvas, (w, h), interpolation=cv2.INTER_AREA)
    W, L = table.width, table.length
    out = CUSHION_WIDTH + RAIL_WIDTH
    ys, xs = np.mgrid[0:h, 0:w]
    pixels = np.column_stack((xs.ravel(), ys.ravel())).astype(float)
    bed = camera.to_plane(pixels, 0.0)
    light = illumination(look, bed).reshape(h, w).astype(np.float32)
    top = camera.to_plane(pixels, NOSE_HEIGHT)  # where a pixel's ray passes the noses' height
    past = np.minimum(np.minimum(top[:, 0], W - top[:, 0]), np.minimum(top[:, 1], L - top[:, 1]))
    shade = 1.0 - NOSE_SHADOW[0] * np.exp(-np.maximum(past, 0.0) / NOSE_SHADOW[1])
    light = light * np.where(past > 0.0, shade, 1.0).reshape(h, w)  # the bed seen past a nose: its shadow
    inside = (bed[:, 0] > -out) & (bed[:, 0] < W + out) & (bed[:, 1] > -out) & (bed[:, 1] < L + out)
    light = np.where(inside.reshape(h, w), light, light * 0.35).astype(np.float32)
    texture = 1.0 + rng.normal(0.0, 0.03, (h, w)).astype(np.float32)
    lit = canvas * (light * texture)[:, :, None]
    front = _front_mask(camera, table) if look.style == "oblique" else None
    return Scene(camera, encode(lit), front, light)


def _outlines(camera: Camera, look: Look, table: TableSpec) -> npt.NDArray[np.float32]:
    """The table's surfaces in flat colours, drawn at twice the size without smoothing
    (shrunk afterwards, which smooths every edge alike)."""
    canvas = np.zeros((camera.height, camera.width, 3), np.float32)
    canvas[:] = FLOOR_COLOUR
    W, L = table.width, table.length
    out = CUSHION_WIDTH + RAIL_WIDTH
    _fill(canvas, camera, _box(-out, -out, W + out, L + out, FLOOR * 0.2), WOOD, 0.4)
    for quad in _aprons(W, L, out):
        _fill(canvas, camera, quad, WOOD, 0.55)
    _fill(canvas, camera, _box(-CUSHION_WIDTH, -CUSHION_WIDTH, W + CUSHION_WIDTH, L + CUSHION_WIDTH, 0.0),
          look.cloth, 1.0)
    for quad, facing in zip(_faces(W, L), ((0, 1), (0, -1), (1, 0), (-1, 0)), strict=True):
        if (camera.centre[:2] - quad[2, :2]) @ np.asarray(facing, dtype=float) > 0.0:
            _fill(canvas, camera, quad, look.cloth, 0.55)  # only a face turned towards the camera
    for quad in _cushion_tops(W, L):
        _fill(canvas, camera, quad, look.cloth, 0.82)
    for quad in _rails(W, L):
        _fill(canvas, camera, quad, WOOD, 1.0)
    for x, y in diamonds(table):
        _disc(canvas, camera, x, y, RAIL_HEIGHT + 0.0005, DIAMOND_RADIUS, DIAMOND_COLOUR)
    return canvas


def diamonds(table: TableSpec) -> list[tuple[float, float]]:
    """The diamonds' centres on the rails: every eighth of the length, every quarter of the
    width, on the rail's middle line."""
    W, L = table.width, table.length
    off = CUSHION_WIDTH + RAIL_WIDTH / 2.0
    out = [(x, y) for k in range(1, 8) for x, y in ((-off, k * L / 8.0), (W + off, k * L / 8.0))]
    out += [(x, y) for k in range(1, 4) for x, y in ((k * W / 4.0, -off), (k * W / 4.0, L + off))]
    return out


def _box(x0: float, y0: float, x1: float, y1: float, z: float) -> Array:
    return np.array([[x0, y0, z], [x1, y0, z], [x1, y1, z], [x0, y1, z]])


def _faces(W: float, L: float) -> list[Array]:
    """The cushions' faces, from the nose down and back to the bed (undercut by
    :data:`UNDERCUT`): hidden from above, seen by an oblique camera on the far cushion."""
    n, c, u = NOSE_HEIGHT, CUSHION_WIDTH, UNDERCUT
    return [np.array([[-c, -u, 0], [W + c, -u, 0], [W + c, 0, n], [-c, 0, n]]),
            np.array([[-c, L + u, 0], [W + c, L + u, 0], [W + c, L, n], [-c, L, n]]),
            np.array([[-u, -c, 0], [-u, L + c, 0], [0, L + c, n], [0, -c, n]]),
            np.array([[W + u, -c, 0], [W + u, L + c, 0], [W, L + c, n], [W, -c, n]])]


def _cushion_tops(W: float, L: float) -> list[Array]:
    n, c, r = NOSE_HEIGHT, CUSHION_WIDTH, RAIL_HEIGHT
    return [np.array([[0, 0, n], [W, 0, n], [W + c, -c, r], [-c, -c, r]]),
            np.array([[0, L, n], [W, L, n], [W + c, L + c, r], [-c, L + c, r]]),
            np.array([[0, 0, n], [0, L, n], [-c, L + c, r], [-c, -c, r]]),
            np.array([[W, 0, n], [W, L, n], [W + c, L + c, r], [W + c, -c, r]])]


def _rails(W: float, L: float) -> list[Array]:
    c, o, r = CUSHION_WIDTH, CUSHION_WIDTH + RAIL_WIDTH, RAIL_HEIGHT
    return [np.array([[-c, -c, r], [W + c, -c, r], [W + o, -o, r], [-o, -o, r]]),
            np.array([[-c, L + c, r], [W + c, L + c, r], [W + o, L + o, r], [-o, L + o, r]]),
            np.array([[-c, -c, r], [-c, L + c, r], [-o, L + o, r], [-o, -o, r]]),
            np.array([[W + c, -c, r], [W + c, L + c, r], [W + o, L + o, r], [W + o, -o, r]])]


def _aprons(W: float, L: float, o: float) -> list[Array]:
    r, z = RAIL_HEIGHT, FLOOR * 0.2
    return [np.array([[-o, -o, r], [W + o, -o, r], [W + o, -o, z], [-o, -o, z]]),
            np.array([[-o, -o, r], [-o, L + o, r], [-o, L + o, z], [-o, -o, z]]),
            np.array([[W + o, -o, r], [W + o, L + o, r], [W + o, L + o, z], [W + o, -o, z]])]


def _visible(camera: Camera, points: Array) -> bool:
    return bool(np.all(camera.depth(points) > 0.05))


SHIFT = 4
"""Sub-pixel bits of the polygon filler."""


def _fill(canvas: npt.NDArray[np.float32], camera: Camera, quad: Array, colour: tuple[float, float, float],
          shade: float) -> None:
    if not _visible(camera, quad):
        return
    pixels = np.round(camera.project(quad) * (1 << SHIFT)).astype(np.int32)
    cv2.fillPoly(canvas, [pixels], tuple(float(c) * shade for c in colour), cv2.LINE_8, SHIFT)


def _disc(canvas: npt.NDArray[np.float32], camera: Camera, x: float, y: float, z: float, radius: float,
          colour: tuple[float, float, float]) -> None:
    angles = np.linspace(0.0, 2.0 * np.pi, 24, endpoint=False)
    ring = np.column_stack((x + radius * np.cos(angles), y + radius * np.sin(angles), np.full(24, z)))
    _fill(canvas, camera, ring, colour, 1.0)


def _front_mask(camera: Camera, table: TableSpec) -> npt.NDArray[np.bool_]:
    """The bottom cushion's top, its rail and apron: between an oblique camera behind the
    bottom cushion and every ball."""
    mask = np.zeros((camera.height, camera.width), np.uint8)
    W = table.width
    o = CUSHION_WIDTH + RAIL_WIDTH
    for quad in (_cushion_tops(W, table.length)[0], _rails(W, table.length)[0], _aprons(W, table.length,
                                                                                        o)[0]):
        if _visible(camera, quad):
            cv2.fillPoly(mask, [np.round(camera.project(quad)).astype(np.int32)], 1)
    return mask.astype(bool)
