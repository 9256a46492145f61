"""What stands between the camera and the table: the player with the cue, the referee
walking round, and the broadcaster's score graphics.

People are drawn as flat shapes at their heights above the table (torso, head, arm,
bridge hand, cue), which is all a detector sees of them: large blobs of any colour,
skin that can look like a yellow or red ball, white gloves and sleeves like the white
ball, a cue that covers the cue ball until it is struck.
"""

from __future__ import annotations

import math

import cv2
import numpy as np
import numpy.typing as npt

from carom.video.camera import Array, Camera
from carom.video.render.play import Match, PlayedStroke
from carom.video.render.scene import SHIFT

Image = npt.NDArray[np.uint8]
Colour = tuple[int, int, int]

SKIN: Colour = (120, 150, 205)
VEST: Colour = (35, 30, 30)
SLEEVE: Colour = (225, 225, 220)
HAIR: Colour = (30, 35, 45)
SHAFT: Colour = (140, 185, 215)
BUTT: Colour = (30, 40, 70)
FERRULE: Colour = (235, 240, 240)
SUIT: Colour = (50, 40, 40)
GLOVE: Colour = (240, 240, 240)

AIM = 1.6
"""Seconds the player stands at the table, aiming, before the cue meets the ball."""
LEAVE = 0.9
"""Seconds the player takes to step back after the stroke."""
CUE_LENGTH = 1.42


def draw_player(frame: Image, camera: Camera, match: Match, t: float, radius: float) -> None:
    """The player of the stroke about to be played or just played, if any."""
    stroke = match.stroke_at(t, AIM)
    if stroke is None or t > stroke.start + 0.25 + LEAVE:
        return
    direction = math.radians(stroke.direction)
    u = np.array([math.cos(direction), math.sin(direction)])
    ball = _cue_ball_at_start(stroke)
    gap = _tip_gap(t - stroke.start)
    away = max(0.0, t - stroke.start - 0.25) / LEAVE * 0.9
    tip = ball - u * (radius + gap) - u * away
    side = np.array([-u[1], u[0]])
    hand = tip - u * 0.22
    butt = tip - u * CUE_LENGTH
    shoulder = tip - u * 0.75 + side * 0.18
    body = tip - u * 0.95 + side * 0.22
    _cue(frame, camera, tip, butt, radius)
    _limb(frame, camera, (*hand, 0.03), (*shoulder, 0.75), 0.05, SLEEVE)
    _ellipse(frame, camera, (*hand, 0.03), 0.055, 0.045, direction, SKIN)
    _ellipse(frame, camera, (*body, 0.85), 0.26, 0.2, direction, VEST)
    _limb(frame, camera, (*body, 0.85), (*(butt + u * 0.15), 0.3), 0.05, SLEEVE)
    _ellipse(frame, camera, (*(tip - u * 0.62), 1.0), 0.11, 0.09, direction, HAIR)


def _cue_ball_at_start(stroke: PlayedStroke) -> Array:
    assert stroke.truth.start is not None
    return np.asarray(stroke.truth.start[stroke.cue], dtype=float)


def _tip_gap(since: float) -> float:
    """The cue tip's distance behind the ball: practice strokes, the contact at 0, the
    follow-through."""
    if since < 0.0:
        return 0.02 + 0.06 * (0.5 - 0.5 * math.cos(2.0 * math.pi * since / 0.8)) * min(1.0, -since / 0.3)
    return -min(since, 0.12) * 1.2


def draw_referee(frame: Image, camera: Camera, match: Match, t: float) -> None:
    """The referee, walking slowly along the right long side, back and forth, gloves
    over the rail now and then."""
    span = match.table.length + 0.6
    phase = (t / 25.0) % 2.0
    y = -0.3 + span * (phase if phase < 1.0 else 2.0 - phase)
    x = match.table.width + 0.45
    _ellipse(frame, camera, (x, y, 1.2), 0.25, 0.18, math.pi / 2.0, SUIT)
    reach = 0.25 + 0.12 * math.sin(t * 0.9)
    _ellipse(frame, camera, (x - reach, y + 0.12, 0.9), 0.05, 0.04, 0.0, GLOVE)
    _ellipse(frame, camera, (x, y, 1.45), 0.1, 0.09, 0.0, HAIR)


