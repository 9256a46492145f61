"""The balls in one frame: found by colour and shape, measured to a fraction of a pixel.

Everything here reads the frame's own planes at half resolution (the chroma planes' own),
inside the table only, so that a frame costs a few milliseconds (one field of an interlaced
picture: its own rows only, half as many, each standing for two of the picture's), brought first to the
colour coding every constant here was set in (BT.601, limited range:
:mod:`carom.video.colours`) by the same one affine map that undoes a camera's cast:

* **colour**: each pixel's chroma over its luma, ``((U − 128), (V − 128)) / (Y + 16)``,
  which a shadow or a highlight's falloff leaves nearly unchanged; a pixel far from the
  cloth's chroma may be a ball;
* **blobs**: connected patches of such pixels, each measured by its weighted centroid
  (the weight grows with the distance from the cloth's chroma, so the soft edge of a
  ball, blurred by the lens, the codec and motion, counts in proportion) and its second
  moments: a ball is a disc of the radius the camera gives at that place, a moving ball a
  streak as wide as a ball and as long as its path during the exposure;
* **identity by colour**: white is near-neutral, yellow and red lie in their own
  directions of chroma (a moving one's streak, mixed with the cloth, between its own and
  the cloth's); a patch of two colours (two balls touching) is split by colour,
  and its near-neutral part is white only if it can be a white ball mixed with the cloth
  (a yellow's streak over a blue cloth runs through grey, darker than such a mix);
* **size and shape** leave out what is not a ball: a hand, an arm, a cue, a glove; a
  streak is a swept disc, filled, not the thin lines of a cue's ferrule and edges.

The centre measured is the centre of the ball's image, projected later to the table from
the ball's own height (:meth:`carom.video.table.Registration.to_table`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import cv2
import numpy as np
import numpy.typing as npt

from carom.core.balls import Ball
from carom.video.balance import Balance
from carom.video.camera import Array
from carom.video.colours import LUMA_LIFT, REFERENCE, Coding, LevelMap, mapped, recoded
from carom.video.frames import Frame
from carom.video.overlay import Overlay
from carom.video.table import Cloth, Registration

F32 = npt.NDArray[np.float32]

PROTOTYPES: dict[Ball, tuple[float, float]] = {
    Ball.WHITE: (0.0, 0.0), Ball.YELLOW: (-0.26, 0.05), Ball.RED: (-0.16, 0.38),
}
"""Each ball's chroma (U, V over luma) under white light: a pixel takes the ball nearest."""

BALL_CHROMA = 0.09
"""A pixel this far from the cloth's chroma (beyond the cloth's own spread) is a ball's
in full; half as far, not at all."""
AREA_RANGE = (0.35, 6.0)
"""A blob's area as a share of a ball's (a streak is longer; a half-covered ball smaller)."""
WIDTH_RANGE = (0.6, 1.45)
"""A blob's width (twice its minor deviation) as a share of a ball's radius ... diameter."""
FARTHEST_COLOUR = 0.12
"""A blob whose mean chroma lies farther than this from its ball's is not that ball (a
hand's skin lies 0.16 from yellow, 0.26 from red)."""
FILLED = 0.5
"""A streak longer than a ball's diameter covers at least this share of the path a ball
sweeps (its disc, πr², and 2r a unit of its length): a moving ball's light is spread
along its path, not thinned to lines. The cue's ferrule with the cue's antialiased edges
running from it, right after the strike, is white and as long as a streak, but mostly
thin lines: in one clip white was taken on it for six frames, its ball running away."""
MIXED_OFF = 0.07
"""A streak's mean chroma lies within this of the line from its ball's chroma to the
cloth's (blur mixes the two along the path; a struck yellow over a blue cloth, 0.14 from
yellow's own chroma, lay 0.06 off that line), no farther along it than the streak spreads
the ball's light over the cloth (the cue's shaft and ferrule, taken as a yellow streak
beside the ball, lay 0.13 off it)."""
NEUTRAL = 0.09
"""Chroma within this of neutral is white."""


