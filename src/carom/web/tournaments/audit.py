"""The desk's audit view: a tournament's log as a person reads it, one row a record: its
number, when, who (the account, or the schedule by itself), what (in the page's
language, with the game, its players, the table or the score) and why (the reason of a
correction, an unlock, a withdrawal or a walkover)."""

from __future__ import annotations

from typing import Any

from carom.competition.day import GameKey, derived
from carom.competition.day import records as r
from carom.notation.words import N_
from carom.storage.daylog import Logged
from carom.storage.tournaments import Tournament
from carom.web.shared.i18n import PageWords

WHAT: dict[type[r.Record], str] = {
    r.Created: N_("Tournament created"), r.Entered: N_("Player entered"), r.SeedingSet: N_("Seeding set"),
    r.Started: N_("Tournament started"), r.GameCalled: N_("Game called to a table"),
    r.GameScheduled: N_("Game scheduled"), r.RoundScheduled: N_("Round scheduled"),
    r.GameMoved: N_("Game moved to another table"), r.GamesSwapped: N_("Games swapped"),
    r.GamePostponed: N_("Game postponed"), r.GameFinished: N_("Game finished"),
    r.GameResumed: N_("Game resumed"), r.GameConfirmed: N_("Result confirmed"),
    r.ResultEntered: N_("Result entered from a paper scoresheet"), r.ResultCorrected: N_("Result corrected"),
    r.GameUnlocked: N_("Game unlocked"), r.Walkover: N_("Walkover"), r.Withdrew: N_("Player withdrew"),
    r.StageFed: N_("Next stage fed"),
}
NO_SHOW = N_("Player did not come")


def audit_rows(logged: list[Logged], t: Tournament, words: PageWords) -> list[dict[str, Any]]:
    """The log's records, newest first, as the audit view shows them."""
    names = t.names()
    by_key = derived(t.day).by_key

    def game(key: GameKey) -> str:
        found = by_key.get(key)
        if found is None or not all(found.players):
            return key.text
        return f"{key.text} {names.get(found.players[0], '?')} – {names.get(found.players[1], '?')}"

    rows = []
    for item in reversed(logged):
        x = item.record
        what = words.gettext(NO_SHOW if isinstance(x, r.Withdrew) and x.no_show else WHAT[type(x)])
        detail = _detail(x, game, names, words)
        if isinstance(x, r.Walkover) and (found := by_key.get(x.game)) is not None:
            winner = found.players[x.winner] if x.winner in (0, 1) else None
            detail += " · " + words.gettext("won by %(name)s", name=names.get(winner or 0, "?"))
        rows.append({"seq": item.seq, "when": words.when(x.at), "who": x.actor, "what": what,
                     "detail": detail, "reason": getattr(x, "reason", "") or "",
                     "kind": r.kind_of(x)})
    return rows


def _detail(x: r.Record, game: Any, names: dict[int, str], words: PageWords) -> str:
    """The record's particulars: the game, the player, the table, the score, the time."""
    parts: list[str] = []
    if isinstance(x, r.Entered | r.Withdrew):
        parts.append(names.get(x.player, f"#{x.player}"))
    key = getattr(x, "game", None)
    if isinstance(key, GameKey):
        parts.append(game(key))
    if isinstance(x, r.GamesSwapped):
        parts += [game(x.first), game(x.second)]
    table = getattr(x, "table", None)
    if isinstance(table, int):
        parts.append(words.gettext("table %(number)s", number=table))
    result = getattr(x, "result", None)
    if result is not None:
        parts.append(f"{result.points[0]}:{result.points[1]}")
    if isinstance(x, r.RoundScheduled):
        parts.append(words.gettext("stage %(stage)s, round %(round)s", stage=x.stage, round=x.round))
    start = getattr(x, "start", None)
    if start is not None:
        parts.append(words.when(start))
    if isinstance(x, r.SeedingSet):
        parts.append(x.source)
    return " · ".join(parts)
