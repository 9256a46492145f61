"""``apply(state, record)``: the match as a pure state machine (RULES.md L, O, C, E).

Every function here returns a new state; none changes its arguments. A record
that cannot happen raises :class:`RecordError` with the reason, and the state the
caller holds stays as it was. A record's changes are gathered in a small dict
(``Changes``) and the next state is built once from it (``evolve``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from carom.core.balls import Ball
from carom.core.errors import RecordError
from carom.core.position import Position, frozen_to, starting_position
from carom.core.records import (
    Call,
    CallResult,
    Expired,
    Inning,
    Lag,
    Opener,
    Penalty,
    Record,
    Respot,
    Stroke,
    Timeout,
)
from carom.match.state import GameResult, MatchRules, MatchState, Ruling, Termination, evolve
from carom.rules.catalog import CALLABLE_FOULS, in_rulebook_order
from carom.rules.disciplines import FrozenRemedy, JumpRemedy
from carom.rules.lag import decide_lag
from carom.rules.referee import StrokeContext, judge
from carom.rules.spotting import spot_on_long_string


def apply(state: MatchState, record: Record, line: int = 0) -> tuple[MatchState, Ruling | None]:
    """The state after ``record`` and its ruling (``None`` for ``lag`` and ``opener``).

    ``undo`` is not a transition of the game: it withdraws a record, which only the
    log can do (see :class:`carom.match.replay.Replayer`).
    """
    handler = _HANDLERS.get(type(record))
    if handler is None:
        raise RecordError(f"an {type(record).__name__.lower()} is applied by the log, not by the engine")
    return handler(state, record, line)


# --- the lag and the opener (L1–L6, O1, O2) -------------------------------------------


def _lag(state: MatchState, lag: Lag) -> MatchState:
    """One lag (L2–L6); an undecided one waits for the next."""
    if state.started:
        raise RecordError("a lag after the opener was decided")
    if state.lag_winner is not None:
        raise RecordError(
            f"a lag after player {state.lag_winner} already won it (L2–L6); "
            "the next record is the opener"
        )
    outcome = decide_lag(lag, state.lag_failures)
    return state._replace(lag_failures=outcome.failures, lag_winner=outcome.winner,
                   lag_pending=outcome.winner is None)


def _opener(state: MatchState, opener: Opener) -> MatchState:
    """The lag winner's decision (or the lot): the opener plays white (O1) from the
    starting position (O2)."""
    if state.started:
        raise RecordError(f"the opener is already decided (player {state.opener})")
    if state.lag_pending:
        raise RecordError("an opener while the lag is undecided: the lag must be repeated (L3, L5, L6)")
    player = opener.player
    return state._replace(
        opener=player, set_opener=player, striker=player, opening=True,
        position=starting_position(state.rules.table, Ball.WHITE),
    )


# --- strokes, calls, innings ------------------------------------------------------------


def _require_play(state: MatchState, what: str) -> None:
    """Strokes, calls, innings, re-spots and the clock's records need a match under way,
    and not its penalty shoot-out (P2: each penalty is a ``penalty`` record)."""
    if state.shootout:
        raise RecordError(f"a {what} record during the penalty shoot-out: each penalty is a "
                          "penalty record (P2)")
    if state.finished:
        raise RecordError(f"a {what} record after the match ended")
    if state.opener is None:
        if state.lag_pending:
            raise RecordError(f"a {what} record while the lag is undecided (L3, L5, L6)")
        raise RecordError(f"a {what} record before the opener")


def _remaining(state: MatchState) -> int | None:
    limit = state.rules.limit(state.striker)
    return None if limit is None else limit - state.score[state.striker]


def _call(state: MatchState, call: Call, line: int) -> tuple[MatchState, Ruling]:
    """A stroke judged by the referee: carom, miss or a fault (C1–C3, F14)."""
    if state.finished or state.opener is None or state.shootout:
        _require_play(state, "call")
    if call.result is CallResult.CAROM:
        return _after_stroke(state, line, 1, (), ("C1", "C2", "C3"))
    if call.result is CallResult.MISS:
        return _after_stroke(state, line, 0, (), ("C1", "F1"))
    assert call.rule is not None and call.rule in CALLABLE_FOULS
    _check_called(state, call.rule, state.series if state.in_inning else 0)
    return _after_stroke(state, line, 0, (call.rule,), (call.rule, "F14"),
                         jump_called=call.rule == "F2")


def _check_called(state: MatchState, rule: str, series: int) -> None:
    """Refuse a called fault that cannot happen on a stroke that follows ``series`` caroms
    of the inning: O3 binds only the opening stroke of the match or of a set (O3); Z7
    needs forbidden zones (none in one- and three-cushion: 1C2, 3C2) and the zone's limit
    of caroms in a row less one before it, counts starting with every inning (Z2, Z3)."""
    if rule == "O3" and not (state.opening and series == 0):
        raise RecordError("a fault O3, but only the opening stroke of the match or of a set "
                          "must hit red first (O3)")
    if rule != "Z7":
        return
    discipline = state.rules.discipline
    limit = discipline.zone_limit
    if limit is None:
        raise RecordError(f"a fault Z7, but {discipline.id} has no forbidden zones "
                          f"({', '.join(discipline.zone_rules)})")
    if series < limit - 1:
        raise RecordError(
            f"a fault Z7 after {series} caroms of the inning: in {discipline.id} only "
            f"the carom after {limit - 1} in a row in a zone can be one (Z2, Z3)")


def _inning(state: MatchState, inning: Inning, line: int) -> tuple[MatchState, Ruling]:
    """A whole inning: a series, then a miss or the fault given (C3, F14, E1)."""
    if state.finished or state.opener is None or state.shootout:
        _require_play(state, "inning")
    if state.in_inning:
        raise RecordError("an inning record in the middle of an inning (after a stroke or call of it)")
    remaining = _remaining(state)
    if remaining is not None and inning.points > remaining:
        raise RecordError(
            f"a series of {inning.points} with only {remaining} points left to the limit (E1)"
        )
    if inning.foul is not None and remaining == inning.points:
        raise RecordError(f"a fault ({inning.foul}) after the series reached the points limit (E1)")
    if inning.foul is not None:
        _check_called(state, inning.foul, inning.points)
    fouls = () if inning.foul is None else (inning.foul,)
    cites = ("C2", "C3", *fouls, "F14") if fouls else ("C2", "C3", "F1")
    return _after_stroke(state, line, inning.points, fouls, cites,
                         jump_called=inning.foul == "F2", whole_inning=True)


def _stroke(state: MatchState, stroke: Stroke, line: int) -> tuple[MatchState, Ruling]:
    """A stroke with its events, judged by the referee (C1, F, Z, O3, 1C1, 3C1).
    Zone counts start afresh with every inning (Z2)."""
    if state.finished or state.opener is None or state.shootout:
        _require_play(state, "stroke")
    counts = state.zone_counts if state.in_inning else (0,) * len(state.zone_counts)
    context = StrokeContext.of(
        state.rules.discipline, state.rules.table, cue_ball=state.striker_ball, opening=state.opening,
        position=stroke.start if stroke.start is not None else state.position, zone_counts=counts,
    )
    verdict = judge(context, stroke)
    return _after_stroke(state, line, verdict.points, verdict.fouls, verdict.cites, stroke.end,
                         verdict.jumped, zone_counts=verdict.zone_counts)


def _after_stroke(state: MatchState, line: int, points: int, fouls: tuple[str, ...],
                  cites: tuple[str, ...], end: Position | None = None,
                  jumped: tuple[Ball, ...] = (), *, zone_counts: tuple[int, ...] | None = None,
                  jump_called: bool = False, whole_inning: bool = False) -> tuple[MatchState, Ruling]:
    """Begin the striker's inning with his first stroke (C3), score the stroke (or the
    inning's series, C2), then either the striker goes on (C3) or the inning ends
    (F1, F14, E1).

    ``end`` is where the stroke left the balls (``None``: unknown); the rules may
    then move them (S3, S4, K4, 1C4, 3C6, E3, E5, E6), and ``spot`` shows the layout.
    ``jump_called``: an F2 given by the referee, with no ball named.
    """
    p = state.striker
    begins = not state.in_inning
    innings = _bump(state.innings, p) if begins else state.innings
    series = (0 if begins else state.series) + points
    score = _bump(state.score, p, points) if points else state.score
    limit = state.rules.limit(p)
    goes_on = (points > 0 and not fouls and not whole_inning
               and (limit is None or score[p] < limit))
    changes: dict[str, Any] = {"series": series, "score": score, "opening": False,
                                  "position": end, "in_inning": goes_on, "timeout_taken": False}
    if begins:
        changes["innings"] = innings
        changes["innings_total"] = _bump(state.innings_total, p)
    if zone_counts is not None:
        changes["zone_counts"] = zone_counts
    elif begins:
        changes["zone_counts"] = (0,) * len(state.zone_counts)
    if points:
        changes["points_total"] = _bump(state.points_total, p, points)
        if series > state.high_run[p]:
            changes["high_run"] = _set(state.high_run, p, series)
    flow: tuple[str, ...] = ()
    spot: Position | None = None
    nxt: int | None = p
    if not goes_on:
        nxt, spot, flow = _end_inning(state, changes, score, innings)
    if nxt is not None and spot is None:
        if jumped or jump_called:
            spot, more = _jump_remedy(state, changes, nxt, end, jumped)
            flow += more
        elif (state.rules.discipline.frozen is FrozenRemedy.STARTING_POSITION_AT_ONCE
              and end is not None and frozen_to(end, state.ball_of(nxt), state.rules.table)):
            spot = changes["position"] = starting_position(state.rules.table, state.ball_of(nxt))
            flow += ("S3", "O2")
    return evolve(state, changes), Ruling(line, p, points, fouls, nxt, spot,
                                          in_rulebook_order(cites + flow), state.set_no, innings[p],
                                          not goes_on)


Changes = dict[str, Any]
"""The fields a record changes, gathered before the next state is built (``evolve``)."""
Next = tuple[int | None, Position | None, tuple[str, ...]]
"""Who plays next (``None``: the match is over), the layout the referee must set
(``None``: the balls stay where they are), and the rules that decided it."""


def _jump_remedy(state: MatchState, changes: Changes, nxt: int, end: Position | None,
                 jumped: tuple[Ball, ...]) -> tuple[Position | None, tuple[str, ...]]:
    """Where the balls go after a jump (S4, K4, 1C4: the starting position; 3C6: only the
    jumped balls, on the long string). In three-cushion a ``call`` or ``inning`` F2 (no
    positions), or a stroke with no end position, leaves the layout unknown; a stroke's
    called F2 without a jump event spots the balls of :func:`~carom.rules.referee.called_jump`."""
    discipline = state.rules.discipline
    table = state.rules.table
    if discipline.jump is JumpRemedy.STARTING_POSITION:
        spot = changes["position"] = starting_position(table, state.ball_of(nxt))
        return spot, (discipline.jump_rule, "O2")
    if not jumped or (end is None and len(jumped) < 3):
        changes["position"] = None
        return None, (discipline.jump_rule,)
    layout = changes["position"] = spot_on_long_string(table, end or {}, jumped, state.ball_of(nxt))
    return layout, (discipline.jump_rule, "3C3", "3C4")


def _end_inning(state: MatchState, changes: Changes, score: tuple[int, int],
                innings: tuple[int, int]) -> Next:
    """The striker's inning is over, with ``score`` and ``innings`` after it: who plays
    next, or the end of the game or set (E1–E6)."""
    rules = state.rules
    p, o = state.striker, state.set_opener
    second = 1 - o
    limit = rules.limit(p)
    reached = limit is not None and score[p] >= limit
    innings_out = rules.innings is not None and innings[p] >= rules.innings
    if rules.sets_to_win is not None:
        if reached:
            return _game_over(state, changes, score, innings, p, Termination.SET_WON)
        if p == second and innings_out:
            leader = _leader(rules, score)
            return _game_over(state, changes, score, innings, leader, Termination.SET_LEVEL
                              if leader is None else Termination.SET_WON_AT_INNINGS_LIMIT)
        if p == o and innings_out:
            return _last_inning(state, changes, second, "E5", respot=True)
        return _hand_over(changes, 1 - p)
    if p == o:
        if reached or innings_out:
            if rules.equalizing_inning:
                return _last_inning(state, changes, second, "E3", respot=True)
            if reached:
                return _game_over(state, changes, score, innings, p, Termination.POINTS_LIMIT)
            return _last_inning(state, changes, second, "E2", respot=False)
        return _hand_over(changes, second)
    if reached or state.last_inning or innings_out:
        leader = _leader(rules, score)
        return _game_over(state, changes, score, innings, leader,
                          _game_end(state, leader, reached))
    return _hand_over(changes, o)


def _game_end(state: MatchState, leader: int | None, reached: bool) -> Termination:
    """How a game without sets ends after the second player's inning (E1–E3): after the
    last inning, level or not; or at a limit the second player reached first."""
    if state.last_inning:
        if leader is None:
            return Termination.DRAW
        return Termination.EQUALIZING_INNING if state.rules.equalizing_inning else Termination.INNINGS_LIMIT
    return Termination.POINTS_LIMIT if reached else Termination.INNINGS_LIMIT


def _hand_over(changes: Changes, nxt: int) -> Next:
    changes["striker"] = nxt
    return nxt, None, ()


def _last_inning(state: MatchState, changes: Changes, second: int, rule: str, *, respot: bool) -> Next:
    """The second player's last inning (E2), from the starting position (E3, E5)."""
    changes["striker"] = second
    changes["last_inning"] = True
    if not respot:
        return second, None, (rule, "E2")
    layout = changes["position"] = starting_position(state.rules.table, state.ball_of(second))
    return second, layout, (rule, "E2", "O2")


