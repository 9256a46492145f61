"""Screenshots of a club day from the organiser's side, for docs/tournaments.md ("The organiser's desk").

    .venv/bin/python tools/docs_screenshots.py [--out docs/img] [--width 1280 --height 800]

Starts ``carom serve`` on a fresh SQLite data folder in a temporary directory, logs in as
the organiser and sets the day up through the JSON API: three tables in the hall, a round
robin of seven players on them, started; table 1's game played through the API and
confirmed, table 2's result typed from its paper scoresheet, then unlocked and corrected
with a reason; a player withdrawn with a reason; the next games begun on the freed tables.
Then Debian's Chromium, driven by Playwright, takes the pictures (PNG, at most
``--max-kb`` each, reduced to a palette when bigger):

- ``desk.png``: the top of the organiser's desk (``/tournaments/{id}/desk``);
- ``desk-audit.png``: the desk's audit view (the tournament's log, newest first);
- ``desk-tournament.png``: the tournament's page with its standings;
- ``desk-hall.png``: the hall monitor with the tables and the standings.

Prints each file it wrote with its size. Needs the ``dev`` extra (Playwright, httpx) and
``/usr/bin/chromium``.
"""

from __future__ import annotations

import argparse
import io
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ORGANISER = "organiser"
PASSWORD = "organiser-secret"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run", "--disable-gpu", "--disable-dev-shm-usage"]
TABLES = ("1", "2", "3")
PLAYERS = ("Daniel Šimko", "Barbora Hrušková", "Ján Kováč", "Eva Baranová", "Peter Horváth",
           "Anna Nováková", "Marek Polák")
