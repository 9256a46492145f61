"""Table symmetry (hypothesis): a stroke mirrored left–right or bottom–top, positions
and cushion names together, gets the same ruling in every discipline (zones included)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.core.balls import BALLS, Ball, Cushion
from carom.core.events import BallContact, CushionContact, Event, Jump
from carom.core.position import mirror, overlapping
from carom.core.records import Stroke
from carom.core.table import TABLES, Point
from carom.rules.disciplines import DISCIPLINES
from carom.rules.referee import StrokeContext, judge

ACROSS = {Cushion.LEFT: Cushion.RIGHT, Cushion.RIGHT: Cushion.LEFT}
ALONG = {Cushion.TOP: Cushion.BOTTOM, Cushion.BOTTOM: Cushion.TOP}


def mirror_event(event: Event, across: bool, along: bool) -> Event:
    """The event seen on the mirrored table: only cushion names change."""
    if not isinstance(event, CushionContact):
        return event
    cushion = event.cushion
    if across:
        cushion = ACROSS.get(cushion, cushion)
    if along:
        cushion = ALONG.get(cushion, cushion)
    return CushionContact(event.ball, cushion)


@st.composite
def strokes(draw: st.DrawFn) -> tuple[str, dict[Ball, Point], Stroke, bool]:
    name = draw(st.sampled_from(sorted(DISCIPLINES)))
    table = TABLES[DISCIPLINES[name].tables[0]]
    r = table.ball_radius
    position: dict[Ball, Point] = {}
    end: dict[Ball, Point] = {}
    for layout in (position, end):
        for ball in BALLS:
            for _ in range(50):
                p = (draw(st.floats(r, table.width - r)), draw(st.floats(r, table.length - r)))
                if not any(overlapping(p, q, table) for q in layout.values()):
                    layout[ball] = p
                    break
    if len(position) < 3 or len(end) < 3:
        position = {Ball.WHITE: (0.3, 0.3), Ball.YELLOW: (0.6, 0.6), Ball.RED: (0.5, 1.2)}
        end = dict(position)
    ball1 = draw(st.sampled_from(BALLS))
    event = st.one_of(
        st.sampled_from([b for b in BALLS if b is not ball1]).map(lambda other: BallContact(ball1, other)),
        st.permutations(BALLS).map(lambda balls: BallContact(balls[0], balls[1])),
        st.builds(CushionContact, st.just(ball1), st.sampled_from(list(Cushion))),
        st.builds(CushionContact, st.sampled_from(BALLS), st.sampled_from(list(Cushion))),
    )
    events: tuple[Event, ...] = tuple(draw(st.lists(event, max_size=14)))
    if draw(st.integers(0, 9)) == 0:  # now and then a jump (F2)
        at = draw(st.integers(0, len(events)))
        events = (*events[:at], Jump(draw(st.sampled_from(BALLS))), *events[at:])
    jumped = {e.ball for e in events if isinstance(e, Jump)}
    stroke = Stroke(ball1, events, position, {b: p for b, p in end.items() if b not in jumped})
    return name, position, stroke, draw(st.booleans())


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(strokes(), st.sampled_from([(True, False), (False, True), (True, True)]), st.integers(0, 1))
def test_mirrored_strokes_get_the_same_ruling(case: tuple[str, dict[Ball, Point], Stroke, bool],
                                              flip: tuple[bool, bool], count: int) -> None:
    name, position, stroke, opening = case
    d = DISCIPLINES[name]
    table = TABLES[d.tables[0]]
    across, along = flip
    zones = d.zones(table)
    counts = (count,) * len(zones)
    verdict = judge(StrokeContext(d, table, stroke.ball, opening, position, counts), stroke)
    assert stroke.end is not None
    mirrored = Stroke(
        stroke.ball, tuple(mirror_event(e, across, along) for e in stroke.events),
        mirror(position, table, across=across, along=along),
        mirror(stroke.end, table, across=across, along=along),
    )
    other = judge(StrokeContext(d, table, stroke.ball, opening, mirrored.start, counts), mirrored)
    assert (other.points, other.fouls) == (verdict.points, verdict.fouls)
    assert sorted(other.zone_counts) == sorted(verdict.zone_counts)
