"""What the command-line tests share: running a command in this process, the check that
a refusal is clean (exit status 2, a message, no traceback), and generated bad input."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from carom.cli.main import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def run(*args: str | Path) -> Result:
    """``carom ARGS`` in this process."""
    return runner.invoke(app, [str(a) for a in args])


def assert_refused(result: Result, *words: str) -> None:
    """Exit status 2 with a message on standard error (naming ``words``), nothing on
    standard output, and no traceback: the command ended by its own decision."""
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    assert result.exit_code == 2, (result.exit_code, result.output)
    assert "Traceback" not in result.output
    assert result.stdout == "", result.stdout
    message = result.stderr
    assert message.startswith(("carom: ", "Usage: ")), message
    for word in words:
        assert word in message, (word, message)


@contextmanager
def folder() -> Iterator[Path]:
    """A fresh temporary folder (hypothesis examples cannot share pytest's ``tmp_path``)."""
    with tempfile.TemporaryDirectory() as name:
        yield Path(name)


def write_json(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value), encoding="utf-8")
    return path


def files_in(path: Path) -> dict[str, bytes]:
    """Every file of a folder with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir()) if p.is_file()}


NOT_NUMBERS = st.one_of(st.text(max_size=8), st.booleans(), st.none(), st.lists(st.integers(), max_size=2),
                        st.dictionaries(st.text(max_size=3), st.integers(), max_size=2))
"""JSON values that are not numbers."""
NOT_FINITE = st.sampled_from([float("nan"), float("inf"), float("-inf")])
HUGE = st.sampled_from([10**19, -(10**19), 10**400, 1e300, -1e300])


def outside(low: float, high: float) -> st.SearchStrategy[float]:
    """Finite floats outside ``[low, high]``, and the non-finite ones."""
    return st.one_of(st.floats(max_value=low, exclude_max=True, allow_nan=False, allow_infinity=False),
                     st.floats(min_value=high, exclude_min=True, allow_nan=False, allow_infinity=False),
                     NOT_FINITE)


def not_one_of(names: list[str] | tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Values that are not one of ``names``: other words, numbers, nothing."""
    return st.one_of(st.text(max_size=12).filter(lambda t: t not in names), st.integers(), st.none(),
                     st.lists(st.sampled_from(list(names)), min_size=1, max_size=2))


def bad_document_text() -> st.SearchStrategy[bytes]:
    """Bytes no command reads: not UTF-8, not JSON, nested too deep, numbers too big."""
    return st.one_of(
        st.binary(min_size=1, max_size=40).filter(lambda b: not _is_utf8(b)),
        st.sampled_from([b"", b"{", b"[1, 2", b'{"a": NaN}', b'{"a": Infinity}',
                         b"[" * 100_000 + b"]" * 100_000,
                         b'{"strokes": ' + b"9" * 401 + b"}", b'{"balls": 1e400}', b"\xef\xbb\xbf{\x00}"]),
        st.integers(min_value=65, max_value=200).map(lambda n: b"[" * n + b"]" * n),
    )


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True
