"""Counting caroms in forbidden zones (rules Z2–Z7, S2, K2; GEOMETRY.md).

Every zone keeps its own count. A zone is *restricted* for a stroke when both
object balls lie inside it at the start of the stroke (Z6: a ball on a line is
inside). Its count is the number of caroms made in a row while it was restricted
and no object ball left it; when the count has reached ``limit - 1``, the next
carom must drive an object ball out of the zone, or it is a fault (Z7).
"""

from __future__ import annotations

from collections.abc import Mapping

from carom.core.balls import Ball
from carom.core.position import Position
from carom.core.records import Exit, Path
from carom.core.zones import ZoneSet


def restricted(zones: ZoneSet, position: Position, objects: tuple[Ball, Ball]) -> tuple[int, ...]:
    """The zones that hold both object balls at the start of a stroke (Z2, Z6)."""
    return zones.holding_both(position[objects[0]], position[objects[1]])


def left_zones(zones: ZoneSet, held: tuple[int, ...], objects: tuple[Ball, Ball], end: Position | None,
               exits: tuple[Exit, ...], paths: Mapping[Ball, Path] | None,
               jumped: tuple[Ball, ...]) -> tuple[int, ...]:
    """The zones of ``held`` that an object ball left at some moment of the stroke (Z4).

    A ball left a zone when it jumped, stopped strictly outside, is named in ``exits``
    for that zone, or has a sampled path point strictly outside.
    """
    if jumped and (objects[0] in jumped or objects[1] in jumped):
        return held
    gone = []
    for i in held:
        name = zones.zones[i].name
        for ball in objects:
            if ((end is not None and ball in end and not zones.holds(i, end[ball]))
                    or (exits and any(e.ball is ball and e.zone == name for e in exits))
                    or (paths is not None and ball in paths
                        and any(not zones.holds(i, (x, y)) for _, x, y in paths[ball]))):
                gone.append(i)
                break
    return tuple(gone)


def zone_fault(counts: tuple[int, ...], limit: int, held: tuple[int, ...],
               gone: tuple[int, ...]) -> tuple[int, ...]:
    """The restricted zones ``held`` where a carom breaks Z3 and is therefore a fault
    (Z7): already ``limit - 1`` caroms in a row, and no object ball left (``gone``)."""
    return tuple(i for i in held if i not in gone and counts[i] >= limit - 1)


def counts_after_carom(counts: tuple[int, ...], held: tuple[int, ...],
                       gone: tuple[int, ...]) -> tuple[int, ...]:
    """The counts after a valid carom: one more in every restricted zone that no
    object ball left; back to 0 everywhere else (Z4)."""
    new = [0] * len(counts)
    for i in held:
        if i not in gone:
            new[i] = counts[i] + 1
    return tuple(new)
