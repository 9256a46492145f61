"""The public pages: the list of matches, the audience board (live), the scoresheet,
the export, the players' statistics, the language switch."""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from urllib.parse import quote

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from carom.match.stats import player_stats
from carom.notation.scoresheet import scoresheet
from carom.notation.words import LANGUAGES
from carom.storage.book import Snapshot
from carom.storage.players import name_key
from carom.web import i18n, training
from carom.web.deps import render, services, templates, words
from carom.web.views import match_view

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    t = words(request)
    rows = [{"view": match_view(s, t)} for s in services(request).book.snapshots()]
    return render(request, "home.html", rows=rows)


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") and "\\" not in next else "/"
    response = RedirectResponse(target, status_code=303)
    if code in LANGUAGES:
        response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/m/{match_id}", response_class=HTMLResponse)
def board(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    return render(request, "board.html", view=match_view(snap, words(request)))


class Fragments:
    """A live fragment of a match's page (``template`` over ``view`` of its snapshot),
    rendered once per match, version and language: every screen watching the match
    shares it."""

    def __init__(self, template: str, view: Callable[[Snapshot, i18n.PageWords], object]) -> None:
        self._template = template
        self._view = view
        self._cache: dict[tuple[int, str], tuple[str, str]] = {}

    def __call__(self, snap: Snapshot, lang: str) -> str:
        hit = self._cache.get((snap.match_id, lang))
        if hit is not None and hit[0] == snap.version:
            return hit[1]
        t = i18n.PageWords(lang)
        html = templates.get_template(self._template).render(view=self._view(snap, t), t=t, lang=lang)
        self._cache[(snap.match_id, lang)] = (snap.version, html)
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
    return render(request, "scoresheet.html", view=match_view(snap, t), sheet=text,
                  again=training.match_positions(snap))


@router.get("/m/{match_id}/scoresheet.txt")
def scoresheet_text(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    return PlainTextResponse(scoresheet(snap.state, snap.rulings, snap.header.players, words(request).lang))


@router.get("/m/{match_id}/export")
def export(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    name = f"match-{match_id}-{_slug(snap.header.players[0])}-{_slug(snap.header.players[1])}.carom.jsonl"
    return Response(snap.text, media_type="application/x-ndjson; charset=utf-8", headers={
        "Content-Disposition": content_disposition(name)})


def content_disposition(name: str) -> str:
    """An attachment named ``name`` (RFC 6266): the letters as they are for the browsers
    that read ``filename*`` (all of today's), transliterated for the others."""
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode()
    plain = "".join(c if c.isalnum() or c in "-._" else "-" for c in plain)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(name, safe='')}"


def _slug(name: str) -> str:
    """A name fit for a file name: letters (any script) and digits, the rest a hyphen."""
    return "".join(c if c.isalnum() else "-" for c in name).strip("-") or "player"


@dataclass
class Line:
    """One player's record in one discipline."""

    player: str
    """The player's id (``name:…`` for a match stored without players)."""
    name: str
    discipline: str
    played: int = 0
    won: int = 0
    points: int = 0
    innings: int = 0
    best: Fraction = Fraction(0)
    high_run: int = 0

    @property
    def general(self) -> Fraction:
        return Fraction(self.points, self.innings) if self.innings else Fraction(0)


def statistics(snaps: list[Snapshot], names: dict[int, str] | None = None) -> dict[str, list[Line]]:
    """Per discipline, per player (by identity, not by name), over the finished
    matches: general average (total points ÷ total innings), best game average, high
    run, matches won. ``names``: the players' names by id (else the headers')."""
    lines: dict[tuple[str, str], Line] = {}
    for snap in snaps:
        if not snap.state.finished:
            continue
        d = snap.header.discipline
        for p, stats in enumerate(player_stats(snap.state)):
            name = snap.header.players[p]
            who = f"{snap.players[p]}" if snap.players else f"name:{name_key(name)}"
            shown = (names or {}).get(snap.players[p], name) if snap.players else name
            line = lines.setdefault((d, who), Line(who, shown, d))
            line.played += 1
            line.won += snap.state.winner == p
            line.points += stats.points
            line.innings += stats.innings
            line.best = max(line.best, stats.best_game_average)
            line.high_run = max(line.high_run, stats.high_run)
    out: dict[str, list[Line]] = {}
    for (d, _), line in sorted(lines.items()):
        out.setdefault(d, []).append(line)
    for group in out.values():
        group.sort(key=lambda x: (-x.general, x.name, x.player))
    return out


@router.get("/players", response_class=HTMLResponse)
def players(request: Request) -> Response:
    svc = services(request)
    names = {p.id: p.name for p in svc.book.store.players()}
    return render(request, "players.html", groups=statistics(svc.book.snapshots(), names))


@router.get("/healthz")
def healthz() -> Response:
    return PlainTextResponse("ok")
