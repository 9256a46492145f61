"""How a clip looks: the camera, the frame rate and exposure, the light, the cloth, the
codec, and what else is in the picture (players, a cue, a referee, score graphics).

:func:`draw_look` draws one from a seed and a style; the seeds are split in two:

* development seeds (below :data:`FAMILY_FIRST`): used while building the detector;
* the **family** (:data:`FAMILY_FIRST` on): kept for measuring only, never tuned on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from carom.core.errors import UnknownName
from carom.core.table import TableSpec
from carom.video.camera import Camera
from carom.video.colours import REFERENCE, Coding

STYLES = ("broadcast", "overhead", "oblique")
"""``broadcast``: an overhead camera with players, a referee and score graphics (the held
back real footage); ``overhead``: the same camera over an empty club table;
``oblique``: a camera behind the bottom cushion, looking down the table at 35–55°."""

FAMILY_FIRST = 1_000_000
"""Seeds from here on draw the family of renderings kept for measuring only."""

BGR = tuple[float, float, float]

CLOTHS: dict[str, BGR] = {
    "green": (0.16, 0.45, 0.05), "blue": (0.62, 0.28, 0.05), "teal": (0.45, 0.42, 0.04),
    "grey-blue": (0.55, 0.38, 0.22),
}
"""Cloth colours as linear BGR reflectances."""


@dataclass(frozen=True, slots=True)
class Look:
    style: str
    camera: Camera
    fps: float
    exposure: float
    """The shutter's open time as a fraction of the frame period (blur)."""
    cloth: BGR
    lamps: tuple[tuple[float, float, float], ...]
    """Lamp positions (world, m)."""
    unevenness: float
    """0: light even over the table; 1: all from the lamps' falloff."""
    brightness: float
    noise: float
    """Sensor noise, standard deviation in 8-bit levels."""
    bitrate: int
    """Bits a second for the H.264 encoder."""
    players: bool
    graphics: bool
    variable_rate: bool = False
    """Frame times jittered (a variable frame rate): up to a quarter of a period either way."""
    shake: float = 0.0
    """The camera moves by this many pixels a second (for testing a moving camera)."""
    graphics_gone: tuple[float, float] = (0.0, 0.0)
    """The score graphics are not drawn from the first of these times to the second (a
    broadcaster's score box that goes and comes back; never drawn, so the family is
    unchanged)."""
    interlaced: bool = False
    """Each frame woven from two fields half a frame apart, the top one first, encoded
    interlaced (a broadcast camera's 1080i; never drawn, so the family is unchanged)."""
    cast: BGR = (1.0, 1.0, 1.0)
    """The camera's gains on blue, green and red light: its white balance set for other
    lamps than the table's (for testing a camera's colour cast; never drawn, so the family
    is unchanged)."""
    coding: Coding = REFERENCE
    """How the clip codes colour, marked in its stream: BT.601 in limited range, or an HD
    camera's BT.709, or a webcam's full range (never drawn, so the family is unchanged)."""
    chroma: str = "4:2:0"
    """How finely the clip keeps colour: ``4:2:0`` (U and V at half the width and height, as
    cameras and broadcasts send it) or ``4:2:2`` (at half the width only, as studios send it;
    H.264's High 4:2:2 profile). Never drawn, so the family is unchanged."""


def draw_look(seed: int, table: TableSpec, style: str = "broadcast", size: tuple[int, int] = (1920, 1080),
              fps: float = 30.0) -> Look:
    """The look of ``seed``: camera placement, lens, light and cloth drawn at random within
    what club and broadcast cameras show."""
    if style not in STYLES:
        raise UnknownName("style", style, STYLES)
    rng = np.random.default_rng((seed, 41))
    width, height = size
    if style == "oblique":
        camera = _oblique(rng, table, width, height)
    else:
        camera = _overhead(rng, table, width, height)
    cloth = list(CLOTHS.values())[int(rng.integers(len(CLOTHS)))] if style != "broadcast" else \
        (CLOTHS["green"], CLOTHS["blue"])[int(rng.integers(2))]
    lamp_height = float(rng.uniform(0.9, 1.3))
    spread = float(rng.uniform(0.5, 0.9))
    lamps = tuple((table.width / 2.0 + float(rng.normal(0.0, 0.05)), table.length / 2.0 + k * spread,
                   lamp_height) for k in (-1.5, -0.5, 0.5, 1.5))
    pixels = width * height
    bitrate = int(pixels * fps * float(rng.uniform(0.07, 0.14)))  # 1080p30: 4.4-8.7 Mbit/s
    return Look(style, camera, fps, float(rng.uniform(0.3, 0.6)), cloth, lamps,
                float(rng.uniform(0.2, 0.6)), float(rng.uniform(0.85, 1.1)), float(rng.uniform(1.0, 3.0)),
                bitrate, style == "broadcast", style == "broadcast")


def _overhead(rng: np.random.Generator, table: TableSpec, width: int, height: int) -> Camera:
    """Straight down (within a few degrees) over the table's middle, the table's length
    across the picture, filling 75–90 % of its width; the bottom cushion at the left."""
    above = float(rng.uniform(2.6, 4.5))
    fill = float(rng.uniform(0.75, 0.9))
    seen = (table.length + 0.34) / fill
    f = width * above / seen
    k1 = float(rng.uniform(-0.12, 0.02))
    centre = (table.width / 2.0 + float(rng.normal(0.0, 0.03)), table.length / 2.0 + float(rng.normal(0.0,
                                                                                                      0.05)),
              above)
    lean = float(rng.uniform(0.0, math.radians(3.0)))
    way = float(rng.uniform(0.0, 2.0 * math.pi))
    target = (centre[0] + above * math.tan(lean) * math.cos(way),
              centre[1] + above * math.tan(lean) * math.sin(way), 0.0)
    return Camera.look_at(width, height, centre, target, f, k1, up=(-1.0, 0.0, 0.0))


def _oblique(rng: np.random.Generator, table: TableSpec, width: int, height: int) -> Camera:
    """Behind the bottom cushion, looking along the table, down at 35–55°."""
    pitch = math.radians(float(rng.uniform(35.0, 55.0)))
    distance = float(rng.uniform(2.4, 3.4))
    target = (table.width / 2.0, table.length * float(rng.uniform(0.45, 0.55)), 0.0)
    centre = (target[0] + float(rng.normal(0.0, 0.05)), target[1] - distance * math.cos(pitch),
              distance * math.sin(pitch))
    trial = Camera.look_at(width, height, centre, target, 1000.0, up=(0.0, 1.0, 0.0))
    corners = np.array([[-0.2, -0.2, 0.0], [table.width + 0.2, -0.2, 0.0], [-0.2, table.length + 0.2, 0.0],
                        [table.width + 0.2, table.length + 0.2, 0.0]])
    reach = np.abs(trial.project(corners) - (trial.cx, trial.cy)) / (trial.cx, trial.cy)
    f = 1000.0 * 0.95 / float(reach.max())
    return Camera.look_at(width, height, centre, target, f, float(rng.uniform(-0.08, 0.02)), up=(0.0, 1.0,
                                                                                                 0.0))


def with_changes(look: Look, **changes: object) -> Look:
    """``look`` with some fields changed (a stiller camera, no graphics, ...)."""
    return replace(look, **changes)  # type: ignore[arg-type]
