"""``/review``: a tracked match reviewed by a person (docs/review.md).

The organiser uploads a recording that ``carom track`` reads; the auto-referee judges it
as ``carom track`` does (:func:`carom.track.track_sequence`) and the review becomes a
scoreboard match whose log holds the tracked strokes (:mod:`carom.web.review.log`). The
review page lists the strokes, the doubtful ones first, replays each from its tracked
samples (``static/review.js``) and takes the reviewer's decision on each: every decision
is appended to the match's log, so the scoreboard and ``carom replay`` of the export
show the reviewed score at once.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from carom.core.errors import InputError, RecordError
from carom.core.inputs import decode
from carom.core.records import Header
from carom.core.table import TABLES, TableSpec
from carom.notation.words import N_
from carom.notation.writer import dumps
from carom.rules.disciplines import DISCIPLINES, Discipline
from carom.storage.book import MatchBook, Snapshot
from carom.storage.errors import StorageError
from carom.storage.players import AmbiguousName, SamePlayer
from carom.storage.roles import Account
from carom.web.review import video_files
from carom.web.review.log import (
    DECISIONS,
    FOUL_RULES,
    Decision,
    decisions,
    parsed,
    plan,
    reviewed_log,
    tracked_strokes,
)
from carom.web.shared import auth
from carom.web.shared.deps import account_of, allowed, is_organiser, organiser_form, render, services, words
from carom.web.shared.forms import MAX_NAME, FormError, check_names, read_upload, say
from carom.web.shared.i18n import PageWords
from carom.web.shared.said_words import said_words
from carom.web.shared.views import match_view

if TYPE_CHECKING:
    from carom.track import TrackedRuling

router = APIRouter(include_in_schema=False)
MAX_UPLOAD = 16 * 1024 * 1024
"""A tracked recording: the real match's 91 strokes take 0.8 MiB."""
REVIEW = "tracked-review"
"""The header's ``review`` field: this match is a tracked match under review."""
PLAYERS = ("white", "yellow")
_writing = threading.Lock()
"""Decisions are written one at a time (each rewrites the log's tail)."""


def is_review(snap: Snapshot) -> bool:
    return snap.header.extra.get("review") == REVIEW


# --- the list and the upload -------------------------------------------------------------


def _list_page(request: Request, status: int = 200, **extra: Any) -> Response:
    t = words(request)
    rows = [{"view": match_view(s, t), "source": s.header.extra.get("tracked", "")}
            for s in services(request).book.snapshots() if is_review(s)]
    return render(request, "review_list.html", status, rows=rows, disciplines=DISCIPLINES, tables=TABLES,
                  max_name=MAX_NAME, video=video_files.available(services(request).data), **extra)


@router.get("/review", response_class=HTMLResponse)
def review_list(request: Request) -> Response:
    refused = allowed(request, "/review")
    return refused if refused is not None else _list_page(request)


def samples_text(times: Any, centres: Any) -> str:
    """One ball's samples as one string, ``"t x y;t x y;…"`` (seconds to 0.1 ms, metres to
    0.01 mm): a string costs the reader nothing to check and the replay nothing to keep."""
    return ";".join(f"{float(t):.4f} {float(x):.5f} {float(y):.5f}"
                    for t, (x, y) in zip(times, centres, strict=True))


def played_on(discipline: str, table: str) -> tuple[Discipline, TableSpec]:
    """The discipline and table a form names (the table empty: the discipline's own)."""
    rules = DISCIPLINES.get(discipline)
    if rules is None:
        raise FormError(N_("discipline: unknown discipline %(name)s"), name=repr(discipline[:40]))
    chosen = table or rules.tables[0]
    if chosen not in TABLES or chosen not in rules.tables:
        raise FormError(N_("table: %(discipline)s is not played on a table called %(table)s"),
                        discipline=discipline, table=repr(chosen[:40]))
    return rules, TABLES[chosen]


