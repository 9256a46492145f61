"""Balls and cushions: the names written into every file."""

from __future__ import annotations

from enum import StrEnum


class Ball(StrEnum):
    """The three balls. The dotted white is called ``yellow`` too (FORMAT.md)."""

    WHITE = "white"
    YELLOW = "yellow"
    RED = "red"


BALLS: tuple[Ball, Ball, Ball] = (Ball.WHITE, Ball.YELLOW, Ball.RED)

BALL_RADIUS = 0.03075
"""The radius of a ball, metres: 61.5 mm across (rule Q5). The one source of it: the
tables (``TableSpec.ball_radius``) and the simulator's parameters take it from here."""


class Cushion(StrEnum):
    """The four cushions; ``bottom`` is y = 0, ``top`` is y = L (GEOMETRY.md)."""

    BOTTOM = "bottom"
    TOP = "top"
    LEFT = "left"
    RIGHT = "right"


CUSHIONS: tuple[Cushion, ...] = tuple(Cushion)


CUE_BALLS: tuple[Ball, Ball] = (Ball.WHITE, Ball.YELLOW)
"""The balls the players strike (O1); red is never a cue ball."""


def cue_ball_problem(ball: Ball) -> str | None:
    """Why no player strikes ``ball`` (rule O1), or ``None`` for white and yellow."""
    if ball in CUE_BALLS:
        return None
    return f"{ball} is never a cue ball (O1: one player plays white, the other yellow)"


def cue_ball(player: int, opener: int) -> Ball:
    """The ball a player strikes: the opener plays white, the other yellow (rule O1)."""
    return Ball.WHITE if player == opener else Ball.YELLOW


_OBJECT_BALLS = {
    ball: (BALLS[0] if ball is not BALLS[0] else BALLS[1], BALLS[2] if ball is not BALLS[2] else BALLS[1])
    for ball in BALLS
}


def object_balls(ball: Ball) -> tuple[Ball, Ball]:
    """The two balls other than ``ball``, in the fixed order white, yellow, red."""
    return _OBJECT_BALLS[ball]
