"""Positions of the balls and the geometric facts about them (GEOMETRY.md).

A position maps each ball on the table to its centre. It is a value (frozen, hashable)
built freely and checked apart (:func:`position_problems`), so a reader can name what
is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from math import hypot

from carom.core.balls import BALLS, Ball
from carom.core.frozen import FrozenMap
from carom.core.table import TOLERANCES, Point, TableSpec, Tolerances


class Position(FrozenMap[Ball, Point]):
    """Ball → centre ``(x, y)``, metres (GEOMETRY.md). A jumped ball is simply absent.

    ``Position({Ball.WHITE: (0.71, 0.71), Ball.RED: (0.71, 2.13)})``: built from any
    mapping of balls to points, it cannot change afterwards and can be hashed.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        balls = ", ".join(f"{ball.value}=({p[0]:g}, {p[1]:g})" for ball, p in self.items())
        return f"Position({balls})"


def distance(p: Point, q: Point) -> float:
    return hypot(p[0] - q[0], p[1] - q[1])


def on_surface(p: Point, table: TableSpec, tol: Tolerances = TOLERANCES) -> bool:
    """The centre lies in ``[R, W-R] x [R, L-R]``, within the cushion tolerance."""
    r = table.ball_radius - tol.cushion
    x, y = p
    return r <= x <= table.width - r and r <= y <= table.length - r


def touching(p: Point, q: Point, table: TableSpec, tol: Tolerances = TOLERANCES) -> bool:
    """Two balls are frozen: their centres are ``2R`` apart within ``tol.touch``."""
    return abs(distance(p, q) - 2.0 * table.ball_radius) <= tol.touch


def overlapping(p: Point, q: Point, table: TableSpec, tol: Tolerances = TOLERANCES) -> bool:
    """Centres closer than ``2R - tol.touch``: an impossible position."""
    return distance(p, q) < 2.0 * table.ball_radius - tol.touch


def covers(p: Point, q: Point, table: TableSpec) -> bool:
    """A ball at ``p`` covers a spot at ``q``, even partly: centres closer than ``2R`` (3C4)."""
    return distance(p, q) < 2.0 * table.ball_radius


def frozen_to(position: Mapping[Ball, Point], ball: Ball, table: TableSpec,
              tol: Tolerances = TOLERANCES) -> tuple[Ball, ...]:
    """The balls that ``ball`` touches in ``position`` (rules F9, S3, K3, 1C3, 3C5)."""
    here = position.get(ball)
    if here is None:
        return ()
    return tuple(
        other for other in BALLS
        if other is not ball and other in position and touching(here, position[other], table, tol)
    )


def position_problems(position: Mapping[Ball, Point], table: TableSpec,
                      tol: Tolerances = TOLERANCES) -> list[str]:
    """What makes ``position`` impossible: balls off the surface or overlapping."""
    problems = []
    for ball in BALLS:
        p = position.get(ball)
        if p is not None and not on_surface(p, table, tol):
            problems.append(
                f"{ball} at ({p[0]:g}, {p[1]:g}) is off the {table.name} table's surface"
            )
    for i, a in enumerate(BALLS):
        for b in BALLS[i + 1:]:
            if a in position and b in position and overlapping(position[a], position[b], table, tol):
                gap = distance(position[a], position[b])
                problems.append(
                    f"{a} and {b} overlap (centres {gap * 1000:.2f} mm apart, "
                    f"less than 2R = {2000 * table.ball_radius:.1f} mm)"
                )
    return problems


def starting_position(table: TableSpec, next_ball: Ball, side: int = 1) -> Position:
    """The starting position (rule O2) for the player of ``next_ball``.

    Red on the top spot, the other cue ball on the bottom spot, ``next_ball`` on the
    starting spot of the player's choice: ``side`` 1 is the right-hand one (the one
    ``carom replay`` shows, FORMAT.md), 0 the left-hand one.
    """
    other = Ball.YELLOW if next_ball is Ball.WHITE else Ball.WHITE
    return Position({
        next_ball: table.starting_spots[side],
        other: table.bottom_spot,
        Ball.RED: table.top_spot,
    })


def mirror(position: Mapping[Ball, Point], table: TableSpec, *, across: bool = False,
           along: bool = False) -> Position:
    """The position mirrored left–right (``across``) and/or bottom–top (``along``)."""
    return Position({ball: mirror_point(p, table, across=across, along=along)
                     for ball, p in position.items()})


def mirror_point(p: Point, table: TableSpec, *, across: bool = False,
                 along: bool = False) -> Point:
    x, y = p
    return (table.width - x if across else x, table.length - y if along else y)
