"""The scoresheet a referee fills in, as text: one row per inning with each
player's series and running total, then the totals and the result (E1–E6)."""

from __future__ import annotations

from collections import defaultdict

from carom.core.checks import printable
from carom.match.state import MatchState, Ruling
from carom.match.stats import player_stats
from carom.notation.words import Words


def scoresheet(state: MatchState, rulings: list[Ruling] | tuple[Ruling, ...],
               players: tuple[str, str], language: str = "en") -> str:
    """The scoresheet of a replayed match; the players' names as they print
    (:func:`printable`: no escape code of theirs reaches a terminal)."""
    players = (printable(players[0]), printable(players[1]))
    w = Words(language)
    rules = state.rules
    limits = w.limits(rules.points, rules.innings, rules.sets_to_win, rules.equalizing_inning)
    out = [f"{players[0]} – {players[1]}",
           f"{w.discipline(rules.discipline.id)} · {w.table(rules.table.name)} · {limits}"]
    if rules.clock is not None:
        c = rules.clock
        out.append(w.gettext("Shot clock: %(stroke)s s a stroke, warning %(warning)s s before the end, "
                             "%(timeouts)s time-outs of %(timeout)s s (T1, T2)", stroke=c.stroke,
                             warning=c.warning, timeouts=c.timeouts, timeout=c.timeout))
    if rules.tiebreak is not None:
        out.append(w.gettext("A draw is broken by a penalty shoot-out (P1)"))
    if state.lag_winner is not None:
        out.append(w.gettext("Lag won by: %(name)s", name=players[state.lag_winner]))
    if state.opener is not None:
        out.append(w.gettext("Opened by: %(name)s", name=players[state.opener]))
    width = max(14, *(len(p) for p in players))
    inning, series, total = w.gettext("Inning"), w.gettext("series"), w.gettext("total")
    first = max(6, len(inning))
    for set_no, rows in _innings(rulings).items():
        out.append("")
        if rules.sets_to_win is not None:
            out.append(w.gettext("Set %(number)s", number=set_no))
        out.append(f"{inning:>{first}} | {players[0]:<{width}} | {players[1]:<{width}}")
        head = f"{series:>6} {total:>7}"
        out.append(f"{'':>{first}} | {head:<{width}} | {head:<{width}}")
        totals = [0, 0]
        last = max(max(rows[0], default=0), max(rows[1], default=0))
        for k in range(1, last + 1):
            cells = []
            for p in (0, 1):
                if k in rows[p]:
                    points, fouls = rows[p][k]
                    totals[p] += points
                    mark = f"{points}{' ' + ','.join(fouls) if fouls else ''}"
                    cells.append(f"{mark:>6} {totals[p]:>7}")
                else:
                    cells.append("")
            out.append(f"{k:>{first}} | {cells[0]:<{width}} | {cells[1]:<{width}}")
    stats = player_stats(state)
    out.append("")
    rows_out = [
        (w.gettext("Points"), [str(s.points) for s in stats]),
        (w.gettext("Innings"), [str(s.innings) for s in stats]),
        (w.gettext("Average"), [w.average(s.average) for s in stats]),
        (w.gettext("High run"), [str(s.high_run) for s in stats]),
    ]
    if rules.clock is not None:
        rows_out.append((w.gettext("Time-outs"), [str(n) for n in state.timeouts_total]))
    if rules.sets_to_win is not None:
        rows_out.append((w.gettext("Sets"), [str(s.sets) for s in stats]))
        rows_out.append((w.gettext("Best game average"), [w.average(s.best_game_average)
                                                          for s in stats]))
    rows_out.append((w.gettext("Result"), [result_word(state, p, w) for p in (0, 1)]))
    if state.finished:
        rows_out.append((w.gettext("Match points"), [str(s.match_points) for s in stats]))
    label = max(18, *(len(title) for title, _ in rows_out))
    for title, values in rows_out:
        out.append(f"{title:<{label}} {values[0]:>{width}} {values[1]:>{width}}")
    if state.shootout or state.penalties:
        out += ["", w.gettext("Penalty shoot-out (P2, P3): 1 a carom, 0 a miss")]
        for p in (0, 1):
            shots = [int(carom) for q, carom in state.penalties if q == p]
            marks = " ".join(map(str, shots))
            out.append(f"{players[p]:<{label}} {marks}  = {sum(shots)}")
    return "\n".join(out) + "\n"


def result_word(state: MatchState, p: int, w: Words) -> str:
    """How the match stands for player ``p``: playing, won, lost or a draw."""
    if not state.finished:
        return w.pgettext("result", "playing")
    if state.winner is None:
        return w.pgettext("result", "draw")
    return w.pgettext("result", "won") if state.winner == p else w.pgettext("result", "lost")


Rows = dict[int, dict[int, tuple[int, tuple[str, ...]]]]


def innings(rulings: list[Ruling] | tuple[Ruling, ...]) -> dict[int, Rows]:
    """Per set, per player (0, 1), per inning: the series and the faults that ended it
    (the rows of the scoresheet, for other renderings of it: PDF, CSV)."""
    return _innings(rulings)


def _innings(rulings: list[Ruling] | tuple[Ruling, ...]) -> dict[int, Rows]:
    """Per set, per player, per inning: the series and the faults that ended it."""
    sets: dict[int, Rows] = defaultdict(lambda: {0: {}, 1: {}})
    for r in rulings:
        if r.inning == 0:
            continue
        rows = sets[r.set_no][r.player]
        points, fouls = rows.get(r.inning, (0, ()))
        rows[r.inning] = (points + r.points, fouls + r.fouls)
    return dict(sorted(sets.items()))
