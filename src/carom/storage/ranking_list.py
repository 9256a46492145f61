"""A ranking list (a federation's or the club's) read from CSV, for the seeding.

A header row names the columns: ``name`` or ``licence`` or ``id`` (at least one), and
optionally ``rank`` (else the rows' order is the ranking). Cells are separated by commas
or semicolons (whichever the header uses); read by :mod:`carom.core.spreadsheet`, as the
register is (the text decoded as the user named it, a ``'`` before a formula taken off). A row
finds its player as the register's import does: by id, else by licence, else by name
(the one player of that name). Rows whose player the register does not have are left
aside and reported (a national list names many who are not entered); a name several
players share is refused, naming its line.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from carom.core.inputs import is_digits
from carom.core.spreadsheet import read_rows
from carom.storage.register import RegisterError, find_player
from carom.storage.store import MAX_ID, SqlStore

COLUMNS = ("rank", "name", "licence", "id")
MAX_ROWS = 5000


@dataclass(frozen=True, slots=True)
class RankingList:
    players: list[int]
    """The players found, best first."""
    unknown: list[tuple[int, str]]
    """(line, what the row said) of the rows whose player the register does not have."""


def read_ranking(store: SqlStore, text: str) -> RankingList:
    """The players of a ranking list, best first (:class:`RegisterError`, or
    :class:`~carom.core.spreadsheet.SpreadsheetError` for a file that is no CSV, naming line
    and column)."""
    head, rows = read_rows(text, None, lambda column: column in COLUMNS)
    for column in head:
        if column not in COLUMNS:
            raise RegisterError(f"line 1: unknown column {column!r:.40} (known: {', '.join(COLUMNS)})")
    if not {"name", "licence", "id"} & set(head):
        raise RegisterError("line 1: a ranking list names its players: a column name, licence or id")
    ranked: list[tuple[int, int, int]] = []
    unknown: list[tuple[int, str]] = []
    with store.engine.connect() as connection:
        for line, cells in rows:
            if line > MAX_ROWS:
                raise RegisterError(f"line {line}: at most {MAX_ROWS} rows in one file")
            if len(cells) != len(head):
                raise RegisterError(f"line {line}: {len(cells)} cells, the header has {len(head)}")
            row: dict[str, Any] = dict(zip(head, cells, strict=True))
            rank = row.pop("rank", "")
            if rank and (not is_digits(rank) or len(rank) > 6):
                raise RegisterError(f"line {line}, rank: expected a whole number, got {rank!r:.20}")
            raw_id = row.get("id") or ""
            if raw_id and (not is_digits(raw_id) or not 0 < int(raw_id) <= MAX_ID):
                raise RegisterError(f"line {line}, id: expected a player's id, got {raw_id!r:.20}")
            row.update(line=line, id=int(raw_id) if raw_id else None,
                       name=" ".join(row.get("name", "").split()))
            player = find_player(connection, row)
            if player is None:
                unknown.append((line, ", ".join(str(v) for k, v in row.items() if v and k != "line")))
            else:
                ranked.append((int(rank) if rank else line, line, player))
    return RankingList([player for _, _, player in sorted(ranked)], unknown)
