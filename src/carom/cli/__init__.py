"""The ``carom`` command (typer + rich)."""
