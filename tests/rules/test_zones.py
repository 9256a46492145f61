"""Forbidden zones: their geometry (Z1, Z5, Z6, S2, K1; GEOMETRY.md) and their counts
(Z2–Z4, Z7, K2), through the match engine, so counts run over an inning."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carom.core.errors import RecordError
from carom.core.position import mirror_point
from carom.core.table import TABLES
from carom.core.zones import ANCHOR_SIDE, Rect, balk_lines
from carom.rules.disciplines import DISCIPLINES, ZoneKind
from tests.helpers import header, play, stroke_json

BALKLINE = [d for d in DISCIPLINES.values() if d.zone_kind is ZoneKind.BALKLINE]
LARGE = TABLES["large"]


# --- geometry ---------------------------------------------------------------------------

EXPECTED_LINES = {  # GEOMETRY.md, "Balkline fields"
    "balkline-47/2": ((0.47, 0.95), (0.47, 2.37)),
    "balkline-47/1": ((0.47, 0.95), (0.47, 2.37)),
    "balkline-71/2": ((0.71,), (0.71, 2.13)),
    "balkline-35/2": ((0.35, 0.70), (0.35, 1.75)),
    "balkline-35/1": ((0.35, 0.70), (0.35, 1.75)),
    "balkline-52/2": ((0.525,), (0.525, 1.575)),
    "balkline-52/1": ((0.525,), (0.525, 1.575)),
    "balkline-38/2": ((0.38, 0.77), (0.38, 1.92)),
    "balkline-57/2": ((0.575,), (0.575, 1.725)),
}


@pytest.mark.rule("K1", "Z1", "Z5")
@pytest.mark.parametrize("d", BALKLINE, ids=lambda d: d.id)
def test_k1_z1_balk_lines_fields_and_anchors(d: Any) -> None:
    """K1, Z1: the lines; 9 or 6 fields named by column and row; Z5: 8 or 6 anchors."""
    table = TABLES[d.tables[0]]
    xs, ys = EXPECTED_LINES[d.id]
    assert balk_lines(table.width, d.balk_inset) == pytest.approx(xs)
    assert balk_lines(table.length, d.balk_inset) == pytest.approx(ys)
    zones = d.zones(table)
    fields = [z for z in zones if z.name.startswith("field")]
    anchors = [z for z in zones if z.name.startswith("anchor")]
    assert len(fields) == (len(xs) + 1) * (len(ys) + 1)
    assert len(anchors) == 2 * len(xs) + 2 * len(ys)
    assert sum((z.x1 - z.x0) * (z.y1 - z.y0) for z in fields if isinstance(z, Rect)) == pytest.approx(
        table.width * table.length)
    for a in anchors:
        assert isinstance(a, Rect)
        assert a.x1 - a.x0 == pytest.approx(ANCHOR_SIDE) and a.y1 - a.y0 == pytest.approx(ANCHOR_SIDE)
    names = {z.name for z in zones}
    assert "field-11" in names and "anchor-bottom-1" in names and "anchor-left-2" in names


def test_k1_47_field_names_count_from_bottom_left() -> None:
    zones = {z.name: z for z in DISCIPLINES["balkline-47/2"].zones(LARGE)}
    assert zones["field-11"].contains((0.2, 0.2))
    assert zones["field-22"].contains((0.71, 1.42))
    assert zones["field-33"].contains((1.3, 2.7))
    assert zones["field-13"].contains((0.1, 2.7))


@pytest.mark.rule("Z6", "Z5")
def test_z6_a_ball_on_a_line_is_inside_both_fields_and_the_anchor_straddles_them() -> None:
    zones = {z.name: z for z in DISCIPLINES["balkline-47/2"].zones(LARGE)}
    on_line = (0.47, 0.05)
    assert zones["field-11"].contains(on_line) and zones["field-21"].contains(on_line)
    assert zones["anchor-bottom-1"].contains(on_line)
    # Z5: the anchor reaches 0.089 m into both fields.
    assert zones["anchor-bottom-1"].contains((0.47 - 0.089, 0.178))
    assert not zones["anchor-bottom-1"].contains((0.47 - 0.0891, 0.1))
    assert zones["field-11"].contains((0.40, 0.1)) and zones["field-21"].contains((0.55, 0.1))


@pytest.mark.rule("S2", "Z6")
def test_s2_straight_rail_corners() -> None:
    """S2: the corner triangles, legs W/4 and L/4; a ball on the hypotenuse is inside (Z6)."""
    zones = {z.name: z for z in DISCIPLINES["straight-rail"].zones(LARGE)}
    bl, tr = zones["corner-bl"], zones["corner-tr"]
    assert bl.contains((0.355 / 2, 0.71 / 2))  # on the line: inside
    assert not bl.contains((0.355 / 2 + 0.001, 0.71 / 2))
    assert tr.contains((LARGE.width - 0.1, LARGE.length - 0.1))
    assert not zones["corner-br"].contains((0.1, 0.1))


@given(st.floats(0.0, 1.0), st.floats(0.0, 1.0), st.booleans(), st.booleans())
def test_zones_mirror_onto_zones(fx: float, fy: float, across: bool, along: bool) -> None:
    """Mirroring the table left–right or bottom–top maps every zone's contents onto a zone."""
    for d in [*BALKLINE, DISCIPLINES["straight-rail"]]:
        table = TABLES[d.tables[0]]
        p = (fx * table.width, fy * table.length)
        q = mirror_point(p, table, across=across, along=along)
        zones = d.zones(table)
        assert sum(z.contains(p) for z in zones) == sum(z.contains(q) for z in zones)


