"""A video's strokes judged as one recording, each stroke the auto-referee cannot read set
apart with its reason.

A ball the video never saw in a stroke (covered all along: by a player, or by the
broadcaster's score graphics over the table) leaves that stroke without the ball's track,
and the auto-referee judges no stroke without all three (``carom track``'s format). One
such stroke must not cost the others their rulings: it is kept as :class:`NotJudged`, in
its place, and the rest are judged together as ``carom track`` judges a file (the camera's
bias and noise measured over them, each stroke's start checked against the one before,
which flags the strokes beside a gap).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from carom.core.table import TableSpec
from carom.rules.disciplines import Discipline
from carom.track import TrackedRuling, track_sequence
from carom.track.errors import TrackFormatError
from carom.track.readers.balls_jsonl import parse_line


@dataclass(frozen=True, slots=True)
class NotJudged:
    """A stroke of the video the auto-referee cannot read, and why."""

    shot: Any
    why: str
    """The reader's refusal, naming the line of the tracked strokes and the field."""


def judge_strokes(lines: Iterable[dict[str, Any]], rules: Discipline,
                  spec: TableSpec) -> list[TrackedRuling | NotJudged]:
    """Each stroke line (numbered from 1, as in the file ``-o`` writes) judged, or set apart
    when it cannot be read, in the video's order."""
    readable = []
    judged: list[TrackedRuling | NotJudged | None] = []
    for number, line in enumerate(lines, start=1):
        try:
            readable.append(parse_line(json.dumps(line), number))
        except TrackFormatError as error:
            judged.append(NotJudged(line.get("shot"), str(error)))
        else:
            judged.append(None)
    rulings = iter(track_sequence(readable, rules, spec))
    return [next(rulings) if entry is None else entry for entry in judged]


def apart(entries: Iterable[TrackedRuling | NotJudged]
          ) -> tuple[list[TrackedRuling], list[tuple[int, NotJudged]]]:
    """The rulings, and the strokes not judged with their line numbers (from 1), of
    :func:`judge_strokes`'s list."""
    rulings: list[TrackedRuling] = []
    left: list[tuple[int, NotJudged]] = []
    for number, entry in enumerate(entries, start=1):
        if isinstance(entry, NotJudged):
            left.append((number, entry))
        else:
            rulings.append(entry)
    return rulings, left


__all__ = ["NotJudged", "apart", "judge_strokes"]
