"""The tracked-data library interface: one small reader per input format.

Every reader turns a file into :class:`~carom.track.samples.TrackedStroke` values and
registers itself here under a name. :func:`read_tracked` picks the reader (by name, or
the first whose ``sniff`` recognises the file's beginning) and streams the strokes.

Adding a reader for another tracker: write ``carom/track/readers/<name>.py`` with a
``sniff(head: str) -> bool`` and a ``read(lines) -> Iterator[TrackedStroke]`` that raises
:class:`~carom.track.errors.TrackFormatError` naming the line and the field of anything
it cannot read, then register it with one line in :func:`_register_builtin` below (or
call :func:`register` from your own code).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from itertools import chain
from pathlib import Path

from carom.core.errors import InputError
from carom.core.inputs import decode
from carom.track.errors import TrackFormatError
from carom.track.samples import TrackedStroke

NumberedLines = Iterable[tuple[int, str]]
"""``(line number, text)`` of every line of a file, 1-based."""


@dataclass(frozen=True, slots=True)
class Reader:
    """One input format."""

    name: str
    description: str
    sniff: Callable[[str], bool]
    """Given the first non-blank line of a file: does this format recognise it?"""
    read: Callable[[NumberedLines], Iterator[TrackedStroke]]
    """The strokes of a file, in order; raises :class:`TrackFormatError` on bad input."""


READERS: dict[str, Reader] = {}
"""Every registered reader, by name."""

DEFAULT = "balls-jsonl"
"""The reader tried on a JSON file that no reader recognises, for its error messages."""


def register(reader: Reader) -> Reader:
    """Make ``reader`` known to :func:`read_tracked` (a later one with the same name wins)."""
    READERS[reader.name] = reader
    return reader


def numbered(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """Number lines from 1, leaving out blank ones."""
    for number, text in enumerate(lines, start=1):
        if text.strip():
            yield number, text


def choose_reader(first_line: str, fmt: str | None = None) -> Reader:
    """The reader called ``fmt``, or the first that recognises ``first_line``."""
    if fmt is not None:
        try:
            return READERS[fmt]
        except KeyError:
            known = ", ".join(READERS)
            raise TrackFormatError(f"unknown tracked format {fmt!r} (known: {known})") from None
    for reader in READERS.values():
        if reader.sniff(first_line):
            return reader
    if first_line.lstrip().startswith("{") and DEFAULT in READERS:
        # a JSON line no reader recognises: the default reader names what is wrong in it
        return READERS[DEFAULT]
    known = ", ".join(READERS)
    raise TrackFormatError(f"no reader recognises this file (known formats: {known})", 1)


def read_lines(lines: Iterable[str], fmt: str | None = None) -> Iterator[TrackedStroke]:
    """The strokes of a file held as lines (see :func:`read_tracked`); a file with no
    line but blank ones is refused (it holds no stroke)."""
    rows = numbered(lines)
    first = next(rows, None)
    if first is None:
        raise TrackFormatError("the file holds no strokes (it is empty or blank)")
    reader = choose_reader(first[1], fmt)
    yield from reader.read(chain((first,), rows))


def read_tracked(path: str | Path, fmt: str | None = None) -> Iterator[TrackedStroke]:
    """Stream the tracked strokes of the file at ``path``.

    ``fmt`` names the reader; without it the reader is chosen from the file's first
    line. Raises :class:`TrackFormatError` (line and field) on bad input, bytes that are
    not UTF-8 included, and ``OSError`` when the file cannot be opened.
    """
    with open(path, "rb") as handle:
        yield from read_lines(_decoded(handle), fmt)


def _decoded(handle: Iterable[bytes]) -> Iterator[str]:
    """The lines of a binary file as text, each checked to be UTF-8 on its own (an error
    names its line)."""
    for number, raw in enumerate(handle, start=1):
        try:
            yield decode(raw, number)
        except InputError as error:
            raise TrackFormatError(error.reason, error.line) from None


def _register_builtin() -> None:
    from carom.track.readers import balls_jsonl

    register(balls_jsonl.READER)


_register_builtin()
