"""Putting balls back on the table: the starting position (O2) and the long string (3C3, 3C4)."""

from __future__ import annotations

from collections.abc import Mapping

from carom.core.balls import BALLS, Ball
from carom.core.position import Position, covers
from carom.core.table import Point, TableSpec


def other_cue_ball(ball: Ball) -> Ball:
    return Ball.YELLOW if ball is Ball.WHITE else Ball.WHITE


def long_string_spot(table: TableSpec, ball: Ball, next_ball: Ball) -> Point:
    """A ball's own spot on the long string (3C3): red on the top spot, the ball of
    the player who plays next on the bottom spot, the other cue ball on the centre."""
    if ball is Ball.RED:
        return table.top_spot
    return table.bottom_spot if ball is next_ball else table.centre_spot


def spot_on_long_string(table: TableSpec, position: Mapping[Ball, Point], lifted: tuple[Ball, ...],
                        next_ball: Ball) -> Position:
    """Put the ``lifted`` balls on the long string (3C3), the others staying put.

    The balls go down in the order red, the next player's ball, the other ball. A
    spot covered even partly by a ball (3C4) sends the ball to the spot that belongs
    to the covering ball; **Decision** (GEOMETRY.md): if that one is taken too, to
    the long-string spot still free. The starting spots are never used (3C3).
    """
    placed = {ball: p for ball, p in position.items() if ball not in lifted}
    order = sorted(lifted, key=(Ball.RED, next_ball, other_cue_ball(next_ball)).index)
    for ball in order:
        own = long_string_spot(table, ball, next_ball)
        cover = _covering(table, placed, own)
        if cover is None:
            placed[ball] = own
            continue
        theirs = long_string_spot(table, cover, next_ball)
        if _covering(table, placed, theirs) is None:
            placed[ball] = theirs
            continue
        spots = [long_string_spot(table, b, next_ball) for b in BALLS]
        placed[ball] = next(s for s in spots if _covering(table, placed, s) is None)
    return Position({ball: placed[ball] for ball in BALLS if ball in placed})


def _covering(table: TableSpec, placed: dict[Ball, Point], spot: Point) -> Ball | None:
    for ball, p in placed.items():
        if covers(p, spot, table):
            return ball
    return None
