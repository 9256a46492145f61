"""A tracked match as a ``carom/1`` match record that ``carom replay`` judges.

Who plays each stroke: the tracker sees which ball was struck, not who struck it. The
record follows rule O1: player 0 (named ``white``) opens and plays white, player 1
(``yellow``) plays yellow; every tracked stroke is written as a ``stroke`` record with
the ball struck, its ``start`` positions and its derived events, so the replay judges
it with the rules, not with anything stored.

The replay decides whose turn it is from its own rulings. When the next tracked stroke
was played with the other player's ball, the table went on differently:

* strokes are missing from the recording (a gap in the shot ids, or the balls are not
  where the previous stroke left them, as :func:`~carom.track.judging.sequence.displacement_allowed`
  judges it): a ``call`` record (``miss``) stands in for them and hands the table over;
* otherwise the table ruled the previous stroke differently from the tracker (a
  referee's call, or a tracking error): that stroke is withdrawn (``undo``) and a
  ``call`` with the table's result (``carom`` when the striker went on, else ``miss``)
  takes its place.

Every record written this way says why in a ``note`` field (a reader ignores fields it
does not know). Each stroke record carries its ``confidence`` and whether it is
``doubtful``, as judged in the sequence (:mod:`carom.track.judging.sequence`). The points
limit is one more than the number of strokes, so that no
game ends inside the recording.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from carom.core.records import Call, CallResult, Header, Opener, Record, Stroke, Undo
from carom.core.table import TableSpec
from carom.match.replay import Replayer
from carom.notation.matchfile import Match
from carom.rules.disciplines import Discipline
from carom.track.judging.ruling import TrackedRuling
from carom.track.judging.sequence import (
    displacement_allowed,
    farthest_moved,
    missing_between,
    with_sequence_doubts,
)

PLAYERS = ("white", "yellow")
"""Player 0 opens and plays white (O1); player 1 plays yellow."""


MatchRecord = Match
"""A tracked match is a match like any other (:class:`carom.notation.matchfile.Match`)."""


def corrections(match: Match) -> int:
    """How many tracked strokes the table's course overruled or had to be bridged, in a
    match written by :func:`match_record`: each is the one ``call`` record written for it."""
    return sum(isinstance(record, Call) for _, record in match.records)


def match_record(rulings: Sequence[TrackedRuling], discipline: Discipline, table: TableSpec,
                 source: str | None = None) -> Match:
    extra: dict[str, Any] = {"note": "written by carom track: player 0 plays white, player 1 yellow; "
                                     "the points limit only keeps the recording inside one game"}
    if source is not None:
        extra["tracked"] = source
    header = Header(discipline.id, table.name, PLAYERS, len(rulings) + 1, None, extra=extra)
    replayer = Replayer(header)
    records: list[tuple[int, Record]] = []

    def add(record: Record) -> None:
        records.append((len(records) + 2, record))  # the header is line 1
        replayer.feed(*records[-1])

    add(Opener(0))
    previous: TrackedRuling | None = None
    following = [*rulings[1:], None]
    for as_judged, after in zip(rulings, following, strict=True):
        ruling = with_sequence_doubts(as_judged, after, table)
        tracked = ruling.tracked
        if replayer.state.striker_ball is not tracked.cue:
            missing = 0 if previous is None else missing_between(previous.tracked, tracked)
            moved = None if previous is None else farthest_moved(previous, ruling)
            if moved is not None and moved.distance <= displacement_allowed(table):
                moved = None
            if missing or moved or previous is None:
                if missing:
                    what = f"{missing} stroke(s) before shot {tracked.shot!r} are not in the recording"
                elif moved:
                    what = (f"shot {tracked.shot!r} does not start where the shot before it ended "
                            f"(a ball {moved.distance:.2f} m away): the recording misses what happened "
                            "between")
                else:
                    what = f"the recording starts with a stroke of {tracked.cue}"
                add(Call(CallResult.MISS, extra={"note": f"{what}; this call hands {tracked.cue} the table"}))
            else:
                kept_on = tracked.cue is previous.tracked.cue
                add(Undo(extra={"note": f"the table ruled shot {previous.tracked.shot!r} otherwise: "
                                        f"{tracked.cue} played next"}))
                add(Call(CallResult.CAROM if kept_on else CallResult.MISS,
                         extra={"note": f"shot {previous.tracked.shot!r} as the table ruled it"}))
        add(_stroke(ruling))
        previous = ruling
    return Match(header, tuple(records), replayer.state, tuple(replayer.rulings))


def _stroke(ruling: TrackedRuling) -> Stroke:
    stroke = ruling.stroke
    extra = {**stroke.extra, "confidence": round(ruling.confidence, 4), "doubtful": ruling.doubtful}
    return Stroke(stroke.ball, stroke.events, stroke.start, stroke.end, stroke.exits, stroke.fouls,
                  stroke.paths, extra)
