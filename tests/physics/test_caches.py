"""Compiled code is never stale: numba's cache and the ahead-of-time build are both tied
to a fingerprint of the physics sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.physics import aot, jit
from carom.physics.fingerprint import source_fingerprint


def test_a_changed_source_clears_the_physics_kernels_from_numbas_cache(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("engine.run-56.py311.nbi", "engine.run-56.py311.1.nbc", "motion.advance-9.py311.nbi",
                 "elsewhere.thing-1.py311.nbi"):
        (tmp_path / name).write_text("x")
    (tmp_path / jit.FINGERPRINT).write_text("an older fingerprint")
    monkeypatch.setattr(jit, "cache_folder", lambda: tmp_path)
    jit.ensure_fresh_cache()
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [jit.FINGERPRINT, "elsewhere.thing-1.py311.nbi"]
    assert (tmp_path / jit.FINGERPRINT).read_text() == source_fingerprint()
    (tmp_path / "engine.run-56.py311.nbi").write_text("x")
    jit.ensure_fresh_cache()  # same sources: nothing removed
    assert (tmp_path / "engine.run-56.py311.nbi").exists()


def test_the_ahead_of_time_build_is_named_after_the_sources(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    assert aot.module_name() == aot.PREFIX + source_fingerprint()[:16]
    monkeypatch.setenv("CAROM_CACHE_DIR", str(tmp_path))
    assert aot.folders()[0] == tmp_path
    (tmp_path / (aot.module_name() + ".failed")).write_text("no compiler\n")
    assert aot.failed()
