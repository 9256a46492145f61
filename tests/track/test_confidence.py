"""Confidence: the probability of the ruling over the explanations of a stroke's reading
(``carom.track.judging.explanation``), its uncertain parts (``judging.confidence``)."""

from __future__ import annotations

import itertools
import random

import pytest

from carom.core.balls import Ball, Cushion
from carom.core.events import BallContact, CushionContact, Event
from carom.core.records import Stroke
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, judge
from carom.track.judging.confidence import DOUBTFUL_BELOW, order_parts, uncertain_parts
from carom.track.judging.explanation import Part, Reading, State, explanations, read
from carom.track.judging.record import Timed

W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
CONTEXT = StrokeContext(discipline("three-cushion"), TABLES["large"], W, False, None, ())


def ruling(events: list[Event], start: Stroke | None = None) -> tuple[object, ...]:
    verdict = judge(CONTEXT, Stroke(W, tuple(events)))
    return (verdict.points, verdict.fouls)


def point(third_cushion_at: float, red_at: float, red_probability: float = 0.99) -> list[Timed]:
    return [
        Timed(BallContact(W, Y, 0.2), 0.2, 0.002, 0.99),
        Timed(CushionContact(W, Cushion.LEFT, 0.6), 0.6, 0.005, 1.0),
        Timed(CushionContact(W, Cushion.TOP, 1.1), 1.1, 0.005, 1.0),
        Timed(CushionContact(W, Cushion.RIGHT, third_cushion_at), third_cushion_at, 0.005, 1.0),
        Timed(BallContact(W, RED, red_at), red_at, 0.003, red_probability),
    ]


def reading(cands: list[Timed]) -> tuple[Reading, list[Part]]:
    base, parts = uncertain_parts(cands, W)
    parts += order_parts(base, parts, W)
    return read(base, parts, ruling), parts


def confidence(cands: list[Timed]) -> float:
    return reading(cands)[0].confidence


def test_a_clear_point_is_sure() -> None:
    assert confidence(point(1.6, 2.4)) > 0.97


def test_ball_3_right_after_the_third_cushion_is_doubtful() -> None:
    close, parts = reading(point(1.600, 1.603))
    assert close.best.ruling[0] == 1
    assert close.confidence < DOUBTFUL_BELOW
    words = str(close.others[0].words(parts, close.best))
    assert "white–red contact at 1.60 s before white on the right cushion" in words


def test_an_uncertain_contact_with_ball_3_is_doubtful() -> None:
    assert confidence(point(1.6, 2.4, red_probability=0.6)) < DOUBTFUL_BELOW


def test_a_rejected_candidate_that_would_score_is_a_doubt() -> None:
    cands = point(1.6, 2.4, red_probability=0.3)
    base, parts = uncertain_parts(cands, W)
    found = read(base, parts, ruling)
    assert found.best.ruling[0] == 0
    assert found.others and "a white–red contact" in str(found.others[0].words(parts, found.best))
    assert found.confidence == pytest.approx(0.7, abs=0.01)


def test_an_unrelated_doubt_does_not_count() -> None:
    cands = [*point(1.6, 2.4), Timed(CushionContact(RED, Cushion.TOP, 3.0), 3.0, 0.005, 0.55)]
    assert confidence(cands) > 0.97


def test_a_point_wrong_one_time_in_twenty_is_put_before_a_human() -> None:
    """The doubtful threshold is the level the confidence is calibrated at (0.99): a
    ruling that one uncertain contact (chance 0.95) decides is not left to the machine."""
    assert DOUBTFUL_BELOW == 0.99
    cands = point(1.6, 2.4, red_probability=0.95)
    assert reading(cands)[0].best.ruling[0] == 1
    assert 0.9 < confidence(cands) < DOUBTFUL_BELOW


def test_two_doubts_that_change_the_ruling_only_together_are_weighed() -> None:
    """Four cushions before red, two of them uncertain (0.9 each): neither alone takes the
    point away, both together do (one time in a hundred)."""
    cands = [*point(1.6, 2.4, red_probability=1.0),
             Timed(CushionContact(W, Cushion.BOTTOM, 1.3), 1.3, 0.005, 1.0)]
    cands[0].probability = 1.0
    for c in cands[1:3]:
        c.probability = 0.9
    found, parts = reading(cands)
    assert found.best.ruling[0] == 1
    assert found.confidence == pytest.approx(0.99, abs=1e-6)
    assert "no white on the left cushion" in str(found.others[0].words(parts, found.best))
    assert "and no white on the top cushion" in str(found.others[0].words(parts, found.best))


def test_the_likelier_ruling_wins_over_the_likeliest_explanation() -> None:
    """Three readings of who set red moving: white (0.4), yellow (0.35), none (0.25). The
    likeliest explanation scores, but no point is the likelier ruling (0.6)."""
    cands = point(1.6, 2.4)[:4]
    group = ("red", 2.3, 2.5)
    cands += [Timed(BallContact(W, RED, 2.4), 2.4, 0.003, 0.4, group),
              Timed(BallContact(Y, RED, 2.4), 2.4, 0.003, 0.35, group)]
    found, parts = reading(cands)
    assert found.best.ruling[0] == 0
    assert found.confidence == pytest.approx(0.6, abs=0.01)
    # the likeliest explanation is a doubt now, said by how it differs from the ruling's
    likeliest = found.others[0]
    assert not any(likeliest.choice) and likeliest.probability == pytest.approx(0.4, abs=0.01)
    assert str(likeliest.words(parts, found.best)) == "white–red contact at 2.40 s instead (chance 0.396)"


def test_an_alternative_that_differs_only_in_unworded_states_is_still_said() -> None:
    cands = point(1.6, 2.4)[:4]
    group = ("red", 2.3, 2.5)
    cands += [Timed(BallContact(W, RED, 2.4), 2.4, 0.003, 0.4, group),
              Timed(BallContact(Y, RED, 2.4), 2.4, 0.003, 0.35, group)]
    found, parts = reading(cands)
    bare = [Part(tuple(State(s.chance, s.events, None, s.start, s.swap) for s in p.states)) for p in parts]
    said = str(found.others[0].words(bare, found.best))
    assert said == "another reading of the same contacts (chance 0.396)"


def test_explanations_come_likeliest_first_each_once() -> None:
    generator = random.Random(7)
    for _ in range(20):
        parts = []
        for _ in range(generator.randint(1, 4)):
            chances = sorted((generator.random() for _ in range(generator.randint(2, 3))), reverse=True)
            total = sum(chances)
            parts.append(Part(tuple(State(c / total) for c in chances)))
        visited = list(explanations(parts))
        probabilities = [p for p, _ in visited]
        assert probabilities == sorted(probabilities, reverse=True)
        assert len({choice for _, choice in visited}) == len(visited)
        every = {choice for choice in itertools.product(*(range(len(p.states)) for p in parts))}
        assert {choice for _, choice in visited} <= every
        assert sum(probabilities) <= 1.0 + 1e-9
