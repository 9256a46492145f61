"""A player's page: their averages, high runs and results over single matches,
tournaments and league games, per discipline and season, the figures federations class
and seed players by (:func:`carom.league.player_stats`, the same sums the league tables
use). A league game counts in its league's season; any other match in the season of the
day it was made (July to June: a match of 3 March 2026 is of 2025/26)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select

from carom.league import Competition, PlayerGame, PlayerLine, player_stats
from carom.storage import schema
from carom.storage.book import Snapshot
from carom.web.leagues.common import leagues
from carom.web.shared.deps import error_page, render, services, words

router = APIRouter(include_in_schema=False)
SHOWN_GAMES = 100


def season_of(day: datetime | None) -> str:
    """The season a day belongs to, July to June ("2025/26"); "" when unknown."""
    if day is None:
        return ""
    first = day.year if day.month >= 7 else day.year - 1
    return f"{first}/{(first + 1) % 100:02d}"


@dataclass(frozen=True, slots=True)
class Played:
    """One finished game of the player, as their page lists it."""

    snapshot: Snapshot
    side: int
    competition: Competition
    season: str
    when: datetime | None

    @property
    def outcome(self) -> int:
        winner = self.snapshot.state.winner
        return 0 if winner is None else 1 if winner == self.side else -1

    def game(self, player: int) -> PlayerGame:
        st = self.snapshot.state
        return PlayerGame(player, self.season, self.snapshot.header.discipline, self.competition,
                          st.points_total[self.side], st.innings_total[self.side], st.high_run[self.side],
                          self.outcome)


def played(request: Request, player: int) -> list[Played]:
    """The player's finished games, newest first, each with its competition and season."""
    book = services(request).book
    league = leagues(request).league_matches()
    with leagues(request).store.engine.connect() as connection:
        g = schema.games.c
        tournament = set(connection.execute(select(g.match_id).where(g.match_id.is_not(None))).scalars())
    made = {m.id: m.created for m in book.store.matches() if m.players is not None and player in m.players}
    out = []
    for match_id, created in sorted(made.items(), reverse=True):
        snap = book.snapshot(match_id)
        if not snap.state.finished or snap.players is None:
            continue
        competition = (Competition.LEAGUE if match_id in league else
                       Competition.TOURNAMENT if match_id in tournament else Competition.MATCH)
        out.append(Played(snap, snap.players.index(player), competition,
                           league.get(match_id) or season_of(created), created))
    return out


def lines_by_competition(games: list[PlayerGame]) -> dict[str, list[PlayerLine]]:
    """The player's lines per discipline and season: every competition together, then each."""
    out = {"all": player_stats(games)}
    for competition in Competition:
        out[competition.value] = player_stats(games, competitions={competition})
    return out


def _page(request: Request, player_id: int) -> Response:
    p = schema.players.c
    with leagues(request).store.engine.connect() as connection:
        row = connection.execute(select(p.id, p.name, p.club, p.licence).where(p.id == player_id)).first() \
            if 0 < player_id < 2**31 else None
    if row is None:
        return error_page(request, 404, words(request).gettext("There is no player %(number)s.",
                                                               number=player_id))
    games = played(request, player_id)
    sums = [x.game(player_id) for x in games]
    rows: list[dict[str, Any]] = []
    for x in games[:SHOWN_GAMES]:
        names = x.snapshot.header.players
        st = x.snapshot.state
        rows.append({"match": x.snapshot.match_id, "played": x, "opponent": names[1 - x.side],
                     "score": (st.points_total[x.side], st.points_total[1 - x.side]),
                     "innings": st.innings_total[x.side]})
    return render(request, "player.html", player=row, lines=lines_by_competition(sums),
                  totals=player_stats(sums, by_season=False), games=rows, shown=SHOWN_GAMES, count=len(games))


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: int) -> Response:
    return await run_in_threadpool(_page, request, player_id)
