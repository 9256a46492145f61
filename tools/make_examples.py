"""Write the example matches under ``examples/`` and their golden replays.

    .venv/bin/python tools/make_examples.py            # matches and golden files
    .venv/bin/python tools/make_examples.py --golden   # only the golden files, from the matches

Each example is a whole match of one discipline, played stroke by stroke with the
events a referee's tablet or a tracker would record: contacts and cushions in order,
start and end positions, kisses, jumps, frozen balls and re-spots, called faults,
zone exits, an undo, the equalizing inning. The strokes are drawn from a seeded
random player whose skill fits the discipline; every record is fed to the match
engine as it is written, so the files are legal by construction. The golden files
are the engine's own output, checked by ``tests/test_golden.py``: regenerate them
after a deliberate change of the rules and review the difference.
"""

from __future__ import annotations

import argparse
import json
import random
import zlib
from pathlib import Path
from typing import Any

from carom.core.balls import BALLS, Ball, Cushion, object_balls
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.position import distance, frozen_to, overlapping
from carom.core.records import (
    Call,
    CallResult,
    Clock,
    Expired,
    Header,
    Inning,
    Lag,
    LagResult,
    Opener,
    Penalty,
    Record,
    Respot,
    Stroke,
    Timeout,
    Undo,
)
from carom.core.table import TABLES, Point, TableSpec
from carom.match.engine import apply
from carom.match.replay import Replayer
from carom.match.state import MatchState
from carom.notation.matchfile import read_match, replay_file
from carom.notation.rulings_json import replay_json
from carom.notation.scoresheet import scoresheet
from carom.notation.writer import format_match
from carom.rules.disciplines import DISCIPLINES, Discipline

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

# discipline: (points, innings, chance of a point per stroke, players)
PLAN: dict[str, tuple[int, int | None, float, tuple[str, str]]] = {
    "straight-rail": (60, None, 0.86, ("Jana Horváthová", "Peter Kováč")),
    "balkline-47/2": (80, None, 0.88, ("Martin Novák", "Eva Baranová")),
    "balkline-47/1": (50, None, 0.80, ("Tomáš Varga", "Lucia Tóthová")),
    "balkline-71/2": (80, None, 0.86, ("Ján Molnár", "Zuzana Nagyová")),
    "balkline-35/2": (60, None, 0.84, ("Michal Lukáč", "Katarína Szabová")),
    "balkline-35/1": (40, None, 0.78, ("Róbert Kollár", "Mária Balogová")),
    "balkline-52/2": (60, None, 0.84, ("Andrej Sloboda", "Veronika Hudáková")),
    "balkline-52/1": (40, None, 0.78, ("Pavol Fekete", "Simona Šimková")),
    "balkline-38/2": (60, None, 0.84, ("Dirk de Vries", "Anke Jansen")),
    "balkline-57/2": (60, None, 0.84, ("Jürgen Weber", "Sabine Koch")),
    "one-cushion": (30, 60, 0.62, ("Lukáš Polák", "Ivana Krajčírová")),
    "three-cushion": (25, 50, 0.46, ("Daniel Šimko", "Barbora Hrušková")),
}


