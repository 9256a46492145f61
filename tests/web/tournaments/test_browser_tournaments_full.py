"""Two more tournaments start to finish in Chromium, every game scored on its tablet
(opened from the tournament's page, as the organiser does), the page following live:

- groups, then knock-out: 12 players in 3 groups on 3 tables, made with the organiser's
  form; the group winners and the best runner-up play the semi-finals, one of which is
  drawn and decided on the tablet by the penalty shoot-out, then the final;
- a handicap round robin: 4 players with their targets typed at entry.

Games are to 1 point (to 3 with the handicap) so that a game is a few taps; the
standings and the final ranking are checked against values computed by hand below.
No Content-Security-Policy violation."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect

from tests.web.browser import Watched, log_in, no_sideways_scroll, tap
from tests.web.server import Server

SEEDS = ["Ada", "Ben", "Cid", "Dov", "Eva", "Fay", "Gil", "Hal", "Ivo", "Jan", "Kim", "Lea"]
"""Entered in this order; nobody has an average yet, so the seeds are this order and
the groups are dealt snake-wise: A = Ada, Fay, Gil, Lea; B = Ben, Eva, Hal, Kim;
C = Cid, Dov, Ivo, Jan."""

GROUP_WINNER = {
    # group A: Ada beats all, Fay beats Gil and Lea, Gil beats Lea
    **{frozenset(("Ada", x)): "Ada" for x in ("Fay", "Gil", "Lea")},
    frozenset(("Fay", "Gil")): "Fay", frozenset(("Fay", "Lea")): "Fay", frozenset(("Gil", "Lea")): "Gil",
    # group B: Ben beats all, Eva beats Hal and draws with Kim, Hal beats Kim
    **{frozenset(("Ben", x)): "Ben" for x in ("Eva", "Hal", "Kim")},
    frozenset(("Eva", "Hal")): "Eva", frozenset(("Eva", "Kim")): None, frozenset(("Hal", "Kim")): "Hal",
    # group C: Cid beats all, Dov beats Ivo and draws with Jan, Ivo beats Jan
    **{frozenset(("Cid", x)): "Cid" for x in ("Dov", "Ivo", "Jan")},
    frozenset(("Dov", "Ivo")): "Dov", frozenset(("Dov", "Jan")): None, frozenset(("Ivo", "Jan")): "Ivo",
}
KNOCK_OUT = {frozenset(("Ada", "Fay")): None, frozenset(("Ben", "Cid")): "Ben",
             frozenset(("Ben", "Fay")): "Fay"}
"""Semi-finals Ada–Fay (seed 1 against the best runner-up; drawn, Fay wins the
shoot-out in its second round) and Ben–Cid (Ben), then the final (Fay)."""

# By hand. A game to 1 point lasts one inning for each player (the opener's carom is
# answered by the equalizing inning; a miss by the opener lets the other finish), so
# each player has 3 innings in the group and GD = (wins + draws) / 3, printed cut to three
# decimals (2/3 is 0.666, carom.core.averages); BED and HS are 1 for anyone who scored once.
GROUPS = {
    "A": [["1", "Ada", "3", "6", "3", "3", "1.000"], ["2", "Fay", "3", "4", "2", "3", "0.666"],
          ["3", "Gil", "3", "2", "1", "3", "0.333"], ["4", "Lea", "3", "0", "0", "3", "0.000"]],
    "B": [["1", "Ben", "3", "6", "3", "3", "1.000"], ["2", "Eva", "3", "3", "2", "3", "0.666"],
          ["3", "Hal", "3", "2", "1", "3", "0.333"], ["4", "Kim", "3", "1", "1", "3", "0.333"]],
    "C": [["1", "Cid", "3", "6", "3", "3", "1.000"], ["2", "Dov", "3", "3", "2", "3", "0.666"],
          ["3", "Ivo", "3", "2", "1", "3", "0.333"], ["4", "Jan", "3", "1", "1", "3", "0.333"]],
}
# The three winners are level on everything (MP 6, GD 1, BED 1, HS 1): seeded by id, Ada,
# Ben, Cid; the best runner-up is Fay (MP 4 against Eva's and Dov's 3): seed 4. Final
# ranking: the champion, the finalist, the semi-final losers sharing 3rd (by seed), then
# the others by group place, MP, GD, BED, HS, and id (Dov and Eva are level, so are Gil,
# Hal and Ivo, and Jan and Kim).
RANKING = ["1. Fay", "2. Ben", "3. Ada", "3. Cid", "5. Dov", "6. Eva", "7. Gil", "8. Hal", "9. Ivo",
           "10. Jan", "11. Kim", "12. Lea"]


def playing(page: Page) -> list[dict[str, Any]]:
    """The games the page shows on a table (read at once: the live part is replaced
    every 2 seconds)."""
    return list(page.evaluate("""() => [...document.querySelectorAll(
        '#schedule tr[data-status=playing], #schedule tr[data-status="tie-break"]')].map(r => ({
        match: r.dataset.match, names: r.querySelector('.game-players').innerText.split(' – '),
        link: (r.querySelector('a.tablet-link') || {}).href}))"""))


def caroms(tablet: Page, points: int, *, miss: bool) -> None:
    for _ in range(points):
        tap(tablet, "#btn-carom")
    if miss:
        tap(tablet, "#btn-miss")


def play(tablet: Page, first: str, second: str, winner: str | None, targets: dict[str, int],
         lost: dict[str, int]) -> None:
    """``first`` opens and plays one inning, ``second`` answers: the winner reaches their
    target in it, a loser makes ``lost`` points and misses; both reach theirs in a draw."""
    tap(tablet, f"button:has-text('{first} opens')")
    if winner is None:
        caroms(tablet, targets[first], miss=False)
        caroms(tablet, targets[second], miss=False)
    elif winner == first:
        caroms(tablet, targets[first], miss=False)
        caroms(tablet, lost.get(second, 0), miss=True)
    else:
        caroms(tablet, lost.get(first, 0), miss=True)
        caroms(tablet, targets[second], miss=False)


def shoot_out(tablet: Page, first: str, winner: str) -> None:
    """Both score their first penalties (another round, P3), then ``winner`` scores and
    the other misses."""
    expect(tablet.locator("#t-penalties")).to_be_visible()
    tap(tablet, "#btn-penalty-carom")
    tap(tablet, "#btn-penalty-carom")
    if winner == first:
        tap(tablet, "#btn-penalty-carom")
        tap(tablet, "#btn-penalty-miss")
    else:
        tap(tablet, "#btn-penalty-miss")
        tap(tablet, "#btn-penalty-carom")


def run(page: Page, tablet: Page, games: int, tables: int, decide: Any, done: int = 0) -> None:
    """Score every game on its tablet as the page shows it on a table; check that no
    more games than tables play at once and that the page follows without a reload."""
    for played in range(games):
        expect(page.locator("#schedule tr[data-status=playing]").first).to_be_visible()
        now = playing(page)
        assert 1 <= len(now) <= tables
        assert len({p for g in now for p in g["names"]}) == 2 * len(now)  # nobody plays twice
        game = now[0]
        tablet.goto(game["link"])
        decide(tablet, *game["names"])
        expect(tablet.locator("#result")).to_be_visible()
        row = page.locator(f"#schedule tr[data-match='{game['match']}']")
        expect(row).to_have_attribute("data-status", "done")
        expect(page.locator("#schedule tr[data-status=done]")).to_have_count(done + played + 1)


def table_of(page: Page, group: str) -> list[list[str]]:
    rows = page.locator(f"#standings table[data-group='{group}'] tr[data-player]")
    return [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()[:7]] for i in range(rows.count())]


def create(page: Page, server: Server, **fields: str) -> None:
    page.goto(server.url + "/tournaments")
    form = page.locator("#tournament-form")
    for name, value in fields.items():
        if name in ("mode", "discipline", "seeding"):
            form.locator(f"select[name={name}]").select_option(value)
        elif name == "handicap":
            form.locator("input[name=handicap]").set_checked(True)
        else:
            form.locator(f"input[name={name}]").fill(value)
    form.locator("button[type=submit]").click()
    expect(page).to_have_url(re.compile(r"/tournaments/\d+$"))


def test_groups_then_knock_out_of_twelve_on_three_tables(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768}, has_touch=True)
    page = watched.page()
    log_in(page, sqlite_server)
    create(page, sqlite_server, name="Autumn masters", discipline="three-cushion", points="1",
           mode="groups_knockout", groups="3", tables="3")
    page.locator("#players-form textarea[name=names]").fill("\n".join(SEEDS))
    page.locator("#players-form button[type=submit]").click()
    expect(page.locator("#participants li[data-player]")).to_have_count(12)
    page.locator("#start-form button[type=submit]").click()
    expect(page.locator("#schedule tr[data-game]")).to_have_count(18)  # 3 groups of 4: 6 games each
    expect(page.locator("a.tablet-link")).to_have_count(3)  # three tables, three games

    one = dict.fromkeys(SEEDS, 1)
    tablet = watched.page()

    def group_game(tablet: Page, first: str, second: str) -> None:
        play(tablet, first, second, GROUP_WINNER[frozenset((first, second))], one, {})

    run(page, tablet, 18, 3, group_game)
    for group, expected in GROUPS.items():
        assert table_of(page, group) == expected, group
    # the knock-out: seed 1 against the best runner-up, seeds 2 and 3
    expect(page.locator("#schedule tr[data-game]")).to_have_count(20)
    semis = {frozenset(g["names"]) for g in playing(page)}
    assert semis == {frozenset(("Ada", "Fay")), frozenset(("Ben", "Cid"))}

    def knock_out_game(tablet: Page, first: str, second: str) -> None:
        pair = frozenset((first, second))
        play(tablet, first, second, KNOCK_OUT[pair], one, {})
        if KNOCK_OUT[pair] is None:  # level after the equalizing inning: the shoot-out (P1-P3)
            expect(page.locator("#schedule tr[data-status='tie-break']")).to_have_count(1)
            shoot_out(tablet, first, "Fay")

    run(page, tablet, 3, 2, knock_out_game, done=18)
    expect(page.locator("#champion")).to_contain_text("Fay")
    expect(page.locator("#ranking li")).to_have_count(12)
    assert [" ".join(x.split()) for x in page.locator("#ranking li").all_inner_texts()] == RANKING
    assert page.locator("#bracket .bracket-player.won").all_inner_texts() == ["Fay", "Ben", "Fay"]
    watched.close()


TARGETS = {"Ada": 3, "Ben": 2, "Cid": 2, "Dov": 1}
"""A handicap round robin to 3 points, each player's target typed at entry."""
HANDICAP_WINNER = {frozenset(("Ada", "Ben")): "Ada", frozenset(("Ada", "Cid")): "Ada",
                   frozenset(("Ada", "Dov")): "Dov", frozenset(("Ben", "Cid")): "Ben",
                   frozenset(("Ben", "Dov")): None, frozenset(("Cid", "Dov")): "Cid"}