def tracked_match(data: bytes, name: str, discipline: str, table: str, players: tuple[str, str],
                  extra: dict[str, Any] | None = None) -> tuple[Header, tuple[str, ...]]:
    """The review's header (with ``extra`` fields) and records: the recording judged as
    ``carom track`` judges it (a line it cannot read refuses the whole file)."""
    from carom.track import TrackFormatError, read_lines, track_sequence

    rules, spec = played_on(discipline, table)
    try:
        text = [decode(raw, number) for number, raw in enumerate(data.splitlines(keepends=True), start=1)]
        strokes = list(read_lines(text))
        rulings = list(track_sequence(strokes, rules, spec))
        return review_records(rulings, name, rules, spec, players, extra)  # a line's doubts read there
    except (InputError, TrackFormatError) as error:
        raise FormError(N_("file: %(reason)s"), reason=error) from None


def review_records(rulings: Sequence[TrackedRuling], name: str, rules: Discipline, spec: TableSpec,
                   players: tuple[str, str],
                   extra: dict[str, Any] | None = None) -> tuple[Header, tuple[str, ...]]:
    """The review's header and records for strokes the auto-referee judged. A stroke
    whose line holds the video's own doubts carries them (``video_doubts``) and is
    doubtful whatever the auto-referee's confidence: the video says a person should look."""
    from carom.notation.writer import record_json
    from carom.video.doubts import read_doubts

    header = Header(rules.id, spec.name, players, len(rulings) + 1, None, extra={
        "note": "a tracked match under review: written by carom serve's /review; player 0 plays white, "
                "player 1 yellow; the points limit only keeps the recording inside one game",
        "tracked": name, "review": REVIEW, **(extra or {})})
    strokes_json = []
    for index, ruling in enumerate(rulings):
        seen = read_doubts(ruling.tracked.extra.get("doubts"), ruling.tracked.line)
        record = record_json(ruling.stroke)
        record.update({
            "index": index, "shot": ruling.tracked.shot, "confidence": round(ruling.confidence, 4),
            "doubtful": ruling.doubtful or bool(seen),
            "doubts": [{"probability": None if d.probability is None else round(d.probability, 4),
                        "what": d.what, "said": d.said.as_json()} for d in ruling.doubts],
            "video_doubts": seen,
            "tracked_ruling": {"points": ruling.points, "fouls": list(ruling.verdict.fouls),
                               "cites": list(ruling.verdict.cites)},
            "samples": {ball.value: samples_text(track.t, track.xy)
                        for ball, track in ruling.tracked.balls.items()},
        })
        strokes_json.append(record)
    lines = tuple(dumps(r) for r in reviewed_log(header, strokes_json, {}))
    return header, lines


@router.post("/review", response_class=HTMLResponse)
async def upload(request: Request) -> Response:
    form = await organiser_form(request, "/review")
    if isinstance(form, Response):
        return form
    t = words(request)
    fields = {k: str(form.get(k, "")).strip()[:100] for k in ("discipline", "table", "player0", "player1")}
    try:
        data, name = await read_upload(form, MAX_UPLOAD, N_("file: choose a tracked recording to review"))
        players = (fields["player0"] or PLAYERS[0], fields["player1"] or PLAYERS[1])
        header, lines = await run_in_threadpool(
            tracked_match, data, name[:200], fields["discipline"] or "three-cushion", fields["table"],
            players)
        check_names(header)
        match_id = await run_in_threadpool(lambda: services(request).book.create(
            header, auth.new_token(), lines, by=account_of(request)))
    except (RecordError, FormError, SamePlayer, AmbiguousName) as error:
        return _list_page(request, 422, error=say(error, t), form=fields)
    return RedirectResponse(f"/review/{match_id}", status_code=303)


# --- one review ---------------------------------------------------------------------------


