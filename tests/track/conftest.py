"""Shared fixtures of the auto-referee's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL_MATCH = Path(__file__).resolve().parents[1] / "data" / "real-3c-match-part1.jsonl"
"""The labelled real match, in the repository (tests/data/README.md: its source and licence)."""


@pytest.fixture(scope="session")
def real_match() -> Path:
    return REAL_MATCH
