"""The organiser's tournament form takes every setting the JSON API takes: handicap
(and each player's target by hand), the shot clock with its UMB defaults, the knock-out
tie-break, equalizing inning, sets, places in the knock-out, seeding by hand. A bad
value gets the page's refusal naming the field, and nothing is created."""

from __future__ import annotations

from typing import Any

import pytest

FORM = {"name": "Masters", "discipline": "three-cushion", "table": "large", "points": "15", "innings": "",
        "sets": "", "mode": "groups_knockout", "groups": "2", "tables": "3", "seeding": "hand",
        "knockout_size": "4", "tiebreak": "penalties", "equalizing_inning": "on", "handicap": "on",
        "clock": "on", "clock_stroke": "40", "clock_warning": "15", "clock_timeouts": "2",
        "clock_timeout": "20"}


def _csrf(client: Any) -> str:
    return str(client.get("/api/session").json()["csrf"])


def test_the_form_offers_every_setting_of_the_api(organiser: Any) -> None:
    page = organiser.get("/tournaments").text
    for name in ("name", "discipline", "table", "points", "innings", "sets", "mode", "groups", "tables",
                 "seeding", "knockout_size", "tiebreak", "equalizing_inning", "handicap", "clock", "stages",
                 "third_place", "placements", "withdrawn_games",
                 "clock_stroke", "clock_warning", "clock_timeouts", "clock_timeout"):
        assert f'name="{name}"' in page, name
    # the clock's defaults are the UMB's (docs/clock.md): 30 s, warning at 10 s, time-outs of 30 s
    assert 'name="clock_stroke" type="number" min="1" inputmode="numeric" value="30"' in page
    assert 'name="clock_warning" type="number" min="0" inputmode="numeric" value="10"' in page
    assert 'name="clock_timeout" type="number" min="1" inputmode="numeric" value="30"' in page
    # every field the API's schema has is in the form
    schema = organiser.get("/openapi.json").json()["paths"]["/api/tournaments"]["post"]["requestBody"][
        "content"]["application/json"]["schema"]
    assert all(f'name="{"sets" if key == "sets" else key}"' in page for key in schema["properties"])


def test_a_tournament_made_in_the_form_has_those_settings(organiser: Any) -> None:
    made = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **FORM}, follow_redirects=False)
    assert made.status_code == 303, made.text
    tid = int(made.headers["location"].rsplit("/", 1)[1])
    settings = organiser.get(f"/api/tournaments/{tid}").json()["settings"]
    assert settings == {"discipline": "three-cushion", "table": "large", "points": 15, "innings": None,
                        "sets": None, "equalizing_inning": True, "mode": "groups_knockout", "groups": 2,
                        "tables": 3, "handicap": True, "knockout_size": 4, "seeding": "hand",
                        "clock": {"stroke": 40, "warning": 15, "timeouts": 2, "timeout": 20},
                        "tiebreak": "penalties", "third_place": False, "placements": False,
                        "withdrawn_games": "annul", "stages": []}
    assert "Shot clock 40 s" in organiser.get(f"/tournaments/{tid}").text
    # players with their handicap targets by hand, seeded in the order of entry
    names = "\n".join(f"P{i}; BC; {5 + i}" if i % 2 else f"P{i}" for i in range(1, 9))
    entered = organiser.post(f"/tournaments/{tid}/players", data={"csrf": _csrf(organiser), "names": names},
                             follow_redirects=False)
    assert entered.status_code == 303
    people = organiser.get(f"/api/tournaments/{tid}").json()["participants"]
    assert [(p["name"], p["seed"], p["target"]) for p in people][:3] == [("P1", 1, 6), ("P2", 2, None),
                                                                          ("P3", 3, 8)]
    assert organiser.post(f"/api/tournaments/{tid}/start").status_code == 200
    games = organiser.get(f"/api/tournaments/{tid}/games").json()
    match = organiser.get(f"/api/matches/{games[0]['match']}").json()
    assert match["header"]["clock"] == {"stroke": 40, "warning": 15, "timeouts": 2, "timeout": 20}
    assert isinstance(match["header"]["points"], list)  # each player's own target


