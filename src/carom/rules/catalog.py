"""The rule ids of RULES.md, in the rulebook's order.

Every ruling cites these ids; error messages, the scoresheet and the referee's tablet
show them. Their short titles, in every language, are words of the catalogues
(message context ``rule``: :meth:`carom.notation.words.Words.rule`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from carom.core.records import CALLABLE_FOULS as CALLABLE_FOULS  # the faults a record may give, kept here too
from carom.core.records import STROKE_FOULS as STROKE_FOULS
from carom.rules.competition import COMPETITION_RULES


@dataclass(frozen=True, slots=True)
class Rule:
    """A rule of RULES.md: its id (the title is a word of the catalogues)."""

    id: str


_IDS = (
    "C1", "C2", "C3",
    "L1", "L2", "L3", "L4", "L5", "L6",
    "E1", "E2", "E3", "E4", "E5", "E6",
    "Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7",
    "F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9",
    "F10", "F11", "F12", "F13", "F14", "F15", "F16", "F17",
    "Z1", "Z2", "Z3", "Z4", "Z5", "Z6", "Z7",
    "O1", "O2", "O3",
    "S1", "S2", "S3", "S4",
    "K1", "K2", "K3", "K4",
    "1C1", "1C2", "1C3", "1C4",
    "3C1", "3C2", "3C3", "3C4", "3C5", "3C6",
)

RULES: dict[str, Rule] = {rule_id: Rule(rule_id) for rule_id in _IDS}
"""Every rule id of RULES.md, in the rulebook's order."""

_ORDER = {rule_id: i for i, rule_id in enumerate((*RULES, *COMPETITION_RULES))}
"""The rulebook's order, then carom's competition rules (:mod:`carom.rules.competition`)."""


@cache
def in_rulebook_order(ids: tuple[str, ...]) -> tuple[str, ...]:
    """Rule ids without repeats, in the order of RULES.md."""
    return tuple(sorted(set(ids), key=_ORDER.__getitem__))
