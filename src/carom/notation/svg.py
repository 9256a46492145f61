"""Pictures of the table as SVG: a pure function of a position (ARCHITECTURE.md, 11).

The table with its diamonds and spots, the discipline's forbidden fields, anchors
or corners (Z1, S2, K1, Z5), the balls, and a stroke's path when it is known.
Coordinates are those of GEOMETRY.md; the picture shows the bottom cushion at
the bottom (portrait) or on the left (``landscape``), as a player at the
bottom end sees it.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from carom.core.balls import BALLS, Ball, Cushion
from carom.core.position import Position
from carom.core.records import Path
from carom.core.table import Point, TableSpec
from carom.core.zones import CornerTriangle, Rect, Zone
from carom.rules.disciplines import Discipline

LANDSCAPE_SIDES = {Cushion.BOTTOM: Cushion.LEFT, Cushion.TOP: Cushion.RIGHT,
                   Cushion.LEFT: Cushion.TOP, Cushion.RIGHT: Cushion.BOTTOM}
"""Where each cushion of the table lies in the ``landscape`` picture (the upright one
turned a quarter clockwise): words that name a cushion beside that picture follow it."""
MM = 1000.0
RAIL = 70.0
"""Width of the drawn cushion and frame, mm."""

BALL_FILL = {Ball.WHITE: "#f8f8f2", Ball.YELLOW: "#f2c12e", Ball.RED: "#d2232a"}
BALL_STROKE = {Ball.WHITE: "#9a9a9a", Ball.YELLOW: "#a77f00", Ball.RED: "#7a0d12"}
CLOTH = "#1d5fa8"
FRAME = "#5b3a1e"
CUSHION = "#174b85"
LINE = "#e9eef5"


def _xy(p: Point, table: TableSpec) -> tuple[float, float]:
    """Table metres to picture millimetres, y pointing down the picture."""
    return (RAIL + p[0] * MM, RAIL + (table.length - p[1]) * MM)


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _zone(zone: Zone, table: TableSpec) -> str:
    if isinstance(zone, Rect):
        x, y = _xy((zone.x0, zone.y1), table)
        w, h = (zone.x1 - zone.x0) * MM, (zone.y1 - zone.y0) * MM
        kind = "anchor" if zone.name.startswith("anchor") else "field"
        return (f'<rect class="zone {kind}" data-zone="{zone.name}" x="{_f(x)}" y="{_f(y)}" '
                f'width="{_f(w)}" height="{_f(h)}"/>')
    assert isinstance(zone, CornerTriangle)
    points = " ".join(",".join(_f(c) for c in _xy(p, table)) for p in zone.outline())
    return f'<polygon class="zone corner" data-zone="{zone.name}" points="{points}"/>'


def _diamonds(table: TableSpec) -> list[str]:
    out = []
    r = 9.0
    for i in range(1, 8):
        y = table.length * i / 8.0
        for x, off in ((0.0, -RAIL / 2), (table.width, RAIL / 2)):
            cx, cy = _xy((x, y), table)
            out.append(f'<circle class="diamond" cx="{_f(cx + off)}" cy="{_f(cy)}" r="{_f(r)}"/>')
    for i in range(1, 4):
        x = table.width * i / 4.0
        for y, off in ((0.0, RAIL / 2), (table.length, -RAIL / 2)):
            cx, cy = _xy((x, y), table)
            out.append(f'<circle class="diamond" cx="{_f(cx)}" cy="{_f(cy + off)}" r="{_f(r)}"/>')
    return out


def _spots(table: TableSpec) -> list[str]:
    spots = (table.top_spot, table.centre_spot, table.bottom_spot, *table.starting_spots)
    out = []
    for p in spots:
        cx, cy = _xy(p, table)
        out.append(f'<circle class="spot" cx="{_f(cx)}" cy="{_f(cy)}" r="5"/>')
    return out


def _path(ball: Ball, path: Path, table: TableSpec, cue: Ball | None) -> str:
    points = " ".join(",".join(_f(c) for c in _xy((x, y), table)) for _, x, y in path)
    dash = "" if ball is cue else ' stroke-dasharray="18 10"'
    return (f'<polyline class="path" data-ball="{ball}" points="{points}" fill="none" '
            f'stroke="{BALL_FILL[ball] if ball is not Ball.WHITE else "#ffffff"}" '
            f'stroke-width="6" stroke-linejoin="round" opacity="0.85"{dash}/>')


def svg_table(table: TableSpec, position: Position | None, *, discipline: Discipline | None = None,
              paths: Mapping[Ball, Path] | None = None, title: str | None = None,
              cue: Ball | None = None, landscape: bool = False, ghost: Position | None = None) -> str:
    """The table as an SVG document.

    ``position``: the balls to draw (``None``: none). ``discipline``: draws its zones.
    ``paths``: sampled ``(t, x, y)`` paths, ``cue``'s solid and the others dashed.
    ``ghost``: where the balls were before (drawn faint). ``title``: an accessible title.
    """
    w = table.width * MM + 2 * RAIL
    h = table.length * MM + 2 * RAIL
    parts = [
        f'<rect class="frame" x="0" y="0" width="{_f(w)}" height="{_f(h)}" rx="28" fill="{FRAME}"/>',
        f'<rect class="cushion" x="{_f(RAIL / 2)}" y="{_f(RAIL / 2)}" width="{_f(w - RAIL)}" '
        f'height="{_f(h - RAIL)}" fill="{CUSHION}"/>',
        f'<rect class="cloth" x="{_f(RAIL)}" y="{_f(RAIL)}" width="{_f(table.width * MM)}" '
        f'height="{_f(table.length * MM)}" fill="{CLOTH}"/>',
        *_diamonds(table),
    ]
    if discipline is not None:
        zones = discipline.zones(table)
        if zones:
            parts.append(f'<g class="zones" fill="none" stroke="{LINE}" stroke-width="3" opacity="0.8">')
            parts.extend(_zone(z, table) for z in zones)
            parts.append("</g>")
    parts.append(f'<g class="spots" fill="{LINE}" opacity="0.8">')
    parts.extend(_spots(table))
    parts.append("</g>")
    if paths:
        parts.append('<g class="paths">')
        parts.extend(_path(b, paths[b], table, cue) for b in BALLS if paths.get(b))
        parts.append("</g>")
    r = table.ball_radius * MM
    for layer, pos, opacity in (("ghost", ghost, "0.35"), ("balls", position, "1")):
        if pos is None:
            continue
        parts.append(f'<g class="{layer}" opacity="{opacity}">')
        for ball in BALLS:
            if ball in pos:
                cx, cy = _xy(pos[ball], table)
                parts.append(
                    f'<circle class="ball {ball}" data-ball="{ball}" cx="{_f(cx)}" cy="{_f(cy)}" '
                    f'r="{_f(r)}" fill="{BALL_FILL[ball]}" stroke="{BALL_STROKE[ball]}" stroke-width="3"/>'
                )
        parts.append("</g>")
    body = "\n".join(parts)
    if landscape:
        body = f'<g transform="translate({_f(h)} 0) rotate(90)">\n{body}\n</g>'
        view = f"0 0 {_f(h)} {_f(w)}"
    else:
        view = f"0 0 {_f(w)} {_f(h)}"
    heading = f"<title>{escape(title)}</title>\n" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{view}" class="carom-table" '
            f'role="img">\n{heading}<style>.diamond{{fill:#f3efe0}}</style>\n{body}\n</svg>\n')
