"""A hitter sent back into the cushion it came off by the ball it struck there
(``carom.track.contacts.momentum.chatter_cushions``): the struck ball's departure tells
whether the hitter was left running into the cushion."""

from __future__ import annotations

import pytest

from carom.core.balls import Cushion
from carom.core.events import BallContact, CushionContact
from carom.track import laws
from carom.track.contacts.cushion_contacts import CushionHit
from carom.track.contacts.momentum import chatter_cushions
from carom.track.judging.record import Timed, _chatter
from tests.track.development import judged_in_recording
from tests.track.struck_by_cushion import LINES, RED, RIGHT, T_CONTACT, W, white_strikes_red

T_CUSHION = 0.55


def _returns(red_out: tuple[float, float], white_out: tuple[float, float] = (-0.1, 0.8),
             found: list[CushionHit] | None = None) -> list[CushionHit]:
    """White runs at (0.6, 1.2) m/s into the right cushion, its samples lost from 0.50 s to
    0.62 s; it meets the cushion at 0.55 s, red (lying by it) at 0.56 s, and leaves at
    ``white_out``; red leaves at ``red_out``."""
    hits, departures, motions = white_strikes_red((RIGHT - 0.06, 1.12), red_out, (0.6, 1.2), white_out, 0.03)
    cushion = CushionHit(W, Cushion.RIGHT, T_CUSHION, 0.50, 0.62, 0.0, 0.002, 0.999)
    return chatter_cushions(hits, departures, motions, [cushion, *(found or [])], LINES)  # type: ignore[arg-type]


def test_a_ball_sent_off_steeper_than_the_hitter_came_off_sends_it_back() -> None:
    """White comes off the cushion at 60–78° from its normal; red leaves at 26°. The
    contact leaves white only its velocity across red's line, which runs into the cushion:
    white, beside it, meets it again."""
    (again,) = _returns((-0.9, 0.44))
    assert (again.ball, again.cushion) == (W, Cushion.RIGHT)
    assert again.probability > 0.9
    assert again.t > T_CONTACT


def test_a_ball_sent_along_the_cushion_leaves_the_hitter_running_away_from_it() -> None:
    """Red leaves at 78° from the normal, flatter than white came off: white keeps running
    away from the cushion."""
    (again,) = _returns((-0.2, 0.98))
    assert again.probability < 0.1


def test_a_hitter_still_running_into_the_cushion_after_the_gap_is_left_to_the_samples() -> None:
    """White's samples after the gap run towards the cushion: a contact after them is
    read from them, not from the momentum."""
    assert _returns((-0.9, 0.44), white_out=(0.1, 0.8)) == []


def test_a_return_read_from_the_samples_is_not_weighed_again() -> None:
    seen = CushionHit(W, Cushion.RIGHT, 0.58, 0.50, 0.62, 0.0, 0.002, 0.9)
    assert _returns((-0.9, 0.44), found=[seen]) == []


def test_a_return_weighed_from_the_departure_replaces_the_simulators_rate() -> None:
    """The record adds the simulator's rate of returns (5 %) only where the detection did
    not weigh one."""
    first = Timed(CushionContact(W, Cushion.RIGHT, T_CUSHION), T_CUSHION, 0.005, 0.999)
    ball = Timed(BallContact(W, RED, T_CONTACT), T_CONTACT, 0.005, 1.0)
    (flat,) = _chatter([first, ball], W)
    assert flat.probability == pytest.approx(laws.CHATTER_CHANCE)
    weighed = Timed(CushionContact(W, Cushion.RIGHT, T_CONTACT + 0.005), T_CONTACT + 0.005, 0.005, 0.02)
    assert _chatter([first, ball, weighed], W) == []


def test_development_stroke_300974_keeps_its_third_cushion() -> None:
    """White came into the left cushion at 1.2 m/s, off it into red lying 5 cm from it,
    and back into it, in 10 ms between two samples 42 ms apart; red left at about 38° from
    the cushion's normal, steeper than white came off. The flat 5 % of such returns lost
    the point at 0.95."""
    stroke, ruling = judged_in_recording(300974, 300950)
    assert stroke.verdict.points == 1
    assert ruling.points == 1
    lefts = [e for e in ruling.stroke.events
             if isinstance(e, CushionContact) and e.ball is W and 0.8 < e.t < 0.9]
    assert len(lefts) == 2
