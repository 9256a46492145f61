"""A match's size is bounded, and so is what its pages cost (the security review's M3): an import of
more records than a match holds is refused, a full match takes no more, and its
scoresheet PDF is printed in the simulation pool once per version and language."""

from __future__ import annotations

import json
from typing import Any

from carom.storage.book import MAX_RECORDS
from tests.web.jobs import counted_jobs

HEADER = {"format": "carom/1", "discipline": "straight-rail", "table": "large", "players": ["Anna", "Boris"],
          "points": 1_000_000, "innings": None, "sets": None, "equalizing_inning": False}


def _file(records: int) -> bytes:
    lines = [json.dumps(HEADER), json.dumps({"type": "opener", "player": 0})]
    lines += [json.dumps({"type": "call", "result": "carom" if i % 3 else "miss"})
              for i in range(records - 1)]
    return ("\n".join(lines) + "\n").encode()


def _import(organiser: Any, records: int) -> Any:
    return organiser.post("/organiser/import", files={"file": ("m.carom.jsonl", _file(records))},
                          follow_redirects=False)


def test_a_file_of_more_records_than_a_match_holds_is_refused(organiser: Any) -> None:
    response = _import(organiser, MAX_RECORDS + 1)
    assert response.status_code == 422 and f"at most {MAX_RECORDS}" in response.text
    assert organiser.get("/api/matches").json() == []


def test_a_full_match_takes_no_more_records(organiser: Any) -> None:
    assert _import(organiser, MAX_RECORDS).status_code == 303
    match_id = organiser.get("/api/matches").json()[0]["id"]
    token = organiser.post(f"/api/matches/{match_id}/referee-token").json()["referee_token"]
    response = organiser.post(f"/api/matches/{match_id}/records", headers={"X-Referee-Token": token},
                              json={"after": MAX_RECORDS, "record": {"type": "call", "result": "miss"}})
    assert response.status_code == 422 and f"holds {MAX_RECORDS} records" in response.json()["detail"]
    assert organiser.get(f"/api/matches/{match_id}").json()["seq"] == MAX_RECORDS


def test_a_scoresheet_pdf_is_printed_in_the_pool_once_per_version(organiser: Any, app: Any) -> None:
    assert _import(organiser, 400).status_code == 303
    match_id = organiser.get("/api/matches").json()[0]["id"]
    jobs = counted_jobs(app)
    first = organiser.get(f"/m/{match_id}/scoresheet.pdf")
    again = organiser.get(f"/m/{match_id}/scoresheet.pdf")
    german = organiser.get(f"/m/{match_id}/scoresheet.pdf?lang=de")
    assert first.status_code == again.status_code == german.status_code == 200
    assert first.content == again.content and first.content.startswith(b"%PDF")
    assert [task.__name__ for task in jobs] == ["scoresheet_pdf", "scoresheet_pdf"]  # en once, de once