def _leader(rules: MatchRules, score: tuple[int, int]) -> int | None:
    """Who leads: more points; in a handicap, the larger share of his own limit
    (points × the other's limit), so that two players at their limits are level."""
    a, b = score
    if isinstance(rules.points, tuple):
        a, b = a * rules.points[1], b * rules.points[0]
    return None if a == b else (0 if a > b else 1)


def _game_over(state: MatchState, changes: Changes, score: tuple[int, int], innings: tuple[int, int],
               winner: int | None, termination: Termination) -> Next:
    """A game or set ends (E1, E3, E4, E5): the match ends, or the next set begins (E6)."""
    rules = state.rules
    rule = termination.rule
    result = GameResult(state.set_no, state.set_opener, score, innings, winner, termination)
    changes["games"] = (*state.games, result)
    changes["last_inning"] = False
    if rules.sets_to_win is None:
        if winner is None and rules.tiebreak == "penalties":  # P1: the draw must be broken
            opener = state.set_opener
            layout = changes["position"] = starting_position(rules.table, state.ball_of(opener))
            changes.update(shootout=True, striker=opener, in_inning=False, series=0)
            return opener, layout, (rule, "E1", "P1", "P2", "O2")
        changes.update(finished=True, winner=winner)
        return None, None, (rule, "E1")
    sets = state.sets_won if winner is None else _bump(state.sets_won, winner)
    changes["sets_won"] = sets
    if winner is not None and sets[winner] >= rules.sets_to_win:
        changes.update(finished=True, winner=winner)
        return None, None, (rule,)
    opener = 1 - state.set_opener
    layout = starting_position(rules.table, state.ball_of(opener))
    changes.update(set_no=state.set_no + 1, set_opener=opener, striker=opener, score=(0, 0),
                   innings=(0, 0), series=0, opening=True, position=layout, timeouts=(0, 0))
    return opener, layout, (rule, "E6", "O2")


