"""Where input comes from, and how much of it is read.

A command reads a file named on its command line, or standard input for ``-``; a
script hands over a path or an open binary file. Either way the input is opened once
(:func:`opened`: a FIFO or a pipe cannot be read twice) and read within bounds: a whole
document up to a size (:func:`read_bounded`), a file of lines one line at a time, each
up to :data:`MAX_LINE` characters (:func:`text_lines`). ``/dev/zero`` or an endless pipe
is refused at its first line too long, never read into memory. A name that cannot be
opened is refused with the reason in words (no such file, a folder, a name too long).
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import sys
from collections.abc import Iterator
from typing import IO

from carom.core.errors import InputError

STDIN = "-"
"""The name that stands for standard input on the command line."""

MAX_LINE = 64 * 1024 * 1024
"""The longest line of a file of lines that is read, in characters: a simulated stroke
sampled every millisecond for a minute, its three paths written out, takes about 20 MB."""

Source = str | os.PathLike[str] | IO[bytes]
"""A path, :data:`STDIN` where a command means standard input, or a binary file open
for reading."""


@contextlib.contextmanager
def opened(source: Source) -> Iterator[IO[bytes]]:
    """``source`` open for reading bytes: a binary file as it is (left open), a path
    opened (and closed after), its failure in words (:class:`InputError`)."""
    if not isinstance(source, (str, os.PathLike)):
        yield source
        return
    try:
        handle = open(os.fspath(source), "rb")  # noqa: SIM115  (closed below)
    except OSError as error:
        raise InputError(why_not(error)) from None
    with handle:
        yield handle


def why_not(error: OSError) -> str:
    """What the system said about a file, in words a user acts on."""
    if isinstance(error, FileNotFoundError):
        return "no such file"
    if isinstance(error, IsADirectoryError):
        return "is a folder, not a file"
    if isinstance(error, PermissionError):
        return "not allowed to read it"
    if error.errno == errno.ENAMETOOLONG:
        return "the name is too long for this system"
    return f"cannot be read: {error.strerror or error}"


def read_bounded(source: Source, max_bytes: int) -> bytes:
    """The bytes of ``source``, refused when there are more than ``max_bytes``: at most
    ``max_bytes + 1`` are ever read (a device or a pipe may say it is empty)."""
    with opened(source) as handle:
        try:
            data = handle.read(max_bytes + 1)
        except OSError as error:
            raise InputError(why_not(error)) from None
    if len(data) > max_bytes:
        raise InputError(f"more than {max_bytes:,} bytes; at most {max_bytes:,} are read")
    return data


def text_lines(handle: IO[bytes], first_line: int = 1, max_line: int = MAX_LINE) -> Iterator[str]:
    """The lines of a binary file as text, one by one: UTF-8 with or without a byte-order
    mark, any line ending (``\\n``, ``\\r\\n``, ``\\r``); bytes that are not UTF-8 kept
    escaped (``surrogateescape``) for the reader of the line to refuse by its number. A
    line longer than ``max_line`` characters is refused with its number."""
    text = io.TextIOWrapper(handle, encoding="utf-8-sig", errors="surrogateescape", newline=None)
    readline = text.readline
    number = first_line
    try:
        while True:
            try:
                line = readline(max_line + 1)
            except OSError as error:
                raise InputError(why_not(error), number) from None
            if not line:
                return
            if len(line) > max_line and not line.endswith(("\n", "\r")):
                raise InputError(f"the line is longer than {max_line:,} characters", number)
            yield line
            number += 1
    finally:
        if not handle.closed:  # its owner may have closed it before dropping these lines
            text.detach()  # the handle stays open: its owner closes it


def standard_input() -> IO[bytes]:
    """Standard input as a binary file."""
    return sys.stdin.buffer
