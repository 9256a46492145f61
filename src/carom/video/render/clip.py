"""A rendered clip: a match's strokes drawn frame by frame through a look, encoded with
H.264 at the look's bit rate, and the truth kept beside it (every ball's centre at every
frame's time, every stroke's record and ruling). The clip's colour matrix and range are
the look's, marked in the stream as a camera marks them (:data:`TAGS`)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
import numpy.typing as npt

from carom.core.balls import BALLS, Ball
from carom.core.table import TableSpec
from carom.rules.disciplines import Discipline
from carom.video.camera import Array
from carom.video.colours import REFERENCE, Coding
from carom.video.frames import COLOUR_RANGES
from carom.video.render.look import Look
from carom.video.render.people import draw_graphics, draw_player, draw_referee
from carom.video.render.play import Match, play_match
from carom.video.render.scene import GAMMA, Scene, build_scene
from carom.video.render.spheres import draw_balls

TIME_BASE = Fraction(1, 90_000)
"""The clip's time stamps are counted in these (the MPEG clock)."""

TAGS = {"BT.601": (6, 6, 6), "BT.709": (1, 1, 1), "BT.2020": (9, 9, 14)}
"""FFmpeg's names (matrix, primaries, transfer) marked on a clip coded with each matrix."""

PIXEL_FORMATS = {"4:2:0": "yuv420p", "4:2:2": "yuv422p"}
"""The encoder's picture format for each chroma subsampling a look names (:attr:`Look.chroma`)."""

EXPOSURE_MOMENTS = 24
"""Moments of the exposure at which the balls are placed (fewer for a ball that moved
little, see :mod:`carom.video.render.spheres`)."""


@dataclass(frozen=True, slots=True)
class Truth:
    """What a rendered clip shows."""

    match: Match
    look: Look
    times: Array
    """Each frame's time, s (its presentation time: the middle of its exposure)."""
    centres: dict[Ball, Array]
    """Per ball, its centre at each frame's time (frames × 2, m)."""


def frame_rate(fps: float) -> Fraction:
    """29.97 and friends as the exact NTSC fractions, others as given."""
    for nominal in (24, 30, 60):
        if abs(fps - nominal * 1000 / 1001) < 0.005:
            return Fraction(nominal * 1000, 1001)
    return Fraction(fps).limit_denominator(1000)


def frame_times(look: Look, duration: float, rng: np.random.Generator) -> Array:
    rate = frame_rate(look.fps)
    count = int(duration * rate) + 1
    times = np.arange(count, dtype=float) / float(rate)
    if look.variable_rate:
        times = times + rng.uniform(-0.25, 0.25, count) / float(rate)
        times[0] = 0.0
        times = np.maximum.accumulate(times + np.arange(count) * 1e-6)
    return np.round(times / float(TIME_BASE)) * float(TIME_BASE)


def render_match(path: str | Path, seed: int, strokes: int, look: Look, discipline: Discipline,
                 table: TableSpec) -> Truth:
    """Play ``strokes`` strokes from ``seed`` and render them to ``path`` (MP4, H.264)."""
    return render_clip(path, play_match(seed, strokes, discipline, table), look, seed)


def render_clip(path: str | Path, match: Match, look: Look, seed: int, seconds: float | None = None) -> Truth:
    """Render ``match`` through ``look``; only its first ``seconds`` when given (the same
    frames as the whole clip's first ones)."""
    rng = np.random.default_rng((seed, 7))
    scene = build_scene(look, match.table, rng)
    times = frame_times(look, match.duration, rng)
    if seconds is not None:
        times = times[times <= seconds]
    noise = _noise_bank(rng, look)
    maps = distortion_maps(look)
    centres = {ball: np.empty((len(times), 2)) for ball in BALLS}
    period = 1.0 / float(frame_rate(look.fps))
    with av.open(str(path), "w") as container:
        stream = container.add_stream("libx264", rate=frame_rate(look.fps))
        stream.width, stream.height = look.camera.width, look.camera.height
        stream.pix_fmt = PIXEL_FORMATS[look.chroma]
        stream.bit_rate = look.bitrate
        stream.time_base = TIME_BASE
        stream.codec_context.time_base = TIME_BASE
        _mark(stream.codec_context, look.coding)
        options = {"preset": "ultrafast"}
        if look.interlaced:
            options["x264-params"] = "interlaced=1:tff=1"
        stream.options = options
        for k, t in enumerate(times):
            if look.interlaced:  # the top field at the frame's time, the bottom one half a frame later
                image = _frame(scene, look, match, float(t), period / 2.0, maps, noise[k % len(noise)])
                later = _frame(scene, look, match, float(t) + period / 2.0, period / 2.0, maps,
                               noise[(k + 1) % len(noise)])
                frame = _woven(image, later, look.coding, PIXEL_FORMATS[look.chroma])
            else:
                image = _frame(scene, look, match, float(t), period, maps, noise[k % len(noise)])
                frame = _coded(av.VideoFrame.from_ndarray(image, format="bgr24"), look.coding,
                               PIXEL_FORMATS[look.chroma])
            for ball, xy in match.positions(float(t)).items():
                centres[ball][k] = xy
            frame.pts = round(float(t) / float(TIME_BASE))
            frame.time_base = TIME_BASE
            for packet in stream.encode(frame):
                container.mux(packet)
        for packet in stream.encode():
            container.mux(packet)
    return Truth(match, look, times, centres)


def _mark(context: av.video.codeccontext.VideoCodecContext, coding: Coding) -> None:
    """Mark the stream's colour matrix, primaries, transfer and range as ``coding``'s."""
    context.colorspace, context.color_primaries, context.color_trc = TAGS[coding.matrix]
    context.color_range = COLOUR_RANGES[coding.full]


