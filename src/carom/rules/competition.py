"""Rules of competition play that are not in the rulebook (RULES.md): the shot clock
and time-outs (T), and the penalty shoot-out that breaks a draw in a knock-out match (P).

The rulebook leaves them to the competition (RULES.md, E: "how a draw is broken ... is
a competition setting"); these ids are carom's own, each with its source in
``docs/clock.md`` and ``docs/format.md``. Their short titles are words of the catalogues
(message context ``rule``), like the rulebook's.
"""

from __future__ import annotations

COMPETITION_RULES: tuple[str, ...] = ("T1", "T2", "T3", "P1", "P2", "P3")
"""T1 the stroke's time and the warning; T2 time-outs; T3 time run out: a foul.
P1 a knock-out draw is broken by penalties; P2 one penalty stroke each from the starting
position, the match opener first; P3 rounds until one scores and the other does not."""
