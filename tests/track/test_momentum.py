"""The momentum of a ball contact deciding on its own that the hitter met a cushion
(``carom.track.contacts.momentum``): a hitter caught between a cushion and a ball."""

from __future__ import annotations

import pytest

from carom.core.balls import Cushion
from carom.track.contacts.cushion_contacts import CushionHit
from carom.track.contacts.momentum import momentum_cushions
from tests.track.struck_by_cushion import LINES, RIGHT, T_CONTACT, W, white_strikes_red


def _contact(red_rest: tuple[float, float], red_out: tuple[float, float],
             cushions: list[CushionHit] | None = None, white_in: tuple[float, float] = (0.6, 1.2),
             white_out: tuple[float, float] = (0.05, 0.9)) -> list[CushionHit]:
    """White runs at ``white_in`` (towards the right cushion), its samples lost from
    0.50 s to 0.62 s; it touches red at 0.56 s and leaves at ``white_out``, by default
    still towards the cushion (no turn away from it is seen); red leaves at ``red_out``."""
    hits, departures, motions = white_strikes_red(red_rest, red_out, white_in, white_out, 0.05)
    return momentum_cushions(hits, departures, motions, cushions or [], LINES)  # type: ignore[arg-type]


def test_a_hitter_whose_pair_turned_off_a_cushion_met_it_before_the_ball() -> None:
    """Before: 0.6 m/s into the right cushion. After, white and red together: 0.4 m/s
    away from it. Only the cushion can have done that; white ran into it before red."""
    found = _contact((RIGHT - 0.06, 1.12), (-0.45, 0.3))
    assert [(c.ball, c.cushion) for c in found] == [(W, Cushion.RIGHT)]
    assert found[0].probability > 0.95
    assert found[0].t < T_CONTACT


def test_a_pair_that_kept_its_momentum_met_no_cushion() -> None:
    """Red takes what white lost (0.55, 0.3 m/s): the sum is white's velocity before."""
    assert _contact((RIGHT - 0.06, 1.12), (0.55, 0.3)) == []


def test_a_contact_that_turned_the_hitter_towards_the_cushion_puts_the_cushion_after_it() -> None:
    """White ran along the cushion (0.05 m/s away from it); red took 0.45 m/s of it
    away from the cushion, which sent white into it; white and red leave it at 1 m/s."""
    found = _contact((RIGHT - 0.06, 1.12), (-0.45, 0.3), white_in=(-0.05, 1.2), white_out=(-0.55, 0.9))
    assert [(c.ball, c.cushion) for c in found] == [(W, Cushion.RIGHT)]
    assert found[0].t > T_CONTACT


def test_a_hitter_that_ran_away_from_the_cushion_before_and_after_the_ball_met_none() -> None:
    """White left the cushion at 0.3 m/s; red took 0.2 of it: white still ran away from
    the cushion after the ball, whatever the velocities measured after say."""
    assert _contact((RIGHT - 0.06, 1.12), (-0.2, 0.3), white_in=(-0.3, 1.2), white_out=(-0.8, 0.9)) == []


def test_a_struck_ball_lying_by_the_cushion_may_have_met_it_itself() -> None:
    assert _contact((RIGHT - 0.02, 1.12), (-0.45, 0.3)) == []


@pytest.mark.parametrize("chance", [0.99, 0.2])
def test_a_cushion_found_in_the_same_gap_is_kept_once_at_the_likelier_chance(chance: float) -> None:
    known = CushionHit(W, Cushion.RIGHT, 0.55, 0.50, 0.62, 0.0, 0.002, chance)
    found = _contact((RIGHT - 0.06, 1.12), (-0.45, 0.3), [known])
    assert len(found) == 1
    assert found[0].probability == pytest.approx(max(chance, 0.95), abs=0.05)
