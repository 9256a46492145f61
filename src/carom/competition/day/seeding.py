"""The seeding at the start, the handicap targets, and seeds from a ranking list.

By average (the default): strongest first by the general average in the tournament's
discipline, players without one after those with one, then by id. By hand (the setting,
or once seeds were edited or taken from a ranking list, D3): players with a seed first by
their seed, the others after them by average. Handicap targets: each player's distance
in proportion to his average (:func:`~carom.competition.handicap.handicap_target`), a
target given by hand winning over the formula.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from carom.competition.day.state import DayState
from carom.competition.groups import by_average
from carom.competition.handicap import handicap_target

UNSEEDED = 2**31


def seed_order(state: DayState, averages: Mapping[int, Fraction]) -> tuple[int, ...]:
    """Every entrant in seed order."""
    players = state.players()
    strength = by_average(players, averages)
    assert state.settings is not None
    if state.settings.seeding == "hand" or state.hand_seeding:
        hand = {e.player: e.seed for e in state.entries if e.seed is not None}
        place = {p: i for i, p in enumerate(strength)}
        return tuple(sorted(players, key=lambda p: (hand.get(p, UNSEEDED), place[p])))
    return tuple(strength)


def targets(state: DayState, averages: Mapping[int, Fraction]) -> tuple[tuple[int, int], ...]:
    """Each entrant's handicap target ((player, target) pairs; none without a handicap)."""
    settings = state.settings
    assert settings is not None
    if not settings.handicap or settings.points is None:
        return ()
    players = state.players()
    reference = max((averages[p] for p in players if p in averages), default=None)
    return tuple((e.player, e.target if e.target is not None else
                  handicap_target(averages.get(e.player), reference, settings.points)) for e in state.entries)


def late_target(state: DayState, player: int, averages: Mapping[int, Fraction]) -> int | None:
    """A late entrant's handicap target, against the field's best average."""
    settings = state.settings
    assert settings is not None
    if not settings.handicap or settings.points is None:
        return None
    players = [*state.players(), player]
    reference = max((averages[p] for p in players if p in averages), default=None)
    return handicap_target(averages.get(player), reference, settings.points)


def ranking_seeds(state: DayState, ranked: Sequence[int]) -> tuple[tuple[int, int], ...]:
    """Seeds from a ranking list (players best first): the entrants on it seeded in its
    order, 1, 2, …; the entrants not on it lose any seed (0), and so come after them."""
    on_list = [p for p in dict.fromkeys(ranked) if state.entry(p) is not None]
    seeds = {p: i for i, p in enumerate(on_list, start=1)}
    return tuple((p, seeds.get(p, 0)) for p in state.players())