# --- counts through an inning ------------------------------------------------------------

IN_11 = {"white": [0.40, 0.10], "yellow": [0.20, 0.20], "red": [0.30, 0.35]}
"""Both object balls in field-11 of 47/x (bottom-left corner square)."""
STAY = {"white": [0.30, 0.10], "yellow": [0.22, 0.25], "red": [0.33, 0.40]}
OUT = {"white": [0.30, 0.10], "yellow": [0.22, 0.25], "red": [0.60, 0.40]}


def carom(start: dict[str, Any] | None, end: dict[str, Any], **kw: Any) -> dict[str, Any]:
    return stroke_json("white", "red yellow", start=start, end=end, **kw)


def ruling_points(discipline: str, *strokes: dict[str, Any]) -> list[tuple[int, tuple[str, ...]]]:
    result = play(header(discipline, points=50), "opener 0", *strokes)
    return [(r.points, r.fouls) for r in result.rulings]


@pytest.mark.rule("Z2", "Z3", "Z7")
def test_z2_z3_z7_x2_second_carom_must_drive_a_ball_out() -> None:
    assert ruling_points("balkline-47/2", carom(IN_11, STAY), carom(None, STAY)) == [(1, ()), (0, ("Z7",))]


def test_z3_x2_second_carom_that_drives_a_ball_out_stands() -> None:
    assert ruling_points("balkline-47/2", carom(IN_11, STAY), carom(None, OUT), carom(None, STAY)) == [
        (1, ()), (1, ()), (1, ())]


@pytest.mark.rule("Z4")
def test_z4_a_ball_that_leaves_and_comes_back_restores_the_full_count() -> None:
    back = carom(None, STAY, exits=(("red", "field-11"),))
    assert ruling_points("balkline-47/2", carom(IN_11, STAY), back, carom(None, STAY),
                         carom(None, STAY)) == [(1, ()), (1, ()), (1, ()), (0, ("Z7",))]


@pytest.mark.rule("Z4")
def test_z4_leaving_seen_on_a_sampled_path() -> None:
    path_out = carom(None, STAY)
    path_out["paths"] = {"red": [[0.0, 0.33, 0.40], [0.1, 0.50, 0.45], [0.2, 0.33, 0.40]]}
    assert ruling_points("balkline-47/2", carom(IN_11, STAY), path_out) == [(1, ()), (1, ())]


@pytest.mark.rule("Z2", "Z3")
def test_z2_x1_every_carom_in_a_restricted_field_must_drive_a_ball_out() -> None:
    assert ruling_points("balkline-47/1", carom(IN_11, STAY)) == [(0, ("Z7",))]
    assert ruling_points("balkline-47/1", carom(IN_11, OUT)) == [(1, ())]


def test_z7_the_fault_hands_the_table_to_the_opponent() -> None:
    result = play(header("balkline-47/1", points=50), "opener 0", carom(IN_11, STAY))
    assert result.rulings[0].next == 1 and "Z3" in result.rulings[0].cites


