"""carom: the open carom billiards system.

The public API, for a script or a notebook (docs/api.md)::

    import carom
    match = carom.read("examples/three-cushion.carom.jsonl")   # a match record, replayed
    carom.judge(stroke, discipline="three-cushion")             # the referee on one stroke
    carom.draw(position)                                        # a position or a stroke, as SVG
    carom.simulate(position, carom.Strike(...), table)          # the physics simulator
    carom.find_shots(position, ball, discipline, table)         # the shot finder
    carom.track_stroke(tracked, discipline, table)              # the auto-referee

Every name is loaded when first used: ``import carom`` itself imports nothing but the
note that registers the Gymnasium environments when Gymnasium is loaded; the
pure core (``carom.core``, ``carom.rules``, ``carom.match``, ``carom.notation``) comes
with the first of its names, and the simulator, the shot finder and the auto-referee
(numpy, numba) only with theirs.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

_PUBLIC: dict[str, tuple[str, str]] = {
    # reading, judging and drawing matches: the pure core
    "read": ("carom.notation.matchfile", "read_match"),
    "Match": ("carom.notation.matchfile", "Match"),
    "Play": ("carom.notation.browse", "Play"),
    "draw": ("carom.notation.drawing", "draw"),
    "judge": ("carom.rules.referee", "judge_stroke"),
    "Verdict": ("carom.rules.referee", "Verdict"),
    "Termination": ("carom.match.state", "Termination"),
    # the nouns
    "Ball": ("carom.core.balls", "Ball"),
    "Cushion": ("carom.core.balls", "Cushion"),
    "Position": ("carom.core.position", "Position"),
    "starting_position": ("carom.core.position", "starting_position"),
    "BallContact": ("carom.core.events", "BallContact"),
    "CushionContact": ("carom.core.events", "CushionContact"),
    "Jump": ("carom.core.events", "Jump"),
    "Header": ("carom.core.records", "Header"),
    "Stroke": ("carom.core.records", "Stroke"),
    "TABLES": ("carom.core.table", "TABLES"),
    "table": ("carom.core.table", "table"),
    "DISCIPLINES": ("carom.rules.disciplines", "DISCIPLINES"),
    "discipline": ("carom.rules.disciplines", "discipline"),
    "CaromError": ("carom.core.errors", "CaromError"),
    # the leaves, with numpy and numba
    "simulate": ("carom.physics.simulate", "simulate"),
    "Strike": ("carom.physics.strike", "Strike"),
    "Params": ("carom.physics.params", "Params"),
    "find_shots": ("carom.solve.finder", "find_shots"),
    "track_stroke": ("carom.track", "track_stroke"),
}
"""Each public name and where it lives: ``carom.NAME`` imports that module on first use."""

__all__ = [
    "DISCIPLINES", "TABLES", "Ball", "BallContact", "CaromError", "Cushion", "CushionContact", "Header",
    "Jump", "Match", "Params", "Play", "Position", "Strike", "Stroke", "Termination", "Verdict", "discipline",
    "draw", "find_shots", "judge", "read", "simulate", "starting_position", "table", "track_stroke",
]

if TYPE_CHECKING:
    from carom.core.balls import Ball, Cushion
    from carom.core.errors import CaromError
    from carom.core.events import BallContact, CushionContact, Jump
    from carom.core.position import Position, starting_position
    from carom.core.records import Header, Stroke
    from carom.core.table import TABLES, table
    from carom.match.state import Termination
    from carom.notation.browse import Play
    from carom.notation.drawing import draw
    from carom.notation.matchfile import Match
    from carom.notation.matchfile import read_match as read
    from carom.physics.params import Params
    from carom.physics.simulate import simulate
    from carom.physics.strike import Strike
    from carom.rules.disciplines import DISCIPLINES, discipline
    from carom.rules.referee import Verdict
    from carom.rules.referee import judge_stroke as judge
    from carom.solve.finder import find_shots
    from carom.track import track_stroke


def _environments() -> None:
    """``gymnasium.make("carom/ThreeCushion-v0")`` works after ``import carom``, which loads
    neither Gymnasium nor numpy for it (:mod:`carom.gym_registration`)."""
    from carom.gym_registration import register_when_loaded

    register_when_loaded()


_environments()


def __getattr__(name: str) -> Any:
    """Load a public name on first use, and keep it (PEP 562)."""
    where = _PUBLIC.get(name)
    if where is None:
        raise AttributeError(f"module 'carom' has no attribute {name!r}")
    value = getattr(import_module(where[0]), where[1])
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_PUBLIC})
