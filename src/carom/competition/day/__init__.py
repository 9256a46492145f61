"""The tournament day as an append-only log, and the rules that fold it.

Every change to a tournament is a record (:mod:`.records`) with the account that made it
and its time; :func:`apply` checks a record against the tournament as it stands and
returns the tournament after it, or refuses it naming the field and the rule
(:class:`Refused`); the tournament is :func:`replay` of its log. What follows from the
state (its games, standings, bracket, ranking, what each table plays) is derived
(:mod:`.games`, :mod:`.rank`, :mod:`.schedule`). Pure: the standard library only.
"""

from __future__ import annotations

from carom.competition.day.apply import apply, moved_on, replay
from carom.competition.day.codec import from_json, to_json
from carom.competition.day.games import DONE, PLAYING, WAITING, DayGame, day_games, derived
from carom.competition.day.keys import GameKey, group_name
from carom.competition.day.rank import champion, finished, group_standings, ranking, stage_done
from carom.competition.day.records import SCHEDULE, Record
from carom.competition.day.refusal import DAY_RULES, Refused
from carom.competition.day.result import Result
from carom.competition.day.schedule import MatchView, TableView, calls_now, due, tables
from carom.competition.day.settings import Settings, Stage
from carom.competition.day.state import DayState

__all__ = [
    "DAY_RULES",
    "DONE",
    "PLAYING",
    "SCHEDULE",
    "WAITING",
    "DayGame",
    "DayState",
    "GameKey",
    "MatchView",
    "Record",
    "Refused",
    "Result",
    "Settings",
    "Stage",
    "TableView",
    "apply",
    "calls_now",
    "champion",
    "day_games",
    "derived",
    "due",
    "finished",
    "from_json",
    "group_name",
    "group_standings",
    "moved_on",
    "ranking",
    "replay",
    "stage_done",
    "tables",
    "to_json",
]
