"""Shared fixtures of the auto-referee's tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REAL_MATCH = Path(__file__).resolve().parents[1] / "data" / "real-3c-match-part1.jsonl"
"""The labelled real match, used by path (never copied into the repository)."""


@pytest.fixture(scope="session")
def real_match() -> Path:
    if not REAL_MATCH.exists():
        pytest.skip(f"the real match file is not at {REAL_MATCH}")
    return REAL_MATCH
