"""How many live channels may be open: in all the server's processes together
(:attr:`Limits.streams`), from one client address (:attr:`Limits.streams_per_client`),
and in one process (half the connections it keeps, so that a crowd of channels always
leaves room for pages, records and the database). A channel beyond a cap is refused at
once (503 with ``Retry-After``); the browser's live script tries again later.

The counts across processes are kept in the server's :class:`~carom.web.shared.tally.Tally`.
"""

from __future__ import annotations

from carom.web.shared.limits import Limits
from carom.web.shared.tally import Tally

ALL = "streams"


class StreamGate:
    """Admits live channels under the caps; each admitted one is closed exactly once."""

    def __init__(self, limits: Limits, tally: Tally, in_process: int) -> None:
        self.limits, self.tally, self.in_process = limits, tally, in_process
        self.open_here = 0

    def open(self, client: str) -> str | None:
        """``None`` when a channel for ``client`` is admitted (and counted), else why not."""
        if self.open_here >= self.in_process:
            return "this server process has as many live channels open as it keeps"
        mine = _key(client)
        if not self.tally.take(mine, self.limits.streams_per_client):
            return f"at most {self.limits.streams_per_client} live channels from one address"
        if not self.tally.take(ALL, self.limits.streams):
            self.tally.give(mine)
            return f"the server has {self.limits.streams} live channels open, as many as it keeps"
        self.open_here += 1
        return None

    def close(self, client: str) -> None:
        self.open_here -= 1
        self.tally.give(ALL)
        self.tally.give(_key(client))


def _key(client: str) -> str:
    return f"streams:{client}"
