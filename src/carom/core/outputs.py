"""Writing output files so that a failed run never spoils what was there before.

Every command that writes a file checks the place first (:func:`output_problem`: a name
that can be a file, a folder that exists and may be written) and writes through
:func:`replacing`. A regular file (or a new one) is written to a hidden temporary file
beside it, which replaces it only when everything was written: a run that fails or is
interrupted leaves the old file as it was and removes its temporary file. A symbolic
link is followed, so that its target is replaced and the link stays. A character device
or a FIFO (``/dev/stdout``, ``/dev/null``, a named pipe) is written through, as it
stands: it cannot be replaced. Anything else (a socket, a block device) is refused.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

PARTIAL = ".part"
"""The suffix of a temporary file being written (``.NAME.PID.part`` beside ``NAME``)."""
NAME_MAX = 255
"""The longest name of a file, in bytes, where the file system does not say."""


def output_problem(path: str | os.PathLike[str]) -> str | None:
    """Why ``path`` cannot be written as an output file, or ``None`` when it can. Given as
    typed, a name that ends in ``/`` names a folder and is refused."""
    text = os.fspath(path)
    if text.endswith(os.sep):
        return "ends in / (a folder's name): give the name of a file"
    given = Path(text)
    longest, size = _name_max(given.parent), len(os.fsencode(given.name))
    if size > longest:
        return f"the name is {size} bytes, more than the {longest} a file's name may have"
    try:
        mode = os.stat(given).st_mode  # through a link, of what it points to
    except FileNotFoundError:
        mode = None
    except OSError as error:
        return _words(error)
    if mode is not None:
        if stat.S_ISDIR(mode):
            return "is a folder, not a file"
        if written_through(mode):
            return None if os.access(given, os.W_OK) else "not allowed to write it"
        if not stat.S_ISREG(mode):
            return "is neither a file nor a device or a FIFO that can be written"
    return _folder_problem(_followed(given).parent)


def _folder_problem(folder: Path) -> str | None:
    try:
        mode = os.stat(folder).st_mode
    except FileNotFoundError:
        return f"the folder {str(folder)!r} does not exist"
    except OSError as error:
        return f"the folder {str(folder)!r}: {_words(error)}"
    if not stat.S_ISDIR(mode):
        return f"{str(folder)!r} is a file, not a folder"
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"not allowed to write in the folder {str(folder)!r}"
    return None


def _words(error: OSError) -> str:
    if error.errno == errno.ENAMETOOLONG:
        return "the name is too long for this system"
    return error.strerror or str(error)


def written_through(mode: int) -> bool:
    """A character device or a FIFO: written as it stands, never replaced."""
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


def _followed(path: Path) -> Path:
    """The file ``path`` names: a symbolic link followed to its target (even one not there yet)."""
    try:
        return Path(os.path.realpath(path)) if path.is_symlink() else path
    except OSError:  # a name too long to look at: output_problem says so
        return path


def _name_max(folder: Path) -> int:
    try:
        return os.pathconf(folder, "PC_NAME_MAX")
    except (OSError, ValueError):
        return NAME_MAX


def partial_path(path: Path) -> Path:
    """The temporary file beside ``path`` that :func:`replacing` writes first: ``.NAME.PID.part``,
    the name shortened when it would be too long for the file system."""
    end = f".{os.getpid()}{PARTIAL}"
    room = _name_max(path.parent) - len(os.fsencode(end)) - 1
    name = os.fsencode(path.name)[:room].decode("utf-8", "ignore") if room > 0 else ""
    return path.with_name(f".{name}{end}")


@contextlib.contextmanager
def replacing(*paths: Path) -> Iterator[tuple[Path, ...]]:
    """Paths to write in the block, one for each of ``paths``. For a regular or a new file,
    a temporary one beside it (a link's target), which replaces it (``os.replace``, atomic on
    one file system) when the block ends normally and is removed when it raises anything
    (an error, Ctrl-C, ``SystemExit``), the target left untouched. A device or a FIFO is
    given as it is: written through."""
    through = tuple(is_written_through(p) for p in paths)
    targets = tuple(p if direct else _followed(p) for p, direct in zip(paths, through, strict=True))
    partials = tuple(t if direct else partial_path(t) for t, direct in zip(targets, through, strict=True))
    try:
        yield partials
        for partial, target, direct in zip(partials, targets, through, strict=True):
            if not direct:
                os.replace(partial, target)
    except BaseException:
        for partial, direct in zip(partials, through, strict=True):
            if not direct:
                with contextlib.suppress(OSError):
                    partial.unlink()
        raise


def is_written_through(path: Path) -> bool:
    """``path`` is (or links to) a character device or a FIFO, which is written through."""
    try:
        return written_through(os.stat(path).st_mode)
    except OSError:
        return False


def write_text(path: Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` through :func:`replacing`."""
    with replacing(path) as (partial,), partial.open("w", encoding="utf-8") as out:
        out.write(text)
