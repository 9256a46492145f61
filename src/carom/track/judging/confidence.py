"""How sure a ruling is: the doubts a reading raises, and the uncertain parts it is made of.

The parts of a stroke's reading that can change its ruling (:func:`uncertain_parts`,
:func:`order_parts`) are weighed together by :mod:`carom.track.judging.explanation`: the
confidence is the probability of the ruling, and the stroke is *doubtful* below
:data:`DOUBTFUL_BELOW`, its doubts the likeliest readings that rule otherwise.

A stroke judged as part of a recording can also be doubtful for what the recording
misses around it (:mod:`carom.track.judging.sequence`): such a doubt has no probability and
leaves the confidence, which is about measurement errors, as it is.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from carom.core.balls import Ball
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.notation.said import Said
from carom.track.contacts.cushion_contacts import normal_cdf
from carom.track.contacts.hits import NEGLIGIBLE
from carom.track.judging.explanation import Part, State, binary, one_of
from carom.track.judging.record import ACCEPT, Timed

DOUBTFUL_BELOW = 0.99
"""A ruling wrong with more than one chance in a hundred is put before a human: the level
at which the confidence is calibrated (of the rulings given 0.99 or more, at least 99 %
are right), so that every ruling left to the machine is one it is sure of."""


@dataclass(frozen=True, slots=True)
class Doubt:
    """One alternative reading of the samples that would change the ruling, or (with no
    probability) a fact about the recording that puts the ruling in doubt."""

    probability: float | None
    """The chance of the alternative reading; ``None`` for a doubt about the recording
    itself, which makes the stroke doubtful whatever its confidence."""
    said: Said

    @property
    def about_recording(self) -> bool:
        return self.probability is None

    @property
    def what(self) -> str:
        """The doubt in English."""
        return str(self.said)


def describe(event: Event) -> Said:
    if event.t is None:
        if isinstance(event, BallContact):
            return Said("%(ball)s–%(other)s contact", ball=event.ball, other=event.other)
        if isinstance(event, CushionContact):
            return Said("%(ball)s on the %(cushion)s cushion", ball=event.ball, cushion=event.cushion)
        return Said("%(ball)s jumping", ball=event.ball)
    t = f"{event.t:.2f}"
    if isinstance(event, BallContact):
        return Said("%(ball)s–%(other)s contact at %(t)s s", ball=event.ball, other=event.other, t=t)
    if isinstance(event, CushionContact):
        return Said("%(ball)s on the %(cushion)s cushion at %(t)s s", ball=event.ball, cushion=event.cushion,
                    t=t)
    return Said("%(ball)s jumping at %(t)s s", ball=event.ball, t=t)


def _relevant(event: Event, ball1: Ball) -> bool:
    """Whether an event can change a ruling: ball 1's contacts, and any jump."""
    if isinstance(event, Jump):
        return True
    if isinstance(event, BallContact):
        return event.involves(ball1)
    return event.ball is ball1


def uncertain_parts(cands: list[Timed], ball1: Ball) -> tuple[list[Timed], list[Part]]:
    """The candidates as the reading's sure events and its uncertain parts: each event of
    ball 1 (or jump) that may or may not have happened, and each struck ball's hitters
    among which one of ball 1's contacts is. An event that cannot change the ruling, or
    whose chance is negligible either way, is taken in its likelier state."""
    base: list[Timed] = []
    parts: list[Part] = []
    groups: dict[object, list[Timed]] = {}
    for c in cands:
        if c.group is not None:
            groups.setdefault(c.group, []).append(c)
            continue
        part = None
        if _relevant(c.event, ball1):
            what = describe(c.event)
            part = binary(c, Said("no %(event)s", event=what), Said("a %(event)s", event=what))
        if part is not None:
            parts.append(part)
        elif c.probability >= ACCEPT:
            base.append(c)
    for members in groups.values():
        likeliest = max(members, key=lambda m: m.probability)
        part = None
        if any(_relevant(m.event, ball1) for m in members):
            none = Said("no %(event)s", event=describe(likeliest.event))
            part = one_of(members, lambda m: Said("%(event)s instead", event=describe(m.event)), none)
        if part is not None:
            parts.append(part)
        elif likeliest.probability >= ACCEPT:
            base.append(likeliest)
    return base, parts


def order_parts(base: list[Timed], parts: list[Part], ball1: Ball) -> list[Part]:
    """The order of each two consecutive events of ball 1 in the likeliest reading (not two
    cushions: their order changes no ruling), when the other order is not negligible: the
    chance that the later happened first, from their times' uncertainty."""
    likeliest = sorted([*base, *(e for part in parts for e in part.states[0].events)], key=lambda c: c.t)
    relevant = [c for c in likeliest if _relevant(c.event, ball1)]
    out: list[Part] = []
    for first, second in itertools.pairwise(relevant):
        if isinstance(first.event, CushionContact) and isinstance(second.event, CushionContact):
            continue
        spread = (first.t_sd ** 2 + second.t_sd ** 2) ** 0.5
        swap = normal_cdf(-(second.t - first.t) / max(spread, 1e-6))
        if swap >= NEGLIGIBLE:
            as_read = Said("%(later)s before %(earlier)s", later=describe(first.event),
                           earlier=describe(second.event))
            swapped = Said("%(later)s before %(earlier)s", later=describe(second.event),
                           earlier=describe(first.event))
            out.append(Part((State(1.0 - swap, words=as_read),
                             State(swap, words=swapped, swap=(first, second)))))
    return out