def _review(request: Request, match_id: int) -> tuple[Snapshot, list[dict[str, Any]]] | Response:
    snap = services(request).book.snapshot(match_id)
    if not is_review(snap):
        return render(request, "error.html", 404, status_code=404, message=words(request).gettext(
            "Match %(number)s is not a tracked match under review.", number=match_id))
    return snap, parsed(snap.lines)


def auto_decision(points: int, fouls: list[str]) -> dict[str, Any]:
    """The auto-referee's ruling as a reviewer's decision would say it."""
    if fouls:
        return {"decision": "foul", "rule": fouls[0]}
    return {"decision": "carom" if points else "miss"}


def ruling_words(points: int, fouls: list[str], t: PageWords) -> str:
    if fouls:
        return t.gettext("foul %(rules)s", rules=", ".join(fouls))
    if points:
        return t.ngettext("carom, %(num)s point", "carom, %(num)s points", points)
    return t.gettext("no point")


def decision_words(decision: Decision | None, t: PageWords) -> str:
    if decision is None:
        return t.gettext("not reviewed")
    if decision.decision == "confirm":
        return t.gettext("confirmed")
    if decision.decision == "foul":
        return t.gettext("overruled: foul %(rule)s", rule=decision.rule or "")
    return t.gettext("overruled: carom") if decision.decision == "carom" else t.gettext("overruled: no point")


CUSHIONS = {"top": N_("top cushion"), "bottom": N_("bottom cushion"), "left": N_("left cushion"),
            "right": N_("right cushion")}


def event_rows(stroke: dict[str, Any], t: PageWords) -> list[tuple[float, str]]:
    """The stroke's events in order: (time, words)."""
    out = []
    for event in stroke.get("events") or []:
        ball = t.pgettext("ball", str(event.get("ball")))
        if event.get("kind") == "ball":
            other = t.pgettext("ball", str(event.get("other")))
            text = t.gettext("%(ball)s hits %(other)s", ball=ball, other=other)
        elif event.get("kind") == "cushion":
            text = t.gettext("%(ball)s: %(cushion)s", ball=ball,
                             cushion=t.gettext(CUSHIONS.get(str(event.get("cushion")), "cushion")))
        else:
            text = t.gettext("%(ball)s jumps off the table", ball=ball)
        when = event.get("t")
        out.append((float(when) if isinstance(when, (int, float)) else 0.0, text))
    return out


SHOWN_SURE = 0.9995
"""A confidence that the page would print as 1.000. A doubtful stroke with it is doubtful
for another reason (the recording, the order of the strokes): the page says that reason,
not a confidence of 1.000 beside the word doubtful."""


def stroke_rows(records: list[dict[str, Any]], t: PageWords) -> list[dict[str, Any]]:
    """The tracked strokes, the doubtful ones first (least sure first), then in order. A
    doubtful stroke hangs on the auto-referee's first doubt, else on the video's first."""
    decided = decisions(records)
    rows = []
    for stroke in tracked_strokes(records):
        ruling = stroke.get("tracked_ruling") or {}
        doubts = stroke.get("doubts") or []
        seen = stroke.get("video_doubts") or []
        doubtful, confidence = bool(stroke.get("doubtful")), float(stroke.get("confidence", 1.0))
        first = (doubts or seen)[:1]
        rows.append({
            "index": stroke["index"], "shot": stroke.get("shot"), "ball": stroke["ball"],
            "doubtful": doubtful, "confidence": confidence,
            "sure_but_doubtful": doubtful and confidence >= SHOWN_SURE,
            "ruling": ruling_words(int(ruling.get("points", 0)), list(ruling.get("fouls", [])), t),
            "cites": list(ruling.get("cites", [])),
            "hangs_on": said_words(first[0], t) if first else "",
            "doubts": [said_words(d, t) for d in doubts],
            "video_doubts": [said_words(d, t) for d in seen],
            "decision": decided.get(stroke["index"]),
            "decision_words": decision_words(decided.get(stroke["index"]), t),
        })
    rows.sort(key=lambda r: (not r["doubtful"], r["confidence"] if r["doubtful"] else 0.0, r["index"]))
    return rows


