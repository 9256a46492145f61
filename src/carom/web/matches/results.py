"""Results out: a match's scoresheet as PDF (to print and sign) and its innings as CSV,
beside the ``carom/1`` file (``/m/{id}/export``, :mod:`carom.web.matches.pages`). Public, like
the scoresheet page; ``?lang=`` chooses the language, else the page's."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from starlette.concurrency import run_in_threadpool

from carom.core.spreadsheet import SpreadsheetError, Style
from carom.notation.words import LANGUAGES
from carom.web.matches.pages import content_disposition, place_of
from carom.web.shared import reports, work
from carom.web.shared.deps import error_page, services, words
from carom.web.shared.i18n import PageWords
from carom.web.shared.jobs import PRINT_SECONDS, printed

router = APIRouter(include_in_schema=False)


def _lang(request: Request, lang: str | None) -> str:
    return lang if lang in LANGUAGES else words(request).lang


def _name(match_id: int, players: tuple[str, str], suffix: str) -> str:
    slug = ["".join(c if c.isalnum() else "-" for c in p).strip("-") or "player" for p in players]
    return f"match-{match_id}-{slug[0]}-{slug[1]}.{suffix}"


@router.get("/m/{match_id}/scoresheet.pdf")
async def scoresheet_pdf(request: Request, match_id: int, lang: str | None = None) -> Response:
    """Printed in the simulation pool, once per version of the match and language."""
    snap = await run_in_threadpool(services(request).book.snapshot, match_id)
    chosen = _lang(request, lang)
    found = await run_in_threadpool(place_of, request.app, match_id, PageWords(chosen), snap.header.players)
    place = None if found is None else found.text(PageWords(chosen))
    data = await printed(request).get(request, ("scoresheet", match_id, snap.version, chosen, place),
                                      work.scoresheet_pdf, (snap, chosen, place), PRINT_SECONDS)
    if isinstance(data, Response):
        return data
    return Response(data, media_type="application/pdf", headers={
        "Content-Disposition": content_disposition(_name(match_id, snap.header.players, "pdf"))
        .replace("attachment", "inline", 1)})


@router.get("/m/{match_id}/scoresheet.csv")
async def scoresheet_csv(request: Request, match_id: int, lang: str | None = None, sep: str | None = None,
                         decimal: str | None = None) -> Response:
    """The innings as CSV (UTF-8 with a byte order mark); ``sep=;`` for Excel in Slovak and
    German."""
    try:
        style = Style.named(sep, decimal)
    except SpreadsheetError as error:
        return error_page(request, 422, words(request).error(error))
    snap = await run_in_threadpool(services(request).book.snapshot, match_id)
    found = await run_in_threadpool(place_of, request.app, match_id, PageWords(_lang(request, lang)),
                                    snap.header.players)
    place = None if found is None else (found.tournament, found.round, found.table, found.kept)
    data = reports.scoresheet_csv(snap, _lang(request, lang), style, place)
    return Response(data, media_type="text/csv; charset=utf-8", headers={
        "Content-Disposition": content_disposition(_name(match_id, snap.header.players, "csv"))})
