"""How sure a ruling is: the probability that no single measurement error changes it.

Every candidate event carries the probability that it happened (from the noise of the
samples and the physics of contacts, never from labelled strokes). The ruling is
judged again with each *single* alternative: an accepted event that did not happen, a
rejected one that did, another hitter for a struck ball, two close events of ball 1
in the other order. The confidence is the product of ``1 - P(alternative)`` over the
alternatives that change the ruling (points or faults); the stroke is *doubtful*
below :data:`DOUBTFUL_BELOW`.

A stroke judged as part of a recording can also be doubtful for what the recording
misses around it (:mod:`carom.track.judging.sequence`): such a doubt has no probability and
leaves the confidence, which is about measurement errors, as it is.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from carom.core.balls import Ball
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.track.contacts.cushion_contacts import normal_cdf
from carom.track.judging.record import Timed

DOUBTFUL_BELOW = 0.99
"""A ruling wrong with more than one chance in a hundred is put before a human: the level
at which the confidence is calibrated (of the rulings given 0.99 or more, at least 99 %
are right), so that every ruling left to the machine is one it is sure of."""

NEGLIGIBLE = 1e-4
"""Alternatives less likely than this are not judged."""


@dataclass(frozen=True, slots=True)
class Doubt:
    """One alternative reading of the samples that would change the ruling, or (with no
    probability) a fact about the recording that puts the ruling in doubt."""

    probability: float | None
    """The chance of the alternative reading; ``None`` for a doubt about the recording
    itself, which makes the stroke doubtful whatever its confidence."""
    what: str

    @property
    def about_recording(self) -> bool:
        return self.probability is None


def describe(event: Event) -> str:
    t = f" at {event.t:.2f} s" if event.t is not None else ""
    if isinstance(event, BallContact):
        return f"{event.ball}–{event.other} contact{t}"
    if isinstance(event, CushionContact):
        return f"{event.ball} on the {event.cushion} cushion{t}"
    return f"{event.ball} jumping{t}"


def _chance(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def _reading(template: str, event: Event, chance: float) -> str:
    """An alternative reading in words: ``template`` with the event and its chance."""
    return template.format(event=describe(event), chance=_chance(chance))


def _relevant(event: Event, ball1: Ball) -> bool:
    if isinstance(event, Jump):
        return True
    if isinstance(event, BallContact):
        return event.involves(ball1)
    return event.ball is ball1


def doubts(cands: list[Timed], chosen: list[Timed], ball1: Ball,
           ruling: Callable[[list[Event]], tuple[object, ...]],
           base: tuple[object, ...] | None = None) -> list[Doubt]:
    """The single alternatives that change ``ruling`` (a function of the event list).
    ``base``: the ruling of the events ``chosen``, if already known."""
    if base is None:
        base = ruling([c.event for c in chosen])
    out: list[Doubt] = []

    def consider(probability: float, events: list[Timed], what: Callable[[], str]) -> None:
        """Judge the alternative ``events``; ``what`` describes it (only called, to
        save the formatting, for an alternative that changes the ruling)."""
        if probability < NEGLIGIBLE:
            return
        ordered = sorted(events, key=lambda c: c.t)
        if ruling([c.event for c in ordered]) != base:
            out.append(Doubt(probability, what()))

    chosen_ids = {id(c) for c in chosen}
    groups: dict[object, list[Timed]] = {}
    for c in cands:
        if c.group is not None:
            groups.setdefault(c.group, []).append(c)
            continue
        if not _relevant(c.event, ball1):
            continue
        if id(c) in chosen_ids:
            consider(1.0 - c.probability, [x for x in chosen if x is not c],
                     partial(_reading, "no {event} (chance {chance})", c.event, 1.0 - c.probability))
        else:
            consider(c.probability, [*chosen, c],
                     partial(_reading, "a {event} (chance {chance})", c.event, c.probability))
    for members in groups.values():
        current = next((m for m in members if id(m) in chosen_ids), None)
        rest = [x for x in chosen if x is not current]
        if any(_relevant(m.event, ball1) for m in members):
            for m in members:
                if m is current:
                    continue
                consider(m.probability, [*rest, m],
                         partial(_reading, "{event} instead (chance {chance})", m.event, m.probability))
            none = 1.0 - sum(m.probability for m in members)
            if current is not None:
                consider(none, rest, partial(_reading, "no {event} (chance {chance})", current.event, none))
    relevant = [c for c in chosen if _relevant(c.event, ball1)]
    for first, second in itertools.pairwise(relevant):
        if isinstance(first.event, CushionContact) and isinstance(second.event, CushionContact):
            continue
        spread = (first.t_sd ** 2 + second.t_sd ** 2) ** 0.5
        swap = normal_cdf(-(second.t - first.t) / max(spread, 1e-6))
        swapped = [c for c in chosen]
        i, j = swapped.index(first), swapped.index(second)
        swapped[i], swapped[j] = second, first
        if swap >= NEGLIGIBLE and ruling([c.event for c in swapped]) != base:
            out.append(Doubt(swap, f"{describe(second.event)} before {describe(first.event)} "
                                   f"(chance {_chance(swap)})"))
    out.sort(key=lambda d: -(d.probability or 0.0))
    return out


def confidence_of(found: list[Doubt]) -> float:
    """The product of ``1 - P`` over the alternative readings (doubts about the
    recording have no probability and take no part)."""
    value = 1.0
    for doubt in found:
        if doubt.probability is not None:
            value *= max(0.0, 1.0 - doubt.probability)
    return value
