"""Ball 1 caught between a ball and a cushion, sent back into the cushion unseen
(``carom.track.judging.record._chatter``): weighed at the simulator's rate of such returns."""

from __future__ import annotations

import pytest

from carom.core.balls import Cushion
from carom.core.events import BallContact, CushionContact
from carom.track import laws
from carom.track.judging.record import Timed, _chatter
from tests.track.struck_by_cushion import RED, T_CONTACT, W

T_CUSHION = 0.55


def test_a_return_is_weighed_at_the_simulators_rate_unless_the_samples_show_it() -> None:
    """The record adds the simulator's rate of returns (5 %) where the samples show none."""
    first = Timed(CushionContact(W, Cushion.RIGHT, T_CUSHION), T_CUSHION, 0.005, 0.999)
    ball = Timed(BallContact(W, RED, T_CONTACT), T_CONTACT, 0.005, 1.0)
    (flat,) = _chatter([first, ball], W)
    assert flat.probability == pytest.approx(laws.CHATTER_CHANCE)
    seen = Timed(CushionContact(W, Cushion.RIGHT, T_CONTACT + 0.005), T_CONTACT + 0.005, 0.005, 0.02)
    assert _chatter([first, ball, seen], W) == []
