"""Zones: the straight-rail corners, the balkline fields and the anchors (GEOMETRY.md).

A zone is a closed region: a ball whose centre lies on its boundary is inside it
(rule Z6). A ball *leaves* a zone when its centre is strictly outside.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import hypot

from carom.core.table import TOLERANCES, Point, TableSpec

ANCHOR_SIDE = 0.178
"""Side of an anchor square, metres (rule Z5)."""


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-parallel rectangle ``[x0, x1] x [y0, y1]``: a field or an anchor."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point, eps: float = TOLERANCES.line) -> bool:
        """Inside or on the boundary (rule Z6)."""
        x, y = p
        return (self.x0 - eps <= x <= self.x1 + eps) and (self.y0 - eps <= y <= self.y1 + eps)

    def outline(self) -> list[Point]:
        return [(self.x0, self.y0), (self.x1, self.y0), (self.x1, self.y1), (self.x0, self.y1)]


@dataclass(frozen=True, slots=True)
class CornerTriangle:
    """A straight-rail corner field: the right triangle at corner ``(cx, cy)``.

    Its legs run ``a`` along the short cushion and ``b`` along the long one; the
    bottom-left one is ``x/a + y/b <= 1`` (GEOMETRY.md), the others mirror it.
    """

    name: str
    cx: float
    cy: float
    a: float
    b: float

    def contains(self, p: Point, eps: float = TOLERANCES.line) -> bool:
        """Inside or on the hypotenuse (rule Z6): signed distance to it ``<= eps``."""
        u = abs(p[0] - self.cx) / self.a
        v = abs(p[1] - self.cy) / self.b
        scale = hypot(1.0 / self.a, 1.0 / self.b)
        return (u + v - 1.0) / scale <= eps

    def outline(self) -> list[Point]:
        sx = self.a if self.cx == 0.0 else -self.a
        sy = self.b if self.cy == 0.0 else -self.b
        return [(self.cx, self.cy), (self.cx + sx, self.cy), (self.cx, self.cy + sy)]


Zone = Rect | CornerTriangle


def corner_zones(table: TableSpec) -> tuple[Zone, ...]:
    """The four straight-rail corners: legs W/4 (short cushion) and L/4 (long) (rule S2)."""
    a, b = table.width / 4.0, table.length / 4.0
    w, length = table.width, table.length
    return (
        CornerTriangle("corner-bl", 0.0, 0.0, a, b),
        CornerTriangle("corner-br", w, 0.0, a, b),
        CornerTriangle("corner-tl", 0.0, length, a, b),
        CornerTriangle("corner-tr", w, length, a, b),
    )


def balk_lines(extent: float, inset: float, eps: float = TOLERANCES.line) -> tuple[float, ...]:
    """Lines ``inset`` from each end of ``extent``; one line where the two coincide."""
    near, far = inset, extent - inset
    return (near,) if abs(far - near) <= eps else (near, far)


def balkline_zones(table: TableSpec, inset: float,
                   anchor: float = ANCHOR_SIDE) -> tuple[Zone, ...]:
    """The fields and anchors of a balkline discipline whose lines lie ``inset`` from
    the cushions (rules K1, Z5): fields ``field-<column><row>``, then anchors
    ``anchor-<cushion>-<n>`` counted from the left or from the bottom."""
    xs = balk_lines(table.width, inset)
    ys = balk_lines(table.length, inset)
    x_edges = (0.0, *xs, table.width)
    y_edges = (0.0, *ys, table.length)
    zones: list[Zone] = []
    for col in range(len(x_edges) - 1):
        for row in range(len(y_edges) - 1):
            zones.append(Rect(f"field-{col + 1}{row + 1}", x_edges[col], y_edges[row],
                              x_edges[col + 1], y_edges[row + 1]))
    half = anchor / 2.0
    for n, x in enumerate(xs, start=1):
        zones.append(Rect(f"anchor-bottom-{n}", x - half, 0.0, x + half, anchor))
        zones.append(Rect(f"anchor-top-{n}", x - half, table.length - anchor, x + half, table.length))
    for n, y in enumerate(ys, start=1):
        zones.append(Rect(f"anchor-left-{n}", 0.0, y - half, anchor, y + half))
        zones.append(Rect(f"anchor-right-{n}", table.width - anchor, y - half, table.width, y + half))
    return tuple(zones)


class ZoneSet:
    """The zones of one discipline on one table, with their bounds laid out for speed:
    a referee asks "which zones hold both these balls?" for every stroke."""

    __slots__ = ("_bounds", "_boxes", "_others", "zones")

    def __init__(self, zones: tuple[Zone, ...], eps: float = TOLERANCES.line) -> None:
        self.zones = zones
        self._boxes = tuple(
            (i, z.x0 - eps, z.y0 - eps, z.x1 + eps, z.y1 + eps)
            for i, z in enumerate(zones) if isinstance(z, Rect)
        )
        self._others = tuple((i, z) for i, z in enumerate(zones) if not isinstance(z, Rect))
        self._bounds = {i: (x0, y0, x1, y1) for i, x0, y0, x1, y1 in self._boxes}

    def holds(self, i: int, p: Point) -> bool:
        """Zone ``i`` holds ``p``, inside or on a line (Z6)."""
        box = self._bounds.get(i)
        if box is None:
            return self.zones[i].contains(p)
        return box[0] <= p[0] <= box[2] and box[1] <= p[1] <= box[3]

    def holding_both(self, a: Point, b: Point) -> tuple[int, ...]:
        """The zones that hold both points, inside or on a line (Z2, Z6). A rectangle
        holds both exactly when it holds the box around them."""
        left, right = (a[0], b[0]) if a[0] <= b[0] else (b[0], a[0])
        low, high = (a[1], b[1]) if a[1] <= b[1] else (b[1], a[1])
        found = [i for i, x0, y0, x1, y1 in self._boxes
                 if x0 <= left and right <= x1 and y0 <= low and high <= y1]
        if self._others:
            found += [i for i, z in self._others if z.contains(a) and z.contains(b)]
        return tuple(found)
