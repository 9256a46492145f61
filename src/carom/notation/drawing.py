"""Pictures of a match: the table before and after any stroke (``carom draw``), and of
a position or a stroke on its own (``carom.draw``), as SVG that Jupyter shows."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any

from carom.core.balls import BALLS
from carom.core.checks import refuse, shown
from carom.core.errors import RecordError
from carom.core.position import Position
from carom.core.records import Header, Record, Stroke
from carom.core.table import as_table
from carom.match.replay import Replayer
from carom.notation.svg import svg_table
from carom.rules.validity import as_discipline, check_position, check_record, played_on


class Picture(str):
    """An SVG document: a ``str``, which a notebook shows as the picture it is."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def draw(value: Position | Stroke | Mapping[Any, Any], table: Any = "large", *,
         discipline: Any = None, title: str | None = None) -> Picture:
    """A position, or a stroke (its start faint, its end, its paths), on ``table`` (a
    table or its name; the large one, on which every position of a smaller table lies,
    unless told), with ``discipline``'s zones when given (``carom.draw``). What cannot be
    on the table is refused, as the reader refuses it."""
    spec = as_table(table)
    rules = None
    if discipline is not None:
        rules = as_discipline(discipline)
        played_on(rules, spec)
    if isinstance(value, Stroke):
        if rules is not None:
            check_record(value, rules, spec)
        start = None if value.start is None else check_position(value.start, spec, (), "stroke: start")
        end = None if value.end is None else check_position(value.end, spec, (), "stroke: end")
        return Picture(svg_table(spec, end or start, discipline=rules, paths=value.paths, cue=value.ball,
                                 ghost=start if end is not None else None, title=title))
    if not isinstance(value, Mapping):
        refuse(f"expected a Position or a Stroke, got {shown(value)}", "value")
    position = check_position(value, spec, (), "position")
    return Picture(svg_table(spec, position, discipline=rules, title=title or _title(position)))


def _title(position: Position) -> str:
    balls = (f"{b} ({position[b][0]:g}, {position[b][1]:g})" for b in BALLS if b in position)
    return "Balls: " + ", ".join(balls)


def draw_record(header: Header, records: Iterable[tuple[int, Record]], line: int,
                which: str = "both") -> str:
    """SVG of the table before and/or after the record at ``line``.

    Before: the stroke's ``start`` or the position the engine tracked. After: the
    layout for the next stroke (a re-spot included), the stroke's own end drawn
    faint where the rules moved the balls, and the stroke's path when recorded.
    """
    replayer = Replayer(header)
    target: Record | None = None
    for number, record in records:
        if number == line:
            target = record
            break
        replayer.feed(number, record)
    if target is None:
        raise RecordError(f"no record at line {line}", line)
    before_state = replayer.state
    ruling = replayer.feed(line, target)
    after_state = replayer.state
    rules = before_state.rules
    stroke = target if isinstance(target, Stroke) else None
    before = stroke.start if stroke is not None and stroke.start is not None else before_state.position
    after = after_state.position
    moved = ruling is not None and ruling.spot is not None
    ghost = stroke.end if stroke is not None and moved else None
    cue = stroke.ball if stroke is not None else None
    paths = stroke.paths if stroke is not None else None
    verdict = ""
    if ruling is not None:
        verdict = f" · {ruling.points} point{'s' if ruling.points != 1 else ''}"
        if ruling.fouls:
            verdict += " · " + ", ".join(ruling.fouls)
    pictures = []
    if which in ("both", "before"):
        pictures.append((f"line {line}: before", svg_table(rules.table, before, discipline=rules.discipline,
                                                            title=f"Before line {line}")))
    if which in ("both", "after"):
        pictures.append((f"line {line}: after{verdict}",
                         svg_table(rules.table, after, discipline=rules.discipline, paths=paths, cue=cue,
                                   ghost=ghost, title=f"After line {line}")))
    return side_by_side(pictures)


_VIEW = re.compile(r'viewBox="0 0 ([\d.]+) ([\d.]+)"')


def side_by_side(pictures: list[tuple[str, str]]) -> str:
    """Several SVG pictures in one row, each with a caption under it."""
    if len(pictures) == 1:
        return pictures[0][1]
    gap, caption = 60.0, 120.0
    parts, x, height = [], 0.0, 0.0
    for text, svg in pictures:
        m = _VIEW.search(svg)
        assert m is not None
        w, h = float(m.group(1)), float(m.group(2))
        inner = svg.replace('<svg xmlns="http://www.w3.org/2000/svg"', f'<svg x="{x:g}" y="0" width="{w:g}" '
                            f'height="{h:g}"', 1)
        parts.append(inner)
        parts.append(f'<text x="{x + w / 2:g}" y="{h + 80:g}" text-anchor="middle" font-size="64" '
                     f'font-family="sans-serif">{text}</text>')
        x += w + gap
        height = max(height, h)
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {x - gap:g} {height + caption:g}">\n'
            + "\n".join(parts) + "\n</svg>\n")
