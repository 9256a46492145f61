"""Confidence: the chance that no single measurement error changes the ruling."""

from __future__ import annotations

from carom.core.balls import Ball, Cushion
from carom.core.events import BallContact, CushionContact, Event
from carom.core.records import Stroke
from carom.core.table import TABLES
from carom.rules.disciplines import discipline
from carom.rules.referee import StrokeContext, judge
from carom.track.judging.confidence import DOUBTFUL_BELOW, confidence_of, doubts
from carom.track.judging.record import Timed, accepted

W, Y, RED = Ball.WHITE, Ball.YELLOW, Ball.RED
CONTEXT = StrokeContext(discipline("three-cushion"), TABLES["large"], W, False, None, ())


def ruling(events: list[Event]) -> tuple[object, ...]:
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


def confidence(cands: list[Timed]) -> float:
    chosen = accepted(cands)
    return confidence_of(doubts(cands, chosen, W, ruling))


def test_a_clear_point_is_sure() -> None:
    assert confidence(point(1.6, 2.4)) > 0.97


def test_ball_3_right_after_the_third_cushion_is_doubtful() -> None:
    close = point(1.600, 1.603)
    assert ruling([c.event for c in accepted(close)])[0] == 1
    assert confidence(close) < DOUBTFUL_BELOW


def test_an_uncertain_contact_with_ball_3_is_doubtful() -> None:
    assert confidence(point(1.6, 2.4, red_probability=0.6)) < DOUBTFUL_BELOW


def test_a_rejected_candidate_that_would_score_is_a_doubt() -> None:
    cands = point(1.6, 2.4, red_probability=0.3)
    assert ruling([c.event for c in accepted(cands)])[0] == 0
    found = doubts(cands, accepted(cands), W, ruling)
    assert found and "white–red contact" in found[0].what
    assert confidence_of(found) < DOUBTFUL_BELOW


def test_an_unrelated_doubt_does_not_count() -> None:
    cands = [*point(1.6, 2.4), Timed(CushionContact(RED, Cushion.TOP, 3.0), 3.0, 0.005, 0.55)]
    assert confidence(cands) > 0.97


def test_a_point_wrong_one_time_in_twenty_is_put_before_a_human() -> None:
    """The doubtful threshold is the level the confidence is calibrated at (0.99): a
    ruling that one uncertain contact (chance 0.95) decides is not left to the machine."""
    assert DOUBTFUL_BELOW == 0.99
    cands = point(1.6, 2.4, red_probability=0.95)
    assert ruling([c.event for c in accepted(cands)])[0] == 1
    assert 0.9 < confidence(cands) < DOUBTFUL_BELOW