def draw_graphics(frame: Image, match: Match, t: float) -> None:
    """A score box in the bottom-left corner: names, scores, innings, the two cue balls."""
    h, _w = frame.shape[:2]
    s = h / 1080.0
    x0, y0, x1, y1 = int(20 * s), int(h - 150 * s), int(560 * s), int(h - 30 * s)
    box = frame[y0:y1, x0:x1]
    box[:] = (box.astype(np.uint16) * 3 // 10 + np.array([40, 25, 10], np.uint16)).astype(np.uint8)
    scores, inning = _score(match, t)
    font = cv2.FONT_HERSHEY_SIMPLEX
    for k, (name, colour) in enumerate((("JANSSENS", (235, 235, 235)), ("SANCHEZ", (40, 200, 240)))):
        y = int(y0 + (45 + 45 * k) * s)
        cv2.circle(frame, (int(x0 + 30 * s), y - int(10 * s)), max(2, int(12 * s)), colour, -1, cv2.LINE_AA)
        cv2.putText(frame, name, (int(x0 + 55 * s), y), font, 0.9 * s, (240, 240, 240), max(1, int(2 * s)),
                    cv2.LINE_AA)
        cv2.putText(frame, f"{scores[k]:2d}", (int(x0 + 330 * s), y), font, 1.0 * s, (255, 255, 255),
                    max(1, int(2 * s)), cv2.LINE_AA)
    cv2.putText(frame, f"INN {inning}", (int(x0 + 420 * s), int(y0 + 70 * s)), font, 0.8 * s, (200, 200, 200),
                max(1, int(2 * s)), cv2.LINE_AA)


def _score(match: Match, t: float) -> tuple[list[int], int]:
    scores, inning = [0, 0], 1
    for stroke in match.strokes:
        if stroke.start > t:
            break
        inning = stroke.inning
        if stroke.end <= t:
            scores[stroke.player - 1] += stroke.verdict.points
    return scores, inning


def _pixels(camera: Camera, points: Array) -> npt.NDArray[np.int32] | None:
    if np.any(camera.depth(points) < 0.1):
        return None
    return np.round(camera.project(points) * (1 << SHIFT)).astype(np.int32)


def _ellipse(frame: Image, camera: Camera, centre: tuple[float, float, float], a: float, b: float,
             angle: float, colour: Colour) -> None:
    k = np.linspace(0.0, 2.0 * math.pi, 20, endpoint=False)
    ca, sa = math.cos(angle), math.sin(angle)
    ex, ey = a * np.cos(k), b * np.sin(k)
    ring = np.column_stack((centre[0] + ca * ex - sa * ey, centre[1] + sa * ex + ca * ey, np.full(20,
                                                                                                  centre[2])))
    pixels = _pixels(camera, ring)
    if pixels is not None:
        cv2.fillPoly(frame, [pixels], colour, cv2.LINE_AA, SHIFT)


def _strip(frame: Image, camera: Camera, a: Array, b: Array, wa: float, wb: float, colour: Colour) -> None:
    along = b[:2] - a[:2]
    n = np.array([-along[1], along[0]]) / max(float(np.linalg.norm(along)), 1e-9)
    quad = np.array([[*(a[:2] + n * wa / 2), a[2]], [*(b[:2] + n * wb / 2), b[2]],
                     [*(b[:2] - n * wb / 2), b[2]], [*(a[:2] - n * wa / 2), a[2]]])
    pixels = _pixels(camera, quad)
    if pixels is not None:
        cv2.fillPoly(frame, [pixels], colour, cv2.LINE_AA, SHIFT)


def _limb(frame: Image, camera: Camera, a: tuple[float, float, float], b: tuple[float, float, float],
          width: float, colour: Colour) -> None:
    _strip(frame, camera, np.asarray(a), np.asarray(b), width, width * 1.4, colour)


def _cue(frame: Image, camera: Camera, tip: Array, butt: Array, radius: float) -> None:
    """The cue from its tip at the ball's height to its butt, raised 0.3 m: shaft, ferrule, butt."""
    a = np.array([*tip, radius])
    b = np.array([*butt, 0.3])
    ferrule = a + (b - a) * (0.025 / CUE_LENGTH)
    wrap = a + (b - a) * 0.6
    _strip(frame, camera, a, wrap, 0.012, 0.022, SHAFT)
    _strip(frame, camera, wrap, b, 0.022, 0.03, BUTT)
    _strip(frame, camera, a, ferrule, 0.012, 0.0125, FERRULE)
