"""A whole club day, as data: ten players, a ranking list for the seeding, a no-show, a late
entry, a seeded player entering the second stage late, a paper result, a game moved to
another table, a withdrawal in the middle, a correction after confirmation (with its
reason, for the audit), a second stage (a knock-out of the group winners and two seeded
players, the UMB World Cup's shape) with a third-place game, and the standings worked out
by hand. Drivers: ``tests/storage/test_club_day.py`` (the storage service) and, later, the
Playwright test of the organiser's desk and the table devices (the same steps, the same
expected values).

Games are to 10 points on three tables. A game named ("Fero", "Gita") with points (10, 6)
means Fero makes 10 and Gita 6 in one inning each (the first named opening if he is the
match's player 0; a winner who opens is answered by the equalizing inning), unless it is
a paper result with its own innings.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SETTINGS = {"name": "Club day", "discipline": "three-cushion", "table": "large", "points": 10,
            "innings": None, "tables": 3, "mode": "stages", "third_place": True, "withdrawn_games": "annul",
            "stages": [{"kind": "groups", "groups": 2, "places": 2}, {"kind": "knockout"}]}
STAGE_ONE = ["Cyril", "Dana", "Emil", "Fero", "Gita", "Hana", "Ivan"]
RANKING_LIST = "rank;name\n1;Cyril\n2;Dana\n3;Emil\n4;Fero\n5;Gita\n6;Hana\n7;Ivan\n8;Zora Nováková\n"
"""The club's ranking list: Zora is on it but not entered (she is left aside)."""
ORGANISER = "anna.organiser"
REFEREE = "table-2-referee"


@dataclass(frozen=True)
class Step:
    kind: str
    """enter, seed, start, tables, no_show, withdraw, paper, move, play, confirm, unlock, correct"""
    names: tuple[str, ...] = ()
    stage: int = 1
    points: tuple[int, int] = (0, 0)
    innings: tuple[int, int] = (1, 1)
    high_run: tuple[int, int] | None = None
    table: int = 0
    reason: str = ""
    tables: dict[int, tuple[str, str]] = field(default_factory=dict)
    """For ``tables``: what each table plays now (the players in the match's order)."""


STEPS = [
    Step("enter", STAGE_ONE),
    Step("enter", ("Anna",), stage=2),  # seeded: she plays from the second stage
    Step("seed"),  # from the ranking list: Cyril 1 ... Ivan 7, Anna after them
    Step("start"),
    # groups drawn snake-wise: A Cyril, Fero, Gita (a bye); B Dana, Emil, Hana, Ivan
    Step("tables", tables={1: ("Fero", "Gita"), 2: ("Dana", "Ivan"), 3: ("Emil", "Hana")}),
    Step("no_show", ("Ivan",), reason="did not come"),  # his games are annulled: table 2 is free
    Step("tables", tables={1: ("Fero", "Gita"), 3: ("Emil", "Hana")}),
    Step("enter", ("Jana",)),  # late, into group A's bye place: she meets Cyril at once
    Step("tables", tables={1: ("Fero", "Gita"), 2: ("Cyril", "Jana"), 3: ("Emil", "Hana")}),
    Step("enter", ("Boris",), stage=2),  # seeded, entering the second stage late
    Step("paper", ("Cyril", "Jana"), points=(10, 7), innings=(3, 3), high_run=(6, 4)),
    Step("move", ("Emil", "Hana"), table=2, reason="table 3's light is out"),
    Step("tables", tables={1: ("Fero", "Gita"), 2: ("Emil", "Hana")}),
    Step("play", ("Fero", "Gita"), points=(10, 6)),
    Step("tables", tables={1: ("Jana", "Gita"), 2: ("Emil", "Hana"), 3: ("Cyril", "Fero")}),
    Step("play", ("Emil", "Hana"), points=(10, 3)),
    Step("tables", tables={1: ("Jana", "Gita"), 2: ("Dana", "Emil"), 3: ("Cyril", "Fero")}),
    Step("withdraw", ("Hana",), reason="left after lunch"),  # annulled: Emil's win over her too
    Step("play", ("Cyril", "Fero"), points=(10, 5)),  # the referee typed 5; Fero made 8
    Step("confirm", ("Cyril", "Fero")),
    Step("play", ("Jana", "Gita"), points=(10, 9)),
    Step("tables", tables={1: ("Fero", "Jana"), 2: ("Dana", "Emil"), 3: ("Gita", "Cyril")}),
    Step("play", ("Dana", "Emil"), points=(10, 7)),
    Step("unlock", ("Cyril", "Fero"), reason="the scoresheet says Fero made 8"),
    Step("correct", ("Cyril", "Fero"), points=(10, 8), innings=(1, 1), high_run=(10, 8),
         reason="Fero made 8, not 5 (scoresheet)"),
    Step("play", ("Fero", "Jana"), points=(10, 10)),  # a draw
    Step("play", ("Gita", "Cyril"), points=(10, 4)),
    # stage 2: Anna, Boris (seeded), then the group winners Cyril and Dana: a bracket of 4
    Step("tables", tables={1: ("Anna", "Dana"), 2: ("Boris", "Cyril")}),
    Step("play", ("Anna", "Dana"), points=(10, 5)),
    Step("play", ("Boris", "Cyril"), points=(8, 10)),
    Step("tables", tables={1: ("Dana", "Boris"), 2: ("Anna", "Cyril")}),  # third place first
    Step("play", ("Dana", "Boris"), points=(2, 10)),
    Step("play", ("Anna", "Cyril"), points=(10, 9)),
]

