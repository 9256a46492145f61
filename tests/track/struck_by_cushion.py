"""A hitter caught between a cushion and a ball, the detection's parts built by hand: the
scene the tests of ``carom.track.contacts.momentum`` weigh (the momentum's cushion, the
hitter's return to a cushion)."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from carom.core.balls import Ball
from carom.core.table import TABLES
from carom.track.contacts.departure import Departure
from carom.track.contacts.hits import BallHit
from carom.track.reconstruct.geometry import cushion_lines
from carom.track.reconstruct.joins import Join

W, RED = Ball.WHITE, Ball.RED
LINES = cushion_lines(TABLES["large"])
RIGHT = TABLES["large"].width - TABLES["large"].ball_radius
"""x of the right cushion's line."""
T_CONTACT = 0.56


def _piece(x: float, y: float) -> SimpleNamespace:
    return SimpleNamespace(tail=SimpleNamespace(point=lambda t: (x, y)))


def white_strikes_red(red_rest: tuple[float, float], red_out: tuple[float, float],
                      white_in: tuple[float, float], white_out: tuple[float, float],
                      angle_sd: float) -> tuple[list[BallHit], list[Departure], dict[Ball, SimpleNamespace]]:
    """White runs at ``white_in`` towards the right cushion, its samples lost from 0.50 s
    to 0.62 s; it strikes red (at rest at ``red_rest``) at :data:`T_CONTACT` and leaves the
    gap at ``white_out``; red leaves at ``red_out``, its direction known to ``angle_sd``.
    The hits, departures and motions the momentum's readings take."""
    white = Join("turn", _piece(RIGHT - 0.03, 1.0), _piece(RIGHT - 0.01, 1.1), 0.50, 0.62, T_CONTACT,  # type: ignore[arg-type]
                 np.array((RIGHT - 0.004, 1.07)), np.array(white_in), np.array(white_out), 0.01, 0.02)
    red = Join("start", _piece(*red_rest), _piece(*red_rest), 0.0, 0.58, T_CONTACT,  # type: ignore[arg-type]
               np.array(red_rest), np.zeros(2), np.array(red_out), 0.0, 0.02)
    direction = np.array(red_out) / np.hypot(*red_out)
    departure = Departure(red, np.array(red_rest), direction, angle_sd, T_CONTACT, 0.005, 0.001)
    hit = BallHit(W, RED, T_CONTACT, 0.005, 1.0, "struck", 0.0, (RED, 0.0, 0.58))
    return [hit], [departure], {W: SimpleNamespace(joins=[white]), RED: SimpleNamespace(joins=[red])}
