"""Simulated strokes judged by the referee (docs/physics.md, "Tests"): a stroke aimed to score
three-cushion scores, the same stroke with ball 3 after two cushions does not."""

from __future__ import annotations

import math

import numpy as np
import pytest

from carom.core.balls import BALLS, Ball
from carom.core.events import BallContact, CushionContact
from carom.core.records import Stroke
from carom.physics import Strike, simulate, simulate_batch
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, Verdict, judge

from .conftest import LARGE, R

D = LARGE.diamond


def _aim() -> tuple[tuple[float, float], Strike]:
    """The corner-5 stroke of check 16: from the top-left corner through diamond 3 of the
    right cushion, running English."""
    corner, target = (0.0, LARGE.length), (LARGE.width, 3 * D)
    heading = math.atan2(target[1] - corner[1], target[0] - corner[0])
    start = (corner[0] + 0.5 * D * math.cos(heading), corner[1] + 0.5 * D * math.sin(heading))
    heading = math.atan2(target[1] - start[1], target[0] - start[0])
    return start, Strike(Ball.WHITE, 3.5, math.degrees(heading), 0.3, 0.2)


def _on_path(stroke: Stroke, t: float) -> tuple[np.ndarray, np.ndarray]:
    """White's centre at ``t`` and its direction of travel."""
    assert stroke.paths is not None
    path = np.array(stroke.paths[Ball.WHITE])
    k = int(np.searchsorted(path[:, 0], t))
    a, b = path[k, 1:], path[k + 1, 1:]
    return a, (b - a) / np.linalg.norm(b - a)


def aimed_stroke(cushions_before_red: int) -> tuple[dict[Ball, tuple[float, float]], Strike]:
    """Yellow set for a thin hit on the way to the first cushion; red on white's path a
    quarter of a second after its ``cushions_before_red``-th cushion."""
    start, strike = _aim()
    alone = simulate({Ball.WHITE: start}, strike, LARGE, sample=0.001)
    point, heading = _on_path(alone, 0.12)
    right = np.array([heading[1], -heading[0]])
    yellow = point + right * (2 * R - 0.0003)
    position = {Ball.WHITE: start, Ball.YELLOW: (float(yellow[0]), float(yellow[1]))}
    with_yellow = simulate(position, strike, LARGE, sample=0.001)
    cushions = [e.t for e in with_yellow.events if isinstance(e, CushionContact) and e.ball is Ball.WHITE]
    assert cushions[0] is not None
    red, _ = _on_path(with_yellow, cushions[cushions_before_red - 1] + 0.25)  # type: ignore[operator]
    position[Ball.RED] = (float(red[0]), float(red[1]))
    return position, strike


def verdict(stroke: Stroke) -> Verdict:
    context = StrokeContext(discipline("three-cushion"), LARGE, Ball.WHITE, False, stroke.start, ())
    return judge(context, stroke)


def test_a_stroke_aimed_to_score_three_cushion_scores() -> None:
    position, strike = aimed_stroke(3)
    stroke = simulate(position, strike, LARGE)
    assert stroke.events[0] == BallContact(Ball.WHITE, Ball.YELLOW, stroke.events[0].t)
    ruling = verdict(stroke)
    assert ruling.points == 1 and ruling.fouls == ()
    assert ruling.contacts.ball2 is Ball.YELLOW and ruling.contacts.ball3 is Ball.RED
    assert ruling.contacts.cushions_before_ball3 == 3


def test_the_same_stroke_with_red_after_two_cushions_does_not() -> None:
    position, strike = aimed_stroke(2)
    ruling = verdict(simulate(position, strike, LARGE))
    assert ruling.contacts.ball3 is Ball.RED and ruling.contacts.cushions_before_ball3 == 2
    assert ruling.points == 0 and ruling.fouls == ()


@pytest.mark.parametrize(("cushions", "points"), [(3, 1), (2, 0)])
def test_the_batch_form_is_judged_alike(cushions: int, points: int) -> None:
    position, strike = aimed_stroke(cushions)
    positions = np.array([[position[b] for b in BALLS]])
    strikes = np.array([[strike.speed, strike.direction, strike.side, strike.height, strike.elevation]])
    outcome = simulate_batch(positions, strikes, np.array([0]), LARGE)
    assert verdict(outcome.stroke(0, positions, np.array([0]))).points == points
