"""``/review``: a tracked match uploaded, judged by the auto-referee, reviewed stroke by
stroke; the log stays append-only and ``carom replay`` of the export gives the reviewed score."""

from __future__ import annotations

import html
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from carom.notation.matchfile import lines_of, read_match
from carom.web.review.log import STROKE_FIELDS, parsed, standing

DATA = Path(__file__).parents[2] / "data" / "real-3c-match-part1.jsonl"
DOUBTFUL_SHOT = 545674
"""Ruled no point by the auto-referee, doubtful: the next stroke does not start where it ended."""


def _upload(client: Any, content: bytes, name: str = "real.jsonl", **fields: str) -> Any:
    return client.post("/review", files={"file": (name, content, "application/x-ndjson")},
                       data={"discipline": "three-cushion", **fields}, follow_redirects=False)


@pytest.fixture(scope="module")
def real() -> bytes:
    return DATA.read_bytes()


@pytest.fixture
def review(organiser: Any, real: bytes) -> int:
    response = _upload(organiser, real)
    assert response.status_code == 303, response.text
    return int(re.fullmatch(r"/review/(\d+)", response.headers["location"]).group(1))  # type: ignore[union-attr]


def _replay(client: Any, match_id: int, tmp_path: Path) -> tuple[dict[str, Any], Path]:
    exported = client.get(f"/m/{match_id}/export")
    assert exported.status_code == 200
    path = tmp_path / f"review-{match_id}.carom.jsonl"
    path.write_bytes(exported.content)
    done = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(path), "--json"],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout), path


def _index(client: Any, match_id: int, shot: int) -> int:
    page = client.get(f"/review/{match_id}").text
    found = re.search(r'data-index="(\d+)" data-shot="' + str(shot) + '"', page)
    assert found, page[:2000]
    return int(found.group(1))


def test_the_upload_is_the_match_carom_track_writes(organiser: Any, review: int, tmp_path: Path) -> None:
    carom_out = tmp_path / "track.carom.jsonl"
    subprocess.run([sys.executable, "-m", "carom.cli.main", "track", str(DATA), "--carom-out",
                    str(carom_out)], capture_output=True, text=True, check=True, timeout=120)
    exported = organiser.get(f"/m/{review}/export").text
    def plain(text: str) -> list[dict[str, Any]]:
        return [{k: v for k, v in r.items() if k not in STROKE_FIELDS} for r in parsed(text.splitlines()[1:])]

    ours, theirs = plain(exported), plain(carom_out.read_text())
    assert ours == theirs
    replayed, _ = _replay(organiser, review, tmp_path)
    track_replay = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(carom_out),
                                   "--json"], capture_output=True, text=True, check=True, timeout=120)
    assert replayed["players"] == json.loads(track_replay.stdout)["players"]


def test_the_page_lists_the_doubtful_strokes_first(organiser: Any, review: int) -> None:
    page = organiser.get(f"/review/{review}")
    assert page.status_code == 200
    shots = re.findall(r'<li class="([^"]*)" data-index="\d+" data-shot="(\d+)"', page.text)
    assert len(shots) == 91
    doubtful = [shot for cls, shot in shots if "doubtful" in cls]
    assert doubtful and [s for _, s in shots[:len(doubtful)]] == doubtful
    assert str(DOUBTFUL_SHOT) in doubtful
    assert "the recording misses something" in page.text  # the doubt the ruling hangs on
    data = organiser.get(f"/review/{review}/strokes/{_index(organiser, review, DOUBTFUL_SHOT)}.json").json()
    assert set(data["samples"]) == {"white", "yellow", "red"}
    assert all(len(s.split(" ")) == 3 for s in data["samples"]["white"].split(";"))
    assert data["events"] and data["table"]["length"] == pytest.approx(2.84)
    assert data["marks"] == [{"ball": "red", "t": None, "doubt": 1}]  # red lies 0.96 m away next


