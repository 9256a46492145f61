"""A whole league season read back and shown: how long the pages take when every figure is
computed from the games' matches on each read (docs/leagues.md, "Records, never results").

    .venv/bin/python benchmarks/league_pages.py [--teams 10] [--repeat 15]

Makes, on a fresh SQLite data folder, one division of ``--teams`` teams playing
``dbu-3c-bundesliga`` (four boards): a double round robin, every line-up handed in, every
game an ordinary match played to its end (the home player makes 50 in one inning, the away
player some points in the equalizing inning), every report signed. Then measures, in this
process, the median over ``--repeat`` requests of: reading the season (``Leagues.read``:
the rows, the games' matches from the match book's cache, nothing computed yet), the season
page, the division page, a team page and a meeting page (each computes its tables, results,
promotion and players' figures with :mod:`carom.league`), and one read of a cold match book
(every match replayed from its records). Target: every page under half a second for ten teams.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

from fastapi.testclient import TestClient

sys.path.insert(0, str(Path(__file__).parent.parent))
from carom.league import double_round_robin
from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.storage.leagues import Leagues
from carom.web.app import create_app


def sheets(teams: int) -> tuple[str, str, str]:
    divisions = "division;format\nliga;dbu-3c-bundesliga\n"
    players = "".join(f"liga;Club {t};Team {t};Player {t}-{n}\n"
                      for t in range(1, teams + 1) for n in range(1, 5))
    first = datetime(2040, 9, 1, 14, 0)
    days = 2 * (teams - 1 + teams % 2)
    starts = [first + timedelta(weeks=w) for w in range(days)]
    fixtures = double_round_robin("liga", list(range(1, teams + 1)), starts)
    rows = "".join(f"liga;{f.round};{f.start:%d.%m.%Y};14:00;Team {f.home};Team {f.away}\n" for f in fixtures)
    return (divisions, "division;club;team;player\n" + players,
            "division;round;date;time;home;away\n" + rows)


def play_season(office: Leagues, teams: int) -> int:
    season_id = office.create_season("Benchmark league", "2040/41", *sheets(teams))
    s = office.read(season_id)
    for number, fixture in enumerate(s.fixtures):
        when = fixture.start - timedelta(days=1)
        office.submit_lineup(fixture.id, fixture.home, list(s.season.roster(fixture.home)), when)
        matches = office.submit_lineup(fixture.id, fixture.away, list(s.season.roster(fixture.away)), when)
        for board, match_id in enumerate(matches):
            away = (number + board) % 50
            records: list[dict[str, object]] = [
                {"type": "opener", "player": 0}, {"type": "inning", "points": 50},
                {"type": "inning", "points": away}]
            office.book.append_many(match_id, 0, list(records), office.book.live(match_id).token)
        office.sign_report(fixture.id, fixture.home)
        office.sign_report(fixture.id, fixture.away)
    return season_id


def median_ms(run: object, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(Path(folder))
        book = MatchBook(store)
        office = Leagues(book)
        start = time.perf_counter()
        season_id = play_season(office, args.teams)
        s = office.read(season_id)
        games = sum(len(g) for g in s.games.values())
        print(f"{args.teams} teams, {len(s.fixtures)} meetings, {games} games made and played in "
              f"{time.perf_counter() - start:.1f} s")
        app = create_app(book)
        app.state.leagues = office
        with TestClient(app) as client:
            fixture = s.fixtures[len(s.fixtures) // 2]
            pages = {"the season read": lambda: office.read(season_id),
                     "season page": lambda: client.get(f"/leagues/{season_id}"),
                     "division page": lambda: client.get(f"/leagues/{season_id}/divisions/liga"),
                     "team page": lambda: client.get(f"/leagues/{season_id}/teams/{fixture.home}"),
                     "meeting page": lambda: client.get(f"/leagues/meetings/{fixture.id}"),
                     "table as CSV": lambda: client.get(f"/api/leagues/{season_id}/divisions/liga/table.csv")}
            for name, run in pages.items():
                print(f"{name}: median {median_ms(run, args.repeat):.1f} ms over {args.repeat}")
        cold = Leagues(MatchBook(store))
        start = time.perf_counter()
        cold.read(season_id)
        print(f"the season read with a cold match book (every match replayed): "
              f"{(time.perf_counter() - start) * 1000:.0f} ms")
        store.close()


if __name__ == "__main__":
    main()
