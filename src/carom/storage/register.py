"""The player register: name, club, country, licence number, and each player's averages
per discipline computed from their matches; in and out as CSV
(:mod:`carom.core.spreadsheet`: the file's encoding as the user names it, ``,`` or
``;``, Excel's style on request).

The CSV has a header row naming its columns: ``name`` (required), ``club``,
``country``, ``licence`` (optional), ``id`` (optional: the player to update). The
export adds ``id`` and one ``average:<discipline>`` column per discipline played;
an import ignores those, so an exported file imports again unchanged. A row finds its
player by ``id``, else by licence, else by name (one player of that name); a name no
player has makes a new player. An import is all or nothing: the first bad row is
named (its line and column) and nothing is changed. The register is listed in the
order of the reader's language (:mod:`carom.notation.collation`).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from sqlalchemy import Connection, insert, select, update

from carom.core.inputs import is_digits
from carom.core.spreadsheet import PLAIN, Cell, Style, decode, read_rows, write_csv
from carom.notation.collation import sort_key
from carom.storage import schema
from carom.storage.errors import StorageError
from carom.storage.players import KEY_LENGTH, name_key
from carom.storage.store import MAX_ID, SqlStore

COLUMNS = ("name", "club", "country", "licence")
LIMITS = {"name": KEY_LENGTH, "club": 200, "country": 64, "licence": 64}
MAX_ROWS = 5000


class RegisterError(StorageError):
    """A register file that cannot be imported (the message names line and column)."""


@dataclass(frozen=True, slots=True)
class Registered:
    id: int
    name: str
    club: str | None
    country: str | None
    licence: str | None
    averages: dict[str, tuple[int, int]]
    """Points and innings per discipline, over all the player's matches."""

    def average(self, discipline: str) -> Fraction | None:
        points, innings = self.averages.get(discipline, (0, 0))
        return Fraction(points, innings) if innings else None


def register(store: SqlStore, averages: dict[int, dict[str, tuple[int, int]]],
             lang: str = "en") -> list[Registered]:
    """Every player with their register fields and ``averages`` (by id), in the order of
    ``lang``'s alphabet (``Ľ`` with ``L``, ``Ö`` with ``O``)."""
    p = schema.players.c
    with store.engine.connect() as connection:
        rows = connection.execute(select(p.id, p.name, p.club, p.country, p.licence))
        found = [Registered(r.id, r.name, r.club, r.country, r.licence, averages.get(r.id, {})) for r in rows]
    return sorted(found, key=lambda x: (sort_key(x.name, lang), x.id))


def export_csv(players: Iterable[Registered], style: Style = PLAIN) -> bytes:
    """The register as a CSV file (:func:`carom.core.spreadsheet.write_csv`)."""
    players = list(players)
    disciplines = sorted({d for x in players for d in x.averages if x.averages[d][1]})

    def rows() -> Iterator[list[Cell]]:
        yield ["id", *COLUMNS, *(f"average:{d}" for d in disciplines)]
        for x in players:
            yield [x.id, x.name, x.club or "", x.country or "", x.licence or "",
                   *(x.average(d) for d in disciplines)]

    return write_csv(rows(), style)


def _known(column: str) -> bool:
    return column in (*COLUMNS, "id") or column.startswith("average:")


def read_file(data: bytes, limit: int, charset: str = "utf-8", separator: str | None = None
              ) -> list[dict[str, Any]]:
    """The rows of an uploaded register file of at most ``limit`` bytes, in the named
    ``charset`` (:data:`carom.core.spreadsheet.CHARSETS`); ``separator``: ``,``, ``;``
    or ``None`` (the header row's)."""
    if len(data) > limit:
        raise RegisterError(f"file: larger than {limit} bytes")
    return read_csv(decode(data, charset), separator)


def read_csv(text: str, separator: str | None = None) -> list[dict[str, Any]]:
    """The rows of a register file, checked (:class:`RegisterError` or
    :class:`~carom.core.spreadsheet.SpreadsheetError` naming line and column)."""
    columns, cells_of = read_rows(text, separator, _known)
    for c in columns:
        if not _known(c):
            raise RegisterError(f"line 1: unknown column {c!r:.40} (known: id, {', '.join(COLUMNS)})")
    if "name" not in columns:
        raise RegisterError("line 1: the column name is missing")
    if len(set(columns)) != len(columns):
        raise RegisterError("line 1: a column is named twice")
    rows: list[dict[str, Any]] = []
    for line, cells in cells_of:
        if len(rows) >= MAX_ROWS:
            raise RegisterError(f"line {line}: at most {MAX_ROWS} players in one file")
        if len(cells) != len(columns):
            raise RegisterError(f"line {line}: {len(cells)} cells, the header has {len(columns)}")
        row: dict[str, Any] = {"line": line}
        for column, value in zip(columns, cells, strict=True):
            if column == "id":
                if value and (not is_digits(value) or not 0 < int(value) <= MAX_ID):
                    raise RegisterError(f"line {line}, id: expected a player's id, got {value!r:.40}")
                row["id"] = int(value) if value else None
            elif column in COLUMNS:
                if len(value) > LIMITS[column]:
                    raise RegisterError(f"line {line}, {column}: longer than {LIMITS[column]} characters")
                row[column] = " ".join(value.split()) if column == "name" else value
        if not row["name"]:
            raise RegisterError(f"line {line}, name: empty")
        rows.append(row)
    return rows


def import_rows(store: SqlStore, rows: list[dict[str, Any]]) -> tuple[int, int]:
    """Bring the rows into the register, all or nothing: (players made, players updated)."""

    def job(connection: Connection) -> tuple[int, int]:
        p = schema.players.c
        made = changed = 0
        for row in rows:
            fields = {k: (row[k] or None) for k in ("club", "country", "licence") if k in row}
            target = find_player(connection, row)
            if target is None:
                connection.execute(insert(schema.players).values(
                    name=row["name"], name_key=name_key(row["name"]), **fields))
                made += 1
            else:
                if row.get("id") is not None:
                    fields["name"] = row["name"]
                    fields["name_key"] = name_key(row["name"])
                if fields:  # a row of a name alone finds its player and changes nothing
                    connection.execute(update(schema.players).where(p.id == target).values(**fields))
                changed += 1
        return made, changed

    return store.run(job)


def find_player(connection: Connection, row: dict[str, Any]) -> int | None:
    """The player a row names: by ``id`` (which must exist), else by ``licence`` (one
    player), else by ``name`` (one player of that name); ``None``: nobody. ``line`` is
    the row's line, for the refusal."""
    p = schema.players.c
    line = row["line"]
    if row.get("id") is not None:
        if connection.execute(select(p.id).where(p.id == row["id"])).first() is None:
            raise RegisterError(f"line {line}, id: no player {row['id']}")
        return int(row["id"])
    if row.get("licence"):
        found = connection.execute(select(p.id).where(p.licence == row["licence"])).scalars().all()
        if len(found) == 1:
            return int(found[0])
        if len(found) > 1:
            raise RegisterError(f"line {line}, licence: {len(found)} players have licence {row['licence']}")
    found = connection.execute(select(p.id).where(p.name_key == name_key(row["name"]))).scalars().all()
    if len(found) > 1:
        raise RegisterError(f"line {line}, name: {len(found)} players are called {row['name']}: "
                            "give the id")
    return int(found[0]) if found else None
