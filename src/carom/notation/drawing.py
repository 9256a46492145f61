"""Pictures of a match: the table before and after any stroke (``carom draw``)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from carom.core.errors import RecordError
from carom.core.records import Header, Record, Stroke
from carom.match.replay import Replayer
from carom.notation.svg import svg_table


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