def test_the_clock_left_at_its_defaults_takes_the_formats_defaults(organiser: Any) -> None:
    form = {**FORM, "points": "40", "handicap": "", "clock_stroke": "30", "clock_warning": "10",
            "clock_timeouts": "", "clock_timeout": "30", "mode": "round_robin", "groups": "1",
            "knockout_size": ""}
    made = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **form}, follow_redirects=False)
    tid = int(made.headers["location"].rsplit("/", 1)[1])
    assert organiser.get(f"/api/tournaments/{tid}").json()["settings"]["clock"] == {
        "stroke": 30, "warning": 10, "timeout": 30}  # time-outs: 4 in a game to 40, the format says


@pytest.mark.parametrize(("bad", "named"), [
    ({"clock_stroke": "x"}, "clock.stroke: expected a whole number"),
    ({"clock_warning": "40"}, "clock: warning: 40 s left is not within a stroke of 40 s"),
    ({"clock_stroke": "0"}, "clock: stroke"),
    ({"knockout_size": "3"}, "knockout_size: expected a power of two"),
    ({"tiebreak": "coin"}, "tiebreak: expected one of penalties"),
    ({"sets": "-1"}, "sets: expected a whole number"),
    ({"points": "", "innings": "20"}, "handicap: a handicap needs a points limit"),
    ({"points": ""}, "points, innings: a game needs a limit"),
    ({"groups": "0"}, "groups: expected 1 to 32"),
])
def test_a_bad_value_is_refused_naming_the_field(organiser: Any, bad: dict[str, str], named: str) -> None:
    refused = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **FORM, **bad})
    assert refused.status_code == 422
    assert named in refused.text, refused.text
    assert 'id="tournament-error"' in refused.text and 'value="Masters"' in refused.text
    assert organiser.get("/api/tournaments").json() == []


def test_the_refusal_is_in_the_pages_language(organiser: Any) -> None:
    organiser.cookies.set("carom_lang", "de")
    refused = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **FORM, "knockout_size": "3"})
    assert refused.status_code == 422 and "Zweierpotenz" in refused.text
    for lang, word in (("sk", "Sekúnd na strk"), ("de", "Sekunden je Stoß")):
        organiser.cookies.set("carom_lang", lang)
        assert word in organiser.get("/tournaments").text


@pytest.mark.parametrize(("clock", "status", "kept"), [
    (True, 201, {}), (None, 201, None), (False, 201, None), ({"stroke": 20}, 201, {"stroke": 20}),
    ({"stroke": 20, "warning": 20}, 422, "clock: warning"),
    ({"speed": 1}, 422, "clock: expected whole seconds"),
    ("30", 422, "clock: expected null, true or an object"),
])
def test_the_api_takes_the_clock(organiser: Any, clock: Any, status: int, kept: Any) -> None:
    answer = organiser.post("/api/tournaments", json={"name": "C", "discipline": "three-cushion", "points": 5,
                                                      "clock": clock})
    assert answer.status_code == status, answer.text
    if status == 201:
        assert organiser.get(f"/api/tournaments/{answer.json()['id']}").json()["settings"]["clock"] == kept
    else:
        assert kept in answer.json()["detail"]
        assert organiser.get("/api/tournaments").json() == []


def test_stages_third_place_and_withdrawn_games_from_the_form(organiser: Any) -> None:
    form = {**FORM, "mode": "stages", "groups": "1", "knockout_size": "", "handicap": "", "clock": "",
            "stages": "groups 2 2; knockout", "third_place": "on", "withdrawn_games": "count"}
    made = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **form}, follow_redirects=False)
    assert made.status_code == 303, made.text
    tid = made.headers["location"].rsplit("/", 1)[1]
    settings = organiser.get(f"/api/tournaments/{tid}").json()["settings"]
    assert (settings["stages"], settings["third_place"], settings["withdrawn_games"]) == (
        [{"kind": "groups", "groups": 2, "places": 2}, {"kind": "knockout", "groups": 1, "places": None}],
        True, "count")
    bad = organiser.post("/tournaments", data={"csrf": _csrf(organiser), **form, "stages": "groups two"})
    assert bad.status_code == 422 and "stages: expected" in bad.text
