"""The shot finder: what to play from here (docs/search.md).

``find_shots(position, ball, discipline, table)`` searches cue strikes with the
simulator's batch form, keeps those the referee judges a point, and ranks them by
how forgiving they are: the chance that the stroke still scores under a player's
execution error, estimated by simulating perturbed strokes.
"""

from __future__ import annotations

from carom.solve.finder import ExecutionNoise, Shot, find_shots
from carom.solve.judging import route, verdicts

__all__ = ["ExecutionNoise", "Shot", "find_shots", "route", "verdicts"]
