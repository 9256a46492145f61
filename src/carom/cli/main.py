"""The ``carom`` command. Each command lives in its own module and registers itself
on the shared application (``carom.cli.app``); this module only gathers them. The
modules import only typer at the top, so gathering them all costs little: what a
command needs loads when it runs (``carom --help`` and ``carom replay`` start in a
fraction of a second; ``benchmarks/cli_startup.py`` measures it)."""

from __future__ import annotations

from carom.cli import (  # noqa: F401  (each registers its commands)
    batch,
    draw,
    inspect_venue,
    replay,
    serve,
    simulate,
    solve,
    track,
)
from carom.cli.app import app


def main() -> None:
    """Entry point of the ``carom`` command."""
    app()


if __name__ == "__main__":
    main()
