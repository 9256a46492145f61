"""The organiser's desk: the day's decisions on a running tournament, as the JSON API and
the desk's forms both make them (:mod:`carom.web.tournaments.desk_api`,
:mod:`carom.web.tournaments.desk_pages`).

Each action reads its request's values (JSON numbers and lists, or a form's text turned
into them by the page), checks their shape here (a :class:`TournamentError` naming the
field) and makes one request of :class:`carom.storage.tournaments.Tournaments` signed
with the account (``actor``); the tournament's rules then take it or refuse it naming
the field and the rule (D1–D14), and a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import datetime
from typing import Any

from carom.competition.day import records as r
from carom.competition.day.settings import MAX_LIMIT
from carom.storage.store import MAX_ID
from carom.storage.tournaments import Tournament, TournamentError, Tournaments
from carom.web.shared.forms import check_name

Body = Mapping[str, Any]
Action = Callable[[Tournaments, int, Body, str], Any]
SHEET_FIELDS = ("series", "points", "innings", "high_run", "winner")
MAX_TABLE = 64
MAX_ROUND = 1000


def whole(body: Body, key: str, *, least: int = 0, most: int = MAX_ID, rule: str | None = None) -> int:
    """A whole number (JSON's, or a form's digits) from ``least`` to ``most``."""
    value = body.get(key)
    if isinstance(value, str) and value.strip().isascii() and value.strip().isdigit() and len(value) < 12:
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise TournamentError(f"{key}: expected a whole number from {least} to {most}", key, rule)
    return value


def optional_whole(body: Body, key: str, *, least: int = 1, most: int = MAX_ID) -> int | None:
    value = body.get(key)
    return None if value is None or value == "" else whole(body, key, least=least, most=most)


def text(body: Body, key: str, *, needed: bool = False, rule: str | None = None) -> str:
    """Text of at most :data:`~carom.competition.day.records.REASON_LENGTH` characters;
    ``needed``: not empty (a reason, D11, D12)."""
    value = body.get(key, "")
    if value is None:
        value = ""
    if not isinstance(value, str) or len(value) > r.REASON_LENGTH:
        raise TournamentError(f"{key}: expected text of at most {r.REASON_LENGTH} characters", key, rule)
    value = " ".join(value.split())
    if needed and not value:
        raise TournamentError(f"{key}: a reason is needed", key, rule)
    return value


def flag(body: Body, key: str) -> bool:
    """True or false (JSON's), or a form's checkbox (``on`` when ticked, absent when not)."""
    value = body.get(key, False)
    if value in ("on", "true"):
        return True
    if value in ("", "false", None):
        return False
    if not isinstance(value, bool):
        raise TournamentError(f"{key}: expected true or false", key)
    return value


def moment(body: Body, key: str = "start") -> datetime | None:
    """A start time with its offset from UTC (``null`` or empty: none) (D7)."""
    value = body.get(key)
    if value is None or value == "":
        return None
    if not isinstance(value, str) or len(value) > 40:
        raise TournamentError(f"{key}: expected a time such as 2026-12-05T18:30:00+01:00", key, "D7")
    try:
        found = datetime.fromisoformat(value)
    except ValueError:
        found = None
    if found is None:
        raise TournamentError(f"{key}: expected a time such as 2026-12-05T18:30:00+01:00", key, "D7")
    if found.tzinfo is None:
        raise TournamentError(f"{key}: expected a time with its offset from UTC", key, "D7")
    return found


def game(body: Body, key: str = "game") -> str:
    value = body.get(key)
    if not isinstance(value, str) or not value or len(value) > 40:
        raise TournamentError(f"{key}: expected a game's key such as 1.A.2.1 or 2.K1.3.0", key)
    return value


def sheet(body: Body) -> dict[str, Any]:
    """The scoresheet's fields of a body (the rest is the action's)."""
    return {k: body[k] for k in SHEET_FIELDS if k in body}


def _only(body: Body, known: tuple[str, ...]) -> None:
    if extra := sorted(set(body) - set(known)):
        raise TournamentError(f"{extra[0]!r:.40}: not a field of this request", extra[0])


def withdraw(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("player", "no_show", "reason"))
    return t.withdraw(tid, whole(body, "player", least=1), actor, no_show=flag(body, "no_show"),
                      reason=text(body, "reason"))


def walkover(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "winner", "reason"))
    return t.walkover(tid, game(body), whole(body, "winner", most=1, rule="D9"), actor,
                      reason=text(body, "reason"))


def result(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", *SHEET_FIELDS))
    return t.enter_result(tid, game(body), actor, **sheet(body))


def correct(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "reason", *SHEET_FIELDS))
    return t.correct(tid, game(body), text(body, "reason", needed=True, rule="D11"), actor, **sheet(body))


def unlock(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "reason"))
    return t.unlock(tid, game(body), text(body, "reason", needed=True, rule="D12"), actor)


def call(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "table"))
    return t.call(tid, game(body), whole(body, "table", least=1, most=MAX_TABLE, rule="D5"), actor)


def move(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "table"))
    return t.move(tid, game(body), whole(body, "table", least=1, most=MAX_TABLE, rule="D6"), actor)


def swap(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("first", "second"))
    return t.swap(tid, game(body, "first"), game(body, "second"), actor)


def postpone(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game",))
    return t.postpone(tid, game(body), actor)


def schedule(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("game", "table", "start"))
    return t.schedule(tid, game(body), actor, table=optional_whole(body, "table", most=MAX_TABLE),
                      start=moment(body))


def schedule_round(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    _only(body, ("stage", "round", "group", "start"))
    return t.schedule_round(tid, whole(body, "stage", least=1, most=8, rule="D7"),
                            whole(body, "round", least=1, most=MAX_ROUND, rule="D7"), moment(body), actor,
                            group=optional_whole(body, "group", most=MAX_ROUND))


def seeding(t: Tournaments, tid: int, body: Body, actor: str) -> Tournament:
    """``{"seeds": [{"player": id, "seed": n}, ...]}`` (a seed of 0 takes one away) (D3)."""
    _only(body, ("seeds",))
    given = body.get("seeds")
    if not isinstance(given, list) or len(given) > 256:
        raise TournamentError('seeds: expected a list of {"player": id, "seed": n}', "seeds", "D3")
    pairs = []
    for i, item in enumerate(given):
        if not isinstance(item, Mapping) or set(item) != {"player", "seed"}:
            raise TournamentError(f'seeds[{i}]: expected {{"player": id, "seed": n}}', "seeds", "D3")
        pairs.append((whole(item, "player", least=1), whole(item, "seed", most=MAX_LIMIT, rule="D3")))
    return t.set_seeding(tid, pairs, actor)


def late_entry(t: Tournaments, tid: int, body: Body, actor: str) -> list[int]:
    """A late entry (D2): a registered ``player`` or a ``name`` (with ``club``), into
    ``stage`` (default 1)."""
    _only(body, ("player", "name", "club", "stage"))
    entry: dict[str, Any] = {"stage": whole(body, "stage", least=1, most=8, rule="D2")} \
        if body.get("stage") not in (None, "") else {}
    if body.get("player") not in (None, ""):
        entry["player"] = whole(body, "player", least=1)
    for key in ("name", "club"):
        value = text(body, key)
        if value:
            check_name(value, key)
            entry[key] = value
    return t.add_players(tid, [entry], actor)


ACTIONS: dict[str, Action] = {
    "enter": late_entry, "withdraw": withdraw, "walkover": walkover, "result": result, "correct": correct,
    "unlock": unlock,    "call": call, "move": move, "swap": swap, "postpone": postpone, "schedule": schedule,
    "round": schedule_round, "seeding": seeding,
}
"""Every decision of the desk, by the name its form and its audit use."""
