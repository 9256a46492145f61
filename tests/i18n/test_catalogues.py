"""The words as gettext catalogues (docs/i18n.md): complete in every language, in step
with the code, compiled as committed; plural forms by number, numbers by language,
every registered rule, discipline and table named in every language."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.numbers import format_decimal, get_decimal_symbol
from typer.testing import CliRunner

from carom.cli.main import app
from carom.core.table import TABLES
from carom.locale import catalogues
from carom.notation.words import LANGUAGES, Words, catalogue
from carom.rules.catalog import RULES
from carom.rules.disciplines import DISCIPLINES

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_every_message_of_the_code_is_translated_in_every_language_and_compiled() -> None:
    assert catalogues.problems() == []


def test_english_slovak_and_german_are_there() -> None:
    assert set(LANGUAGES) >= {"en", "sk", "de"}
    assert LANGUAGES[0] == "en"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize(("context", "registry"), [("discipline", DISCIPLINES), ("table", TABLES),
                                                   ("rule", RULES)])
def test_every_registered_discipline_table_and_rule_has_words(lang: str, context: str,
                                                              registry: dict[str, object]) -> None:
    named = dict(catalogue(lang).in_context(context))
    assert [key for key in registry if not named.get(key)] == []


@pytest.mark.parametrize(("lang", "counts"), [
    ("en", {1: "1 inning", 2: "2 innings", 5: "5 innings"}),
    ("sk", {1: "1 nábeh", 2: "2 nábehy", 4: "4 nábehy", 5: "5 nábehov", 22: "22 nábehov"}),
    ("de", {1: "1 Aufnahme", 2: "2 Aufnahmen"}),
])
def test_plural_forms_follow_the_number(lang: str, counts: dict[int, str]) -> None:
    words = Words(lang)
    for n, text in counts.items():
        assert words.ngettext("%(num)s inning", "%(num)s innings", n) == text


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("value", [0.0, 1.5, 13.333333, 0.0004, 2.0 / 3.0])
def test_the_core_formats_numbers_as_babel_does_for_the_language(lang: str, value: float) -> None:
    assert Words(lang).decimal(value) == format_decimal(value, format="0.000", locale=lang)
    assert Words(lang).translations.pgettext("number", "decimal separator") == get_decimal_symbol(lang)


@pytest.mark.parametrize(("lang", "expected"), [
    ("sk", "riadok 5: záznam call po skončení zápasu"),
    ("de", "Zeile 5: Eintrag call nach dem Ende der Partie"),
    ("en", "line 5: a call record after the match ended"),
])
def test_an_engine_refusal_reads_in_the_language_of_the_page(lang: str, expected: str) -> None:
    assert Words(lang).refusal("line 5: a call record after the match ended") == expected


def test_a_refusal_nested_in_another_is_translated_inside_it() -> None:
    message = "match 3 is read-only: line 7: an undo with nothing left to withdraw"
    assert Words("sk").refusal(message) == ("zápas 3 je iba na čítanie: riadok 7: vrátenie späť, hoci už "
                                            "niet čo vrátiť")


def test_an_unknown_message_stays_as_it_is() -> None:
    assert Words("de").refusal("something nobody wrote") == "something nobody wrote"


@pytest.mark.parametrize(("lang", "words"), [("en", ["Inning", "Average", "large table"]),
                                             ("sk", ["Nábeh", "Priemer", "veľký stôl", ","]),
                                             ("de", ["Aufnahme", "Durchschnitt", "Matchbillard", ","])])
def test_carom_replay_prints_the_scoresheet_in_each_language(lang: str, words: list[str]) -> None:
    out = CliRunner().invoke(app, ["replay", str(EXAMPLES / "three-cushion.carom.jsonl"), "--lang", lang])
    assert out.exit_code == 0, out.output
    assert all(w in out.stdout for w in words)


def test_carom_replay_refuses_a_language_without_a_catalogue() -> None:
    out = CliRunner().invoke(app, ["replay", str(EXAMPLES / "three-cushion.carom.jsonl"), "--lang", "xx"])
    assert out.exit_code == 2 and "en, " in out.output