# --- re-spotting a frozen ball (S3, K3, 1C3, 3C5) ---------------------------------------


def _respot(state: MatchState, record: Respot, line: int) -> tuple[MatchState, Ruling]:
    """The striker's request to re-spot his frozen ball (K3, 1C3, 3C5; S3 needs none).

    Where the engine knows the position, a request when the striker's ball touches
    no ball is refused. Where it does not (a scoreboard entering calls), the
    referee's word stands.
    """
    if state.finished or state.opener is None or state.shootout:
        _require_play(state, "respot")
    rules = state.rules
    discipline = rules.discipline
    ball = state.striker_ball
    position = state.position
    touching: tuple[Ball, ...] = ()
    if position is not None:
        touching = frozen_to(position, ball, rules.table)
        if not touching:
            raise RecordError(
                f"a respot, but the striker's ball ({ball}) touches no ball "
                f"({discipline.frozen_rule})"
            )
    cites: tuple[str, ...] = (discipline.frozen_rule,)
    layout: Position | None
    if discipline.frozen is not FrozenRemedy.TOUCHING_ON_LONG_STRING:
        layout = starting_position(rules.table, ball)
        cites += ("O2",)
    elif position is None:
        layout = None
    else:
        layout = spot_on_long_string(rules.table, position, (ball, *touching), ball)
        cites += ("3C3", "3C4")
    s = evolve(state, {"position": layout, "zone_counts": (0,) * len(state.zone_counts)})
    p = state.striker
    return s, Ruling(line, p, 0, (), p, layout, in_rulebook_order(cites), state.set_no,
                     state.innings[p] if state.in_inning else 0, False)


