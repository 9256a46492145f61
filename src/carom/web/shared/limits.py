"""What one ``carom serve`` gives to whom: the limits that keep one client, or a crowd,
from taking the scoreboard from everybody else (docs/deploy.md says how to raise them).

Each is a whole number with a range, set with ``carom serve --limit NAME=VALUE``:

- ``streams``: live channels (board, tablet, hall) open at once, in all the server's
  processes together; ``streams-per-client``: of them, from one client address.
- ``connections``: connections one server process keeps open; the rest of its file
  descriptors stay in reserve for the database, the writer and its files.
- ``workers``: processes that simulate, search and print (``/api/simulate``,
  ``/api/solve``, big PDFs), apart from the event loop and the writer; ``queue``: jobs
  that may wait for one; ``jobs-per-client``: one client's jobs running or waiting.
- ``header-seconds``: a request's line and headers arrive within this; ``body-idle-seconds``:
  no pause longer than this inside a body; ``body-seconds``: a whole body arrives within this.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from carom.core.errors import CaromError
from carom.core.inputs import is_digits


@dataclass(frozen=True, slots=True)
class Limits:
    streams: int = 2_000
    streams_per_client: int = 32
    connections: int = 4_000
    workers: int = 1
    queue: int = 8
    jobs_per_client: int = 2
    header_seconds: int = 10
    body_idle_seconds: int = 15
    body_seconds: int = 120
    body_memory: int = 32
    """MiB of request bodies one process holds at once, all its connections together
    (:mod:`carom.web.connections`: 503 beyond)."""


RANGES: dict[str, tuple[int, int]] = {
    "streams": (1, 1_000_000), "streams_per_client": (1, 100_000), "connections": (16, 1_000_000),
    "workers": (1, 64), "queue": (0, 10_000), "jobs_per_client": (1, 1_000),
    "header_seconds": (1, 3_600), "body_idle_seconds": (1, 3_600), "body_seconds": (1, 86_400),
    "body_memory": (1, 65_536),
}
"""Each limit's smallest and largest value."""


class LimitError(CaromError):
    """A ``--limit`` that cannot be taken: the message names it and says why."""


def with_limits(settings: list[str], base: Limits | None = None) -> Limits:
    """``base`` (the defaults) with each ``NAME=VALUE`` of ``settings`` applied."""
    changes: dict[str, int] = {}
    for setting in settings:
        name, equals, value = setting.partition("=")
        key = name.strip().replace("-", "_")
        if not equals or key not in RANGES:
            known = ", ".join(k.replace("_", "-") for k in RANGES)
            raise LimitError(f"--limit {setting[:40]!r}: expected NAME=VALUE, NAME one of {known}")
        low, high = RANGES[key]
        value = value.strip()
        if not is_digits(value) or len(value) > 9 or not low <= int(value) <= high:
            raise LimitError(f"--limit {name.strip()}: expected a whole number from {low} to {high}, "
                             f"got {value[:20]!r}")
        changes[key] = int(value)
    return dataclasses.replace(base or Limits(), **changes)
