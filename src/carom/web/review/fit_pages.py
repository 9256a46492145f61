"""``/review/{match}/strokes/{index}/fit`` and ``…/what-if``: the review page's "Play what
was played" and "What if" (docs/review.md, "What was played").

Both are the page's own data (like ``stroke_data``), for organisers and tournament
directors, with the session's anti-forgery token (``X-CSRF-Token``): the fit reads the
stroke's strike back from its tracked samples (:mod:`carom.web.review.fitting`, in the
simulation pool, bounded by the fit's own budget and the pool's time limit, one
client's share of the pool at a time); what-if plays the stroke read back again with
one field of its strike changed. A fit is kept (:func:`fits`, by the stroke's record)
so that the page asks for it again, and every what-if after it, at no cost. Neither
changes the review.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import orjson
from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import JSONResponse, Response

from carom.core.errors import CaromError
from carom.core.records import Header
from carom.notation.words import N_
from carom.physics.strike import MISCUE_LIMIT, miscue_problem
from carom.storage.errors import UnknownMatch
from carom.web.review.log import parsed, tracked_strokes
from carom.web.review.pages import is_review, organisers_only, ruling_words
from carom.web.shared import auth, work
from carom.web.shared.deps import csrf_ok, services, templates, words
from carom.web.shared.i18n import PageWords
from carom.web.shared.jobs import Kept, on_app, pooled
from carom.web.shared.said_words import said_words
from carom.web.training.simulator import BadBody, read_body
from carom.web.training.table import STRIKE_RANGES

router = APIRouter(include_in_schema=False)

FIT_SECONDS = 30.0
WHAT_IF_SECONDS = 10.0
"""The pool's time limits, from the job's start (wall clock, at the pool's lower
priority): the fit stops itself after 1 s of processor time, a what-if is one stroke."""
KEPT = 64
"""Fits kept (the least recently asked for leave first): a few kilobytes each."""
UNITS = {"speed": "m/s", "direction": "°", "side": "R", "height": "R", "elevation": "°"}
DIGITS = {"speed": 2, "direction": 2, "side": 2, "height": 2, "elevation": 1}
"""Decimals shown of each strike field (its spread gets one more)."""
FIELD_WORDS = {"speed": N_("Speed"), "direction": N_("Direction"), "side": N_("Side (tip)"),
               "height": N_("Height (tip)"), "elevation": N_("Cue elevation")}
"""Each strike field's label."""


Fitted = tuple[dict[str, Any], bytes | None]
"""A stroke read back as it is kept: what the page shows of it, and the fitted stroke as
the pool's process pickled it (:func:`carom.web.shared.work.fit_review_stroke`; ``None``
when there was nothing to fit), handed back to the pool for each what-if."""


def fit_controls(t: PageWords) -> dict[str, Any] | None:
    """What the review page's "What was played" controls need (``None`` where strokes
    cannot be read back): each strike field a what-if may change, with its label, unit
    and range (the training table's, :data:`~carom.web.training.table.STRIKE_RANGES`)."""
    if not work.fit_available():
        return None
    return {"fields": [{"name": name, "label": t.gettext(label), "unit": UNITS[name],
                        "min": STRIKE_RANGES[name][0], "max": STRIKE_RANGES[name][1]}
                       for name, label in FIELD_WORDS.items()]}


def fits(request: Request) -> Kept[Fitted]:
    """The application's strokes read back, kept by which stroke (match, index) and what it
    holds (a digest of its record); made on first use."""
    return on_app(request, "review_fits", lambda: Kept[Fitted](KEPT))


def _refused(status: int, detail: str) -> JSONResponse:
    return JSONResponse({"detail": detail}, status_code=status)


def _stroke_of(request: Request, match_id: int, index: int) -> tuple[Header, dict[str, Any]] | Response:
    """The review's header and stroke ``index``'s record, or the 404 that says which is
    not there (in the page's language, as every refusal here: the page's script shows it)."""
    t = words(request)
    try:
        snap = services(request).book.snapshot(match_id)
    except UnknownMatch:
        return _refused(404, t.gettext("match %(match)s: there is no such match", match=match_id))
    if not is_review(snap):
        return _refused(404, t.gettext("match %(match)s: not a tracked match under review", match=match_id))
    strokes = tracked_strokes(parsed(snap.lines))
    if not 0 <= index < len(strokes):
        return _refused(404, t.gettext(
            "stroke %(index)s: no such stroke (the recording has %(count)s, from 0 to %(last)s)",
            index=index, count=len(strokes), last=len(strokes) - 1))
    return snap.header, strokes[index]


async def _asked(request: Request, match_id: int, index: int) -> tuple[Header, dict[str, Any]] | Response:
    """The stroke asked for, or the refusal: not an organiser (403), no anti-forgery token
    (403), no fit here (501), no such review or stroke (404)."""
    refused = organisers_only(request)
    if refused is not None:
        return refused
    t = words(request)
    if not csrf_ok(request):
        return _refused(403, t.gettext("the %(header)s header must carry the session's anti-forgery token",
                                       header=auth.CSRF_HEADER))
    if not work.fit_available():
        return _refused(501, t.gettext(
            "reading a stroke back needs SciPy (carom's fit extra), not installed here"))
    return await run_in_threadpool(_stroke_of, request, match_id, index)


