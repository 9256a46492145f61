"""Referee speed on a long balkline match of realistic strokes (docs/speed.md).

    .venv/bin/python benchmarks/referee.py [--strokes 100000] [--discipline balkline-47/2]

Builds a long match of strokes with 10–20 events each (ball 1's contacts and
cushions, the object balls' cushions and kisses), start and end positions drawn
around one field so that zones, anchors and their counts are in play, a zone exit
now and then. The match engine replays it once to know each stroke's context (whose
ball, the zone counts of the inning so far); then, in one run, the referee judges
every stroke in its context (``judge``: the issue's figure, the last line), and the
whole match engine replays the strokes (``apply``: the referee plus innings, counts,
re-spots and the ruling), both over strokes already read.
"""

from __future__ import annotations

import argparse
import random
import time

from carom.core.balls import BALLS, Ball, Cushion, object_balls
from carom.core.events import BallContact, CushionContact, Event
from carom.core.position import overlapping
from carom.core.records import Exit, Header, Opener, Stroke
from carom.core.table import TABLES, Point, TableSpec
from carom.match.engine import apply
from carom.match.state import initial_state
from carom.rules.disciplines import DISCIPLINES
from carom.rules.referee import StrokeContext, judge


def free_point(rng: random.Random, table: TableSpec, taken: dict[Ball, Point], near: Point,
               spread: float) -> Point:
    r = table.ball_radius
    while True:
        p = (min(max(rng.gauss(near[0], spread), r), table.width - r),
             min(max(rng.gauss(near[1], spread), r), table.length - r))
        if not any(overlapping(p, q, table) for q in taken.values()):
            return p


def strokes(n: int, discipline: str, seed: int = 3) -> list[Stroke]:
    """``n`` strokes of one long inning of white's, each from where the last one ended."""
    rng = random.Random(seed)
    d = DISCIPLINES[discipline]
    table = TABLES[d.tables[0]]
    zones = d.zones(table)
    cushions = list(Cushion)
    position: dict[Ball, Point] = {}
    for ball in BALLS:
        position[ball] = free_point(rng, table, position, (0.3, 0.3), 0.15)
    out = []
    for _ in range(n):
        b2, b3 = object_balls(Ball.WHITE)
        if rng.random() < 0.5:
            b2, b3 = b3, b2
        events: list[Event] = []
        count = rng.randint(10, 20)
        hit = rng.randint(2, count - 2)
        while len(events) < count:
            k = len(events)
            if k == 1:
                events.append(BallContact(Ball.WHITE, b2))
            elif k == hit and rng.random() < 0.9:
                events.append(BallContact(Ball.WHITE, b3))
            elif rng.random() < 0.5:
                events.append(CushionContact(Ball.WHITE, rng.choice(cushions)))
            elif rng.random() < 0.8:
                events.append(CushionContact(rng.choice((b2, b3)), rng.choice(cushions)))
            else:
                events.append(BallContact(b2, b3))
        anchor = position[b2]
        end: dict[Ball, Point] = {}
        for ball in (b2, b3, Ball.WHITE):
            end[ball] = free_point(rng, table, end, anchor, 0.12)
        exits = ()
        if zones and rng.random() < 0.1:
            exits = (Exit(b2, rng.choice(zones).name),)
        out.append(Stroke(Ball.WHITE, tuple(events), dict(position), end, exits))
        position = end
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--strokes", type=int, default=100_000)
    parser.add_argument("--discipline", default="balkline-47/2")
    args = parser.parse_args()
    d = DISCIPLINES[args.discipline]
    table = TABLES[d.tables[0]]
    batch = strokes(args.strokes, args.discipline)
    events = sum(len(s.events) for s in batch) / len(batch)

    header = Header(args.discipline, table.name, ("A", "B"), None, 10**9)
    first, _ = apply(initial_state(header), Opener(0), 2)

    def replay(contexts: list[StrokeContext] | None = None) -> None:
        state = first
        for line, stroke in enumerate(batch, start=3):
            if state.striker != 0:
                state = first  # a miss handed the table over: white's next inning afresh
            if contexts is not None:
                counts = state.zone_counts if state.in_inning else (0,) * len(state.zone_counts)
                contexts.append(StrokeContext(d, table, Ball.WHITE, False, stroke.start, counts))
            state, _ = apply(state, stroke, line)

    contexts: list[StrokeContext] = []
    replay(contexts)
    t = time.perf_counter()
    points = sum(judge(context, stroke).points for context, stroke in zip(contexts, batch, strict=True))
    judge_rate = len(batch) / (time.perf_counter() - t)
    t = time.perf_counter()
    replay()
    engine_rate = len(batch) / (time.perf_counter() - t)

    print(f"{len(batch):,} strokes of {args.discipline}, {events:.1f} events each, "
          f"{points:,} points")
    print(f"match engine (apply: the referee plus the match's flow): {engine_rate:,.0f} strokes per second")
    print(f"strokes per second (the referee, each stroke in its match context): {judge_rate:,.0f}")


if __name__ == "__main__":
    main()
