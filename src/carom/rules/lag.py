"""The lag: who decides the order of play (rules L1–L6)."""

from __future__ import annotations

from dataclasses import dataclass

from carom.core.records import Lag
from carom.core.table import TOLERANCES


@dataclass(frozen=True, slots=True)
class LagOutcome:
    """A decided lag names its ``winner``; an undecided one is repeated."""

    winner: int | None
    failures: tuple[int, int]
    """Each player's lag balls so far that did not reach the top cushion (L6)."""
    rule: str


def decide_lag(lag: Lag, failures: tuple[int, int] = (0, 0)) -> LagOutcome:
    """Judge one lag (L2–L6).

    Faults decide before distances: a ball that hits red (L4) or, when the balls
    collide, the ball that crossed into the other half (L5) gives the choice to the
    opponent; a fault by each player (one hit red, the other crossed), or a collision
    that both or neither balls crossed, repeats the lag. A ball that does not reach the
    top cushion repeats the lag (L6), and at that player's second failure the
    opponent decides; both failing for the second time at once repeat again. Then
    the ball closer to the bottom cushion wins (L2); equal distances repeat (L3).
    """
    a, b = lag.results
    faults = [a.red, b.red]
    rule = "L4"
    if lag.collided:
        if a.crossed == b.crossed:
            return LagOutcome(None, failures, "L5")
        faults[0 if a.crossed else 1] = True
        rule = "L5"
    if faults[0] or faults[1]:
        return LagOutcome(None if faults[0] and faults[1] else (1 if faults[0] else 0), failures, rule)
    if not (a.top and b.top):
        now = (failures[0] + (not a.top), failures[1] + (not b.top))
        lost = (now[0] >= 2 and not a.top, now[1] >= 2 and not b.top)
        if lost[0] != lost[1]:
            return LagOutcome(1 if lost[0] else 0, now, "L6")
        return LagOutcome(None, now, "L6")
    if abs(a.y - b.y) <= TOLERANCES.line:
        return LagOutcome(None, failures, "L3")
    return LagOutcome(0 if a.y < b.y else 1, failures, "L2")