class Player:
    """A seeded random player who knows where the balls are and what the rules need."""

    def __init__(self, discipline: Discipline, table: TableSpec, chance: float, seed: int) -> None:
        self.d = discipline
        self.t = table
        self.chance = chance
        self.rng = random.Random(seed)

    def place(self, placed: dict[Ball, Point], near: Point | None = None, spread: float = 0.25) -> Point:
        """A free point on the table, near ``near`` when given."""
        r = self.t.ball_radius
        for _ in range(500):
            if near is None:
                p = (self.rng.uniform(r, self.t.width - r), self.rng.uniform(r, self.t.length - r))
            else:
                p = (min(max(near[0] + self.rng.gauss(0, spread), r), self.t.width - r),
                     min(max(near[1] + self.rng.gauss(0, spread), r), self.t.length - r))
            p = (round(p[0], 4), round(p[1], 4))
            if all(not overlapping(p, q, self.t) and abs(distance(p, q) - 2 * r) > 0.002
                   for q in placed.values()):
                return p
        raise RuntimeError("no room on the table")

    def cushions(self, n: int) -> list[Cushion]:
        names = list(Cushion)
        out: list[Cushion] = []
        while len(out) < n:
            c = self.rng.choice(names)
            if not out or c != out[-1] or self.rng.random() < 0.05:
                out.append(c)
        return out

    def stroke(self, state: MatchState, table_position: dict[Ball, Point]) -> Stroke:
        """One stroke from ``table_position``: a point with the player's chance, else a miss,
        now and then a kiss, a jump, a frozen finish or a called fault."""
        ball1 = state.striker_ball
        b2, b3 = object_balls(ball1)
        if self.rng.random() < 0.5 or (state.opening and self.rng.random() < 0.9):
            b2, b3 = b3, b2
        if state.opening and b2 is not Ball.RED:
            b2, b3 = b3, b2
        need = self.d.cushions
        scores = self.rng.random() < self.chance
        ev: list[Event] = []
        pre = self.cushions(self.rng.choice([0, 0, 1]) if need == 0 else self.rng.randint(0, need))
        ev += [CushionContact(ball1, c) for c in pre]
        ev.append(BallContact(ball1, b2))
        if self.rng.random() < 0.3:
            ev.append(CushionContact(b2, self.rng.choice(list(Cushion))))
        middle = max(0, need - len(pre)) + (self.rng.randint(0, 2) if need else self.rng.choice([0, 0, 1]))
        if not scores and need and self.rng.random() < 0.6:
            middle = self.rng.randint(0, max(0, need - len(pre) - 1))
        ev += [CushionContact(ball1, c) for c in self.cushions(middle)]
        if self.rng.random() < 0.08:
            ev.append(BallContact(b2, b3))  # a kiss
        if scores or (need and self.rng.random() < 0.5):
            ev.append(BallContact(ball1, b3))
        ev += [CushionContact(ball1, c) for c in self.cushions(self.rng.randint(0, 2))]
        fouls: tuple[str, ...] = ()
        end: dict[Ball, Point] = {}
        jumped: tuple[Ball, ...] = ()
        luck = self.rng.random()
        if luck < 0.012:
            jumped = (self.rng.choice(BALLS),)
            ev.append(Jump(jumped[0]))
        elif luck < 0.02:
            fouls = (self.rng.choice(["F4", "F8", "F10", "F3"]),)
        zones = self.d.zones(self.t)
        nurse = zones and self.rng.random() < 0.7
        anchor = table_position[b2] if nurse else None
        for ball in (b2, b3, ball1):
            if ball in jumped:
                continue
            if nurse and ball is not ball1:
                end[ball] = self.place(end, anchor, 0.08)
            else:
                end[ball] = self.place(end, table_position.get(ball), 0.5)
        if not jumped and self.rng.random() < 0.04:
            # a frozen finish: the next player's ball touches another ball
            r2 = 2 * self.t.ball_radius
            touch = self.rng.choice([b for b in BALLS if b is not ball1])
            x, y = end[touch]
            x = x + r2 if x + r2 < self.t.width - self.t.ball_radius else x - r2
            candidate = {**end, ball1: (round(x, 9), y)}
            if all(not overlapping(candidate[a], candidate[b], self.t)
                   for a in BALLS for b in BALLS if a is not b):
                end = candidate
        start = dict(table_position) if state.opening else None
        return Stroke(ball1, tuple(ev), start, end, (), fouls)

    def drive_out(self, stroke: Stroke) -> Stroke:
        """The same stroke, with one object ball sent away from where it lay (Z3)."""
        assert stroke.end is not None
        ball = self.rng.choice(object_balls(stroke.ball))
        rest = {b: p for b, p in stroke.end.items() if b is not ball}
        end = {**rest, ball: self.place(rest)}
        return Stroke(stroke.ball, stroke.events, stroke.start, end, stroke.exits, stroke.fouls)


def play_match(name: str, seed: int) -> tuple[Header, list[Record]]:
    points, innings, chance, players = PLAN[name]
    d = DISCIPLINES[name]
    table = TABLES[d.tables[0]]
    header = Header(name, table.name, players, points, innings, None, True)
    rng = random.Random(seed)
    player = Player(d, table, chance, seed)
    replayer = Replayer(header)
    records: list[Record] = []

    def feed(record: Record) -> None:
        replayer.feed(len(records) + 2, record)
        records.append(record)

    feed(Lag((LagResult(True, False, 0.41, False), LagResult(True, False, 0.41, False)), False))
    feed(Lag((LagResult(True, False, round(rng.uniform(0.05, 0.6), 3), False),
              LagResult(True, False, round(rng.uniform(0.05, 0.6), 3), False)), False))
    winner = replayer.state.lag_winner
    assert winner is not None
    feed(Opener(winner))
    undone = False
    while not replayer.state.finished:
        s = replayer.state
        position = dict(s.position) if s.position is not None else None
        if position is None or len(position) < 3:
            position = {b: p for b, p in (position or {}).items()}
            for b in BALLS:
                if b not in position:
                    position[b] = player.place(position)
        if frozen_to(position, s.striker_ball, table) and d.frozen.value != "starting-position-at-once":
            feed(Respot())
            continue
        stroke = player.stroke(s, position)
        if s.position is None or any(b not in s.position for b in BALLS):
            stroke = Stroke(stroke.ball, stroke.events, position, stroke.end, stroke.exits, stroke.fouls)
        for _ in range(6):  # a good player rarely forgets to drive a ball out (Z3)
            ruling = apply(s, stroke, 0)[1]
            if ruling is None or "Z7" not in ruling.fouls or rng.random() < 0.1:
                break
            stroke = player.drive_out(stroke)
        if not undone and len(records) > 12 and rng.random() < 0.2:
            feed(Call(CallResult.MISS))  # entered by mistake...
            feed(Undo())  # ...and withdrawn
            undone = True
        feed(stroke)
    return header, records


