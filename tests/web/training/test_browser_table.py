"""The training table end to end in Debian's Chromium: balls dragged into a position (mouse
and finger), an aim, Play, the animation ending with the ruling; suggestions, one played;
a shared address giving the same stroke and the same ruling; no CSP violation."""

from __future__ import annotations

import math
import re
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import expect

from tests.web.browser import Watched
from tests.web.server import Server
from tests.web.training.table_page import SCORING, drag, on_screen, play, positions, set_range, touch_drag

pytestmark = pytest.mark.warm_pool  # its pages simulate, fit or track at once


@pytest.fixture(scope="module")
def sqlite_server(shared_sqlite_server: Server) -> Server:
    """One server for the module's tests: each makes what it looks at."""
    return shared_sqlite_server


R = 0.03075


def test_drag_the_balls_aim_and_play(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1600, "height": 900})
    page = watched.page()
    page.goto(sqlite_server.url + "/table")
    page.click("#mode-place")
    drag(page, (0.71, 2.13), (1.0, 1.6))  # red
    drag(page, (0.71, 0.71), (0.40, 1.20))  # yellow
    got = positions(page)
    assert math.dist(got["red"], [1.0, 1.6]) < 0.01 and math.dist(got["yellow"], [0.40, 1.20]) < 0.01
    drag(page, (0.40, 1.20), tuple(got["white"]))  # onto white: it stops touching, never overlapping
    got = positions(page)
    assert math.dist(got["yellow"], got["white"]) >= 2 * R - 1e-6
    drag(page, tuple(got["yellow"]), (0.40, 1.20))
    drag(page, tuple(got["red"]), (5.0, 9.0))  # off the table: it stays inside the cushions
    got = positions(page)
    assert R - 1e-6 <= got["red"][0] <= 1.42 - R + 1e-6 and R - 1e-6 <= got["red"][1] <= 2.84 - R + 1e-6
    query = parse_qs(urlsplit(page.url).query)
    assert [float(v) for v in query["r"][0].split(",")] == [round(v, 4) for v in got["red"]]

    page.click("#mode-aim")
    white, red = got["white"], got["red"]
    drag(page, (white[0], white[1]), (red[0], red[1]))  # from the cue ball towards red
    direction = math.degrees(math.atan2(red[1] - white[1], red[0] - white[0])) % 360
    shown = float(page.evaluate("window.caromTable.strike().direction"))
    assert abs(shown - direction) < 1.0
    set_range(page, "#speed", 2.5)
    page.locator("#tip").click(position={"x": 48, "y": 30})  # a little above the centre: follow
    strike = page.evaluate("window.caromTable.strike()")
    assert strike["speed"] == 2.5 and strike["height"] > 0.1
    result = play(page)
    assert result["contacts"][0].startswith("ball 2: red")  # straight onto red
    assert re.search(r"C1", result["cites"] or "")
    assert len(result["frames"]) > 20
    assert float(page.evaluate("window.caromTable.strike().direction")) == shown  # the stroke stays
    watched.close()


def test_a_finger_places_a_ball_and_aims(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="de-DE", viewport={"width": 1024, "height": 768}, has_touch=True)
    page = watched.page()
    page.goto(sqlite_server.url + "/table")
    page.locator("#mode-place").tap()
    touch_drag(page, (0.71, 2.13), (0.9, 1.9))
    assert math.dist(positions(page)["red"], [0.9, 1.9]) < 0.01
    page.locator("#mode-aim").tap()
    touch_drag(page, (0.892, 0.71), (0.892, 1.5))  # straight up the table
    assert abs(float(page.evaluate("window.caromTable.strike().direction")) - 90.0) < 0.5
    result = play(page)
    assert result["contacts"] and result["ruling"]
    assert "Bande 1" in " ".join(result["contacts"])  # German words
    watched.close()


def test_suggestions_each_play_with_one_click(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="sk-SK", viewport={"width": 1600, "height": 900})
    page = watched.page()
    page.goto(sqlite_server.url + "/table")
    page.click("#suggest")
    first = page.locator("#suggestion-1")
    expect(first).to_be_visible(timeout=60_000)
    assert re.search(r"šanca \d+ %", first.inner_text())
    page.evaluate("window.caromTable.frames = []")
    first.click()
    expect(page.locator("#trainer")).to_have_attribute("data-state", "done", timeout=60_000)
    assert page.locator("#ruling").get_attribute("data-points") == "1"  # it scores as found
    assert "bod" in page.locator("#ruling").inner_text()
    watched.close()


def test_a_shared_address_gives_the_same_stroke_and_ruling(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1600, "height": 900})
    coach = watched.page()
    coach.goto(f"{sqlite_server.url}/table?{SCORING}")
    coach.click("#mode-place")
    drag(coach, (0.71, 2.13), (0.74, 2.10))  # red nudged: the point still stands or not, alike
    first = play(coach)
    shared = coach.url
    assert "r=0.74" in shared
    pupil = watched.page()
    pupil.goto(shared)
    again = play(pupil)
    assert again["ruling"] == first["ruling"] and again["cites"] == first["cites"]
    assert again["contacts"] == first["contacts"]
    assert pupil.evaluate("window.caromTable.strike()") == coach.evaluate("window.caromTable.strike()")
    coach.select_option("#discipline", "balkline-47/2")  # another discipline: the same position
    expect(coach.locator("#table-svg .zone.anchor").first).to_be_attached()
    assert "d=balkline-47%2F2" in coach.url
    assert math.dist(positions(coach)["red"], [0.74, 2.10]) < 0.001
    scoring = watched.page()
    scoring.goto(f"{sqlite_server.url}/table?{SCORING}")
    assert play(scoring)["points"] == "1"
    assert on_screen(scoring, 0.0, 0.0) != on_screen(scoring, 1.42, 2.84)
    watched.close()


def test_slow_motion_plays_at_a_quarter_of_real_time(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1280, "height": 800})
    page = watched.page()
    page.goto(f"{sqlite_server.url}/table?s=0.1&a=90")
    page.check("#slow")
    frames = play(page)["frames"]
    stroke = float(page.evaluate("window.caromTable.state.last.stroke.paths.white.at(-1)[0]"))
    assert 0.5 < stroke < 5.0
    assert (frames[-1] - frames[0]) / 1000 >= 3.5 * stroke  # real time ×4, less a frame or two
    expect(page.locator("#ruling")).to_contain_text("No point")
    watched.close()