def test_the_doubts_are_marked_where_they_lie() -> None:
    from carom.web.review.pages import doubt_marks

    doubts = [{"probability": 0.03, "what": "yellow–white contact at 5.79 s instead (chance 0.030)"},
              {"probability": 3e-4, "what": "no white on the bottom cushion at 0.12 s (chance 3.4e-04)"},
              {"probability": None, "what": "the balls moved …: the recording misses something (red lies "
                                            "2.18 m from where this stroke left it when shot 545657 starts)"}]
    assert doubt_marks(doubts) == [{"ball": "yellow", "t": 5.79, "doubt": 1},
                                   {"ball": "white", "t": 0.12, "doubt": 2},
                                   {"ball": "red", "t": None, "doubt": 3}]


@pytest.mark.rule("C1")
def test_an_overruled_stroke_is_undo_and_call_and_replay_gives_the_reviewed_score(
        organiser: Any, review: int, tmp_path: Path) -> None:
    before, _ = _replay(organiser, review, tmp_path)
    index = _index(organiser, review, DOUBTFUL_SHOT)
    response = organiser.post(f"/review/{review}/strokes/{index}", data={"decision": "carom"},
                              follow_redirects=False)
    assert response.status_code == 303, response.text
    after, path = _replay(organiser, review, tmp_path)
    assert sum(p["points"] for p in after["players"]) == sum(p["points"] for p in before["players"]) + 1
    api = organiser.get(f"/api/matches/{review}").json()
    assert api["replay"]["players"] == after["players"]
    records = parsed(path.read_text().splitlines()[1:])
    # append-only: the upload's records are all still there, in front
    first = organiser.get(f"/m/{review}/export").text  # (the same file)
    assert first == path.read_text()
    standing_records = [records[i] for i in standing(records)]
    reviewed = [r for r in records if r.get("type") == "stroke" and r.get("review")]
    assert reviewed[-1]["shot"] == DOUBTFUL_SHOT and reviewed[-1]["review"] == {"decision": "carom"}
    note = f"shot {DOUBTFUL_SHOT} as the reviewer ruled it"
    calls = [r for r in standing_records if r.get("note") == note]
    assert calls == [{"type": "call", "result": "carom", "note": note}]
    # the same decision again changes nothing; a confirmation elsewhere changes no score
    seq = len(records)
    organiser.post(f"/review/{review}/strokes/{index}", data={"decision": "carom"})
    assert len(parsed(organiser.get(f"/m/{review}/export").text.splitlines()[1:])) == seq
    organiser.post(f"/review/{review}/strokes/{index + 5}", data={"decision": "confirm"})
    again, _ = _replay(organiser, review, tmp_path)
    assert [p["points"] for p in again["players"]] == [p["points"] for p in after["players"]]
    page = organiser.get(f"/review/{review}?stroke={index}").text
    assert "2 of 91 strokes reviewed" in page
    read_match(lines_of(path.read_text()))  # the export reads as a carom/1 match


@pytest.mark.rule("F4")
def test_a_foul_needs_its_rule_and_is_a_foul_call(organiser: Any, review: int, tmp_path: Path) -> None:
    assert organiser.post(f"/review/{review}/strokes/3", data={"decision": "foul"}).status_code == 422
    assert organiser.post(f"/review/{review}/strokes/3", data={"decision": "maybe"}).status_code == 422
    assert organiser.post(f"/review/{review}/strokes/999", data={"decision": "miss"}).status_code == 422
    foul = organiser.post(f"/review/{review}/strokes/3", data={"decision": "foul", "rule": "F4"})
    assert foul.status_code == 200
    replayed, _ = _replay(organiser, review, tmp_path)
    assert any(r["fouls"] == ["F4"] for r in replayed["rulings"])


