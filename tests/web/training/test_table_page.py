"""``/table``, the training table's page: its start from the address or from a match's
stroke, what it cannot use turned into a notice (never an error), the scoresheet's links
to it, its words in every language."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.browser import OPENER, calls, enter

Match = tuple[int, str]


def config(html: str) -> dict[str, Any]:
    found = re.search(r'<script type="application/json" id="table-config">(.*?)</script>', html, re.DOTALL)
    assert found is not None
    return dict(json.loads(found.group(1)))


def test_the_table_starts_from_the_starting_position(client: Any) -> None:
    response = client.get("/table")
    assert response.status_code == 200
    got = config(response.text)
    assert got["discipline"] == "three-cushion" and got["table"] == "large" and got["ball"] == "white"
    assert got["position"] == {"white": [0.892, 0.71], "yellow": [0.71, 0.71], "red": [0.71, 2.13]}
    assert got["solvable"] is True
    assert 'class="carom-table"' in response.text and 'class="diamond"' in response.text
    assert "script-src 'self'" in response.headers["content-security-policy"]


def test_the_address_holds_position_and_stroke(client: Any) -> None:
    got = config(client.get("/table?d=one-cushion&t=small&b=yellow&w=0.3,0.4&y=0.5,0.6&r=0.7,1.5"
                            "&s=3.12&a=-20&sd=0.1&h=-0.2&e=5&o=1").text)
    assert got["discipline"] == "one-cushion" and got["table"] == "small" and got["ball"] == "yellow"
    assert got["position"] == {"white": [0.3, 0.4], "yellow": [0.5, 0.6], "red": [0.7, 1.5]}
    assert got["strike"] == {"speed": 3.12, "direction": -20.0, "side": 0.1, "height": -0.2, "elevation": 5.0}
    assert got["opening"] is True


def test_balkline_shows_its_anchors_and_offers_no_suggestions(client: Any) -> None:
    response = client.get("/table?d=balkline-47/2")
    assert 'class="zone anchor"' in response.text
    assert config(response.text)["solvable"] is False


@pytest.mark.parametrize("query", [
    "w=0.3,0.3&y=0.3,0.31&r=1,1",  # overlapping
    "w=0.3,0.3&y=0.5,0.5",  # red missing
    "w=9,9&y=0.5,0.5&r=1,1",  # off the table
    "w=nan,1&y=0.5,0.5&r=1,1",
    "w=abc&y=0.5,0.5&r=1,1",
])
def test_a_position_that_cannot_be_played_is_a_notice(client: Any, query: str) -> None:
    response = client.get("/table?" + query)
    assert response.status_code == 200
    assert "cannot be played" in response.text
    assert config(response.text)["position"]["white"] == [0.892, 0.71]


def test_strike_values_out_of_range_are_left_out(client: Any) -> None:
    got = config(client.get("/table?s=99&a=inf&sd=0.45&h=0.45&e=-3").text)["strike"]
    assert got == {"speed": 3.0, "direction": 90.0, "side": 0.0, "height": 0.0, "elevation": 0.0}


def test_an_unknown_discipline_or_match_is_a_notice(client: Any) -> None:
    assert "There is no discipline" in client.get("/table?d=snooker").text
    assert "There is no match 999" in client.get("/table?match=999").text
    assert "There is no match" in client.get("/table?match=" + "9" * 40).text


def test_the_scoresheet_links_to_each_known_position(client: Any, match: Match) -> None:
    match_id, token = match
    stroke = {"type": "stroke", "ball": "yellow", "events": [],
              "start": {"white": [0.3, 0.5], "yellow": [0.7, 1.0], "red": [1.0, 2.0]}}
    enter(client, match_id, token, [OPENER, *calls("carom", "miss"), stroke])
    sheet = client.get(f"/m/{match_id}/scoresheet").text
    links = re.findall(r'href="(/table\?match=\d+&amp;line=\d+)"', sheet)
    assert links == [f"/table?match={match_id}&amp;line=3", f"/table?match={match_id}&amp;line=5"]
    page = client.get(links[1].replace("&amp;", "&")).text
    got = config(page)
    assert got["ball"] == "yellow" and got["position"]["white"] == [0.3, 0.5]
    assert "line 5: Boris to play" in page
    first = config(client.get(links[0].replace("&amp;", "&")).text)
    assert first["opening"] is True and first["ball"] == "white"  # the opening stroke (O3)
    assert "no known position" in client.get(f"/table?match={match_id}&line=4").text


@pytest.mark.parametrize(("lang", "words"), [
    ("sk", ["Tréningový stôl", "Hrať", "Návrhy", "Presúvať gule"]),
    ("de", ["Trainingstisch", "Stoßen", "Vorschläge", "Bälle setzen"]),
    ("en", ["Training table", "Play", "Suggestions", "Move balls"]),
])
def test_the_page_speaks_the_language(client: Any, lang: str, words: list[str]) -> None:
    html = client.get("/table", headers={"Accept-Language": lang}).text
    for word in words:
        assert word in html
    cushions = config(html)["words"]["cushions"]
    assert len(set(cushions.values())) == 4


def test_cushions_are_named_where_the_picture_shows_them(client: Any) -> None:
    """Found on a club day: the page draws the table on its side, but named its cushions as
    the upright table has them ("top" for the cushion drawn on the right), and the German
    label read cut ("Bande 1: obere"). A ball near each cushion shows where it is drawn."""
    html = client.get("/table?w=0.2,1.4&y=0.71,2.6&r=1.2,1.4", headers={"Accept-Language": "en"}).text
    drawing = re.search(r"<svg.*?</svg>", html, re.S)
    assert drawing is not None
    svg = drawing.group(0)
    width, height = (float(v) for v in svg.split('viewBox="0 0 ', 1)[1].split('"')[0].split())
    assert width > height  # landscape
    yellow = re.search(r'data-ball="yellow" cx="([\d.]+)" cy="([\d.]+)"', svg)
    assert yellow is not None
    # yellow lies near the top cushion (y = 2.6 of 2.84 m); turned a quarter clockwise
    # (translate(width 0) rotate(90)), the picture shows it at x = width - cy: on the right
    assert width - float(yellow.group(2)) > 0.85 * width
    cushions = config(html)["words"]["cushions"]
    assert cushions == {"top": "right", "bottom": "left", "left": "top", "right": "bottom"}
    german = config(client.get("/table", headers={"Accept-Language": "de"}).text)["words"]
    assert german["cushions"]["top"] == "rechts" and german["cushion_n"] == "Bande %(n)s: %(cushion)s"