# --- the shot clock (T1–T3) and the penalty shoot-out (P1–P3) ---------------------------


def _clock_of(state: MatchState, what: str, rule: str) -> None:
    """A clock record needs a clock in the header and a match under way."""
    if state.rules.clock is None:
        raise RecordError(f"a {what} record, but the header sets no clock ({rule})")
    if state.finished or state.opener is None or state.shootout:
        _require_play(state, what)


def _timeouts_left(state: MatchState) -> int:
    clock = state.rules.clock
    assert clock is not None
    return clock.timeouts - state.timeouts[state.striker]


def _timeout(state: MatchState, record: Timeout, line: int) -> tuple[MatchState, None]:
    """The striker takes a time-out: his stroke's time grows by the clock's ``timeout``
    seconds (T2); one a stroke, as many as the clock allows in a game or set."""
    _clock_of(state, "timeout", "T2")
    if state.timeout_taken:
        raise RecordError("a second time-out for the same stroke (T2)")
    if _timeouts_left(state) <= 0:
        raise RecordError(f"player {state.striker} has no time-out left in this game "
                          f"({state.timeouts[state.striker]} taken, T2)")
    return evolve(state, {"timeouts": _bump(state.timeouts, state.striker),
                          "timeouts_total": _bump(state.timeouts_total, state.striker),
                          "timeout_taken": True}), None


