"""The balls drawn into a frame: each ray of a pixel traced to the sphere (exact
perspective, the edge anti-aliased from the ray's closest approach), shaded by the lamps
with a highlight for each, its soft shadow on the cloth, and averaged over the exposure
(motion blur)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from carom.core.balls import Ball
from carom.video.camera import Array
from carom.video.render.look import Look
from carom.video.render.scene import DECODE, Scene, encode

ALBEDO: dict[Ball, tuple[float, float, float]] = {
    Ball.WHITE: (0.80, 0.84, 0.85), Ball.YELLOW: (0.06, 0.62, 0.86), Ball.RED: (0.04, 0.05, 0.70),
}
"""Linear BGR reflectances."""

AMBIENT = 0.3
SHINE = 80.0
"""Phong exponent of the balls' highlights."""
GLOSS = 0.9


def draw_balls(frame: npt.NDArray[np.uint8], scene: Scene, look: Look, radius: float,
               exposures: Sequence[dict[Ball, tuple[float, float]]]) -> None:
    """Draw every ball as it moved over the exposure (``exposures``: its centre at evenly
    spread moments of it), farthest first."""
    camera = scene.camera
    balls = list(exposures[0])
    depth = {b: float(camera.depth(np.array([[*exposures[len(exposures) // 2][b],
                                              radius]]))[0]) for b in balls}
    for ball in sorted(balls, key=lambda b: -depth[b]):
        centres = np.array([[*e[ball], radius] for e in exposures])
        _draw_one(frame, scene, look, ball, radius, centres)


def _draw_one(frame: npt.NDArray[np.uint8], scene: Scene, look: Look, ball: Ball, radius: float,
              centres: Array) -> None:
    camera = scene.camera
    moved = float(np.max(np.linalg.norm(centres - centres[0], axis=1)))
    centres = _enough(centres, moved, camera.f / float(camera.depth(centres[:1])[0]))
    px = camera.project(centres)
    scale = camera.f / float(np.min(camera.depth(centres)))
    reach = 1.6 * radius * scale + 3.0
    x0, y0 = np.floor(px.min(axis=0) - reach).astype(int)
    x1, y1 = np.ceil(px.max(axis=0) + reach).astype(int)
    x0, y0 = max(x0, 0), max(y0, 0)
    x1, y1 = min(x1, camera.width - 1), min(y1, camera.height - 1)
    if x1 <= x0 or y1 <= y0:
        return
    ys, xs = np.mgrid[y0:y1 + 1, x0:x1 + 1]
    pixels = np.column_stack((xs.ravel(), ys.ravel())).astype(float)
    rays = camera.rays(pixels)
    background = DECODE[frame[y0:y1 + 1, x0:x1 + 1]].reshape(-1, 3)
    bed = camera.centre[:2] + ((0.0 - camera.centre[2]) / rays[:, 2])[:, None] * rays[:, :2]
    total = np.zeros_like(background)
    albedo = np.asarray(ALBEDO[ball], dtype=float)
    for centre in centres:
        shadow = _shadow(bed, centre, radius)
        cover, colour = _trace(rays, camera.centre, centre, radius, camera.f, albedo, look)
        total += (background * shadow[:, None]) * (1.0 - cover[:, None]) + colour * cover[:, None]
    out = (total / len(centres)).reshape(y1 - y0 + 1, x1 - x0 + 1, 3).astype(np.float32)
    patch = encode(out)
    if scene.front is not None:
        hidden = scene.front[y0:y1 + 1, x0:x1 + 1]
        patch[hidden] = frame[y0:y1 + 1, x0:x1 + 1][hidden]
    frame[y0:y1 + 1, x0:x1 + 1] = patch


def _enough(centres: Array, moved: float, scale: float) -> Array:
    """Moments enough for a smooth streak: one per 1.5 pixels of travel, at most 24."""
    wanted = int(min(24, max(1, np.ceil(moved * scale / 1.5))))
    if wanted >= len(centres):
        return centres
    pick = np.linspace(0, len(centres) - 1, wanted).round().astype(int)
    return centres[pick]


def _shadow(bed: Array, centre: Array, radius: float) -> Array:
    """The ball's soft shadow on the bed from lamps overhead: darkest under it."""
    d2 = (bed[:, 0] - centre[0]) ** 2 + (bed[:, 1] - centre[1]) ** 2
    return np.asarray(1.0 - 0.55 * np.exp(-d2 / (2.0 * (0.75 * radius) ** 2)), dtype=float)


def _trace(rays: Array, eye: Array, centre: Array, radius: float, f: float, albedo: Array,
           look: Look) -> tuple[Array, Array]:
    """Coverage of each pixel by the sphere and the sphere's colour seen through it."""
    to_centre = centre - eye
    along = rays @ to_centre
    closest = np.sqrt(np.maximum(to_centre @ to_centre - along * along, 0.0))
    footprint = along / f
    cover = np.clip(0.5 - (closest - radius) / footprint, 0.0, 1.0)
    inside = np.sqrt(np.maximum(radius * radius - closest * closest, 0.0))
    hit = eye + (along - inside)[:, None] * rays
    normal = hit - centre
    normal /= np.maximum(np.linalg.norm(normal, axis=1, keepdims=True), 1e-12)
    shade = np.full(len(rays), AMBIENT)
    shine = np.zeros(len(rays))
    view = -rays
    for lamp in look.lamps:
        to_lamp = np.asarray(lamp) - hit
        to_lamp /= np.linalg.norm(to_lamp, axis=1, keepdims=True)
        lambert = np.maximum(np.sum(normal * to_lamp, axis=1), 0.0)
        shade += 0.45 * lambert
        mirror = 2.0 * lambert[:, None] * normal - to_lamp
        shine += GLOSS * np.maximum(np.sum(mirror * view, axis=1), 0.0) ** SHINE
    colour = albedo[None, :] * shade[:, None] * look.brightness + shine[:, None]
    return cover, colour
