"""How many live channels may be open: in all the server's processes together
(:attr:`Limits.streams`), from one client address (:attr:`Limits.streams_per_client`),
and in one process (half the connections it keeps, so that a crowd of channels always
leaves room for pages, records and the database). A channel beyond a cap is refused at
once (503 with ``Retry-After``); the browser's live script tries again later.

The counts across processes are kept in the server's :class:`~carom.web.shared.tally.Tally`.
"""

from __future__ import annotations

from dataclasses import dataclass

from carom.notation.words import N_
from carom.web.shared.i18n import PageWords
from carom.web.shared.limits import Limits
from carom.web.shared.tally import Tally

ALL = "streams"
RETRY_SECONDS = 5
"""What a refused channel is told to wait (``Retry-After``)."""

PROCESS_FULL = N_("Refused: this server process has as many live channels open as it keeps. "
                  "The page tries again in a few seconds.")
CLIENT_FULL = N_("Refused: at most %(most)s live channels are kept open for one address. "
                 "The page tries again in a few seconds.")
ALL_FULL = N_("Refused: the server has %(most)s live channels open, as many as it keeps. "
              "The page tries again in a few seconds.")


@dataclass(frozen=True, slots=True)
class Full:
    """Why a channel is refused: a message of the catalogues and the cap it names."""

    message: str
    most: int = 0

    def said(self, lang: str) -> str:
        """The refusal in ``lang``."""
        return PageWords(lang).gettext(self.message, most=self.most)


class StreamGate:
    """Admits live channels under the caps; each admitted one is closed exactly once."""

    def __init__(self, limits: Limits, tally: Tally, in_process: int) -> None:
        self.limits, self.tally, self.in_process = limits, tally, in_process
        self.open_here = 0

    def open(self, client: str) -> Full | None:
        """``None`` when a channel for ``client`` is admitted (and counted), else why not."""
        if self.open_here >= self.in_process:
            return self._process_full()
        mine = _key(client)
        if not self.tally.take(mine, self.limits.streams_per_client):
            return self._client_full()
        if not self.tally.take(ALL, self.limits.streams):
            self.tally.give(mine)
            return self._all_full()
        self.open_here += 1
        return None

    def refusal(self, client: str | None) -> Full | None:
        """Why a channel for ``client`` would be refused now, counting nothing (``None``: it
        may be admitted; ``client`` ``None``: not known, its own cap is not looked at). The
        HTTP protocol asks it before a request becomes an ASGI one, so that a crowd of
        refused attempts costs no task, no middleware, no answer built by the application;
        :meth:`open` still decides for the ones it lets through."""
        if self.open_here >= self.in_process:
            return self._process_full()
        if client is not None and self.tally.count(_key(client)) >= self.limits.streams_per_client:
            return self._client_full()
        if self.tally.count(ALL) >= self.limits.streams:
            return self._all_full()
        return None

    def _process_full(self) -> Full:
        return Full(PROCESS_FULL, self.in_process)

    def _client_full(self) -> Full:
        return Full(CLIENT_FULL, self.limits.streams_per_client)

    def _all_full(self) -> Full:
        return Full(ALL_FULL, self.limits.streams)

    def close(self, client: str) -> None:
        self.open_here -= 1
        self.tally.give(ALL)
        self.tally.give(_key(client))


def _key(client: str) -> str:
    return f"streams:{client}"