def test_bad_files_are_refused_with_the_line_and_field(organiser: Any) -> None:
    bad = (b'{"shot": 1, "cue": "white", "balls": {"white": {"t": [0.0, 0.0], "x": [0.5, 0.5], '
           b'"y": [0.5, 0.6]}}}\n')
    response = _upload(organiser, bad)
    assert response.status_code == 422
    assert "line 1" in response.text
    assert _upload(organiser, b"").status_code == 422
    assert _upload(organiser, b"\xff\xfe\n").status_code == 422
    assert _upload(organiser, b"{}\n", discipline="snooker").status_code == 422
    assert "No tracked match is under review yet." in organiser.get("/review").text


def test_only_the_organiser_with_the_token_reviews(client: Any, stranger: Any, organiser: Any, real: bytes,
                                                   review: int) -> None:
    assert stranger.get("/review", follow_redirects=False).status_code == 303
    assert stranger.get(f"/review/{review}", follow_redirects=False).status_code == 303
    assert stranger.get(f"/review/{review}/strokes/0.json").status_code == 403
    assert _upload(stranger, real).status_code == 303  # to the login, nothing stored
    token = organiser.headers.pop("X-CSRF-Token")
    try:
        assert _upload(organiser, real).status_code == 403
        assert organiser.post(f"/review/{review}/strokes/0", data={"decision": "miss"}).status_code == 403
    finally:
        organiser.headers["X-CSRF-Token"] = token
    assert organiser.get("/review").text.count('class="open-review"') == 1
    foreign = organiser.post(f"/review/{review}/strokes/0", data={"decision": "miss"},
                             headers={"Origin": "http://evil.example"})
    assert foreign.status_code == 403


def test_the_body_limit(organiser: Any) -> None:
    headers = {"Content-Length": str(18 * 1024 * 1024), "Content-Type": "multipart/form-data; boundary=x"}
    response = organiser.post("/review", content=b"x", headers=headers)
    assert response.status_code == 413


def test_an_ordinary_match_is_not_a_review(organiser: Any, match: tuple[int, str]) -> None:
    assert organiser.get(f"/review/{match[0]}").status_code == 404


def test_the_plan_undoes_back_to_the_first_change_and_keeps_what_is_right() -> None:
    from carom.web.review.log import plan

    def s(n: int, **extra: Any) -> dict[str, Any]:
        return {"type": "stroke", "index": n, **extra}

    log = [{"type": "opener"}, s(0, samples="x"), s(1, samples="y"), s(2, samples="z")]
    assert plan(log, [{"type": "opener"}, s(0), s(1), s(2)]) == (0, [])
    decided = [{"type": "opener"}, s(0), s(1, review={"decision": "carom"}), {"type": "undo"},
               {"type": "call", "result": "carom"}, s(2)]
    undos, appended = plan(log, decided)
    assert (undos, appended) == (2, decided[2:])
    # the stroke, its undo and the reviewer's call stay together: taken up before the stroke
    later = [*log, {"type": "undo"}, {"type": "undo"}, *decided[2:]]
    assert plan(later, decided) == (0, [])
    changed = [*decided[:4], {"type": "call", "result": "foul", "rule": "F4"}, s(2)]
    assert plan(later, changed) == (2, changed[2:])


def test_append_many_stops_at_a_refusal(tmp_path: Path) -> None:
    from carom.core.errors import RecordError
    from carom.storage import open_store
    from carom.storage.book import MatchBook

    store = open_store(tmp_path / "data")
    try:
        book = MatchBook(store)
        header = {"format": "carom/1", "discipline": "three-cushion", "table": "large",
                  "players": ["Anna", "Boris"], "points": 3, "innings": None}
        match_id = book.create(json.dumps(header), "t" * 24)
        records = [{"type": "opener", "player": 0}, {"type": "call", "result": "carom"}, {"type": "undo"},
                   {"type": "undo"}, {"type": "undo"}, {"type": "call", "result": "miss"}]
        with pytest.raises(RecordError):
            book.append_many(match_id, 0, records, "t" * 24)
        assert book.snapshot(match_id).seq == 0  # none of them is stored
        snap = book.append_many(match_id, 0, records[:4], "t" * 24)
        assert snap.seq == 4
        book.forget(match_id)
        assert book.snapshot(match_id).seq == 4
    finally:
        store.close()


