"""Competitions: round robins, groups, knock-out brackets, schedules over tables,
standings and handicap targets. Pure: the standard library only, players as ids.

Every function here is deterministic: the same players and results in any order give
the same pairings, schedule and standings (ties end on the smaller player id).
"""

from __future__ import annotations

from carom.competition.errors import CompetitionError
from carom.competition.groups import snake_groups
from carom.competition.handicap import handicap_target
from carom.competition.knockout import Bracket, KoGame, Slot, bracket, seed_order
from carom.competition.qualify import knockout_size, qualifiers
from carom.competition.roundrobin import round_robin
from carom.competition.schedule import Pairing, dispatch, plan
from carom.competition.standings import Game, Line, standings

__all__ = [
    "Bracket", "CompetitionError", "Game", "KoGame", "Line", "Pairing", "Slot", "bracket", "dispatch",
    "handicap_target", "knockout_size", "plan", "qualifiers", "round_robin", "seed_order", "snake_groups",
    "standings",
]
