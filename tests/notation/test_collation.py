"""Names in the order of the reader's language: Ľ with L and Ö with O (the register put
every name with a diacritic after Z), and Slovak's letters of its own."""

from __future__ import annotations

import pytest

from carom.notation.collation import sort_key

NAMES = ["Zeman", "Ľudovít", "Lukáč", "Čech", "Cyril", "Chudý", "Hrubý", "Österreicher", "Otto", "Ábel",
         "Adam", "Ärger", "Azor", "Štefan", "Sýkora", "Großmann", "Grosz", "de Bruyne", "Debra"]


def _sorted(lang: str) -> list[str]:
    return sorted(NAMES, key=lambda name: sort_key(name, lang))


@pytest.mark.parametrize("lang", ["en", "de"])
def test_letters_with_accents_sort_with_their_letter(lang: str) -> None:
    assert _sorted(lang) == ["Ábel", "Adam", "Ärger", "Azor", "Čech", "Chudý", "Cyril", "de Bruyne", "Debra",
                             "Großmann", "Grosz", "Hrubý", "Ľudovít", "Lukáč", "Österreicher", "Otto",
                             "Štefan", "Sýkora", "Zeman"]


def test_slovak_sorts_its_own_letters_after_their_base_letter() -> None:
    assert _sorted("sk") == ["Ábel", "Adam", "Azor", "Ärger", "Cyril", "Čech", "de Bruyne", "Debra",
                             "Großmann", "Grosz", "Hrubý", "Chudý", "Ľudovít", "Lukáč", "Österreicher",
                             "Otto", "Sýkora", "Štefan", "Zeman"]


def test_accents_then_case_break_ties() -> None:
    names = ["Novák", "novák", "Novak", "novak"]
    assert sorted(names, key=sort_key) == ["novak", "Novak", "novák", "Novák"]
    assert sorted(["Ôsmy", "Oto", "Ota"], key=lambda n: sort_key(n, "sk")) == ["Ota", "Oto", "Ôsmy"]
    assert sort_key("a") != sort_key("A")