POINTS = 15


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Screenshots of a club day from the organiser's side (the desk, its audit view, "
                    "the tournament's standings, the hall monitor), taken in Chromium on a fresh "
                    "temporary server.")
    parser.add_argument("--out", type=Path, default=Path("docs/img"),
                        help="the folder for the PNGs (docs/img)")
    parser.add_argument("--width", type=int, default=1280, help="the browser's width in CSS pixels (1280)")
    parser.add_argument("--height", type=int, default=800, help="the browser's height in CSS pixels (800)")
    parser.add_argument("--max-kb", type=int, default=150, help="the largest PNG wanted, in KB (150)")
    parser.add_argument("--locale", default="en-GB",
                        help="the browser's language, which the pages follow (en-GB; sk-SK, de-DE)")
    parser.add_argument("--chromium", default=CHROMIUM, help=f"the Chromium to drive ({CHROMIUM})")
    return parser.parse_args(argv)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def serve(data: Path) -> Iterator[str]:
    """``carom serve`` on ``data`` (SQLite), with the organiser's password; yields its URL."""
    import httpx

    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    log = open(data.parent / "server.log", "ab")  # noqa: SIM115
    process = subprocess.Popen([sys.executable, "-m", "carom.cli.main", "serve", "--port", str(port),
                                "--host", "127.0.0.1", "--data", str(data), "--organiser-password", PASSWORD],
                               stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                raise SystemExit(f"carom serve exited with {process.returncode}: see {log.name}")
            try:
                if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise SystemExit("carom serve did not answer within 120 s")
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def _ok(response: Any) -> Any:
    if response.status_code >= 400:
        request = response.request
        raise SystemExit(f"{request.method} {request.url}: {response.status_code} {response.text}")
    return response.json()


def organiser_client(url: str) -> Any:
    """An HTTP client with the organiser's session and its anti-forgery token."""
    import httpx

    client = httpx.Client(base_url=url, timeout=30)
    client.post("/login", data={"name": ORGANISER, "password": PASSWORD, "next": "/organiser"})
    client.headers["X-CSRF-Token"] = _ok(client.get("/api/session"))["csrf"]
    return client


def _on_table(client: Any, tid: int, table: int) -> dict[str, Any]:
    games = _ok(client.get(f"/api/tournaments/{tid}/games"))
    return next(g for g in games if g["status"] == "playing" and g["table"] == table)


def _innings(client: Any, game: dict[str, Any], points: tuple[int, ...]) -> None:
    """Player 0 opens, then one inning each in turn of ``points``, sent as the table's tablet
    sends them, with the game's referee token."""
    seq = 0
    records = [{"type": "opener", "player": 0}, *({"type": "inning", "points": p} for p in points)]
    for record in records:
        answer = client.post(f"/api/matches/{game['match']}/records", json={"after": seq, "record": record},
                             headers={"X-Referee-Token": game["referee_token"]})
        seq = _ok(answer)["seq"]


def _tournament(client: Any) -> int:
    """The hall's tables, the tournament on them and its players; returns its id."""
    for order, name in enumerate(TABLES, start=1):
        _ok(client.post("/api/tables", json={"name": name, "size": "large", "order": order}))
    tid = int(_ok(client.post("/api/tournaments", json={
        "name": "Club day", "discipline": "three-cushion", "points": POINTS, "tables": len(TABLES)}))["id"])
    _ok(client.post(f"/api/tournaments/{tid}/tables", json={"tables": list(TABLES)}))
    _ok(client.post(f"/api/tournaments/{tid}/players", json={"players": [{"name": n} for n in PLAYERS]}))
    return tid


def club_day(url: str) -> int:
    """The day's first hour through the API; returns the tournament's id."""
    client = organiser_client(url)
    tid = _tournament(client)
    started = _ok(client.post(f"/api/tournaments/{tid}/start"))["games"]
    resting = next(p["player"] for p in _ok(client.get(f"/api/tournaments/{tid}"))["participants"]
                   if not any(p["player"] in g["players"] for g in started if g["status"] == "playing"))
    played = _on_table(client, tid, 1)
    first, second = (2, 0, 1, 3, 0, 1, 2, 0, 4, 2), (1, 0, 2, 0, 1, 0, 3, 1, 0, 1)  # 15:9, then the equalizer
    _innings(client, played, tuple(p for pair in zip(first, second, strict=True) for p in pair))
    _ok(client.post(f"/api/matches/{played['match']}/confirm"))
    paper = f"/api/tournaments/{tid}/games/{_on_table(client, tid, 2)['id']}"
    sheet = {"innings": [24, 24], "high_run": [4, 3]}
    _ok(client.post(f"{paper}/result", json={"points": [POINTS, 11], **sheet}))
    _ok(client.post(f"{paper}/unlock", json={"reason": "the scoresheet's total is 12, not 11"}))
    _ok(client.post(f"{paper}/correction", json={"points": [POINTS, 12], **sheet,
                                                 "reason": "added up again from the scoresheet"}))
    _ok(client.post(f"/api/tournaments/{tid}/players/{resting}/withdraw",
                    json={"reason": "called away to work"}))
    playing = [g for g in _ok(client.get(f"/api/tournaments/{tid}/games")) if g["status"] == "playing"]
    for game, innings in zip(playing, ((3, 1, 0, 2, 1), (1, 2, 2), (0, 4, 1, 1, 0, 2)), strict=False):
        _innings(client, game, innings)
    client.close()
    return tid


def save(png: bytes, path: Path, max_kb: int) -> None:
    """The PNG as taken, or reduced to 256 colours (Pillow) when bigger than ``max_kb`` and
    that makes it smaller."""
    if len(png) > max_kb * 1024:
        from PIL import Image

        reduced = io.BytesIO()
        Image.open(io.BytesIO(png)).convert("RGB").quantize(256).save(reduced, "PNG", optimize=True)
        png = min(png, reduced.getvalue(), key=len)
    path.write_bytes(png)
    note = "" if len(png) <= max_kb * 1024 else f" (over {max_kb} KB)"
    print(f"wrote {path} ({len(png) // 1024} KB){note}")


def _audit_clip(page: Any, width: int, height: int) -> dict[str, float]:
    """The audit view from its heading down to its last row that fits in ``height``."""
    top = page.locator("#desk-audit").evaluate("e => e.getBoundingClientRect().top + scrollY")
    bottoms = page.locator("#desk-audit tbody tr").evaluate_all(
        "rows => rows.map(r => r.getBoundingClientRect().bottom + scrollY)")
    bottom = max([b for b in bottoms if b - top <= height] or [top + height])
    return {"x": 0, "y": top, "width": width, "height": bottom - top + 8}


def shots(url: str, tid: int, args: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    viewport = {"width": args.width, "height": args.height}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_context(viewport=viewport, locale=args.locale).new_page()
        page.goto(f"{url}/login")
        page.fill("#login-form input[name=name]", ORGANISER)
        page.fill("#login-form input[name=password]", PASSWORD)
        page.click("#login-form button[type=submit]")
        page.wait_for_url("**/organiser")
        page.goto(f"{url}/tournaments/{tid}/desk")
        page.locator("#desk-players tr[data-player] details summary").last.click()
        page.wait_for_timeout(300)
        save(page.screenshot(), args.out / "desk.png", args.max_kb)
        save(page.screenshot(full_page=True, clip=_audit_clip(page, args.width, args.height)),
             args.out / "desk-audit.png", args.max_kb)
        page.goto(f"{url}/tournaments/{tid}")
        page.locator("#standings").scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        save(page.screenshot(), args.out / "desk-tournament.png", args.max_kb)
        page.goto(f"{url}/hall?kiosk=1")
        page.wait_for_timeout(600)
        save(page.screenshot(), args.out / "desk-hall.png", args.max_kb)
        browser.close()


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    with tempfile.TemporaryDirectory(prefix="carom-shots-") as tmp, serve(Path(tmp) / "data") as url:
        shots(url, club_day(url), args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
