"""The public pages of a match: the list of matches, the audience board (live), the
scoresheet, the export."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response

from carom.notation.scoresheet import scoresheet
from carom.storage.book import Snapshot
from carom.web.shared import i18n
from carom.web.shared.deps import render, services, templates, words
from carom.web.shared.views import match_view
from carom.web.training import table as training

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    t = words(request)
    rows = [{"view": match_view(s, t)} for s in services(request).book.snapshots()]
    return render(request, "home.html", rows=rows)


@router.get("/m/{match_id}", response_class=HTMLResponse)
def board(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    return render(request, "board.html", view=match_view(snap, words(request)))


class Fragments:
    """A live fragment of a match's page (``template`` over ``view`` of its snapshot),
    rendered once per snapshot and language: every screen watching the match shares it.
    The snapshot itself is the key, not its match's number and version: those repeat in
    another book (another database in the same process, or one restored from a backup),
    whose match 1 at version 1.0 is another game."""

    def __init__(self, template: str, view: Callable[[Snapshot, i18n.PageWords], object]) -> None:
        self._template = template
        self._view = view
        self._cache: dict[tuple[int, str], tuple[Snapshot, str]] = {}

    def __call__(self, snap: Snapshot, lang: str) -> str:
        hit = self._cache.get((snap.match_id, lang))
        if hit is not None and hit[0] is snap:
            return hit[1]
        t = i18n.PageWords(lang)
        html = templates.get_template(self._template).render(view=self._view(snap, t), t=t, lang=lang)
        self._cache[(snap.match_id, lang)] = (snap, html)
        return html


class BoardFragments(Fragments):
    """The board's live part."""

    def __init__(self) -> None:
        super().__init__("_board.html", match_view)


@router.get("/m/{match_id}/scoresheet", response_class=HTMLResponse)
def scoresheet_page(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    t = words(request)
    text = scoresheet(snap.state, snap.rulings, snap.header.players, t.lang)
    found = place_of(request.app, match_id, t, snap.header.players)
    return render(request, "scoresheet.html", view=match_view(snap, t), sheet=text,
                  again=training.match_positions(snap), place=None if found is None else found.line(t),
                  kept=None if found is None else found.kept)


@router.get("/m/{match_id}/scoresheet.txt")
def scoresheet_text(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    t = words(request)
    found = place_of(request.app, match_id, t, snap.header.players)
    text = scoresheet(snap.state, snap.rulings, snap.header.players, t.lang)
    return PlainTextResponse(text if found is None else f"{found.text(t)}\n\n{text}")


@router.get("/m/{match_id}/export")
def export(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    name = f"match-{match_id}-{_slug(snap.header.players[0])}-{_slug(snap.header.players[1])}.carom.jsonl"
    return Response(snap.text, media_type="application/x-ndjson; charset=utf-8", headers={
        "Content-Disposition": content_disposition(name)})


def place_of(app: Any, match_id: int, t: i18n.PageWords, names: tuple[str, str]) -> Any:
    """Where a tournament's game belongs, for its scoresheets
    (:func:`carom.web.tournaments.sheet.place_of`); ``None`` for a match of no tournament."""
    from carom.web.tournaments.sheet import place_of as found  # the tournaments import the matches

    return found(app, match_id, t, names)


def content_disposition(name: str) -> str:
    """An attachment named ``name`` (RFC 6266): the letters as they are for the browsers
    that read ``filename*`` (all of today's), transliterated for the others."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = "".join(c if c.isalnum() or c in "-._" else "-" for c in plain)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def _slug(name: str) -> str:
    """A name fit for a file name: letters (any script) and digits, the rest a hyphen."""
    return "".join(c if c.isalnum() else "-" for c in name).strip("-") or "player"
