"""Judging simulated strokes with the one referee (``carom.rules.referee.judge``).

The simulator's batch form returns arrays; each stroke becomes a ``carom/1`` stroke
record and the referee judges it exactly as it judges a tablet's or a camera's. No
second, faster rule of our own: the shot finder and the batch runner trust the same
rulings as ``carom replay``.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from carom.core.balls import Ball
from carom.core.events import BallContact, CushionContact
from carom.core.records import Stroke
from carom.core.table import TableSpec
from carom.physics.batch import BatchOutcome
from carom.rules.disciplines import Discipline
from carom.rules.referee import StrokeContext, Verdict, judge


def route(stroke: Stroke) -> tuple[str, ...]:
    """Ball 1's way to the point: its cushions and balls in order, up to ball 3 (or all
    of them when there is no ball 3), e.g. ``("red", "top", "left", "right", "yellow")``."""
    ball1 = stroke.ball
    out: list[str] = []
    touched: set[Ball] = set()
    for event in stroke.events:
        if isinstance(event, CushionContact) and event.ball is ball1:
            out.append(event.cushion.value)
        elif isinstance(event, BallContact) and event.involves(ball1):
            other = event.partner(ball1)
            if other not in touched:
                out.append(other.value)
                touched.add(other)
            if len(touched) == 2:
                break
    return tuple(out)


def verdicts(outcome: BatchOutcome, positions: np.ndarray, cue: np.ndarray, discipline: Discipline,
             table: TableSpec, *, opening: bool = False) -> Iterator[tuple[Stroke, Verdict]]:
    """Each simulated stroke as a record, with the referee's verdict on it (the striker's
    own ball is the one struck; the zone counts start at 0, as at an inning's start)."""
    for k in range(positions.shape[0]):
        stroke = outcome.stroke(k, positions, cue)
        context = StrokeContext.of(discipline, table, cue_ball=stroke.ball, opening=opening,
                                   position=stroke.start)
        yield stroke, judge(context, stroke)


def points(outcome: BatchOutcome, positions: np.ndarray, cue: np.ndarray, discipline: Discipline,
           table: TableSpec, *, opening: bool = False) -> np.ndarray:
    """The referee's points for every stroke of a batch, as an array."""
    judged = verdicts(outcome, positions, cue, discipline, table, opening=opening)
    return np.fromiter((v.points for _, v in judged), dtype=np.int8, count=positions.shape[0])
