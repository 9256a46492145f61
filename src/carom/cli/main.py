"""The ``carom`` command. Each command lives in its own module and registers itself
on the shared application (``carom.cli.app``); :func:`commands` gathers them. The
modules import only typer at the top, so gathering them all costs little: what a
command needs loads when it runs. The plain ``carom replay FILE [--json] [--lang L]``
runs without typer at all (``carom.cli.fast``). ``benchmarks/cli_startup.py`` measures
the start-up."""

from __future__ import annotations

import sys
from typing import Any


def commands() -> Any:
    """The application with every command registered (a ``typer.Typer``)."""
    from carom.cli import (  # noqa: F401  (each registers its commands)
        batch,
        draw,
        fit,
        inspect_venue,
        replay,
        serve,
        simulate,
        solve,
        track,
    )
    from carom.cli.app import app

    return app


def main() -> None:
    """Entry point of the ``carom`` command."""
    from carom.cli.fast import run_plain

    status = run_plain(sys.argv[1:])
    if status is not None:
        sys.exit(status)
    commands()()


def __getattr__(name: str) -> Any:
    """``carom.cli.main.app``: the application, its commands registered on first use."""
    if name == "app":
        return commands()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


if __name__ == "__main__":
    main()
