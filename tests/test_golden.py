"""Golden matches: every example under examples/ replays exactly to its checked-in
rulings and scoresheet (regenerate with tools/make_examples.py --golden, then review)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from carom.notation.matchfile import read_match, replay_file
from carom.notation.rulings_json import replay_json
from carom.notation.scoresheet import scoresheet
from carom.rules.disciplines import DISCIPLINES

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
MATCHES = sorted(EXAMPLES.glob("*.carom.jsonl"))


def test_every_discipline_has_a_golden_match_with_strokes() -> None:
    covered = set()
    for path in MATCHES:
        match = read_match(path)
        if any(type(r).__name__ == "Stroke" for _, r in match.records):
            covered.add(match.header.discipline)
    assert covered == set(DISCIPLINES)


@pytest.mark.parametrize("path", MATCHES, ids=lambda p: p.name)
def test_golden_replay(path: Path) -> None:
    rulings: list[object] = []
    state = replay_file(path, rulings.append)
    stem = path.name.removesuffix(".carom.jsonl")
    expected = json.loads((EXAMPLES / "golden" / f"{stem}.json").read_text(encoding="utf-8"))
    assert replay_json(state, rulings) == expected  # type: ignore[arg-type]
    sheet = scoresheet(state, rulings, read_match(path).header.players)  # type: ignore[arg-type]
    assert sheet == (EXAMPLES / "golden" / f"{stem}.txt").read_text(encoding="utf-8")
    assert state.finished


def test_carom_replay_json_prints_the_golden_object() -> None:
    path = EXAMPLES / "three-cushion.carom.jsonl"
    out = subprocess.run([sys.executable, "-m", "carom.cli.main", "replay", str(path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == json.loads((EXAMPLES / "golden" / "three-cushion.json").read_text())