def _expired(state: MatchState, record: Expired, line: int) -> tuple[MatchState, Ruling]:
    """The striker's time ran out: with a time-out left it is taken (T2), so the record
    is refused; with none, a foul that ends the inning, the balls as they lie (T3, F14)."""
    _clock_of(state, "expired", "T3")
    if not state.timeout_taken and _timeouts_left(state) > 0:
        raise RecordError(f"time ran out while player {state.striker} has a time-out left: "
                          "it is taken first (T2); record a timeout")
    return _after_stroke(state, line, 0, ("T3",), ("T1", "T3", "F14"), state.position)


def _penalty(state: MatchState, penalty: Penalty, line: int) -> tuple[MatchState, None]:
    """One penalty stroke (P2): the match opener first, then in turn; after each round of
    two, a carom against a miss wins the match (P3)."""
    if not state.shootout:
        if state.rules.tiebreak is None:
            raise RecordError("a penalty record, but the header asks for no tie-break (P1)")
        if state.finished:
            raise RecordError("a penalty record after the match was decided")
        raise RecordError("a penalty record before the match ended level (P1)")
    shots = (*state.penalties, (penalty.player, penalty.carom))
    if penalty.player != state.striker:
        raise RecordError(f"penalty: player {penalty.player} shoots, but it is player "
                          f"{state.striker}'s turn (P2)")
    changes: Changes = {"penalties": shots, "striker": 1 - state.striker}
    if len(shots) % 2 == 0 and shots[-1][1] != shots[-2][1]:
        winner = shots[-1][0] if shots[-1][1] else shots[-2][0]
        changes.update(shootout=False, finished=True, winner=winner)
    else:
        changes["position"] = starting_position(state.rules.table,
                                                state.ball_of(changes["striker"]))
    return evolve(state, changes), None


def _lag_record(state: MatchState, lag: Lag, line: int) -> tuple[MatchState, None]:
    return _lag(state, lag), None


def _opener_record(state: MatchState, opener: Opener, line: int) -> tuple[MatchState, None]:
    return _opener(state, opener), None


_HANDLERS: dict[type, Callable[[MatchState, Any, int], tuple[MatchState, Ruling | None]]] = {
    Call: _call, Stroke: _stroke, Inning: _inning, Respot: _respot, Lag: _lag_record,
    Opener: _opener_record, Timeout: _timeout, Expired: _expired, Penalty: _penalty,
}
"""Each kind of record, and the function that applies it (``undo`` is the log's)."""


# --- small helpers --------------------------------------------------------------------


def _bump(pair: tuple[int, int], player: int, by: int = 1) -> tuple[int, int]:
    return (pair[0] + by, pair[1]) if player == 0 else (pair[0], pair[1] + by)


def _set(pair: tuple[int, int], player: int, value: int) -> tuple[int, int]:
    return (value, pair[1]) if player == 0 else (pair[0], value)