# By hand (one inning each a game unless on paper). Group A, with the corrected result:
#   Cyril beat Jana (paper: 10 in 3 innings, high series 6), beat Fero (10 in 1), lost to
#     Gita (4 in 1): 4 MP, 24 points, 5 innings, GD 24/5 = 4.8, BED 10, HS 10.
#   Fero beat Gita (10), lost to Cyril (8, corrected from 5), drew with Jana (10): 3 MP,
#     28 points in 3 innings, GD 9.333, BED 10, HS 10.
#   Jana lost to Cyril (7 in 3, series 4), beat Gita (10), drew with Fero (10): 3 MP, 27 in 5,
#     GD 5.4, BED 10, HS 10. Fero and Jana level on MP: GD decides.
#   Gita lost to Fero (6) and Jana (9), beat Cyril (10): 2 MP, 25 in 3, GD 8.333.
# Group B: Ivan did not come and Hana withdrew (games annulled, "annul"): only Dana-Emil
#   counts, Dana 10 : 7 Emil.
GROUP_A = [  # rank, name, games, MP, points, innings, GD, BED, HS (as printed: cut to three decimals)
    (1, "Cyril", 3, 4, 24, 5, "4.800", "10.000", 10),
    (2, "Fero", 3, 3, 28, 3, "9.333", "10.000", 10),
    (3, "Jana", 3, 3, 27, 5, "5.400", "10.000", 10),
    (4, "Gita", 3, 2, 25, 3, "8.333", "10.000", 10),
]
GROUP_B = [
    (1, "Dana", 1, 2, 10, 1, "10.000", "10.000", 10),
    (2, "Emil", 1, 0, 7, 1, "7.000", "7.000", 7),
]
STAGE_TWO = ["Anna", "Boris", "Cyril", "Dana"]
"""The second stage's field in seed order: the seeded players, then the group winners
(Cyril's 4 MP before Dana's 2)."""
RANKING = [(1, "Anna"), (2, "Cyril"), (3, "Boris"), (4, "Dana"), (5, "Fero"), (6, "Emil"), (7, "Jana"),
           (8, "Gita")]
"""The final, then the third-place game, then those out in the groups by group place, MP,
GD: Fero and Emil (2nd, Fero's 3 MP), Jana (3rd), Gita (4th). Hana and Ivan are not ranked."""
AUDITED = [("GameUnlocked", ORGANISER, "the scoresheet says Fero made 8"),
           ("ResultCorrected", ORGANISER, "Fero made 8, not 5 (scoresheet)")]
