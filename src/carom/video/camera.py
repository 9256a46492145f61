"""A pinhole camera with one coefficient of radial distortion.

World coordinates are those of GEOMETRY.md (``x`` across the table, ``y`` along it,
metres from the bottom-left cushion nose) with ``z`` up from the bed of the table. A
point's camera coordinates are ``rotation @ (X - centre)`` (``x`` right, ``y`` down in
the picture, ``z`` forward); its normalised image point ``(x/z, y/z)`` is distorted
radially, ``n (1 + k1 |n|²)`` (barrel for ``k1 < 0``), and its pixel is
``f n + (cx, cy)``.

The renderer draws with a known camera; the detector estimates one from the table
(:func:`from_plane_homography`). Both use the same model, so a rendered clip tests the
estimate, not the model.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from carom.video.errors import VideoError

Array = npt.NDArray[np.float64]

UNDISTORT_STEPS = 12
"""Fixed-point steps that invert the distortion (|k1 r²| < 0.3 converges to 1e-9 px)."""


@dataclass(frozen=True, slots=True)
class Camera:
    """A calibrated camera: its picture size, lens and pose."""

    width: int
    height: int
    f: float
    """Focal length, pixels (square pixels, no skew)."""
    cx: float
    cy: float
    rotation: Array
    """World to camera, 3 × 3."""
    centre: Array
    """The camera's position in the world, m."""
    k1: float = 0.0

    @classmethod
    def look_at(cls, width: int, height: int, centre: tuple[float, float, float],
                target: tuple[float, float, float], f: float, k1: float = 0.0,
                up: tuple[float, float, float] = (0.0, 1.0, 0.0)) -> Camera:
        """A camera at ``centre`` looking at ``target``; ``up`` (world) points to the top
        of the picture as nearly as it can."""
        c = np.asarray(centre, dtype=float)
        forward = np.asarray(target, dtype=float) - c
        forward /= np.linalg.norm(forward)
        down = -np.asarray(up, dtype=float)
        down = down - forward * float(down @ forward)
        if np.linalg.norm(down) < 1e-9:
            raise VideoError("the camera's up direction is along its view")
        down /= np.linalg.norm(down)
        right = np.cross(down, forward)
        rotation = np.vstack((right, down, forward))
        return cls(width, height, f, (width - 1) / 2.0, (height - 1) / 2.0, rotation, c, k1)

    # --- between normalised and pixel coordinates ---

    def distort(self, normalised: Array) -> Array:
        r2 = np.sum(normalised * normalised, axis=-1, keepdims=True)
        return normalised * (1.0 + self.k1 * r2)

    def undistort(self, pixels: Array) -> Array:
        """The normalised, undistorted image points of ``pixels`` (n × 2)."""
        d = (np.asarray(pixels, dtype=float) - (self.cx, self.cy)) / self.f
        return undistort_normalised(d, self.k1)

    def to_pixels(self, normalised: Array) -> Array:
        return self.f * self.distort(normalised) + (self.cx, self.cy)

    # --- the world ---

    def project(self, points: Array) -> Array:
        """Pixels of world points (n × 3)."""
        cam = (np.asarray(points, dtype=float) - self.centre) @ self.rotation.T
        return self.to_pixels(cam[:, :2] / cam[:, 2:3])

    def depth(self, points: Array) -> Array:
        """Distance of world points (n × 3) in front of the camera, along its axis."""
        return (np.asarray(points, dtype=float) - self.centre) @ self.rotation[2]

    def rays(self, pixels: Array) -> Array:
        """Unit world directions of the rays through ``pixels`` (n × 2)."""
        n = self.undistort(pixels)
        cam = np.column_stack((n, np.ones(len(n))))
        world = cam @ self.rotation
        return world / np.linalg.norm(world, axis=1, keepdims=True)

    def to_plane(self, pixels: Array, z: float) -> Array:
        """Where the rays through ``pixels`` meet the horizontal plane at height ``z``
        (n × 2, world ``x, y``)."""
        d = self.rays(pixels)
        s = (z - self.centre[2]) / d[:, 2]
        return self.centre[:2] + s[:, None] * d[:, :2]

    def plane_homography(self, z: float) -> Array:
        """The homography from ``(x, y, 1)`` on the plane at height ``z`` to undistorted
        pixels (``f n + c``)."""
        k = np.array([[self.f, 0.0, self.cx], [0.0, self.f, self.cy], [0.0, 0.0, 1.0]])
        r = self.rotation
        third = z * r[:, 2] - r @ self.centre
        return k @ np.column_stack((r[:, 0], r[:, 1], third))


def undistort_normalised(distorted: Array, k1: float) -> Array:
    """Invert ``n (1 + k1 |n|²)`` by fixed-point iteration."""
    n = distorted.copy()
    if k1 == 0.0:
        return n
    for _ in range(UNDISTORT_STEPS):
        r2 = np.sum(n * n, axis=-1, keepdims=True)
        n = distorted / (1.0 + k1 * r2)
    return n


def apply_homography(h: Array, points: Array) -> Array:
    """``h`` applied to 2-D points (n × 2)."""
    p = np.column_stack((points, np.ones(len(points)))) @ h.T
    return p[:, :2] / p[:, 2:3]


