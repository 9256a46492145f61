"""The ``carom`` command. Each command lives in its own module and registers itself
on the shared application (``carom.cli.app``); :func:`commands` gathers them. The
modules import only typer at the top, so gathering them all costs little: what a
command needs loads when it runs. The plain ``carom replay FILE [--json] [--lang L]``
runs without typer at all (``carom.cli.fast``). ``benchmarks/cli_startup.py`` measures
the start-up."""

from __future__ import annotations

import errno
import os
import sys
from typing import Any


def commands() -> Any:
    """The application with every command registered (a ``typer.Typer``)."""
    from carom.cli import (  # noqa: F401  (each registers its commands)
        backup,
        batch,
        draw,
        fit,
        inspect_venue,
        replay,
        serve,
        simulate,
        solve,
        track,
        video,
    )
    from carom.cli.app import app

    return app


def main() -> None:
    """Entry point of the ``carom`` command. Standard output that cannot be written (a full
    disk, ``/dev/full``, a pipe closed early) ends the command with one line on standard
    error and exit status 1, never a traceback."""
    from carom.cli.fast import run_plain

    try:
        status = run_plain(sys.argv[1:])
        if status is None:
            commands()()  # ends with SystemExit
        sys.stdout.flush()
    except SystemExit as done:
        status = done.code if isinstance(done.code, int) else 1 if done.code else 0
        _flushed()
    except OSError as error:
        if error.errno not in WRITE_ERRORS:
            raise  # no failure to write (every file a command reads or writes is its own to refuse)
        _output_failed(error)
    sys.exit(status)


WRITE_ERRORS = (errno.ENOSPC, errno.EPIPE, errno.EDQUOT, errno.EFBIG)
"""What only a write fails with: the disk or the device is full, the reader has gone."""


def _flushed() -> bool:
    """Flush standard output; ``False`` when it cannot take what was written to it."""
    try:
        sys.stdout.flush()
    except OSError as error:
        _output_failed(error)
        return False
    return True


def _output_failed(error: OSError) -> None:
    """Say once that standard output failed, and leave: its unwritten part goes nowhere."""
    try:
        sys.stderr.write(f"carom: cannot write to standard output: {error.strerror or error}\n")
        sys.stderr.flush()
    except OSError:
        pass
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())  # the exit's own flush then finds a place to write
    os.close(devnull)
    sys.exit(1)


def __getattr__(name: str) -> Any:
    """``carom.cli.main.app``: the application, its commands registered on first use."""
    if name == "app":
        return commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
