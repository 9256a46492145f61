"""The stroke's reading as its most probable explanation, and the probability of its ruling.

Every candidate event carries the chance that it happened, from the samples and the physics
of contacts (stage 2), never from labelled strokes. The parts of the reading that can change
the ruling are uncertain *parts*, each with its states and their chances:

* an event of ball 1, or a jump, that happened or did not (its chance, and the rest);
* the hitter of a struck ball: one of the balls that came near it, or none;
* the start of the stroke when ball 1 and the ball it hit first may have been frozen (F9);
* the order of two close events of ball 1.

Taken as independent, the parts give every explanation of the samples a probability, the
product of its states' chances. The explanations are visited likeliest first
(:func:`explanations`) and each is judged by the referee; the ruling is the one the visited
explanations give the most probability to, the record is its likeliest explanation, and
the confidence is that probability: a lower bound, for the explanations left unvisited
(less likely than :data:`NEGLIGIBLE` each, or beyond :data:`MOST`) count against it. The
likeliest explanations that rule otherwise are the stroke's doubts.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from carom.core.events import BallContact, Event
from carom.core.records import Stroke
from carom.notation.said import Said, all_of
from carom.track.contacts.ball_contacts import SETTLE
from carom.track.contacts.hits import NEGLIGIBLE
from carom.track.judging.record import ACCEPT, Timed

MOST = 64
"""The most explanations judged for one stroke (each is a call of the referee)."""


@dataclass(frozen=True, slots=True)
class State:
    """One state of a part: its chance, the events it puts in the record, and what it says
    in words (said of a state the ruling's explanation does not take)."""

    chance: float
    events: tuple[Timed, ...] = ()
    words: Said | None = None
    start: Stroke | None = None
    """The stroke (its start) this state reads, for the frozen reading."""
    swap: tuple[Timed, Timed] | None = None
    """Two events this state puts in the other order, if both are in the record."""


@dataclass(frozen=True, slots=True)
class Part:
    """An uncertain part of the reading: its states, likeliest first."""

    states: tuple[State, ...]


@dataclass(slots=True)
class Explanation:
    """A choice of one state per part, with its probability."""

    probability: float
    choice: tuple[int, ...]
    events: list[Event] = field(default_factory=list)
    start: Stroke | None = None
    ruling: tuple[object, ...] = ()

    def words(self, parts: Sequence[Part], ruled: Explanation) -> Said:
        """How it differs from ``ruled``, the explanation the ruling stands on, in words, with
        its chance. ``ruled`` is the likeliest explanation, unless the explanations of
        another ruling weigh more: then the likeliest is one of the others, and its words
        are those of the states in which the ruling's differs from it."""
        changes = [words for i, k in enumerate(self.choice)
                   if k != ruled.choice[i] and (words := parts[i].states[k].words)]
        if not changes:  # it differs only in states without words
            return Said("another reading of the same contacts (chance %(chance)s)",
                        chance=_chance(self.probability))
        return Said("%(changes)s (chance %(chance)s)", changes=all_of(changes),
                    chance=_chance(self.probability))


def _chance(p: float) -> str:
    return f"{p:.3f}" if p >= 0.001 else f"{p:.1e}"


def binary(candidate: Timed, words_if_not: Said, words_if_so: Said) -> Part | None:
    """The part of an event that happened with its chance, or not (``None`` when either
    is negligible: it is not uncertain)."""
    p = candidate.probability
    if min(p, 1.0 - p) < NEGLIGIBLE:
        return None
    happened = State(p, (candidate,), words_if_so)
    not_so = State(1.0 - p, (), words_if_not)
    return Part((happened, not_so) if p >= ACCEPT else (not_so, happened))


def one_of(members: Sequence[Timed], words: Callable[[Timed], Said], words_none: Said) -> Part | None:
    """The part of exclusive candidates (the hitters of one struck ball): one of them, or
    none with the chance left (``None`` when only one state is not negligible)."""
    states = [State(m.probability, (m,), words(m)) for m in members if m.probability >= NEGLIGIBLE]
    none = 1.0 - sum(m.probability for m in members)
    if none >= NEGLIGIBLE:
        states.append(State(none, (), words_none))
    states.sort(key=lambda s: -s.chance)
    return Part(tuple(states)) if len(states) > 1 else None


def explanations(parts: Sequence[Part]) -> Iterator[tuple[float, tuple[int, ...]]]:
    """Every choice of one state per part with its probability, likeliest first, down to
    :data:`NEGLIGIBLE`. Each choice is reached once, from the choice with its last
    changed part one state back (the parts' states are likeliest first, so no choice is
    likelier than the one it is reached from)."""
    if not parts:
        yield 1.0, ()
        return
    first = tuple(0 for _ in parts)
    start = 1.0
    for part in parts:
        start *= part.states[0].chance
    heap: list[tuple[float, tuple[int, ...], int]] = [(-start, first, 0)]
    while heap:
        negative, choice, pivot = heapq.heappop(heap)
        if -negative < NEGLIGIBLE and any(choice):
            return
        yield -negative, choice
        for i in range(pivot, len(parts)):
            k = choice[i]
            if k + 1 >= len(parts[i].states):
                continue
            ratio = parts[i].states[k + 1].chance / parts[i].states[k].chance
            heapq.heappush(heap, (negative * ratio, (*choice[:i], k + 1, *choice[i + 1:]), i))


def assemble(base: Sequence[Timed], parts: Sequence[Part],
             choice: tuple[int, ...]) -> tuple[list[Event], Stroke | None]:
    """The events (in time order, one collision read twice kept once) and the start an
    explanation reads."""
    chosen = list(base)
    start: Stroke | None = None
    swaps = []
    for part, k in zip(parts, choice, strict=True):
        state = part.states[k]
        chosen.extend(state.events)
        start = state.start or start
        if state.swap is not None:
            swaps.append(state.swap)
    chosen.sort(key=lambda c: c.t)
    kept: list[Timed] = []
    contacts: list[Timed] = []  # the ball-ball contacts kept: only two of them can be one collision
    for c in chosen:
        if isinstance(c.event, BallContact):
            if any(_same_collision(k, c) for k in contacts):
                continue
            contacts.append(c)
        kept.append(c)
    for a, b in swaps:
        if a in kept and b in kept:
            i, j = kept.index(a), kept.index(b)
            kept[i], kept[j] = b, a
    return [c.event for c in kept], start


def _same_collision(a: Timed, b: Timed) -> bool:
    """Two candidates that are one collision read twice (a struck ball, and its hitter
    turned): two balls cannot part and meet again within :data:`SETTLE`."""
    ea, eb = a.event, b.event
    return (isinstance(ea, BallContact) and isinstance(eb, BallContact)
            and {ea.ball, ea.other} == {eb.ball, eb.other} and abs(a.t - b.t) < SETTLE)


@dataclass(frozen=True, slots=True)
class Reading:
    """The stroke's ruling, its likeliest explanation, the probability of the ruling and
    the likeliest explanations that rule otherwise."""

    best: Explanation
    confidence: float
    others: tuple[Explanation, ...]


def read(base: Sequence[Timed], parts: Sequence[Part],
         ruling: Callable[[list[Event], Stroke | None], tuple[object, ...]]) -> Reading:
    """Visit the explanations likeliest first (at most :data:`MOST`), judge each with
    ``ruling`` and weigh the rulings."""
    mass: dict[tuple[object, ...], float] = {}
    seen: list[Explanation] = []
    for probability, choice in explanations(parts):
        events, start = assemble(base, parts, choice)
        found = Explanation(probability, choice, events, start, ruling(events, start))
        mass[found.ruling] = mass.get(found.ruling, 0.0) + probability
        seen.append(found)
        if len(seen) >= MOST:
            break
    winner = max(mass, key=lambda r: (mass[r], r == seen[0].ruling))
    best = next(e for e in seen if e.ruling == winner)
    # likeliest first; of equally likely ones, the one that changes an earlier part first
    others = tuple(sorted((e for e in seen if e.ruling != winner),
                          key=lambda e: (-e.probability, [-k for k in e.choice])))
    return Reading(best, min(mass[winner], 1.0), others)