def homography(source: Array, target: Array) -> Array:
    """The homography taking four or more ``source`` points to ``target`` points
    (least squares on the normalised direct linear transform)."""
    def normaliser(p: Array) -> Array:
        mean = p.mean(axis=0)
        scale = np.sqrt(2.0) / max(float(np.mean(np.linalg.norm(p - mean, axis=1))), 1e-12)
        return np.array([[scale, 0.0, -scale * mean[0]], [0.0, scale, -scale * mean[1]], [0.0, 0.0, 1.0]])

    ts, tt = normaliser(source), normaliser(target)
    s, t = apply_homography(ts, source), apply_homography(tt, target)
    rows = []
    for (x, y), (u, v) in zip(s, t, strict=True):
        rows.append([-x, -y, -1.0, 0.0, 0.0, 0.0, u * x, u * y, u])
        rows.append([0.0, 0.0, 0.0, -x, -y, -1.0, v * x, v * y, v])
    _, _, vt = np.linalg.svd(np.asarray(rows))
    h = vt[-1].reshape(3, 3)
    h = np.linalg.inv(tt) @ h @ ts
    return h / h[2, 2]


MIN_TILT = np.radians(12.0)
"""Below this tilt of the camera from straight down, the focal length cannot be read from
the table's rectangle (the perspective is too weak) and is taken from the height prior."""


def from_plane_homography(h: Array, z: float, width: int, height: int, k1: float,
                          height_prior: float) -> Camera:
    """The camera whose plane homography at height ``z`` is ``h`` (plane ``(x, y, 1)`` to
    undistorted pixels), the principal point at the picture's centre.

    The focal length comes from the two conditions a rotation puts on the homography's
    first two columns (orthogonal, of equal length). A camera looking nearly straight
    down leaves it undetermined: its height above the plane is then taken to be
    ``height_prior`` (metres), which fixes the focal length from the table's scale.
    Whether it looks nearly straight down is asked of the camera at that height, not of
    the one the two conditions give: for a camera looking straight down those are ruled
    by a pixel's noise in the corners and can put it hundreds of metres up, tilted.
    """
    cx, cy = (width - 1) / 2.0, (height - 1) / 2.0
    shifted = np.array([[1.0, 0.0, -cx], [0.0, 1.0, -cy], [0.0, 0.0, 1.0]]) @ h
    try:
        f_prior = _focal_from_height(shifted, z, height_prior, width, height, cx, cy, k1)
        prior = _posed(shifted, f_prior, z, width, height, cx, cy, k1)
    except VideoError:
        prior = None
    if prior is not None and _tilt(prior) < MIN_TILT:
        return prior  # the table seen nearly square on: its corners' pixel of noise would choose the height
    f = _focal_from(shifted)
    camera = _posed(shifted, f, z, width, height, cx, cy, k1) if f is not None else None
    if camera is None or _tilt(camera) < MIN_TILT:
        camera = prior
    if camera is None:
        raise VideoError("the table's outline gives no camera looking down at it")
    return camera


def _focal_from(shifted: Array) -> float | None:
    (a, b, _), (c, d, _), (e, g, _) = shifted
    rows = np.array([[a * b + c * d, e * g], [a * a + c * c - b * b - d * d, e * e - g * g]])
    # each row: A w + B = 0 with w = 1 / f²
    denom = float(rows[:, 0] @ rows[:, 0])
    if denom <= 0.0:
        return None
    w = -float(rows[:, 0] @ rows[:, 1]) / denom
    if not w > 0.0:
        return None
    return float(1.0 / np.sqrt(w))


def _posed(shifted: Array, f: float, z: float, width: int, height: int, cx: float, cy: float,
           k1: float) -> Camera | None:
    m = np.diag([1.0 / f, 1.0 / f, 1.0]) @ shifted
    scale = 2.0 / (np.linalg.norm(m[:, 0]) + np.linalg.norm(m[:, 1]))
    if m[2, 2] * scale < 0.0:
        scale = -scale
    r1, r2, s = scale * m[:, 0], scale * m[:, 1], scale * m[:, 2]
    u, _, vt = np.linalg.svd(np.column_stack((r1, r2, np.cross(r1, r2))))
    rotation = u @ vt
    if np.linalg.det(rotation) < 0.0:
        return None
    centre = -rotation.T @ s + np.array([0.0, 0.0, z])
    if centre[2] <= z:
        return None
    return Camera(width, height, f, cx, cy, rotation, centre, k1)


def _tilt(camera: Camera) -> float:
    """The angle between the camera's axis and straight down."""
    return float(np.arccos(np.clip(-camera.rotation[2, 2], -1.0, 1.0)))


def _focal_from_height(shifted: Array, z: float, height_prior: float, width: int, height: int, cx: float,
                       cy: float, k1: float) -> float:
    """The focal length that puts the camera ``height_prior`` above the plane: its height
    grows in proportion to the focal length for a camera looking straight down."""
    trial = float(max(width, height))
    camera = _posed(shifted, trial, z, width, height, cx, cy, k1)
    if camera is None:
        raise VideoError("the table's outline gives no camera looking down at it")
    return trial * height_prior / float(camera.centre[2] - z)