def _coded(frame: av.VideoFrame, coding: Coding, pixels: str = "yuv420p") -> av.VideoFrame:
    """A colour picture as the encoder is given it: as the encoder converts it itself for
    :data:`REFERENCE` (the family's clips as they always were), else converted to ``coding``
    (in the picture format ``pixels``) and marked so."""
    if coding == REFERENCE:
        return frame
    space = TAGS[coding.matrix][0]
    coded = frame.reformat(format=pixels, dst_colorspace=space, dst_color_range=COLOUR_RANGES[coding.full])
    coded.colorspace, coded.color_range = space, COLOUR_RANGES[coding.full]
    return coded


def _woven(top: npt.NDArray[np.uint8], bottom: npt.NDArray[np.uint8],
           coding: Coding = REFERENCE, pixels: str = "yuv420p") -> av.VideoFrame:
    """One interlaced frame (4:2:0, or 4:2:2 for ``pixels`` ``yuv422p``) of two pictures:
    its even lines from ``top``, its odd ones from ``bottom``, each field's colour sampled
    from its own lines only (even rows of the colour planes from the top field), as an
    interlaced camera samples it. Colour sampled from the woven picture would mix the two
    fields' moments in every colour row."""
    fields = [_yuv(picture, coding, pixels) for picture in (top[0::2], bottom[1::2])]
    planes = []
    for first, second in zip(*fields, strict=True):
        plane = np.empty((2 * first.shape[0], first.shape[1]), np.uint8)
        plane[0::2], plane[1::2] = first, second
        planes.append(plane)
    y, u, v = planes
    w = y.shape[1]
    stacked = np.concatenate((y, u.reshape(-1, w), v.reshape(-1, w)))
    woven = av.VideoFrame.from_ndarray(stacked, format=pixels)
    if coding != REFERENCE:
        woven.colorspace, woven.color_range = TAGS[coding.matrix][0], COLOUR_RANGES[coding.full]
    return woven


def _yuv(image: npt.NDArray[np.uint8], coding: Coding = REFERENCE,
         pixels: str = "yuv420p") -> list[npt.NDArray[np.uint8]]:
    """A picture's Y, U and V planes as FFmpeg converts it for the encoder (U and V at half
    its width, rounded up, and for ``yuv420p`` at half its height too), coded as ``coding``."""
    picture = av.VideoFrame.from_ndarray(np.ascontiguousarray(image), format="bgr24")
    converted = _coded(picture, coding, pixels) if coding != REFERENCE else picture.reformat(format=pixels)
    h, w = image.shape[:2]
    rows = (h + 1) // 2 if pixels == "yuv420p" else h
    sizes = [(h, w), (rows, (w + 1) // 2), (rows, (w + 1) // 2)]
    return [np.frombuffer(plane, np.uint8).reshape(-1, plane.line_size)[:rows, :columns]
            for plane, (rows, columns) in zip(converted.planes, sizes, strict=True)]


def _frame(scene: Scene, look: Look, match: Match, t: float, period: float,
           maps: tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]] | None,
           noise: tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]) -> npt.NDArray[np.uint8]:
    image = scene.background.copy()
    r = match.table.ball_radius
    open_time = look.exposure * period
    moments = [match.positions(t + open_time * (j / (EXPOSURE_MOMENTS - 1) - 0.5))
               for j in range(EXPOSURE_MOMENTS)]
    draw_balls(image, scene, look, r, moments)
    if look.players:
        draw_player(image, scene.camera, match, t, r)
        draw_referee(image, scene.camera, match, t)
    if look.shake:
        shift = np.float32([[1, 0, look.shake * t], [0, 1, 0.3 * look.shake * t]])
        image = cv2.warpAffine(image, shift, (image.shape[1], image.shape[0]),
                               borderMode=cv2.BORDER_REPLICATE)
    if maps is not None:
        image = cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR)
    if look.cast != (1.0, 1.0, 1.0):  # a gain on linear light is its power on the encoded levels
        gains = np.power(np.array(look.cast, np.float32), np.float32(GAMMA))
        image = np.clip(image * gains + 0.5, 0, 255).astype(np.uint8)
    image = cv2.subtract(cv2.add(image, noise[0]), noise[1])
    if look.graphics and not look.graphics_gone[0] <= t < look.graphics_gone[1]:
        draw_graphics(image, match, t)
    return image


def _noise_bank(rng: np.random.Generator, look: Look, count: int = 4
                ) -> list[tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]]:
    """A few frames of sensor noise, used in turn (its positive and negative parts)."""
    shape = (look.camera.height, look.camera.width, 3)
    bank = []
    for _ in range(count):
        n = rng.normal(0.0, look.noise, shape).astype(np.float32)
        bank.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
    return bank


def distortion_maps(look: Look) -> tuple[npt.NDArray[np.int16], npt.NDArray[np.uint16]] | None:
    """Where each pixel of the distorted picture lies in the undistorted one."""
    cam = look.camera
    if cam.k1 == 0.0:
        return None
    ys, xs = np.mgrid[0:cam.height, 0:cam.width].astype(np.float32)
    pixels = np.column_stack((xs.ravel(), ys.ravel())).astype(float)
    n = cam.undistort(pixels)
    u = (cam.f * n + (cam.cx, cam.cy)).astype(np.float32)
    mx = u[:, 0].reshape(cam.height, cam.width)
    my = u[:, 1].reshape(cam.height, cam.width)
    fixed, frac = cv2.convertMaps(mx, my, cv2.CV_16SC2)
    return fixed, frac