def not_judged_rows(header: Header, t: PageWords) -> list[dict[str, Any]]:
    """The video's strokes left out of the review, each with why in the page's language:
    the video's doubts about it, else the reader's refusal (English, as it was written)."""
    from carom.core.frozen import thaw

    rows = []
    for entry in thaw(header.extra.get("not_judged")) or []:
        if not isinstance(entry, dict):
            continue
        doubts = [said_words(d, t) for d in entry.get("doubts") or [] if isinstance(d, dict)]
        rows.append({"shot": entry.get("shot"), "why": doubts or [str(entry.get("why", ""))]})
    return rows


@router.get("/review/{match_id}", response_class=HTMLResponse)
def review_page(request: Request, match_id: int, stroke: int | None = None) -> Response:
    refused = allowed(request, f"/review/{match_id}")
    if refused is not None:
        return refused
    found = _review(request, match_id)
    if isinstance(found, Response):
        return found
    snap, records = found
    t = words(request)
    rows = stroke_rows(records, t)
    chosen = next((r for r in rows if r["index"] == stroke), rows[0] if rows else None)
    reviewed = sum(r["decision"] is not None for r in rows)
    events = [] if chosen is None else event_rows(tracked_strokes(records)[chosen["index"]], t)
    stills = [] if chosen is None else still_rows(request, snap, chosen["index"], events, t)
    from carom.web.review.fit_pages import fit_controls

    return render(request, "review.html", view=match_view(snap, t), rows=rows, chosen=chosen, events=events,
                  reviewed=reviewed, source=snap.header.extra.get("tracked", ""), foul_rules=FOUL_RULES,
                  match_id=match_id, stills=stills, video="video" in snap.header.extra, fit=fit_controls(t),
                  not_judged=not_judged_rows(snap.header, t))


def still_rows(request: Request, snap: Snapshot, index: int, events: list[tuple[float, str]],
               t: PageWords) -> list[dict[str, Any]]:
    """Stroke ``index``'s stills of the review's video, each with its address, its time on
    the stroke's clock and what it shows (its caption, and its alt text)."""
    folder = video_files.folder_of(services(request).data, snap.header.extra.get("video"))
    rows = []
    for still in video_files.stills_of(folder, index):
        event = still.get("event")
        if still["kind"] == "start":
            shows = t.gettext("the stroke's start")
        elif still["kind"] == "end":
            shows = t.gettext("the balls at rest")
        elif isinstance(event, int) and 1 <= event <= len(events):
            shows = t.gettext("contact %(number)s: %(what)s", number=event, what=events[event - 1][1])
        else:
            shows = t.gettext("a contact")
        when = float(still["t"])
        rows.append({"src": f"/review/{snap.match_id}/stills/{still['file']}", "t": when,
                     "caption": shows,
                     "alt": t.gettext("Video frame at %(time)s s: %(what)s", time=t.number(when, 2),
                                      what=shows)})
    return rows


def organisers_only(request: Request) -> Response | None:
    """``None`` for an organiser or a tournament director; else a 403 for the page's script
    (what a review's data and files answer, where a page would lead to the login)."""
    if is_organiser(request):
        return None
    return JSONResponse({"detail": "log in as an organiser or a tournament director"}, status_code=403)


@router.get("/review/{match_id}/strokes/{index}.json")
def stroke_data(request: Request, match_id: int, index: int) -> Response:
    """One tracked stroke for the replay: its samples, events, positions and ruling."""
    refused = organisers_only(request)
    if refused is not None:
        return refused
    found = _review(request, match_id)
    if isinstance(found, Response):
        return found
    _, records = found
    strokes = tracked_strokes(records)
    if not 0 <= index < len(strokes):
        return JSONResponse({"detail": f"stroke {index}: no such stroke"}, status_code=404)
    stroke = strokes[index]
    table = TABLES[found[0].header.table]
    keep = ("index", "shot", "ball", "start", "end", "events", "samples", "confidence", "doubtful", "doubts",
            "video_doubts", "tracked_ruling")
    t = words(request)
    stills = still_rows(request, found[0], index, event_rows(stroke, t), t)
    return JSONResponse({**{k: stroke.get(k) for k in keep}, "marks": doubt_marks(stroke.get("doubts") or []),
                         "table": {"width": table.width, "length": table.length, "ball": table.ball_radius},
                         "stills": stills})


