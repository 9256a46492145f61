"""Where a tournament's game belongs, as its scoresheets name it (page, text, PDF, CSV): the
tournament, the round (group and round, the knock-out's round, the third-place game) and
the table it was played on (the hall's name of the table when the tournament plays on the
hall's tables, else its number)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carom.competition.day import GameKey, group_name
from carom.notation.words import N_
from carom.storage.errors import StorageError
from carom.web.shared.i18n import PageWords
from carom.web.tournaments.api import app_tournaments

THIRD_PLACE = N_("Third-place game")
PLACES = N_("Places from %(place)s, round %(number)s")


@dataclass(frozen=True, slots=True)
class Place:
    """A tournament's game: the tournament's name, its round, its table (in words)."""

    tournament: str
    round: str
    table: str | None

    def line(self, t: PageWords) -> str:
        parts = [self.tournament, self.round]
        if self.table is not None:
            parts.append(f"{t.gettext('Table')} {self.table}")
        return " · ".join(parts)


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


def place_of(app: Any, match_id: int, t: PageWords) -> Place | None:
    """The place of match ``match_id`` when it is a tournament's game, else ``None``."""
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
    return Place(state.settings.name, round_words(key, len(state.stages), t), table)


def table_name(app: Any, tid: int, number: int) -> str:
    """The hall's name of the tournament's table ``number``, else the number."""
    from carom.web.tables.service import app_games  # the hall's tables (they import the tournaments)

    hall = app_games(app).hall.state()
    chosen = hall.tournaments.get(tid, ())
    if 0 < number <= len(chosen) and chosen[number - 1] in hall.tables:
        return hall.tables[chosen[number - 1]].name
    return str(number)