@dataclass(frozen=True, slots=True)
class Blob:
    """One ball's image as measured in a frame."""

    ball: Ball
    centre: Array
    """Full-resolution pixel of its image's centre (distorted)."""
    radius: float
    """The ball's expected radius there, full-resolution pixels."""
    streak: float
    """Length of the streak (motion during the exposure), full-resolution pixels."""
    axis: Array
    """The streak's direction (unit), in the picture."""
    share: float
    """The blob's weight as a share of a whole ball's (below 1: partly covered or split)."""
    colour: float
    """How far its chroma lies from its ball's prototype (0: on it), or, for a ``mixed``
    blob, from the mixes of it with the cloth's that its streak can show."""
    mixed: bool = False
    """Its colour is its ball's mixed with the cloth's, too far from its ball's own to be a
    still ball: only a ball in motion can be it (:mod:`carom.video.follow`)."""
    noise: float = 1.0
    """How many times the picture's noise is raised where it lies: 1 / alpha under a
    half-transparent panel whose dimming was undone (:mod:`carom.video.overlay`), else 1."""
    place: Array | None = None
    """Where its centre lies on the table (x, y at a ball's height, m), when measured."""


@dataclass(slots=True)
class BallFinder:
    """Finds the balls in the frames of one registered camera."""

    registration: Registration
    box: tuple[int, int, int, int]
    """The table's bounding box in half-resolution pixels: x0, y0, x1, y1."""
    mask: npt.NDArray[np.uint8]
    radius: float
    """A ball's radius at the table's middle, half-resolution pixels."""
    prototypes: dict[Ball, Array]
    weight: F32 | None = None
    """The last frame's pixels' likeness to a ball (0 cloth, 1 unlike it), in the box."""
    overlay: Overlay | None = None
    """A half-transparent panel over the table, undone in each frame before the balls are
    looked for (:func:`carom.video.overlay.find_overlay`)."""
    balance: Balance | None = None
    """The camera's colour cast, undone in each frame before the panel
    (:func:`carom.video.balance.find_balance`)."""
    coding: Coding = REFERENCE
    """How the frames read last coded colour."""
    transform: npt.NDArray[np.float32] | None = None
    """The one affine map on the levels of the table's box: the frames' coding brought to
    BT.601 limited range, then the cast undone (None: neither applies)."""
    seen_panel: Overlay | None = None
    """The panel undone, as measured on the picture the camera gave (:attr:`overlay`: as it
    shows after :attr:`transform`)."""
    field_grid: tuple[tuple[int, int, int, int], npt.NDArray[np.uint8]] | None = None
    """The table's box and mask in a field's planes (:attr:`Frame.field`): half-resolution
    columns, rows of a field's half-resolution planes (four of the picture's rows each)."""
    field: int | None = None
    """The field searched last (None: a whole frame)."""

    def __post_init__(self) -> None:
        if self.transform is None and self.balance is not None and self.coding == REFERENCE:
            self.transform = self.balance.affine
        if self.seen_panel is None:
            self.seen_panel = self.overlay

    @property
    def cloth(self) -> Cloth:
        """The cloth as the planes read show it: with the camera's cast undone, if any."""
        cloth = self.registration.cloth
        return cloth if self.balance is None else self.balance.cloth(cloth)

    @classmethod
    def of(cls, registration: Registration, width: int, height: int,
           overlay: Overlay | None = None, balance: Balance | None = None) -> BallFinder:
        """A finder in the frames (whole or fields) of a ``width`` × ``height`` picture."""
        table = registration.table
        box, mask = _table_grid(registration, width, height, 1)
        middle = np.array([[table.width / 2.0, table.length / 2.0]])
        radius = float(registration.ball_radius_pixels(middle)[0]) / 2.0
        protos = {b: np.array(p) for b, p in PROTOTYPES.items()}
        finder = cls(registration, box, mask, radius, protos, balance=balance,
                     field_grid=_table_grid(registration, width, height, 2))
        finder.show(overlay)
        return finder

    @property
    def step(self) -> int:
        """The picture's rows from one row of the planes searched last to the next: 2 in a
        field's, which holds every other row."""
        return 1 if self.field is None else 2

    def grid(self) -> tuple[tuple[int, int, int, int], npt.NDArray[np.uint8]]:
        """The table's box and mask in the planes searched last."""
        if self.field is None or self.field_grid is None:
            return self.box, self.mask
        return self.field_grid

    def recode(self, coding: Coding) -> None:
        """Read frames coded as ``coding`` from now on (:meth:`levels`), the panel carried
        through the new map."""
        self.coding = coding
        levels = self.levels()
        self.transform = levels.affine if levels is not None else (
            None if self.balance is None else self.balance.affine)
        self.show(self.seen_panel)

    def levels(self) -> LevelMap | None:
        """The one map on the frames' levels: their coding brought to BT.601 limited range,
        then the cast undone; None when they are coded so (the cast's own matrix, if any,
        is then used as it is)."""
        to_reference = self.coding.to_reference()
        if to_reference is None or self.balance is None:
            return to_reference
        return to_reference.then(self.balance.levels_map)

    def show(self, overlay: Overlay | None) -> None:
        """Undo ``overlay`` in the frames from now on (none: the panel went), if it lies
        over the part of the picture searched."""
        x0, y0, x1, y1 = self.box
        over = overlay is not None and (overlay.x0 < 2 * x1 and 2 * x0 < overlay.x1
                                        and overlay.y0 < 2 * y1 and 2 * y0 < overlay.y1)
        self.seen_panel = overlay if over else None
        levels = self.levels()
        if levels is None and self.balance is not None:
            levels = self.balance.levels_map  # the cast's own map, on frames coded as the reference
        if overlay is not None and over and levels is not None:
            overlay = replace(overlay, colour=levels.panel(overlay.alpha, overlay.colour))
        self.overlay = overlay if over else None

    def planes(self, frame: Frame) -> tuple[F32, F32, F32]:
        """Luma (shrunk to half), and the chroma over luma, inside the table's box, coded
        as BT.601 in limited range, with the camera's cast, if any, and the panel over it,
        if any, undone."""
        if frame.coding != self.coding:
            self.recode(frame.coding)
        self.field = frame.field if self.field_grid is not None else None
        box = self.grid()[0]
        x0, y0, x1, y1 = box
        luma = cv2.resize(frame.y[2 * y0:2 * y1, 2 * x0:2 * x1], (x1 - x0, y1 - y0),
                          interpolation=cv2.INTER_AREA)
        planes = (luma, frame.u[y0:y1, x0:x1], frame.v[y0:y1, x0:x1])
        if self.coding != REFERENCE and self.transform is not None:
            y, u, v = mapped(*planes, self.transform)
        else:
            if self.transform is not None:
                planes = recoded(*planes, self.transform)
            y, u, v = (plane.astype(np.float32) for plane in planes)
        if self.overlay is not None:
            overlay = self.overlay if self.field is None else self.overlay.in_field(self.field)
            overlay.undo((y, u, v), box)
        y += LUMA_LIFT  # in place: the planes are the frame's size (what over_luma does)
        return y, (u - 128.0) / y, (v - 128.0) / y

    def find(self, frame: Frame) -> list[Blob]:
        """Every ball-like blob of the frame, with its likeliest ball."""
        y, nu, nv = self.planes(frame)
        weight = self.likeness(nu, nv)
        self.weight = weight
        out: list[Blob] = []
        for rows, cols, near in self.patches(weight):
            out.extend(self._measure(weight[rows, cols] * near, nu[rows, cols], nv[rows, cols],
                                     y[rows, cols], cols.start, rows.start))
        return out

    def likeness(self, nu: F32, nv: F32) -> F32:
        """Each pixel's likeness to a ball: 0 on the cloth's chroma, 1 :data:`BALL_CHROMA`
        beyond its spread, 0 outside the table."""
        cloth = self.cloth
        far = np.hypot(nu - cloth.u, nv - cloth.v) - cloth.spread
        return np.clip((far - BALL_CHROMA / 2.0) / (BALL_CHROMA / 2.0), 0.0, 1.0) * self.grid()[1]

    def patches(self, weight: F32) -> list[tuple[slice, slice, npt.NDArray[np.bool_]]]:
        """The connected patches of ``weight`` that may hold balls by their size: each as
        its box's rows and columns, with the pixels within one of it."""
        binary = (weight > 0.5).astype(np.uint8)
        binary = cv2.morphologyEx(binary, cv2.MORPH_OPEN, np.ones((2 // self.step, 2), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
        area = math.pi * self.radius ** 2 / self.step
        out = []
        for k in range(1, count):
            a = stats[k, cv2.CC_STAT_AREA]
            if not AREA_RANGE[0] * area * 0.4 <= a <= AREA_RANGE[1] * area * 2.5:
                continue
            x, yy, w, h = (int(v) for v in stats[k, :4])
            x0, y0 = max(x - 2, 0), max(yy - 2, 0)
            x1, y1 = min(x + w + 2, binary.shape[1]), min(yy + h + 2, binary.shape[0])
            near = cv2.dilate((labels[y0:y1, x0:x1] == k).astype(np.uint8), np.ones((3, 3),
                                                                                    np.uint8)).astype(bool)
            out.append((slice(y0, y1), slice(x0, x1), near))
        return out

    def bare(self, pixel: Array) -> bool:
        """Whether the last frame searched shows bare cloth over most of a ball's disc at
        ``pixel`` (full resolution): a still ball not seen there has left its place, not
        been covered (a hand, the cue, a player) or merged with a ball touching it."""
        if self.weight is None:
            return False
        step = self.step
        box = self.grid()[0]
        cx = pixel[0] / 2.0 - box[0]
        cy = (pixel[1] / 2.0 if self.field is None else (pixel[1] - 1.0 - self.field) / 4.0) - box[1]
        r, ry = self.radius, self.radius / step
        h, w = self.weight.shape
        y0, y1 = max(math.floor(cy - ry), 0), min(math.ceil(cy + ry) + 1, h)
        x0, x1 = max(math.floor(cx - r), 0), min(math.ceil(cx + r) + 1, w)
        if y0 >= y1 or x0 >= x1:
            return False
        rows, cols = np.ogrid[y0:y1, x0:x1]  # the disc's box only: it runs for each still ball, each frame
        disc = (cols - cx) ** 2 + ((rows - cy) * step) ** 2 <= r ** 2
        if not disc.any():
            return False
        return float(np.mean(self.weight[y0:y1, x0:x1][disc] > 0.5)) < 0.5

    def _measure(self, weight: F32, nu: F32, nv: F32, luma: F32, x0: int, y0: int) -> list[Blob]:
        """The balls in one patch: split by colour when it holds two."""
        classes = self._classify(nu, nv, luma)
        total = float(weight.sum())
        blobs = []
        for ball in (Ball.YELLOW, Ball.RED, Ball.WHITE):  # white last: is it alone in the patch?
            own = weight * (classes == _CODE[ball])
            if ball is Ball.WHITE and self._blurred_colour(own, weight * (classes != _CODE[Ball.WHITE]),
                                                           nu, nv, luma):
                continue
            if ball is not Ball.WHITE:
                own = own + weight * (classes == _CODE[Ball.WHITE]) * _near(classes == _CODE[ball], self.step)
            mass = float(own.sum())
            if mass < self._least_mass() or mass < 0.2 * total:
                continue
            alone = not blobs if ball is Ball.WHITE else total - mass < self._least_mass()
            blob = self._blob(ball, own, nu, nv, x0, y0, alone)
            if blob is not None:
                blobs.append(blob)
        return blobs

    def _least_mass(self) -> float:
        """The least weight of pixels that can be a ball (a fraction of a whole ball's disc)."""
        return 0.3 * math.pi * self.radius ** 2 * 0.6 / self.step

    def _blurred_colour(self, white: F32, coloured: F32, nu: F32, nv: F32, luma: F32) -> bool:
        """Whether the near-neutral part of a patch that also holds a coloured ball is that
        ball's streak mixed with the cloth rather than a white ball.

        Blur mixes a ball's light with the cloth's along its path: a pixel is a share α of
        the ball and 1 − α of the cloth, in luma and chroma alike (U and V less 128, not yet
        over the luma). A white ball's mix has the cloth's chroma scaled by 1 − α, so the
        part's mean chroma gives α, and its mean luma then gives the luma of the white ball
        it would be a mix of. A coloured ball is never brighter than a white one under the
        same light, and its own pixels, mixed with the darker cloth, are darker still: a
        white ball implied darker than the coloured pixels beside it is no white ball but
        the coloured ball's washed-out edge (a yellow over a blue cloth mixes into grey)."""
        mass, colour_mass = float(white.sum()), float(coloured.sum())
        if mass <= 0.0 or colour_mass < self._least_mass():
            return False
        cloth = self.cloth
        cloth_luma = cloth.luma + LUMA_LIFT
        cloth_chroma = np.array([cloth.u, cloth.v]) * cloth_luma
        chroma = np.array([float((white * nu * luma).sum()), float((white * nv * luma).sum())]) / mass
        alpha = 1.0 - float(chroma @ cloth_chroma) / float(cloth_chroma @ cloth_chroma)
        if alpha <= 0.0:
            return True
        implied = cloth_luma + (float((white * luma).sum()) / mass - cloth_luma) / alpha
        return implied < float((coloured * luma).sum()) / colour_mass

    def _classify(self, nu: F32, nv: F32, luma: F32) -> npt.NDArray[np.int8]:
        """Per pixel: 0 white, 1 yellow, 2 red (nearest prototype; near-neutral is white)."""
        d = np.stack([np.hypot(nu - p[0], nv - p[1]) for p in (self.prototypes[Ball.WHITE],
                                                                   self.prototypes[Ball.YELLOW],
                                                                   self.prototypes[Ball.RED])])
        codes = np.argmin(d, axis=0).astype(np.int8)
        codes[np.hypot(nu, nv) < NEUTRAL] = 0
        return codes

    def _blob(self, ball: Ball, weight: F32, nu: F32, nv: F32, x0: int, y0: int,
              alone: bool = True) -> Blob | None:
        """The ball of ``weight``'s pixels, if it is one; ``alone``: no other ball shares
        its patch (a part of a patch split between two balls touching also holds the
        other's edge and highlight, and is no filled disc or streak: white lying against
        red was refused so for seconds, and the stroke did not end)."""
        mass = float(weight.sum())
        ys, xs = np.mgrid[0:weight.shape[0], 0:weight.shape[1]]
        cx = float((weight * xs).sum()) / mass
        cy = float((weight * ys).sum()) / mass
        dx, dy = xs - cx, ys - cy
        if self.field is not None:  # a field's row stands for two half-resolution rows
            dy = dy * self.step
        sxx = float((weight * dx * dx).sum()) / mass
        syy = float((weight * dy * dy).sum()) / mass
        sxy = float((weight * dx * dy).sum()) / mass
        values, vectors = np.linalg.eigh(np.array([[sxx, sxy], [sxy, syy]]))
        minor, major = max(float(values[0]), 1e-9), max(float(values[1]), 1e-9)
        centre = self._picture_pixel(x0 + cx, y0 + cy)
        where = self.registration.to_table(centre[None, :], self.registration.table.ball_radius)
        radius = float(self.registration.ball_radius_pixels(where)[0])
        half_r = radius / 2.0
        width = 2.0 * math.sqrt(minor)  # a disc of radius r has a deviation of r/2 across
        if not WIDTH_RANGE[0] * half_r <= width <= WIDTH_RANGE[1] * half_r:
            return None
        share = mass * self.step / (math.pi * half_r * half_r)
        if not AREA_RANGE[0] <= share <= AREA_RANGE[1]:
            return None
        # a disc swept along a path of length s: its deviation along grows by s²/12 over across
        streak = 2.0 * math.sqrt(max(12.0 * (major - minor), 0.0))
        if streak > 2.0 * (AREA_RANGE[1] - 1.0) * half_r * 2.0:
            return None
        if alone and streak > 2.0 * radius and share < FILLED * (1.0 + 2.0 * streak / (math.pi * radius)):
            return None  # thin lines, not a swept disc: the cue's ferrule and edges after the strike
        mean = np.array([float((weight * nu).sum()) / mass, float((weight * nv).sum()) / mass])
        colour = float(np.linalg.norm(mean - self.prototypes[ball]))
        mixed = colour > FARTHEST_COLOUR
        if mixed:
            colour = self._off_mix(ball, mean, streak / radius) if ball is not Ball.WHITE else math.inf
            if colour > MIXED_OFF:
                return None  # nearest to a ball's colour, yet no ball's: skin, a sleeve, a glove in shade
        under = self.overlay is not None and self.overlay.contains(centre)
        noise = 1.0 / self.overlay.alpha if under else 1.0
        return Blob(ball, centre, radius, streak, vectors[:, 1].copy(), share, colour, mixed, noise, where[0])

    def _off_mix(self, ball: Ball, mean: Array, streak: float) -> float:
        """How far the chroma ``mean`` of a streak ``streak`` radii long lies from any mix of
        its ball's chroma with the cloth's that the streak can show.

        A ball moving during the exposure spreads its light over the path it sweeps, a disc
        (πr²) and 2r a unit of its length, so its pixels are on the whole the ball's for the
        share πr² / (πr² + 2r·s) of the exposure and the cloth's for the rest; over chroma
        divided by luma, as over U and V, such a mix lies on the line between the two
        colours. A still ball (no streak) shows no such mix and gets no such allowance; nor
        does white, whose pixels are near-neutral by their class and whose mix with the cloth
        is weighed by luma (:meth:`_blurred_colour`): a white blob far from neutral is a
        coloured ball's washed-out streak (yellow mixed with a blue cloth lies near white's
        line to it)."""
        own = self.prototypes[ball]
        cloth = np.array([self.cloth.u, self.cloth.v])
        line = cloth - own
        farthest = 1.0 - math.pi / (math.pi + 2.0 * streak)
        along = float(np.clip((mean - own) @ line / float(line @ line), 0.0, farthest))
        return float(np.linalg.norm(mean - (own + along * line)))

    def _picture_pixel(self, column: float, row: float) -> Array:
        """The full-resolution pixel (x, y) of the middle of the planes' pixel (``column``,
        ``row``) in the box searched last: a whole frame's half-resolution pixel covers two
        rows, a field's four of the picture's rows, every other one its field's."""
        box = self.grid()[0]
        x = 2.0 * (column + box[0]) + 0.5
        if self.field is None:
            return np.array([x, 2.0 * (row + box[1]) + 0.5])
        return np.array([x, 4.0 * (row + box[1]) + 1.0 + self.field])


_CODE = {Ball.WHITE: 0, Ball.YELLOW: 1, Ball.RED: 2}


def _near(mask: npt.NDArray[np.bool_], step: int = 1) -> F32:
    """Pixels within two half-resolution pixels of ``mask`` (a coloured ball's highlight is
    white beside it; ``step``: the picture's rows from one row of the planes to the next)."""
    tall = 2 * (2 // step) + 1
    return cv2.dilate(mask.astype(np.uint8), np.ones((tall, 5), np.uint8)).astype(np.float32)


def _table_grid(registration: Registration, width: int, height: int,
                step: int) -> tuple[tuple[int, int, int, int], npt.NDArray[np.uint8]]:
    """The table's bounding box (x0, y0, x1, y1) and mask (1 on the table, a ball's height
    above it and half a radius beyond the cushions) in half-resolution planes of a ``width``
    × ``height`` picture, whose rows are ``step`` of the picture's apart (2: a field's)."""
    table = registration.table
    r = table.ball_radius
    reach = 0.5 * r
    edge = np.array([[-reach, -reach], [table.width + reach, -reach], [table.width + reach,
                                                                       table.length + reach],
                     [-reach, table.length + reach]])
    scale = np.array([2.0, 2.0 * step])
    quad = np.vstack([registration.to_pixels(edge, z) for z in (0.0, 2.0 * r)]) / scale
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0 = max(int(x0), 0), max(int(y0), 0)
    x1, y1 = min(int(x1), width // 2), min(int(y1), height // (2 * step))
    mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
    for z in (0.0, 2.0 * r):
        pts = registration.to_pixels(edge, z) / scale - (x0, y0)
        cv2.fillPoly(mask, [np.round(pts * 16).astype(np.int32)], 1, cv2.LINE_8, 4)
    return (int(x0), int(y0), int(x1), int(y1)), mask
