"""Scenario tables: a position and an event list in, the ruling out, each row citing
its rule. ``test_strokes.py`` runs them through the referee; ``test_rule_coverage.py``
checks that every registered discipline has rows."""

from __future__ import annotations

from dataclasses import dataclass, field

from carom.core.balls import Ball
from carom.core.table import Point

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED


@dataclass(frozen=True)
class Scenario:
    rule: str
    discipline: str
    events: str
    points: int
    fouls: tuple[str, ...] = ()
    cue: Ball = W
    ball: Ball | None = None
    """The ball struck, when not the cue ball (F13)."""
    opening: bool = False
    start: dict[Ball, Point] | None = None
    """Fractions of the table (x/W, y/L); None: an open layout, nothing frozen."""
    called: tuple[str, ...] = ()
    cites: tuple[str, ...] = ()
    note: str = ""
    extra: dict[str, object] = field(default_factory=dict)


OPEN = {W: (0.35, 0.30), Y: (0.65, 0.45), R: (0.40, 0.70)}
FROZEN_WY = {W: (0.50, 0.40), Y: (0.50, 0.40), R: (0.30, 0.80)}
"""White and yellow touch: yellow is moved 2R away along x by the test."""

ALL = (
    "straight-rail", "balkline-47/2", "balkline-47/1", "balkline-71/2", "balkline-35/2",
    "balkline-35/1", "balkline-52/2", "balkline-52/1", "one-cushion", "three-cushion",
    "balkline-38/2", "balkline-57/2",
)
NO_CUSHION = tuple(d for d in ALL if d.startswith(("straight", "balkline")))


def _every(rule: str, events: str, points: int, fouls: tuple[str, ...] = (), **kw: object) -> list[Scenario]:
    """One row per discipline, with the cushions each needs before ball 3 put first."""
    rows = []
    for d in ALL:
        lead = {"one-cushion": "left ", "three-cushion": "left top right "}.get(d, "")
        rows.append(Scenario(rule, d, lead + events, points, fouls, **kw))  # type: ignore[arg-type]
    return rows


SCENARIOS: list[Scenario] = [
    # C1: ball 2 and ball 3 from the order of ball 1's contacts.
    *_every("C1", "red yellow", 1, cites=("C1", "C2", "C3")),
    *_every("C1", "yellow red", 1),
    *_every("C1", "red", 0, note="only one object ball: a miss, not a fault"),
    *_every("C1", "red red red", 0, note="a ball hit twice is still one ball"),
    *_every("C1", "red red yellow", 1, note="ball 2 hit twice, then ball 3"),
    *_every("C1", "red yellow>red", 0, note="a kiss between object balls is no contact of ball 1"),
    *_every("C1", "red yellow>white", 1, note="ball 3 rolling into ball 1 is a contact of ball 1"),
    *_every("C1", "", 0, note="no contact at all"),
    *_every("C2", "yellow red top", 1, cites=("C2",)),
    # 1C1: at least one cushion of ball 1 before ball 3, in any order.
    Scenario("1C1", "one-cushion", "red yellow", 0, cites=("1C1",)),
    Scenario("1C1", "one-cushion", "red left yellow", 1),
    Scenario("1C1", "one-cushion", "top red yellow", 1),
    Scenario("1C1", "one-cushion", "red yellow left", 0, note="the cushion after ball 3 is too late"),
    Scenario("1C1", "one-cushion", "red red@left yellow", 0, note="ball 2's cushion is not ball 1's"),
    Scenario("1C1", "one-cushion", "top red bottom yellow", 1),
    # 3C1: at least three cushions, repeats counting, before ball 3.
    Scenario("3C1", "three-cushion", "red left top right yellow", 1),
    Scenario("3C1", "three-cushion", "left top right red yellow", 1),
    Scenario("3C1", "three-cushion", "left red top left yellow", 1, note="repeats count: left twice"),
    Scenario("3C1", "three-cushion", "red left right yellow", 0, cites=("3C1",),
             note="two cushions: a miss, not a fault"),
    Scenario("3C1", "three-cushion", "red left right yellow top", 0, note="the third after ball 3"),
    Scenario("3C1", "three-cushion", "red left right red@top yellow", 0),
    Scenario("3C1", "three-cushion", "red left left left yellow", 1, note="one cushion three times"),
    Scenario("3C1", "three-cushion", "left top right bottom left red yellow", 1),
    # O3: the opening stroke hits red first; after cushions is fine.
    *_every("O3", "yellow red", 0, ("O3",), opening=True),
    *_every("O3", "red yellow", 1, opening=True),
    Scenario("O3", "three-cushion", "left top right red yellow", 1, opening=True,
             note="cushions, red, then the other ball"),
    Scenario("O3", "three-cushion", "left yellow top right red", 0, ("O3",), opening=True),
    Scenario("O3", "three-cushion", "left top right yellow", 0, ("O3",), opening=True,
             note="the first ball is not red: O3 even without a carom"),
    Scenario("O3", "straight-rail", "yellow red", 1, opening=False,
             note="any other stroke may hit either ball first"),
    # F2: a jumped ball is a fault; the carom is void (F14).
    *_every("F2", "red yellow jump:red", 0, ("F2",)),
    *_every("F2", "jump:white", 0, ("F2",)),
    *_every("F14", "red yellow jump:yellow", 0, ("F2",), cites=("F14",)),
    # F3–F13 called by the referee: a fault, the carom voided (F14).
    *[Scenario(rule, "three-cushion", "left top right red yellow", 0, (rule,), called=(rule,))
      for rule in ("F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13")],
    *[Scenario(f"F{n}", "straight-rail", "red yellow", 0, (f"F{n}",), called=(f"F{n}",))
      for n in (4, 8, 10)],
    # F9: ball 1 frozen to a ball, its first event a contact with that ball.
    *_every("F9", "", 0, note="placeholder, replaced below"),
    # F13 / F17: the opponent's ball.
    *_every("F13", "red white", 0, ("F13",), cue=W, ball=Y),
    *_every("F17", "red white", 0, ("F13",), cue=W, ball=Y, opening=True, cites=("F13", "F17")),
]

# F9 rows: yellow touches white at the start (both disciplines families).
SCENARIOS = [s for s in SCENARIOS if s.note != "placeholder, replaced below"]
for d in ALL:
    lead = {"one-cushion": "left ", "three-cushion": "left top right "}.get(d, "")
    tail = {"one-cushion": "left red", "three-cushion": "left top right red"}.get(d, "red")
    SCENARIOS += [
        Scenario("F9", d, "yellow " + lead + "red", 0, ("F9",), start=FROZEN_WY,
                 note="straight into the frozen ball 2"),
        Scenario("F9", d, "red " + lead + "yellow", 1, start=FROZEN_WY,
                 note="first onto the ball not touching (K3 d, 3C5)"),
        Scenario("F9", d, "left yellow " + tail, 1, start=FROZEN_WY,
                 note="off a cushion first, then back onto it (F9 decision)"),
    ]
