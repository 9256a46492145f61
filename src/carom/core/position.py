"""Positions of the balls and the geometric facts about them (GEOMETRY.md).

A position maps each ball on the table to its centre. It is a value (frozen, hashable)
that checks what it is given (balls, two finite coordinates each); where the balls lie
on a given table is checked apart (:func:`position_problems`), since a position does
not know its table.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from math import hypot
from typing import Any

from carom.core.balls import BALLS, Ball, cue_ball_problem
from carom.core.checks import as_ball, as_point, refuse, shown
from carom.core.frozen import FrozenMap
from carom.core.table import TOLERANCES, Point, TableSpec, Tolerances, as_table


class Position(FrozenMap[Ball, Point]):
    """Ball → centre ``(x, y)``, metres (GEOMETRY.md). A jumped ball is simply absent.

    ``Position({"white": (0.71, 0.71), Ball.RED: (0.71, 2.13)})``: built from any mapping
    of balls (or their names) to two finite numbers, it cannot change afterwards and can
    be hashed. Anything else (an unknown ball, one coordinate, text, NaN) raises
    :class:`~carom.core.errors.InvalidValue` naming the ball.
    """

    __slots__ = ()

    def __init__(self, items: Mapping[Any, Any] | Iterable[tuple[Any, Any]] = ()) -> None:
        if type(items) is Position:
            super().__init__(items._items)
            return
        if isinstance(items, Mapping):
            pairs: Iterable[Any] = items.items()
        elif isinstance(items, (list, tuple)):
            pairs = items
            for pair in pairs:
                if type(pair) is not tuple or len(pair) != 2:
                    refuse(f"expected (ball, (x, y)) pairs, got {shown(pair)}")
        else:
            refuse(f"expected an object of ball positions, got {shown(items)}")
        given: dict[Ball, Point] = {}
        for key, point in pairs:
            ball = key if type(key) is Ball else as_ball(key, "")
            if ball in given:
                refuse(f"{ball} is given twice")
            given[ball] = as_point(point, ball.value)
        super().__init__(given if len(given) < 2 else {b: given[b] for b in BALLS if b in given})

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


def starting_position(table: TableSpec | str, next_ball: Ball | str, side: int = 1) -> Position:
    """The starting position (rule O2) for the player of ``next_ball``.

    Red on the top spot, the other cue ball on the bottom spot, ``next_ball`` (white or
    yellow, O1) on the starting spot of the player's choice: ``side`` 1 is the right-hand
    one (the one ``carom replay`` shows, FORMAT.md), 0 the left-hand one. The table and
    the ball may be given by name.
    """
    spec = as_table(table)
    ball = as_ball(next_ball, "next_ball")
    problem = cue_ball_problem(ball)
    if problem is not None:
        refuse(problem, "next_ball")
    if type(side) is not int or side not in (0, 1):
        refuse(f"expected 0 (left) or 1 (right), got {shown(side)}", "side")
    other = Ball.YELLOW if ball is Ball.WHITE else Ball.WHITE
    return Position({
        ball: spec.starting_spots[side],
        other: spec.bottom_spot,
        Ball.RED: spec.top_spot,
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
