"""Compiled code is never stale: numba's cache and the ahead-of-time build are both tied
to a fingerprint of the physics sources."""

from __future__ import annotations

from pathlib import Path

import pytest

from carom.physics.build import aot, jit
from carom.physics.build.fingerprint import kernel_sources, source_fingerprint


def test_a_changed_source_clears_the_physics_kernels_from_numbas_cache(tmp_path: Path) -> None:
    for name in ("engine.run-56.py311.nbi", "engine.run-56.py311.1.nbc", "motion.advance-9.py311.nbi",
                 "elsewhere.thing-1.py311.nbi"):
        (tmp_path / name).write_text("x")
    (tmp_path / jit.FINGERPRINT).write_text("an older fingerprint")
    jit.ensure_fresh_cache(tmp_path)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == [jit.FINGERPRINT, "elsewhere.thing-1.py311.nbi"]
    assert (tmp_path / jit.FINGERPRINT).read_text() == source_fingerprint()
    (tmp_path / "engine.run-56.py311.nbi").write_text("x")
    jit.ensure_fresh_cache(tmp_path)  # same sources: nothing removed
    assert (tmp_path / "engine.run-56.py311.nbi").exists()


def test_the_ahead_of_time_build_is_named_after_the_sources(monkeypatch: pytest.MonkeyPatch,
                                                             tmp_path: Path) -> None:
    assert aot.module_name() == aot.PREFIX + source_fingerprint()[:16]
    monkeypatch.setenv("CAROM_CACHE_DIR", str(tmp_path))
    assert aot.folders()[0] == tmp_path
    (tmp_path / (aot.module_name() + ".failed")).write_text("no compiler\n")
    assert aot.failed()


def test_the_fingerprint_covers_every_kernel_and_how_it_is_built() -> None:
    names = {path.name for path in kernel_sources()}
    assert {"layout.py", "jit.py", "aot.py", "motion.py", "cushion.py", "engine.py", "batch.py"} <= names
    assert "simulate.py" not in names


def test_numba_caches_the_kernels_beside_their_sources() -> None:
    """The folder :func:`jit.ensure_fresh_cache` keeps fresh is the one numba uses for
    the kernels of ``carom/physics`` (not for this build folder)."""
    from carom.physics.motion import advance

    folder = jit.cache_folder(advance)
    assert folder is not None and folder in jit._checked
