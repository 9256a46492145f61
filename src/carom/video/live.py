"""Live: each judged stroke sent to a scoreboard's match as it ends.

:class:`StrokeSink` is the small interface the live mode writes to. :class:`ScoreboardMatch`
appends each stroke to one match through the scoreboard's JSON API
(``POST /api/matches/{id}/records`` with the referee token, docs/scoreboard.md);
:class:`~carom.video.live_table.ScoreboardTable` to the match a table of the hall plays now,
with the table's device token (docs/tables.md).

Each stroke is judged by the discipline of the match it goes to (the match's header): the
sink hands the match's discipline to a :data:`Judge` and writes the record it gets. A stroke
the match cannot take now (it waits for its opening, it is over, it is played on another
table's size) is kept out with the reason, never written wrong and never lost silently.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from carom.core.errors import CaromError
from carom.video.errors import VideoError

TOKEN_HEADER = "X-Referee-Token"
TIMEOUT = 10.0

Judge = Callable[[str], dict[str, Any]]
"""The stroke judged by the named discipline: its ``carom/1`` stroke record (raises a
:class:`~carom.core.errors.CaromError` when it cannot be judged so)."""


@dataclass(frozen=True, slots=True)
class Sent:
    """What became of one stroke: the line for the log, and why it was kept out (``None``:
    written). ``discipline``: the discipline it was judged by, when it was."""

    note: str
    kept_out: str | None = None
    discipline: str | None = None


class StrokeSink(Protocol):
    """Where the live mode writes each judged stroke."""

    size: str
    """The table's size the camera's strokes are measured on (``large``, ``small``)."""

    def send(self, judge: Judge) -> Sent:
        """Judge the stroke for the match it goes to and append it there, or say why not."""


@dataclass(slots=True)
class Scoreboard:
    """A scoreboard's JSON API, every request carrying ``headers`` (the token)."""

    server: str
    headers: dict[str, str] = field(default_factory=dict)

    def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        """The answer's status and JSON body (``None`` when it has none); a scoreboard that
        cannot be reached is a :class:`VideoError`."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(f"{self.server.rstrip('/')}{path}", data=data, method=method,
                                         headers={"Content-Type": "application/json", **self.headers})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                return int(response.status), _json(response.read())
        except urllib.error.HTTPError as error:
            return int(error.code), _json(error.read())
        except (urllib.error.URLError, OSError, ValueError) as error:
            raise VideoError(f"the scoreboard at {self.server} cannot be reached ({error})") from None

    def match(self, match: int) -> dict[str, Any]:
        """``GET /api/matches/{match}``: its header, sequence number and state."""
        status, body = self.request("GET", f"/api/matches/{match}")
        if status != 200 or not isinstance(body, dict) or "seq" not in body:
            raise VideoError(f"match {match}: the scoreboard answered {status} ({detail(body)})")
        return body

    def append(self, match: int, size: str, judge: Judge) -> Sent:
        """Judge the stroke by ``match``'s discipline and append it after the match's last
        record (once more when another writer came first: 409)."""
        for _ in range(2):
            found = self.match(match)
            header, state = found.get("header") or {}, found.get("state") or {}
            waiting = _waiting(match, header, state, size)
            if waiting is not None:
                return Sent(f"not written: {waiting}", waiting)
            discipline = str(header.get("discipline"))
            try:
                record = judge(discipline)
            except CaromError as error:
                reason = f"it cannot be judged by {discipline} on a {size} table ({error})"
                return Sent(f"not written: {reason}", reason)
            status, body = self.request("POST", f"/api/matches/{match}/records",
                                        {"after": found["seq"], "record": record})
            if status == 201:
                ruling = body.get("ruling") if isinstance(body, dict) else None
                return Sent(f"match {match} record {found['seq'] + 1} written: {json.dumps(ruling)[:200]}",
                            discipline=discipline)
            if status != 409:
                reason = f"refused by the scoreboard ({status}): {detail(body)}"
                return Sent(reason, reason, discipline)
        reason = "refused by the scoreboard: the match kept changing (409 twice)"
        return Sent(reason, reason)


def _waiting(match: int, header: dict[str, Any], state: dict[str, Any], size: str) -> str | None:
    """Why ``match`` cannot take a stroke now, or ``None``: it waits for its lag or opener,
    it is in its penalty shoot-out, it is over, or it is played on another table's size."""
    if header.get("table") not in (None, size):
        return f"match {match} is played on a {header.get('table')} table, the camera's is {size}"
    if state.get("finished"):
        return f"match {match} is over (waiting for its confirmation)"
    if not state.get("started"):
        return f"match {match} is waiting for its opening (the lag or the opener)"
    if state.get("shootout"):
        return f"match {match} is in its penalty shoot-out (entered on the tablet)"
    return None


@dataclass(slots=True)
class ScoreboardMatch:
    """A scoreboard's match, written through its JSON API with the referee token."""

    server: str
    match: int
    token: str
    size: str = "large"
    _board: Scoreboard = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._board = Scoreboard(self.server, {TOKEN_HEADER: self.token})

    def header(self) -> dict[str, Any]:
        """The match's ``carom/1`` header (its discipline and table)."""
        return dict(self._board.match(self.match).get("header") or {})

    def send(self, judge: Judge) -> Sent:
        return self._board.append(self.match, self.size, judge)


def _json(raw: bytes) -> Any:
    """An answer's JSON body; ``None`` when it has none (a page)."""
    try:
        return json.loads(raw or b"null")
    except ValueError:
        return None


def detail(body: Any) -> str:
    """The reason in a refusal's body (its ``detail``), short."""
    if isinstance(body, dict):
        return str(body.get("detail") or body.get("title") or body)[:200]
    return str(body)[:200]
