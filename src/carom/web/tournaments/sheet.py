"""Where a tournament's game belongs, as its scoresheets name it (page, text, PDF, CSV): the
tournament, the round (group and round, the knock-out's round, the third-place game) and
the table it was played on (the hall's name of the table when the tournament plays on the
hall's tables, else its number)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carom.competition.day import GameKey, group_name
from carom.competition.day.state import Taken
from carom.notation.words import N_
from carom.storage.errors import StorageError
from carom.web.shared.i18n import PageWords
from carom.web.tournaments.api import app_tournaments

THIRD_PLACE = N_("Third-place game")
PLACES = N_("Places from %(place)s, round %(number)s")
KEPT = {
    "paper": N_("The tournament keeps the result of a paper scoresheet: %(points)s, innings %(innings)s"),
    "correction": N_("The tournament keeps a corrected result: %(points)s, innings %(innings)s"),
}
WALKOVER = N_("The tournament keeps a walkover won by %(name)s")


@dataclass(frozen=True, slots=True)
class Place:
    """A tournament's game: the tournament's name, its round, its table (in words)."""

    tournament: str
    round: str
    table: str | None
    kept: str | None = None
    """The result the tournament keeps instead of the match's (a paper scoresheet, a
    walkover, a correction: D9–D11), in words; ``None`` when it keeps the match's."""

    def line(self, t: PageWords) -> str:
        parts = [self.tournament, self.round]
        if self.table is not None:
            parts.append(f"{t.gettext('Table')} {self.table}")
        return " · ".join(parts)

    def text(self, t: PageWords) -> str:
        """The place's line and, under it, the result the tournament keeps if not the match's."""
        return self.line(t) if self.kept is None else f"{self.line(t)}\n{self.kept}"


def round_words(key: GameKey, stages: int, t: PageWords) -> str:
    """The game's round as the schedule says it (with its stage when there are several)."""
    if not key.knockout:
        text = f"{t.gettext('Group %(name)s', name=group_name(key.group))}, " \
               f"{t.gettext('round %(number)s', number=key.round)}"
    elif key.bracket == 1:
        text = t.gettext("Knock-out, round %(number)s", number=key.round)
    elif key.bracket == 3 and key.round == 1:
        text = t.gettext(THIRD_PLACE)
    else:
        text = t.gettext(PLACES, place=key.bracket, number=key.round)
    return text if stages < 2 else f"{t.gettext('Stage')} {key.stage}: {text}"


def place_of(app: Any, match_id: int, t: PageWords, names: tuple[str, str] = ("", "")) -> Place | None:
    """The place of match ``match_id`` when it is a tournament's game, else ``None``;
    ``names``: its players (the match's header), for a walkover's winner."""
    tournaments = app_tournaments(app)
    try:
        found = tournaments.days.game_of(match_id)
        if found is None:
            return None
        tid, key = found
        state = tournaments.days.state(tid)
    except StorageError:  # a log another version wrote: the sheet without its place
        return None
    assert state.settings is not None
    call = state.calls.get(key)
    table = None if call is None else table_name(app, tid, call.table)
    taken = state.taken.get(key)
    kept = None if taken is None or taken.source == "match" else kept_words(taken, names, t)
    return Place(state.settings.name, round_words(key, len(state.stages), t), table, kept)


def kept_words(taken: Taken, names: tuple[str, str], t: PageWords) -> str:
    """The result a tournament keeps in place of its match's, in words (D9–D11); ``names``:
    the players in the game's order, as the match's header has them."""
    result = taken.result
    if result.walkover and result.winner is not None:
        return t.gettext(WALKOVER, name=names[result.winner])
    return t.gettext(KEPT.get(taken.source, KEPT["correction"]),
                     points=" : ".join(map(str, result.points)), innings=" : ".join(map(str, result.innings)))


def table_name(app: Any, tid: int, number: int) -> str:
    """The hall's name of the tournament's table ``number``, else the number."""
    from carom.web.tables.service import app_games  # the hall's tables (they import the tournaments)

    hall = app_games(app).hall.state()
    chosen = hall.tournaments.get(tid, ())
    if 0 < number <= len(chosen) and chosen[number - 1] in hall.tables:
        return hall.tables[chosen[number - 1]].name
    return str(number)
