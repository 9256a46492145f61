"""A table of the hall as the live mode's sink: each stroke goes to the match the table
plays now, written with the table's device token (docs/tables.md).

Before each stroke the table is asked for its game now (``GET /api/tables/{name}``); when
the table has moved on (its match finished and confirmed, the next game come on) the stroke
goes to the new match, said in the log. A table that plays nothing, or whose game waits for
its opening, keeps the stroke out with the reason. The device token stands in for the
referee of the table's match now and of no other (TD5, TD8), so the camera can never write
to a game that is not on its table.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote

from carom.video.errors import VideoError
from carom.video.live import Judge, Scoreboard, Sent, detail

DEVICE_HEADER = "X-Device-Token"


def _named(table: str) -> str:
    return quote(table, safe="")


def _unknown(server: str, table: str, status: int, body: Any) -> VideoError:
    return VideoError(f"table {table!r}: the scoreboard at {server} has no such table "
                      f"({status}: {detail(body)})")


def pair(server: str, table: str, code: str) -> tuple[int, str]:
    """Pair as ``table``'s device with the organiser's one-time ``code``: the device's id
    and its token (given once). A wrong or used code, or an unknown table, is refused."""
    status, body = Scoreboard(server).request("POST", f"/api/tables/{_named(table)}/pair", {"code": code})
    if status == 201 and isinstance(body, dict) and "token" in body:
        return int(body["device"]), str(body["token"])
    if status == 404:
        raise _unknown(server, table, status, body)
    raise VideoError(f"table {table!r}: pairing refused ({status}): {detail(body)}")


@dataclass(slots=True)
class ScoreboardTable:
    """The match a table of the hall plays now, written with the table's device token.
    Made, it checks that the table exists and that the token is paired with it."""

    server: str
    table: str
    token: str
    size: str = field(init=False)
    playing: int | None = field(init=False, default=None)
    """The match the last stroke went to (``None``: none yet, or the table played nothing)."""
    _board: Scoreboard = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._board = Scoreboard(self.server, {DEVICE_HEADER: self.token})
        self.size = str(self.look()["size"])
        status, _ = self._board.request("GET", f"/tables/{_named(self.table)}/tablet/now")
        if status in (401, 403):
            raise VideoError(f"table {self.table!r}: the device token is not paired with it ({status}: "
                             "revoked, of another table or of a retired one); pair again with --pair CODE")
        if status != 200:
            raise VideoError(f"table {self.table!r}: the scoreboard answered {status} to its tablet's page")

    def look(self) -> dict[str, Any]:
        """The table as the scoreboard has it now: its size, its game now and next."""
        status, body = self._board.request("GET", f"/api/tables/{_named(self.table)}")
        if status == 404:
            raise _unknown(self.server, self.table, status, body)
        if status != 200 or not isinstance(body, dict):
            raise VideoError(f"table {self.table!r}: the scoreboard answered {status} ({detail(body)})")
        return body

    def send(self, judge: Judge) -> Sent:
        table = self.look()
        now = table.get("now")
        if not isinstance(now, dict) or now.get("match") is None:
            self.playing = None
            coming = table.get("next")
            then = f" (next: {' – '.join(coming['players'])})" if isinstance(coming, dict) else ""
            reason = f"table {self.table} plays nothing now{then}"
            return Sent(f"not written: {reason}", reason)
        match = int(now["match"])
        moved = ""
        if match != self.playing:
            moved = f"table {self.table} plays match {match} ({' – '.join(now.get('players') or [])}); "
            self.playing = match
        sent = self._board.append(match, self.size, judge)
        return replace(sent, note=moved + sent.note)
