"""The hall monitor with the club's tables: a card per registered table in the hall's order
(its game under way, else what it plays next), each running tournament's standings top
and next games, and the live channel sending the block again when a table moves on."""

from __future__ import annotations

import asyncio
import re
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from carom.web.hall.pages import HallFeed, live_ids
from carom.web.hall.start import HallStart
from tests.web.tables.helpers import (
    CAROM,
    MISS,
    OPENER,
    add_table,
    new_match,
    pair,
    put,
    start_tournament,
    write,
)


def test_the_hall_shows_each_table_and_a_running_tournament(organiser: Any, stranger: Any) -> None:
    add_table(organiser, "Two", 2)
    add_table(organiser, "One", 1)
    add_table(organiser, "Three", 3)
    match = new_match(organiser, "Emil", "Fero")
    put(organiser, "Three", match)
    started = start_tournament(organiser, ["One", "Two"], ("Anna", "Boris", "Cyril", "Dana"), "Evening cup")
    pair(organiser, stranger, "Three")
    assert write(stranger, match, 0, OPENER).status_code == 201
    page = stranger.get("/hall?lang=en").text
    names = re.findall(r'<h2 class="hall-table-name">Table (\w+)</h2>', page)
    assert names == ["One", "Two", "Three"]  # the hall's order
    three = page[page.index("Table Three"):]
    assert f'id="table-{match}"' in three and "Emil" in three  # the match under way, as its card
    assert page.count(f'id="table-{match}"') == 1  # not again among the cards below
    playing = [g for g in started["games"] if g["status"] == "playing"]
    assert len(playing) == 2
    for game in playing:  # called, not begun: what the table plays next
        assert "Next: " + " – ".join(game["names"]) in page
    box = page[page.index('id="hall-tournament-'):]
    assert "Evening cup" in box and "Group A" in box and "Next games" in box
    waiting = [g for g in started["games"] if g["status"] == "waiting"]
    assert " – ".join(waiting[0]["names"]) in box


def test_the_hall_without_tables_is_as_before(organiser: Any, client: Any) -> None:
    page = client.get("/hall?lang=en").text
    assert 'id="hall-tables" class="hall-tables"></div>' in page and "No match is being played." in page


def test_the_halls_channel_sends_the_tables_block_when_a_table_moves_on(app: Any, organiser: Any,
                                                                     stranger: Any) -> None:
    add_table(organiser, "1", 1)
    first, second = new_match(organiser, "Anna", "Boris"), new_match(organiser, "Cyril", "Dana")
    put(organiser, "1", first)
    put(organiser, "1", second)
    pair(organiser, stranger, "1")
    services = app.state.services

    async def scenario() -> list[list[tuple[str, int, str]]]:
        start = HallStart(services.hub, lambda: asyncio.to_thread(live_ids, services.book),
                          app.state.hall_tables)
        feed = HallFeed(services.book, services.hub, None, "en", start)
        seen = [await feed.first()]
        await asyncio.to_thread(lambda: [write(stranger, first, seq, record).raise_for_status()
                                         for seq, record in enumerate((OPENER, CAROM, CAROM, MISS))])
        services.hub.publish(first, "4.0")
        seen.append(await feed.next(2))
        for player in (0, 1):
            await asyncio.to_thread(lambda p=player: stranger.post(f"/api/matches/{first}/confirm",
                                                                 json={"player": p}).raise_for_status())
        seen.append(await feed.next(2))
        feed.close()
        return seen

    with ThreadPoolExecutor(1) as pool:
        opened, played, confirmed = pool.submit(asyncio.run, scenario()).result(timeout=30)
    assert [e[0] for e in opened] == ["tables"] and "Next: Anna – Boris" in opened[0][2]
    assert [e[0] for e in played] == ["tables"]  # its card is in the block, not below it
    assert f'id="table-{first}"' in played[0][2] and "Next: Cyril – Dana" in played[0][2]
    assert [e[0] for e in confirmed] == ["tables"] and "Next: Cyril – Dana" in confirmed[0][2]
    assert f'id="table-{first}"' not in confirmed[0][2]