def test_a_review_on_a_real_server_on_each_database(server: Any, real: bytes, tmp_path: Path) -> None:
    """``carom serve`` on SQLite and on PostgreSQL: the decision's records go through the
    database's writer in one group (``append_many``) and the export replays to the score."""
    client = server.organiser()
    response = client.post("/review", files={"file": ("real.jsonl", real, "application/x-ndjson")},
                           data={"discipline": "three-cushion"})
    assert response.status_code == 303, response.text
    match_id = int(response.headers["location"].rsplit("/", 1)[1])
    page = client.get(f"/review/{match_id}").text
    index = int(re.search(r'data-index="(\d+)" data-shot="' + str(DOUBTFUL_SHOT), page).group(1))  # type: ignore[union-attr]
    assert client.post(f"/review/{match_id}/strokes/{index}", data={"decision": "carom"}).status_code == 303
    foul = client.post(f"/review/{match_id}/strokes/0", data={"decision": "foul", "rule": "F6"})
    assert foul.status_code == 303
    replayed, _ = _replay(client, match_id, tmp_path)
    assert client.get(f"/api/matches/{match_id}").json()["replay"]["players"] == replayed["players"]
    assert any(r["fouls"] == ["F6"] for r in replayed["rulings"])


def test_a_doubtful_stroke_read_with_certainty_says_why_not_one(organiser: Any, review: int) -> None:
    """Found on a club day: doubtful strokes showed a confidence of 1.000 beside the word doubtful. A
    stroke doubtful for what it hangs on (here the next stroke's start) says so instead."""
    index = _index(organiser, review, DOUBTFUL_SHOT)
    page = organiser.get(f"/review/{review}?stroke={index}").text
    item = re.search(rf'<li class="doubtful[^"]*" data-index="{index}".*?</li>', page, re.S)
    assert item is not None and "1.000" not in item.group(0)
    detail = re.search(r'<dd id="auto-confidence">(.*?)</dd>', page, re.S)
    assert detail is not None and "1.000" not in detail.group(1) and "read with certainty" in detail.group(1)


@pytest.mark.parametrize(("lang", "said"), [
    ("sk", "gule sa pohli medzi koncom tohto úderu a začiatkom ďalšieho: záznamu niečo chýba (červená leží "
           "0,96 m od miesta"),
    ("de", "die Bälle bewegten sich zwischen dem Ende dieses Stoßes und dem Beginn des nächsten: der "
           "Aufzeichnung fehlt etwas (rot liegt 0,96 m von dort"),
])
def test_the_doubts_are_said_in_the_pages_language(organiser: Any, review: int, lang: str, said: str) -> None:
    """Found on the pages in three languages: a German page said what a stroke hangs on in English."""
    index = _index(organiser, review, DOUBTFUL_SHOT)
    page = organiser.get(f"/review/{review}?stroke={index}", headers={"Accept-Language": lang}).text
    hangs = re.search(r'<dd id="hangs-on">(.*?)</dd>', page, re.S)
    assert hangs is not None and said in html.unescape(hangs.group(1))
    assert "the recording misses something" not in page


def test_a_refused_recording_is_refused_in_the_pages_language(organiser: Any) -> None:
    """Found on a club day: refusals of a tracked file came half in English on a German page ("Datei:
    expected an object of ball tracks"): the reader's refusal is translated as well."""
    bad = b'{"shot": 1, "cue": "blue", "balls": {}}\n'
    page = organiser.post("/review", files={"file": ("bad.jsonl", bad, "application/x-ndjson")},
                          data={"discipline": "three-cushion"}, headers={"Accept-Language": "de"})
    assert page.status_code == 422
    message = re.search(r'id="review-error">(.*?)</p>', page.text, re.S)
    assert message is not None
    assert message.group(1) == 'Datei: Zeile 1: cue: unbekannter Ball &#34;blue&#34; (white, yellow oder red)'