LOST = {"Ada": 2, "Ben": 1, "Cid": 1, "Dov": 0}
"""What a player makes in a game they lose (short of their target)."""
# By hand, one inning each a game (averages cut to three decimals, 8/3 is 2.666): Ada
# 3+3+2 = 8 points (2 wins: MP 4, GD 8/3, BED 3, HS 3); Ben 1+2+2 = 5 (win, draw: MP 3,
# GD 5/3); Dov 1+1+0 = 2 (win, draw: MP 3, GD 2/3); Cid 1+1+2 = 4 (one win: MP 2, GD 4/3).
# Ben and Dov level on MP: GD decides.
HANDICAP = [["1", "Ada", "3", "4", "8", "3", "2.666", "3.000", "3"],
            ["2", "Ben", "3", "3", "5", "3", "1.666", "2.000", "2"],
            ["3", "Dov", "3", "3", "2", "3", "0.666", "1.000", "1"],
            ["4", "Cid", "3", "2", "4", "3", "1.333", "2.000", "2"]]


def test_a_handicap_round_robin(sqlite_server: Server, browser: Any) -> None:
    watched = Watched(browser, locale="en-GB", viewport={"width": 1024, "height": 768}, has_touch=True)
    page = watched.page()
    log_in(page, sqlite_server)
    create(page, sqlite_server, name="Handicap night", discipline="three-cushion", points="3", tables="2",
           handicap="on")
    page.locator("#players-form textarea[name=names]").fill(
        "\n".join(f"{name}; BC Trnava; {target}" for name, target in TARGETS.items()))
    page.locator("#players-form button[type=submit]").click()
    expect(page.locator("#participants li[data-player]")).to_have_count(4)
    for name, target in TARGETS.items():
        expect(page.locator("#participants li", has_text=name)).to_contain_text(f"target {target}")
    page.locator("#start-form button[type=submit]").click()
    expect(page.locator("#schedule tr[data-game]")).to_have_count(6)
    tablet = watched.page()

    def game(tablet: Page, first: str, second: str) -> None:
        play(tablet, first, second, HANDICAP_WINNER[frozenset((first, second))], TARGETS, LOST)

    run(page, tablet, 6, 2, game)
    expect(page.locator("#champion")).to_contain_text("Ada")
    rows = page.locator("#standings tr[data-player]")
    assert [[c.strip() for c in rows.nth(i).locator("td").all_inner_texts()] for i in range(4)] == HANDICAP
    assert [" ".join(x.split()) for x in page.locator("#ranking li").all_inner_texts()] == [
        "1. Ada", "2. Ben", "3. Dov", "4. Cid"]
    # on a phone the standings and the schedule fit the width, nothing to scroll sideways
    page.set_viewport_size({"width": 390, "height": 844})
    page.reload()
    assert no_sideways_scroll(page)
    assert page.evaluate("""() => [...document.querySelectorAll('#live .table-scroll')].every(
        d => d.scrollWidth <= d.clientWidth + 1)""")
    expect(page.locator("#schedule .round-under").first).to_be_visible()
    watched.close()
