"""Live: each judged stroke sent to a scoreboard's match as it ends.

:class:`StrokeSink` is the small interface the live mode writes to; today's one sink is
:class:`ScoreboardMatch`, which appends the stroke to a match through the scoreboard's
JSON API (``POST /api/matches/{id}/records`` with the referee token, see
docs/scoreboard.md). A sink that finds the match by its table (``--table NAME``) can
take its place once the scoreboard knows its tables' devices.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any, Protocol

from carom.video.errors import VideoError

TOKEN_HEADER = "X-Referee-Token"
TIMEOUT = 10.0


class StrokeSink(Protocol):
    """Where the live mode writes each judged stroke (a ``carom/1`` record)."""

    def send(self, record: dict[str, Any]) -> str:
        """Append ``record``; a line for the log (the ruling, or why it was refused)."""


@dataclass(slots=True)
class ScoreboardMatch:
    """A scoreboard's match, written through its JSON API with the referee token."""

    server: str
    match: int
    token: str

    def _request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.server.rstrip('/')}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json",
                                                  TOKEN_HEADER: self.token})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return int(response.status), json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            try:
                return int(error.code), json.loads(error.read() or b"null")
            except ValueError:
                return int(error.code), None
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise VideoError(f"the scoreboard at {self.server} cannot be reached ({error})") from None

    def last(self) -> int:
        """The number of records the match holds (the one a new record follows)."""
        status, body = self._request("GET", f"/api/matches/{self.match}")
        if status != 200 or not isinstance(body, dict) or "seq" not in body:
            raise VideoError(f"match {self.match}: the scoreboard answered {status} ({_detail(body)})")
        return int(body["seq"])

    def send(self, record: dict[str, Any]) -> str:
        for _ in range(2):
            after = self.last()
            status, body = self._request("POST", f"/api/matches/{self.match}/records",
                                         {"after": after, "record": record})
            if status == 201:
                ruling = body.get("ruling") if isinstance(body, dict) else None
                return f"record {after + 1} written: {json.dumps(ruling)[:200]}"
            if status != 409:
                return f"refused by the scoreboard ({status}): {_detail(body)}"
        return "refused by the scoreboard: the match kept changing (409 twice)"


def _detail(body: Any) -> str:
    if isinstance(body, dict):
        return str(body.get("detail") or body.get("title") or body)[:200]
    return str(body)[:200]