@pytest.mark.rule("Z2")
def test_z2_counts_start_afresh_every_inning() -> None:
    assert ruling_points(
        "balkline-47/2", carom(IN_11, STAY), stroke_json("white", "red", start=IN_11, end=STAY),
        stroke_json("yellow", "", start=IN_11, end=IN_11), carom(IN_11, STAY),
    ) == [(1, ()), (0, ()), (0, ()), (1, ())]


@pytest.mark.rule("Z5")
def test_z5_anchor_straddling_two_fields_is_a_zone_of_its_own() -> None:
    """The object balls lie on both sides of the balk line x = 0.47, inside anchor-bottom-1."""
    anchor = {"white": [1.0, 0.5], "yellow": [0.42, 0.06], "red": [0.52, 0.10]}
    stay = {"white": [1.0, 0.6], "yellow": [0.42, 0.06], "red": [0.52, 0.12]}
    assert ruling_points("balkline-47/1", carom(anchor, stay)) == [(0, ("Z7",))]
    assert ruling_points("balkline-47/2", carom(anchor, stay), carom(None, stay)) == [
        (1, ()), (0, ("Z7",))]


@pytest.mark.rule("Z6")
def test_z6_a_ball_on_the_line_counts_inside_against_the_player() -> None:
    on_line = {"white": [1.0, 0.5], "yellow": [0.47, 0.30], "red": [0.30, 0.30]}
    assert ruling_points("balkline-47/1", carom(on_line, on_line)) == [(0, ("Z7",))]
    beside = {"white": [1.0, 0.5], "yellow": [0.4701, 0.30], "red": [0.30, 0.30]}
    assert ruling_points("balkline-47/1", carom(beside, beside)) == [(1, ())]


@pytest.mark.rule("S2", "Z2")
def test_s2_straight_rail_corner_allows_two_caroms() -> None:
    corner = {"white": [0.5, 0.5], "yellow": [0.05, 0.05], "red": [0.12, 0.10]}
    assert ruling_points("straight-rail", carom(corner, corner), carom(None, corner)) == [
        (1, ()), (0, ("Z7",))]


@pytest.mark.rule("K2")
def test_k2_starting_position_restricts_the_centre_field_on_47() -> None:
    """On 47/x the top and bottom spots lie in the centre field: the opening stroke of
    47/1 must drive an object ball out (GEOMETRY.md)."""
    start = {"white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}
    stays = {"white": [0.8, 1.0], "yellow": [0.75, 0.8], "red": [0.7, 2.0]}
    assert ruling_points("balkline-47/1", carom(start, stays)) == [(0, ("Z7",))]


def test_zones_unknown_without_positions_rule_nothing() -> None:
    """Without positions the zones cannot be judged: no Z7 from a stroke."""
    bare = stroke_json("white", "red yellow")
    result = play(header("balkline-47/1", points=50), "opener 0", "carom", bare, bare)
    assert [r.points for r in result.rulings] == [1, 1, 1]


@pytest.mark.rule("1C2", "3C2")
@pytest.mark.parametrize("discipline", ["one-cushion", "three-cushion"])
def test_1c2_3c2_no_forbidden_fields_however_long_the_balls_stay_in_a_corner(discipline: str) -> None:
    """The same caroms that break Z3 in a straight-rail corner (the control) score on and
    on in one- and three-cushion, on every table; and no stroke may name a zone there."""
    corner = {"white": [0.5, 0.5], "yellow": [0.05, 0.05], "red": [0.12, 0.10]}
    lead = {"one-cushion": "left ", "three-cushion": "left top right "}[discipline]
    in_corner = stroke_json("white", lead + "red yellow", start=corner, end=corner)
    for table in ("large", "small", "half-match"):
        assert DISCIPLINES[discipline].zones(TABLES[table]) == ()
        result = play(header(discipline, table=table, points=50), "opener 0", *([in_corner] * 6))
        assert [(r.points, r.fouls) for r in result.rulings] == [(1, ())] * 6
    assert ruling_points("straight-rail", in_corner, in_corner) == [(1, ()), (0, ("Z7",))]
    named = stroke_json("white", lead + "red yellow", exits=(("red", "corner-bl"),))
    with pytest.raises(RecordError, match=rf'exits\[0\]: zone: "corner-bl" is no zone of {discipline}'):
        play(header(discipline), "opener 0", named)
