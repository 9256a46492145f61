"""A player's page: their averages, high runs and results over single matches,
tournaments and league games, per discipline and season, the figures federations class
and seed players by (:func:`carom.league.player_stats`, the same sums the league tables
use). A league game counts in its league's season; a tournament game in the season of the
day its result was taken, with the result the tournament keeps; any other match in the
season of the day it was made (July to June: a match of 3 March 2026 is of 2025/26)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime

from fastapi import APIRouter, Request
from fastapi.concurrency import run_in_threadpool
from fastapi.responses import HTMLResponse, Response
from sqlalchemy import select

from carom.competition.day.games import derived
from carom.league import Competition, PlayerGame, PlayerLine, player_stats
from carom.storage import schema
from carom.storage.book import Snapshot
from carom.web.leagues.common import leagues
from carom.web.shared.deps import error_page, render, services, words
from carom.web.tournaments.api import tournaments

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
    """One finished game of the player, as their page lists it and sums it."""

    match_id: int | None
    """Its match (``None``: a tournament result entered from a paper scoresheet)."""
    competition: Competition
    season: str
    when: datetime | None
    discipline: str
    opponent: str
    points: tuple[int, int]
    """The player's, then the opponent's."""
    innings: int
    high_run: int
    outcome: int
    """1 won, 0 drawn, -1 lost."""

    def game(self, player: int) -> PlayerGame:
        return PlayerGame(player, self.season, self.discipline, self.competition, self.points[0],
                          self.innings, self.high_run, self.outcome)


def _from_match(snap: Snapshot, side: int, competition: Competition, season: str,
                when: datetime | None) -> Played:
    st = snap.state
    outcome = 0 if st.winner is None else 1 if st.winner == side else -1
    return Played(snap.match_id, competition, season, when, snap.header.discipline,
                  snap.header.players[1 - side], (st.points_total[side], st.points_total[1 - side]),
                  st.innings_total[side], st.high_run[side], outcome)


def _tournament_games(request: Request, player: int) -> list[Played]:
    """The player's tournament games with the result the tournament keeps (its match's,
    a paper scoresheet's or a correction's; day35's log), in the season of the day the
    result was taken. A walkover (nothing played) and a game annulled by a withdrawal
    (it counts in no standings) are left out."""
    days = tournaments(request).days
    out: list[tuple[Played, int]] = []
    for tid in days.ids():
        state = days.state(tid)
        if state.settings is None or player not in state.players():
            continue
        for game in derived(state).games:
            if player not in game.players or game.taken is None or not game.counts:
                continue
            r, side = game.taken.result, game.players.index(player)
            if r.walkover:
                continue
            outcome = 0 if r.winner is None else 1 if r.winner == side else -1
            out.append((Played(None if game.call is None else game.call.match, Competition.TOURNAMENT,
                               season_of(game.taken.at), game.taken.at, state.settings.discipline, "",
                               (r.points[side], r.points[1 - side]), r.innings[side], r.high_run[side],
                               outcome), game.players[1 - side]))
    if not out:
        return []
    p = schema.players.c
    with days.engine.connect() as connection:
        wanted = sorted({opponent for _, opponent in out})
        names = {int(r.id): r.name for r in connection.execute(select(p.id, p.name).where(p.id.in_(wanted)))}
    return [replace(x, opponent=names.get(opponent, "?")) for x, opponent in out]


def played(request: Request, player: int) -> list[Played]:
    """The player's finished games, newest first, each with its competition and season:
    single matches and league games from their matches, tournament games from the
    tournament's kept results (:func:`_tournament_games`)."""
    book = services(request).book
    league = leagues(request).league_matches()
    with leagues(request).store.engine.connect() as connection:
        m = schema.tournament_matches.c
        tournament = set(connection.execute(select(m.match_id)).scalars())
    made = {m.id: m.created for m in book.store.matches() if m.players is not None and player in m.players}
    out = _tournament_games(request, player)
    for match_id, created in made.items():
        if match_id in tournament:
            continue
        snap = book.snapshot(match_id)
        if not snap.state.finished or snap.players is None:
            continue
        competition = Competition.LEAGUE if match_id in league else Competition.MATCH
        out.append(_from_match(snap, snap.players.index(player), competition,
                               league.get(match_id) or season_of(created), created))
    return sorted(out, key=_newest_first)


def _newest_first(x: Played) -> tuple[float, int]:
    return (-x.when.timestamp() if x.when is not None else 0.0, -(x.match_id or 0))


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
    return render(request, "player.html", player=row, lines=lines_by_competition(sums),
                  totals=player_stats(sums, by_season=False), games=games[:SHOWN_GAMES], shown=SHOWN_GAMES,
                  count=len(games))


@router.get("/players/{player_id}", response_class=HTMLResponse)
async def player_page(request: Request, player_id: int) -> Response:
    return await run_in_threadpool(_page, request, player_id)
