"""A tracked match reviewed by a person, as a ``carom/1`` log (docs/review.md).

The review *is* a scoreboard match. Its log starts as ``carom track --carom-out`` writes
it (:func:`carom.track.match_record`): an ``opener``, then every tracked stroke as a
``stroke`` record, with the stand-in ``call`` records (and ``undo`` + ``call`` where the
table went on otherwise than the auto-referee ruled) that keep the turns as the
recording shows them. Each stroke record carries, as fields a reader ignores, its place
in the recording (``index``), the tracked samples (``samples``, in its first copy only),
the auto-referee's ruling, confidence and doubts, and the video's own doubts.

A reviewer's decision on stroke *k* is written into the stroke record (``review``): a
confirmation leaves the ruling as it is; an overruling is followed by ``undo`` and a
``call`` with the reviewer's result, as a referee corrects a mis-entry. Records are only
appended: to put a decision on stroke *k* into the log, the records after the last one
that still agrees with the reviewed log are withdrawn (``undo``) and the reviewed course
from there is appended (:func:`plan`). ``carom replay`` of the log gives the reviewed
score; the history of every decision stays in the file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from math import hypot
from typing import Any

from carom.core.balls import Ball
from carom.core.records import Header, Opener
from carom.core.table import TABLES
from carom.match.replay import Replayer
from carom.notation.reader import record_from_json
from carom.notation.writer import record_json
from carom.track.judging.sequence import displacement_allowed

DECISIONS = ("confirm", "carom", "miss", "foul")
"""What a reviewer says of a stroke: the auto-referee's ruling stands, or the stroke was
a carom, a miss, or a foul (with its rule)."""
FOUL_RULES = ("F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11", "F12", "F13")
"""The faults a reviewer may give (RULES.md F2–F13)."""
STROKE_FIELDS = ("index", "shot", "samples", "tracked_ruling", "confidence", "doubtful", "doubts",
                 "video_doubts")
"""The fields the review adds to a tracked stroke record (``video_doubts``: what the video
itself could not show about the stroke, for a review of a video)."""


@dataclass(frozen=True, slots=True)
class Decision:
    """The reviewer's word on one stroke."""

    decision: str
    """One of :data:`DECISIONS`."""
    rule: str | None = None

    def json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"decision": self.decision}
        if self.rule is not None:
            out["rule"] = self.rule
        return out

    @staticmethod
    def of(data: Any) -> Decision | None:
        if not isinstance(data, Mapping) or data.get("decision") not in DECISIONS:
            return None
        rule = data.get("rule")
        return Decision(str(data["decision"]), rule if isinstance(rule, str) else None)


def without(record: Mapping[str, Any], *fields: str) -> dict[str, Any]:
    return {k: v for k, v in record.items() if k not in fields}


def parsed(lines: Iterable[str]) -> list[dict[str, Any]]:
    return [json.loads(line) for line in lines]


