"""One error tree: every exception class carom defines derives from ``CaromError`` (a
``ValueError``), and no module raises a bare built-in error for bad input."""

from __future__ import annotations

import ast
import importlib
import inspect
import pkgutil
from pathlib import Path

import pytest

import carom
from carom.core.errors import CaromError, UnknownName
from carom.core.table import table
from carom.rules.disciplines import discipline

SRC = Path(carom.__file__).parent

NOT_IMPORTED = ("carom.storage.migrations.",)
"""Alembic's scripts run migrations when imported, and a package's ``__main__`` runs its
command: they define no exception."""
CONTROL_FLOW = {"_Spoiled", "_Rejected", "_OutOfBudget"}
"""Private exceptions that never leave their module (they carry a failure to where it is
answered), excepted by name."""
SERVER_ANSWERS = {"carom.web.shared.bodies.Refusal", "carom.web.shared.live.Refused",
                  "carom.web.shared.pool.Refused", "carom.web.shared.pool.Busy", "carom.web.shared.pool.Gone",
                  "carom.web.review.video_upload.Forged"}
"""The server's own refusals (a body too big, a channel over its cap, the pool full or a
job stopped, a video's upload without its anti-forgery token first): each carries its
HTTP status to the code that answers it, never reaches a caller of carom, and must not be
caught as a bad value by an ``except ValueError``."""
BUILTINS_NOT_RAISED = {"ValueError", "KeyError", "LookupError", "IndexError", "RuntimeError",
                       "Exception", "OSError"}
"""Built-in errors a module must not raise itself: a bad input gets a carom error."""


def modules() -> list[str]:
    names = [info.name for info in pkgutil.walk_packages([str(SRC)], "carom.")]
    return sorted(n for n in names if not n.startswith(NOT_IMPORTED) and not n.endswith(".__main__"))


def exception_classes() -> list[type[BaseException]]:
    found: list[type[BaseException]] = []
    for name in modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found.append(value)
    return found


def test_every_exception_class_of_carom_derives_from_carom_error() -> None:
    classes = exception_classes()
    assert len(classes) >= 10  # the walk found them: storage, web, track, batch, solve, ...
    strays = [f"{c.__module__}.{c.__qualname__}" for c in classes
              if not issubclass(c, CaromError) and c.__name__ not in CONTROL_FLOW
              and f"{c.__module__}.{c.__qualname__}" not in SERVER_ANSWERS]
    assert strays == []


def test_carom_error_is_a_value_error() -> None:
    assert issubclass(CaromError, ValueError)


def test_no_module_raises_a_bare_built_in_error() -> None:
    raised = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                target = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(target, ast.Name) and target.id in BUILTINS_NOT_RAISED:
                    raised.append(f"{path.relative_to(SRC)}:{node.lineno} raises {target.id}")
    assert raised == []


@pytest.mark.parametrize(("lookup", "what"), [(table, "table"), (discipline, "discipline")])
def test_an_unknown_name_is_a_carom_error_and_a_key_error_without_quotes(lookup: object,
                                                                          what: str) -> None:
    with pytest.raises(UnknownName) as caught:
        lookup("snooker")  # type: ignore[operator]
    error = caught.value
    assert isinstance(error, CaromError) and isinstance(error, KeyError)
    assert str(error).startswith(f"unknown {what} 'snooker' (known: ")
    assert not str(error).startswith('"')