_AT = re.compile(r"\b(white|yellow|red)(?:–(?:white|yellow|red) contact| on the \w+ cushion| jumping) "
                 r"at (\d+(?:\.\d+)?) s")
_LIES = re.compile(r"\b(white|yellow|red) lies \d+(?:\.\d+)? m from where this stroke left it")


def doubt_marks(doubts: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Where on the paths the ruling's doubts lie: the ball and the time of each event a
    doubt names (``t`` null: where the ball came to rest, for a doubt about the recording)."""
    marks: list[dict[str, Any]] = []
    for number, doubt in enumerate(doubts[:4], start=1):
        what = str(doubt.get("what", ""))
        marks += [{"ball": ball, "t": float(t), "doubt": number} for ball, t in _AT.findall(what)]
        marks += [{"ball": ball, "t": None, "doubt": number} for ball in _LIES.findall(what)]
    return marks


def decide(book: MatchBook, match_id: int, index: int, decision: Decision, by: Account | None = None) -> None:
    """Append what puts ``decision`` on stroke ``index`` into the match's log (one
    decision at a time: each takes up the log as the one before left it)."""
    with _writing:
        snap = book.snapshot(match_id)
        records = parsed(snap.lines)
        strokes = tracked_strokes(records)
        decided = decisions(records)
        decided[index] = decision
        undos, appended = plan(records, reviewed_log(snap.header, strokes, decided))
        undo = {"type": "undo", "note": "the review takes up the reviewed course"}
        book.append_many(match_id, snap.seq, [undo] * undos + appended, book.live(match_id).token, by)


@router.post("/review/{match_id}/strokes/{index}", response_class=HTMLResponse)
async def decide_stroke(request: Request, match_id: int, index: int) -> Response:
    form = await organiser_form(request, "/review")
    if isinstance(form, Response):
        return form
    found = _review(request, match_id)
    if isinstance(found, Response):
        return found
    records = found[1]
    t = words(request)
    kind = str(form.get("decision", ""))
    rule = str(form.get("rule", "")) or None
    if kind not in DECISIONS or not 0 <= index < len(tracked_strokes(records)):
        return render(request, "error.html", 422, status_code=422, message=t.gettext(
            "decision: one of confirm, carom, miss, foul for a stroke of the recording"))
    if kind == "foul" and rule not in FOUL_RULES:
        return render(request, "error.html", 422, status_code=422, message=t.gettext(
            "rule: a foul needs its rule, one of %(rules)s", rules=", ".join(FOUL_RULES)))
    decision = Decision(kind, rule if kind == "foul" else None)
    auto = tracked_strokes(records)[index].get("tracked_ruling") or {}
    if decision == Decision.of(auto_decision(int(auto.get("points", 0)), list(auto.get("fouls", [])))):
        decision = Decision("confirm")  # the reviewer says what the auto-referee said
    svc = services(request)
    try:
        await run_in_threadpool(decide, svc.book, match_id, index, decision, account_of(request))
    except (RecordError, StorageError) as error:
        svc.book.forget(match_id)
        return render(request, "error.html", 409, status_code=409, message=t.gettext(
            "The decision was not recorded: %(reason)s", reason=t.error(error)))
    svc.hub.publish(match_id, svc.book.snapshot(match_id).version)
    return RedirectResponse(f"/review/{match_id}?stroke={index}", status_code=303)
