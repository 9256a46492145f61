"""carom's Gymnasium environments, known to ``gymnasium.make`` once ``import carom`` ran.

Registering needs Gymnasium, and Gymnasium needs numpy; ``import carom`` must load
neither. So :func:`register_when_loaded` registers at once when Gymnasium is already
loaded, and otherwise asks to be told when it is: a finder on ``sys.meta_path`` that, the
first time ``gymnasium`` is imported, lets it load and then registers. Registering
names only where the classes live (``carom.gym.env:ThreeCushionEnv``): the environment
itself, the simulator and numba load at ``gymnasium.make``. Standard library only.
"""

from __future__ import annotations

import sys
from contextlib import suppress
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from importlib.machinery import ModuleSpec
    from types import ModuleType

ENV_ID = "carom/ThreeCushion-v0"
ENTRY_POINT = "carom.gym.env:ThreeCushionEnv"
VECTOR_ENTRY_POINT = "carom.gym.vector:ThreeCushionVectorEnv"


def register() -> None:
    """Register the environments with a loaded Gymnasium (once; again is harmless)."""
    from gymnasium.envs.registration import register as gymnasium_register
    from gymnasium.envs.registration import registry

    if ENV_ID not in registry:
        gymnasium_register(id=ENV_ID, entry_point=ENTRY_POINT, vector_entry_point=VECTOR_ENTRY_POINT)


def register_when_loaded() -> None:
    """Register now if Gymnasium is loaded, else as soon as it is imported."""
    if "gymnasium" in sys.modules:
        register()
    elif not any(isinstance(finder, _AfterGymnasium) for finder in sys.meta_path):
        sys.meta_path.insert(0, _AfterGymnasium())


class _AfterGymnasium:
    """A finder that finds nothing itself: when ``gymnasium`` is looked for, it takes the
    spec the other finders give and has its module register carom's environments once
    loaded; then it steps aside."""

    def find_spec(self, name: str, path: Any = None, target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        from importlib.util import find_spec

        spec = find_spec(name)
        if spec is None or spec.loader is None or not hasattr(spec.loader, "exec_module"):
            return spec
        load = spec.loader.exec_module

        def load_and_register(module: ModuleType) -> None:
            load(module)
            # a Gymnasium that cannot register so must still load: its make() then says what is missing
            with suppress(Exception):
                register()

        spec.loader.exec_module = load_and_register  # type: ignore[method-assign]
        return spec