def tracked_strokes(records: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The tracked strokes of a review log, in recording order: the first copy of each
    (the one with the samples), without a decision."""
    first: dict[int, dict[str, Any]] = {}
    for record in records:
        index = record.get("index")
        if record.get("type") == "stroke" and isinstance(index, int) and index not in first:
            first[index] = without(record, "review")
    return [first[i] for i in sorted(first)]


def decisions(records: Sequence[Mapping[str, Any]]) -> dict[int, Decision]:
    """The reviewer's decisions: for each stroke, the one its latest copy in the log
    carries (every rewrite copies the decisions standing then)."""
    latest: dict[int, Decision | None] = {}
    for record in records:
        index = record.get("index")
        if record.get("type") == "stroke" and isinstance(index, int):
            latest[index] = Decision.of(record.get("review"))
    return {i: d for i, d in latest.items() if d is not None}


def _moved(before: Mapping[str, Any], after: Mapping[str, Any]) -> float:
    """How far (m) the ball that moved most lies, at the start of ``after``, from where
    ``before`` left it (0 when either position is unknown)."""
    end, start = before.get("end"), after.get("start")
    if not isinstance(end, Mapping) or not isinstance(start, Mapping):
        return 0.0
    return max((hypot(end[b][0] - start[b][0], end[b][1] - start[b][1]) for b in end if b in start),
               default=0.0)


def _missing(before: Mapping[str, Any], after: Mapping[str, Any]) -> int:
    a, b = before.get("shot"), after.get("shot")
    if type(a) is int and type(b) is int and b > a + 1:
        return b - a - 1
    return 0


def _result(points: int, fouls: Sequence[str]) -> Decision:
    if fouls:
        return Decision("foul", fouls[0])
    return Decision("carom" if points else "miss")


def reviewed_log(header: Header, strokes: Sequence[Mapping[str, Any]],
                 decided: Mapping[int, Decision]) -> list[dict[str, Any]]:
    """The records of the reviewed match (after the header), as JSON objects.

    Without decisions this is the log ``carom track --carom-out`` writes (plus the
    review's fields). A decided stroke carries ``review``; when the reviewer's result is
    not what the rules make of the tracked stroke, ``undo`` and the reviewer's ``call``
    follow it. Where the next tracked stroke is played with the other player's ball, the
    table went on differently: strokes missing from the recording, or a ruling the table
    did not follow, bridged as ``carom track`` bridges them; after a reviewed stroke the
    reviewer's word stands, and a stand-in ``call`` (``miss``) hands the table over.
    """
    table = TABLES[header.table]
    replayer = Replayer(header)
    out: list[dict[str, Any]] = []

    def add(record: Mapping[str, Any]) -> None:
        parsed_record = record_from_json(without(record, "samples"), header)
        replayer.feed(len(out) + 2, parsed_record)
        written = record_json(parsed_record)
        if "samples" in record:
            written["samples"] = record["samples"]
        out.append(written)

    add(record_json(Opener(0)))
    previous: Mapping[str, Any] | None = None
    for stroke in strokes:
        cue = Ball(stroke["ball"])
        index = stroke["index"]
        if replayer.state.striker_ball is not cue:
            missing = 0 if previous is None else _missing(previous, stroke)
            moved = 0.0 if previous is None else _moved(previous, stroke)
            if previous is None or missing or moved > displacement_allowed(table):
                if missing:
                    what = f"{missing} stroke(s) before shot {stroke.get('shot')!r} are not in the recording"
                elif previous is not None:
                    what = (f"shot {stroke.get('shot')!r} does not start where the shot before it ended "
                            f"(a ball {moved:.2f} m away): the recording misses what happened between")
                else:
                    what = f"the recording starts with a stroke of {cue}"
                add({"type": "call", "result": "miss", "note": f"{what}; this call hands {cue} the table"})
            elif previous["index"] in decided:
                add({"type": "call", "result": "miss",
                     "note": f"the reviewer ruled shot {previous.get('shot')!r}; the recording goes on with "
                             f"{cue}: this call hands {cue} the table"})
            else:
                kept_on = Ball(previous["ball"]) is cue
                add({"type": "undo", "note": f"the table ruled shot {previous.get('shot')!r} otherwise: "
                                             f"{cue} played next"})
                add({"type": "call", "result": "carom" if kept_on else "miss",
                     "note": f"shot {previous.get('shot')!r} as the table ruled it"})
        decision = decided.get(index)
        record = dict(stroke)
        if decision is not None:
            record["review"] = decision.json()
        add(record)
        ruling = replayer.rulings[-1]
        if decision is not None and decision.decision != "confirm" \
                and decision != _result(ruling.points, ruling.fouls):
            add({"type": "undo", "note": f"the reviewer overruled shot {stroke.get('shot')!r}"})
            call: dict[str, Any] = {"type": "call", "result": decision.decision}
            if decision.rule is not None:
                call["rule"] = decision.rule
            add({**call, "note": f"shot {stroke.get('shot')!r} as the reviewer ruled it"})
        previous = stroke
    return out


def standing(records: Sequence[Mapping[str, Any]]) -> list[int]:
    """The positions of the records that still stand (not withdrawn by an ``undo``)."""
    stack: list[int] = []
    for position, record in enumerate(records):
        if record.get("type") == "undo":
            stack.pop()
        else:
            stack.append(position)
    return stack


def _key(record: Mapping[str, Any]) -> str:
    return json.dumps(without(record, "samples"), sort_keys=True)


def plan(log: Sequence[Mapping[str, Any]],
         target: Sequence[Mapping[str, Any]]) -> tuple[int, list[dict[str, Any]]]:
    """How to make ``log`` replay as ``target`` by appending only: how many ``undo``
    records to append, then which records (the samples left out: the log holds them).

    The target is cut after each of its strokes; the latest cut whose standing records
    are where the log's begin is where the reviewed course is taken up again."""
    have = [_key(log[i]) for i in standing(log)]
    keys = [_key(record) for record in target]
    best: tuple[int, int] | None = None  # (cut in target, standing records there)
    stack: list[str] = []  # the standing records of target[:cut]
    for cut in range(len(target) + 1):
        if cut > 0:
            if target[cut - 1].get("type") == "undo":
                stack.pop()
            else:
                stack.append(keys[cut - 1])
        if (cut < len(target) and target[cut].get("type") == "undo") or \
                (cut > 0 and target[cut - 1].get("type") == "undo"):
            continue  # a record, the undo that withdraws it and what replaces it stay together
        if have[:len(stack)] == stack:
            best = (cut, len(stack))
    assert best is not None  # the empty prefix always fits
    cut, kept = best
    appended = [without(record, "samples") for record in target[cut:]]
    return len(have) - kept, appended


__all__ = ["DECISIONS", "FOUL_RULES", "Decision", "decisions", "parsed", "plan", "reviewed_log",
           "standing", "tracked_strokes"]
