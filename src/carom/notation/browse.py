"""A match to browse in a notebook: its plays (each record that was ruled on, with its
ruling), a short ``repr``, a scoresheet as HTML, and the plays as rows of plain values
for a data frame (docs/api.md).

A *play* is a record the rules ruled on and whose ruling stands: a stroke, a call, a
whole inning or a re-spot (an ``undo`` withdraws one; openers, lags, time-outs are no
plays). ``len(match)``, ``match[i]`` and ``for play in match`` go over them in order.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import import_module
from typing import TYPE_CHECKING, Any, NamedTuple

from carom.core.checks import printable
from carom.core.errors import MissingExtra
from carom.core.records import Record, Stroke
from carom.match.state import Ruling
from carom.notation.scoresheet import innings, result_word
from carom.notation.words import Words

if TYPE_CHECKING:
    from carom.notation.matchfile import Match


class Play(NamedTuple):
    """One record ruled on, and its ruling: ``match[i]``."""

    line: int
    record: Record
    ruling: Ruling


def plays(records: Sequence[tuple[int, Record]], rulings: Sequence[Ruling]) -> tuple[Play, ...]:
    """The standing rulings in order, each with the record it rules on."""
    by_line = dict(records)
    return tuple(Play(r.line, by_line[r.line], r) for r in rulings)


def short_repr(match: Match) -> str:
    """``<Match three-cushion, large: 'A' – 'B', 25 points, 21:25, finished, 52 plays>``."""
    h, state = match.header, match.state
    limit = h.points if not isinstance(h.points, tuple) else "/".join(map(str, h.points))
    limits = ", ".join(part for part in (f"{limit} points" if limit is not None else "",
                                         f"{h.innings} innings" if h.innings is not None else "") if part)
    score = ":".join(map(str, state.points_total))
    status = "finished" if state.finished else "playing"
    names = " – ".join(repr(printable(p)) for p in h.players)
    errors = f", {len(match.errors)} refused" if match.errors else ""
    return (f"<Match {h.discipline}, {h.table}: {names}, {limits}, {score}, {status}, "
            f"{len(match.rulings)} plays{errors}>")


def play_rows(match: Match) -> list[dict[str, Any]]:
    """One row of plain values per play (docs/api.md, "The plays as a table")."""
    players = match.header.players
    rows = []
    for line, record, ruling in plays(match.records, match.rulings):
        stroke = record if isinstance(record, Stroke) else None
        rows.append({
            "line": line, "set": ruling.set_no, "inning": ruling.inning, "player": ruling.player,
            "name": players[ruling.player], "record": type(record).__name__.lower(),
            "ball": stroke.ball.value if stroke is not None else None,
            "events": len(stroke.events) if stroke is not None else None,
            "points": ruling.points, "fouls": list(ruling.fouls), "cites": list(ruling.cites),
            "ends_inning": ruling.ends_inning,
        })
    return rows


def data_frame(rows: list[dict[str, Any]]) -> Any:
    """``rows`` as a pandas ``DataFrame``; pandas is an extra (``carom[pandas]``)."""
    try:  # looked up by name: pandas is an optional extra, never a dependency of the pure core
        pandas = import_module("pandas")
    except ImportError:
        raise MissingExtra("to_pandas() needs pandas, which carom does not install by itself: "
                           "pip install 'carom[pandas]' (or pip install pandas)") from None
    columns = ["line", "set", "inning", "player", "name", "record", "ball", "events", "points", "fouls",
               "cites", "ends_inning"]
    return pandas.DataFrame(rows, columns=columns)


def scoresheet_html(match: Match, picture: str) -> str:
    """The scoresheet as an HTML table beside ``picture`` (the table as it stands)."""
    w = Words()
    state, players = match.state, [escape(printable(p)) for p in match.header.players]
    rules = state.rules
    limits = w.limits(rules.points, rules.innings, rules.sets_to_win, rules.equalizing_inning)
    head = (f"<p><b>{players[0]}</b> – <b>{players[1]}</b> · {escape(w.discipline(rules.discipline.id))} · "
            f"{escape(w.table(rules.table.name))} · {escape(limits)}</p>")
    body = []
    for set_no, rows in innings(match.rulings).items():
        if rules.sets_to_win is not None:
            body.append(f'<tr><th colspan="5">Set {set_no}</th></tr>')
        totals = [0, 0]
        for k in range(1, max(max(rows[0], default=0), max(rows[1], default=0)) + 1):
            cells = []
            for p in (0, 1):
                if k not in rows[p]:
                    cells.append("<td></td><td></td>")
                    continue
                points, fouls = rows[p][k]
                totals[p] += points
                mark = f"{points} {' '.join(fouls)}".strip()
                cells.append(f"<td>{escape(mark)}</td><td>{totals[p]}</td>")
            body.append(f"<tr><td>{k}</td>{''.join(cells)}</tr>")
    results = " · ".join(f"{players[p]}: {state.points_total[p]} ({escape(result_word(state, p, w))})"
                         for p in (0, 1))
    table = ('<table class="carom-scoresheet"><thead><tr><th>Inning</th>'
             f'<th colspan="2">{players[0]}</th><th colspan="2">{players[1]}</th></tr>'
             "<tr><th></th><th>series</th><th>total</th><th>series</th><th>total</th></tr></thead>"
             f"<tbody>{''.join(body)}</tbody></table>")
    return (f'<div class="carom-match">{head}<div style="display:flex;gap:1.5em;align-items:flex-start">'
            f'<div style="width:10em;flex:none">{picture}</div>{table}</div><p>{results}</p></div>')