def scoreboard_matches() -> dict[str, tuple[Header, list[Record]]]:
    """Two scoreboard logs: calls and whole innings, with sets and with an undo."""
    rng = random.Random(7)
    h = Header("three-cushion", "large", ("Eva Baranová", "Daniel Šimko"), 15, None, 2, True)
    rep = Replayer(h)
    recs: list[Record] = []

    def feed(rep: Replayer, recs: list[Record], record: Record) -> None:
        rep.feed(len(recs) + 2, record)
        recs.append(record)

    feed(rep, recs, Opener(1))
    while not rep.state.finished:
        r = rng.random()
        if r < 0.45:
            feed(rep, recs, Call(CallResult.CAROM))
        elif r < 0.97:
            feed(rep, recs, Call(CallResult.MISS))
        else:
            feed(rep, recs, Call(CallResult.FOUL, rng.choice(["F4", "F2", "F8"])))
    h2 = Header("balkline-47/2", "large", ("Martin Novák", "Jana Horváthová"), 150, 20, None, True)
    rep2 = Replayer(h2)
    recs2: list[Record] = []
    feed(rep2, recs2, Opener(0))
    while not rep2.state.finished:
        s = rep2.state
        left = 150 - s.score[s.striker]
        n = min(left, int(rng.expovariate(1 / 9)))
        foul = "Z7" if n < left and rng.random() < 0.1 else None
        feed(rep2, recs2, Inning(n, foul))
    # A handicap: each player's own points limit, in players order (docs/format.md).
    h3 = Header("three-cushion", "large", ("Karol Malý", "Peter Veľký"), (12, 20), 40, None, True)
    rep3 = Replayer(h3)
    recs3: list[Record] = []
    feed(rep3, recs3, Opener(0))
    averages = (1.2, 1.6)
    while not rep3.state.finished:
        s = rep3.state
        limit = s.rules.limit(s.striker)
        assert limit is not None
        n = min(limit - s.score[s.striker], int(rng.expovariate(1 / averages[s.striker])))
        feed(rep3, recs3, Inning(n))
    # A knock-out game with the shot clock, ending level: a penalty shoot-out decides it.
    h4 = Header("three-cushion", "large", ("Lucia Králová", "Tomáš Hudák"), 10, 8, None, True,
                tiebreak="penalties", clock=Clock(30, 10, 3, 30))
    rep4 = Replayer(h4)
    recs4: list[Record] = []
    feed(rep4, recs4, Opener(0))
    series = zip((2, 0, 3, 1, None, 2, 1, 0), (1, 3, 0, 2, 1, 0, 1, 1), strict=True)
    for k, (first, second) in enumerate(series):
        if first is None:  # a time-out, then the time runs out: a foul (T2, T3)
            feed(rep4, recs4, Timeout())
            feed(rep4, recs4, Expired())
        else:
            feed(rep4, recs4, Inning(first))
        if k == 2:
            feed(rep4, recs4, Timeout())
        feed(rep4, recs4, Inning(second))
    for player, carom in ((0, True), (1, True), (0, False), (1, True)):
        feed(rep4, recs4, Penalty(player, carom))
    assert rep4.state.finished and rep4.state.winner == 1
    return {"three-cushion-sets-scoreboard": (h, recs), "balkline-47-2-innings-scoreboard": (h2, recs2),
            "three-cushion-handicap": (h3, recs3), "three-cushion-knockout-penalties": (h4, recs4)}


def seed_of(name: str) -> int:
    """The seed of an example, from its name alone: adding or moving a row of ``PLAN``
    leaves every other example as it was."""
    return zlib.crc32(name.encode("utf-8"))


def file_name(discipline: str) -> str:
    return discipline.replace("/", "-")


def write_golden(path: Path) -> None:
    """The replay object and the scoresheet of one example, next to it under golden/."""
    rulings: list[Any] = []
    state = replay_file(path, rulings.append)
    header = read_match(path).header
    stem = path.name.removesuffix(".carom.jsonl")
    golden = EXAMPLES / "golden"
    golden.mkdir(exist_ok=True)
    (golden / f"{stem}.json").write_text(json.dumps(replay_json(state, rulings), indent=1) + "\n",
                                         encoding="utf-8")
    (golden / f"{stem}.txt").write_text(scoresheet(state, rulings, header.players), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--golden", action="store_true", help="only rewrite the golden files")
    args = parser.parse_args()
    EXAMPLES.mkdir(exist_ok=True)
    if not args.golden:
        matches = {file_name(d): play_match(d, seed_of(d)) for d in PLAN}
        matches.update(scoreboard_matches())
        for stem, (header, records) in matches.items():
            (EXAMPLES / f"{stem}.carom.jsonl").write_text(format_match(header, records), encoding="utf-8")
    for path in sorted(EXAMPLES.glob("*.carom.jsonl")):
        write_golden(path)
        print(f"wrote {path.relative_to(EXAMPLES.parent)} and its golden replay")


if __name__ == "__main__":
    main()
