"""A live channel refused inside the application says why in the page's language: over
the streams' caps (503, the browser tries again) or for a match that does not exist (404)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from carom.storage import open_store
from carom.storage.book import MatchBook
from carom.web.app import create_app
from carom.web.shared.limits import Limits


def _client(tmp_path: Path, limits: Limits) -> TestClient:
    return TestClient(create_app(MatchBook(open_store(tmp_path / "data")), setup_code="x", limits=limits))


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Refused: the server has 0 live channels open, as many as it keeps."),
    ("sk", "Odmietnuté: server má otvorených 0 živých kanálov, toľko, koľko udrží."),
    ("de", "Abgelehnt: Der Server hat 0 Live-Kanäle offen, so viele, wie er hält."),
])
def test_a_channel_over_the_servers_cap_is_refused_in_the_pages_language(tmp_path: Path, lang: str,
                                                                        said: str) -> None:
    with _client(tmp_path, Limits(streams=0)) as client:
        answer = client.get(f"/hall/events?lang={lang}")
    assert answer.status_code == 503 and answer.headers["retry-after"] == "5"
    assert said in answer.text


@pytest.mark.parametrize(("lang", "said"), [("en", "no match 99"), ("sk", "zápas 99 neexistuje"),
                                            ("de", "99")])
def test_the_channel_of_a_match_that_does_not_exist_is_not_found_in_the_pages_language(
        tmp_path: Path, lang: str, said: str) -> None:
    with _client(tmp_path, Limits()) as client:
        answer = client.get("/m/99/events", headers={"Accept-Language": lang})
    assert answer.status_code == 404 and said in answer.text
    if lang != "en":
        assert "no match" not in answer.text
