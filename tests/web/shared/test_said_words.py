"""Every doubt the auto-referee gives is said in Slovak and German on the review page: each of its
templates has a translation, numbers take the language's decimal separator, and a doubt whose words
are missing or do not read is shown as written."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.core.balls import Ball, Cushion
from carom.core.table import TABLES
from carom.notation.said import TRACKED, Said, all_of
from carom.rules.disciplines import DISCIPLINES
from carom.track import read_tracked, track_sequence
from carom.track.synthetic.camera import TEST_ONLY
from carom.track.synthetic.strokes import labelled_recording
from carom.web.shared.i18n import PageWords
from carom.web.shared.said_words import said_words

DATA = Path(__file__).resolve().parents[2] / "data" / "real-3c-match-part1.jsonl"
TABLE, THREE_CUSHION = TABLES["large"], DISCIPLINES["three-cushion"]


def _templates(said: Said) -> Iterator[str]:
    yield said.template
    for _, value in said.values:
        if isinstance(value, Said):
            yield from _templates(value)


@pytest.fixture(scope="module")
def doubts() -> list[Said]:
    """The doubts of the real match and of a recording by a noisy camera (its kinds of doubt)."""
    noisy = next(f for f in TEST_ONLY if f.name == "noisy")
    strokes = [*read_tracked(DATA), *(s.tracked for s in labelled_recording(40, 41_000_000, THREE_CUSHION,
                                                                             TABLE, noisy))]
    found = [d.said for r in track_sequence(iter(strokes), THREE_CUSHION, TABLE) for d in r.doubts]
    kinds = {t for said in found for t in _templates(said)}
    assert len(kinds) >= 8  # alternatives, their joins, the camera, the order of strokes
    return found


@pytest.mark.parametrize("lang", ["sk", "de"])
def test_every_doubt_is_said_in_the_language(doubts: list[Said], lang: str) -> None:
    t = PageWords(lang)
    for said in doubts:
        missing = [template for template in _templates(said)
                   if t.translations.pgettext(TRACKED, template) == template]
        assert missing == [], (lang, str(said))
        assert said_words({"said": said.as_json(), "what": str(said)}, t) != str(said)


def test_the_words_of_an_alternative_reading() -> None:
    contact = Said("%(ball)s–%(other)s contact at %(t)s s", ball=Ball.WHITE, other=Ball.RED, t="1.25")
    cushion = Said("%(ball)s on the %(cushion)s cushion at %(t)s s", ball=Ball.WHITE, cushion=Cushion.TOP,
                   t="0.50")
    said = Said("%(changes)s (chance %(chance)s)", chance="0.004",
                changes=all_of([Said("no %(event)s", event=contact), Said("a %(event)s", event=cushion)]))
    assert str(said) == ("no white–red contact at 1.25 s and a white on the top cushion at 0.50 s "
                         "(chance 0.004)")
    doubt = {"said": said.as_json(), "what": str(said)}
    assert said_words(doubt, PageWords("en")) == str(said)
    assert said_words(doubt, PageWords("sk")) == ("nenastal: dotyk biela–červená v 1,25 s a nastal: biela – "
                                                   "horný mantinel v 0,50 s (pravdepodobnosť 0,004)")
    assert said_words(doubt, PageWords("de")) == ("nicht: Berührung weiß–rot bei 1,25 s und doch: weiß an "
                                                   "der Bande oben bei 0,50 s (Wahrscheinlichkeit 0,004)")


@pytest.mark.parametrize("said", [
    None, "text", {"said": "%(ball)s jumping"}, {"said": "%(ball)s jumping", "values": {}},
    {"said": "%(ball)s jumping", "values": {"ball": {"nothing": 1}}}, {"said": 5, "values": []},
    {"said": "%(ball)999999999s", "values": {"ball": "x"}},  # a width that would fill the memory
    {"said": "%s", "values": {"ball": "x"}}, {"said": "not ours: %(ball)s", "values": {"ball": "x"}},
])
def test_a_doubt_without_words_that_read_is_shown_as_written(said: object) -> None:
    doubt = {"what": "white jumping at 1.00 s (chance 0.010)"}
    if said is not None:
        doubt["said"] = said  # type: ignore[assignment]
    assert said_words(doubt, PageWords("sk")) == doubt["what"]


def test_words_nested_without_end_are_refused() -> None:
    deep: dict[str, object] = {"said": "%(event)s instead", "values": {"event": "x"}}
    for _ in range(100):
        deep = {"said": "%(event)s instead", "values": {"event": deep}}
    assert said_words({"said": deep, "what": "as written"}, PageWords("de")) == "as written"


def test_the_fits_problems_are_said_in_the_language() -> None:
    from carom.web.review.fit_pages import fit_view

    reasons = [Said("the cue ball %(ball)s never left where it lay", ball=Ball.WHITE),
               Said("%(ball)s: %(why)s", ball=Ball.RED,
                    why=Said("lost between %(t0)s s and %(t1)s s (%(apart)s m apart)", t0="0.98", t1="2.52",
                             apart="0.75"))]
    data = {"fitted": False, "problems": [str(r) for r in reasons],
            "problems_said": [r.as_json() for r in reasons]}
    assert fit_view(data, PageWords("en"))["problems"] == data["problems"]
    assert fit_view(data, PageWords("de"))["problems"] == [
        "der Spielball weiß verließ nie die Stelle, an der er lag",
        "rot: verloren zwischen 0,98 s und 2,52 s (0,75 m auseinander)"]
    del data["problems_said"]  # an answer kept from before: its English
    assert fit_view(data, PageWords("sk"))["problems"] == data["problems"]
