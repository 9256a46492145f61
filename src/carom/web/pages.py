"""The public pages: the list of matches, the audience board (live), the scoresheet,
the export, the players' statistics, the language switch."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response

from carom.match.stats import player_stats
from carom.notation.scoresheet import scoresheet
from carom.storage.book import Snapshot
from carom.web import i18n
from carom.web.deps import language, render, services, templates
from carom.web.views import fmt_avg, match_view

router = APIRouter(include_in_schema=False)
KEEPALIVE = 15.0


@router.get("/", response_class=HTMLResponse)
def home(request: Request) -> Response:
    snaps = services(request).book.snapshots()
    return render(request, "home.html", rows=[_row(s, request) for s in snaps])


def _row(snap: Snapshot, request: Request) -> dict[str, Any]:
    view = match_view(snap, i18n.Words(language(request)))
    return {"view": view, "snap": snap}


@router.get("/lang/{code}")
def switch_language(code: str, next: str = "/") -> Response:
    target = next if next.startswith("/") and not next.startswith("//") else "/"
    response = RedirectResponse(target, status_code=303)
    if code in i18n.LANGUAGES:
        response.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="lax")
    return response


@router.get("/m/{match_id}", response_class=HTMLResponse)
def board(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    return render(request, "board.html", view=match_view(snap, i18n.Words(language(request))))


class BoardFragments:
    """The board's live part, rendered once per match, record and language."""

    def __init__(self) -> None:
        self._cache: dict[tuple[int, str], tuple[int, str]] = {}

    def __call__(self, snap: Snapshot, lang: str) -> str:
        hit = self._cache.get((snap.match_id, lang))
        if hit is not None and hit[0] == snap.seq:
            return hit[1]
        t = i18n.Words(lang)
        html = templates.get_template("_board.html").render(view=match_view(snap, t), t=t, lang=lang)
        self._cache[(snap.match_id, lang)] = (snap.seq, html)
        return html


@router.get("/m/{match_id}/scoresheet", response_class=HTMLResponse)
def scoresheet_page(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    t = i18n.Words(language(request))
    text = scoresheet(snap.state, snap.rulings, snap.header.players, t.lang)
    return render(request, "scoresheet.html", view=match_view(snap, t), sheet=text)


@router.get("/m/{match_id}/scoresheet.txt")
def scoresheet_text(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    return PlainTextResponse(scoresheet(snap.state, snap.rulings, snap.header.players, language(request)))


@router.get("/m/{match_id}/export")
def export(request: Request, match_id: int) -> Response:
    snap = services(request).book.snapshot(match_id)
    a, b = (_slug(n) for n in snap.header.players)
    return Response(snap.text, media_type="application/x-ndjson; charset=utf-8", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}-{a}-{b}.carom.jsonl"'})


def _slug(name: str) -> str:
    return "".join(c if c.isascii() and c.isalnum() else "-" for c in name).strip("-") or "player"


@dataclass
class Line:
    """One player's record in one discipline."""

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


def statistics(snaps: list[Snapshot]) -> dict[str, list[Line]]:
    """Per discipline, per player, over the finished matches: general average (total
    points ÷ total innings), best game average, high run, matches won."""
    lines: dict[tuple[str, str], Line] = {}
    for snap in snaps:
        if not snap.state.finished:
            continue
        d = snap.header.discipline
        for p, stats in enumerate(player_stats(snap.state)):
            name = snap.header.players[p]
            line = lines.setdefault((d, name), Line(name, d))
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
        group.sort(key=lambda x: (-x.general, x.name))
    return out


@router.get("/players", response_class=HTMLResponse)
def players(request: Request) -> Response:
    groups = statistics(services(request).book.snapshots())
    return render(request, "players.html", groups=groups, fmt=fmt_avg)


@router.get("/healthz")
def healthz() -> Response:
    return PlainTextResponse("ok")