async def _fitted(request: Request, match_id: int, index: int, header: Header,
                  record: dict[str, Any]) -> Fitted | Response:
    """Stroke ``index`` read back: kept, or fitted in the pool now (and kept)."""
    digest = hashlib.sha256(json.dumps([header.table, header.discipline, record], sort_keys=True)
                            .encode()).hexdigest()
    key = (match_id, index, digest)
    kept = fits(request).get(key)
    if kept is not None:
        return kept

    async def arguments() -> tuple[Any, ...]:
        return record, header

    made = await pooled(request, work.fit_review_stroke, arguments, FIT_SECONDS, as_json=True)
    if isinstance(made, Response):
        return made
    text, _, fitted = made.partition(work.FITTED)
    value = (orjson.loads(text), fitted or None)
    fits(request).put(key, value)
    return value


def problems_words(data: dict[str, Any], t: PageWords) -> list[str]:
    """Why the stroke read back is not what was played, in the page's language."""
    said = data.get("problems_said") or []
    return [said_words({"what": what, "said": said[k] if k < len(said) else None}, t)
            for k, what in enumerate(data.get("problems") or [])]


def fit_view(data: dict[str, Any], t: PageWords) -> dict[str, Any]:
    """What the page's panel shows of a stroke read back, in the page's words."""
    def ruling(r: dict[str, Any]) -> str:
        return ruling_words(int(r["points"]), list(r["fouls"]), t)

    def ball(name: Any) -> str:
        return t.gettext("none") if name is None else t.pgettext("ball", str(name))

    def cushions(n: Any) -> str:
        return t.gettext("never reached ball 3") if n is None else str(n)

    view: dict[str, Any] = {"data": data, "problems": problems_words(data, t)}
    if data.get("fitted"):
        view["strike"] = [{"name": name, "label": t.gettext(FIELD_WORDS[name]), "unit": UNITS[name],
                           "value": t.number(data["strike"][name], DIGITS[name]),
                           "spread": t.number(data["uncertainty"][name], DIGITS[name] + 1)}
                          for name in FIELD_WORDS]
        view["rmse"] = [(ball, t.number(100 * metres, 1)) for ball, metres in data["rmse"].items()]
        view["moved"] = ", ".join(t.gettext(FIELD_WORDS[name]) for name in data["table_moved"])
        view["agree"] = [
            (t.gettext("First contact"), ball(data["first_contact"]["fitted"]),
             ball(data["first_contact"]["recorded"]), data["first_contact"]["same"]),
            (t.gettext("Cushions before ball 3"), cushions(data["cushions"]["fitted"]),
             cushions(data["cushions"]["recorded"]), data["cushions"]["same"]),
            (t.gettext("Ruling"), ruling(data["ruling"]["fitted"]), ruling(data["ruling"]["recorded"]),
             data["ruling"]["same"]),
        ]
    return view


@router.post("/review/{match_id}/strokes/{index}/fit")
async def fit_stroke_route(request: Request, match_id: int, index: int) -> Response:
    """Stroke ``index`` read back: ``{"played", "paths", "strike_time", "table", "html"}``
    and the rest of what the fit found (:func:`carom.web.review.fitting.fit_record`)."""
    asked = await _asked(request, match_id, index)
    if isinstance(asked, Response):
        return asked
    found = await _fitted(request, match_id, index, *asked)
    if isinstance(found, Response):
        return found
    data = found[0]
    t = words(request)
    html = templates.get_template("_review_fit.html").render(t=t, lang=t.lang, fit=fit_view(data, t))
    return JSONResponse({**data, "html": html})


@router.post("/review/{match_id}/strokes/{index}/what-if")
async def what_if_route(request: Request, match_id: int, index: int) -> Response:
    """Stroke ``index`` read back and played again with one field of its strike changed
    (a JSON body ``{"field": "side", "value": 0.2}``): ``{"paths", "ruling", "contacts",
    "html"}``. A field or a value that cannot be played is refused (422) naming it; a stroke
    not read back as played (409) says why."""
    asked = await _asked(request, match_id, index)
    if isinstance(asked, Response):
        return asked
    from carom.web.review.fitting import check_change

    t = words(request)
    try:
        body = read_body(await request.body())
        field, value = check_change(body.get("field"), body.get("value"))
    except (BadBody, CaromError) as error:
        return _refused(422, t.error(error))
    found = await _fitted(request, match_id, index, *asked)
    if isinstance(found, Response):
        return found
    data, fitted = found
    if fitted is None or not data["played"]:
        return _refused(409, t.gettext("stroke %(index)s was not read back as what was played: %(why)s",
                                       index=index, why="; ".join(problems_words(data, t))))
    tip = {**data["strike"], field: value}
    if miscue_problem(tip["side"], tip["height"]) is not None:
        return _refused(422, t.gettext(
            '"value": %(field)s %(value)s: the tip offset (%(side)s, %(height)s) is beyond the miscue '
            "limit of %(limit)s R", field=field, value=t.number(value, DIGITS[field]),
            side=t.number(tip["side"], 2), height=t.number(tip["height"], 2),
            limit=t.number(MISCUE_LIMIT, 1)))
    header = asked[0]

    async def arguments() -> tuple[Any, ...]:
        return fitted, field, value, header

    made = await pooled(request, work.what_if_review, arguments, WHAT_IF_SECONDS, as_json=True)
    if isinstance(made, Response):
        return made
    result = orjson.loads(made)
    html = templates.get_template("_review_what_if.html").render(
        t=t, lang=t.lang, label=t.gettext(FIELD_WORDS[field]), unit=UNITS[field],
        value=t.number(value, DIGITS[field]),
        ruling=ruling_words(int(result["ruling"]["points"]), list(result["ruling"]["fouls"]), t),
        cites=result["ruling"]["cites"])
    return JSONResponse({**result, "html": html})
