"""Register it and it gets tested (ARCHITECTURE.md, 12): every rule id of RULES.md is
cited by a test, and every registered discipline has scenario rows."""

from __future__ import annotations

import re
from pathlib import Path

from carom.rules.catalog import RULES
from carom.rules.disciplines import DISCIPLINES
from tests.rules.scenarios import SCENARIOS

TESTS = Path(__file__).resolve().parent
RULEBOOK = TESTS.parent.parent / "shared" / "RULES.md"


def rulebook_ids() -> list[str]:
    return re.findall(r"^- \*\*([A-Z0-9]{1,3}[0-9]{0,2})\*\*", RULEBOOK.read_text(encoding="utf-8"), re.M)


def test_the_catalogue_holds_every_rule_of_the_rulebook() -> None:
    ids = rulebook_ids()
    assert len(ids) > 60
    assert ids == [i for i in RULES if i in set(ids)]
    assert set(ids) == set(RULES)


def test_every_rule_id_is_cited_by_a_test() -> None:
    corpus = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.py")
                       if p.name != Path(__file__).name)
    missing = [i for i in rulebook_ids() if not re.search(rf"\b{re.escape(i)}\b", corpus)]
    assert missing == []


def test_every_registered_discipline_has_scenarios() -> None:
    covered = {s.discipline for s in SCENARIOS}
    assert set(DISCIPLINES) <= covered, set(DISCIPLINES) - covered
