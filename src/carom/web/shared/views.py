"""What the pages show, computed from a snapshot: pure functions, no HTTP here.

The board and the tablet read the same state the rules engine made; the words come
from the catalogues (:class:`carom.web.shared.i18n.PageWords`). The referee's tablet names
the rules (ids and titles); the audience board says the same in words only.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from carom.core.position import frozen_to
from carom.match.state import MatchState, Ruling
from carom.match.stats import player_stats
from carom.notation.svg import svg_table
from carom.notation.words import N_
from carom.notation.writer import header_json
from carom.rules.catalog import STROKE_FOULS
from carom.rules.disciplines import DISCIPLINES, FrozenRemedy
from carom.storage.book import Snapshot
from carom.storage.events import Actor, Confirmation, clock_paused
from carom.web.shared.i18n import PageWords
from carom.web.shared.said_words import said_words

PLACING_RULES = frozenset(("E3", "E5", "E6", "O2", "S3", "S4", "K3", "K4", "1C3", "1C4",
                           "3C3", "3C4", "3C5", "3C6"))
"""The rules that move balls: the ones a placing diagram cites."""
LONG_NAME = 22
"""Names longer than this get the board's smaller, wrapping style."""

FROZEN_HELP = {
    "S3": N_("All three balls go to the starting position and the same player continues (S3): "
             "no request needed."),
    "K3": N_("The striker may have all three balls put in the starting position, play off a cushion, "
             "play a massé, or play first onto the ball that is not touching (K3)."),
    "1C3": N_("As in balkline: starting position, a cushion first, a massé, or the ball not touching "
              "first; the stroke must still touch a cushion before ball 3 (1C3)."),
    "3C5": N_("The striker may have only the touching balls spotted on the long string, play first "
              "onto the ball not touching, off a cushion or a massé; three cushions are still needed (3C5)."),
}
"""What the striker may do with a frozen ball, by the discipline's rule."""


def result_text(state: MatchState, names: tuple[str, str], t: PageWords) -> str:
    if not state.finished:
        return ""
    if state.winner is None:
        return t.gettext("Draw")
    if state.penalties:
        return t.gettext("%(name)s wins on penalties", name=names[state.winner])
    return t.gettext("%(name)s wins", name=names[state.winner])


def score_text(state: MatchState, t: PageWords) -> str:
    """The match's score ("3:3"), and its penalty shoot-out's when it had one ("3:3, pen.
    1:0", P1): a schedule, a bracket and the results show both."""
    score = "{}:{}".format(*state.points_total)
    if not state.penalties:
        return score
    return t.gettext("%(score)s, pen. %(penalties)s", score=score,
                     penalties="{}:{}".format(*state.penalty_score))


CUSHION_RULES = frozenset(d.cushion_rule for d in DISCIPLINES.values() if d.cushion_rule)
"""1C1, 3C1: the cushions ball 1 needs before ball 3."""


def missing_words(t: PageWords) -> dict[str, str]:
    """What a stroke without a point lacked, by the rule that says so: no carom (C1), too
    few cushions before ball 3 (1C1, 3C1); and what follows, the inning ends (F1)."""
    few = t.gettext("too few cushions before the third ball")
    return {"C1": t.gettext("no carom"), "F1": t.gettext("the inning ends"),
            **dict.fromkeys(CUSHION_RULES, few)}


def reasons(points: int, fouls: tuple[str, ...], cites: tuple[str, ...],
            t: PageWords) -> list[tuple[str, str]]:
    """The rules that decided a ruling, each with what it decided, in the page's words.
    A carom or a fault: each cited rule with its title. A stroke without a point: what was
    missing (:func:`missing_words`; C1 left out when the carom was there but the cushions
    were not) and the end of the inning, never the carom's rules as if they had applied."""
    if points or fouls:
        return [(rule, t.rule(rule)) for rule in cites]
    missing = missing_words(t)
    short = any(rule in CUSHION_RULES for rule in cites)
    return [(rule, missing.get(rule) or t.rule(rule)) for rule in cites if not (short and rule == "C1")]


def describe(ruling: Ruling, names: tuple[str, str], t: PageWords) -> str:
    """One ruling in words, as the audience reads it: a carom, a stroke without a
    point, a fault (its title), a re-spot."""
    name = names[ruling.player]
    if ruling.fouls:
        return t.gettext("%(name)s: foul – %(title)s", name=name, title=t.rule(ruling.fouls[0]))
    if ruling.points:
        return t.gettext("%(name)s: +%(points)s", name=name, points=ruling.points)
    if not ruling.ends_inning:
        return t.gettext("%(name)s: balls re-spotted", name=name)
    return t.gettext("%(name)s: no point", name=name)


@dataclass
class PlayerView:
    name: str
    ball: str | None
    score: int
    """Points in the game, or in the set under way."""
    innings: int
    """Innings in the game, or in the set under way."""
    average: str
    """The whole match's."""
    high_run: int
    """The whole match's."""
    sets: int
    at_table: bool
    series: int | None
    long: bool
    confirmed: bool = False
    target: int | None = None
    """The player's own points limit in a handicap match (the header's ``points: [a, b]``),
    shown beside the score."""


@dataclass
class SetView:
    number: int
    label: str
    points: tuple[int, int]
    innings_text: str
    winner: str | None


@dataclass
class MatchView:
    """Everything the board and the tablet show of one match."""

    id: int
    seq: int
    version: str
    names: tuple[str, str]
    discipline: str
    limits: str
    players: list[PlayerView]
    sets: bool
    set_no: int
    phase: str
    """``lag``, ``choose`` (the lag winner decides), ``play``, ``shootout`` (a penalty
    shoot-out breaks a draw, P1) or ``over``."""
    striker: int | None
    status: str
    last: str
    """The last ruling in words."""
    last_cites: str
    """Its rules (for the referee and the scoresheet, never the audience)."""
    result: str
    inning: int
    """The striker's inning under way, or the one his next stroke begins."""
    innings_limit: int | None
    set_results: list[SetView] = field(default_factory=list)
    notices: list[tuple[str, str]] = field(default_factory=list)
    """(kind, text) for the referee: what the next stroke must respect, with its rules."""
    board_notices: list[tuple[str, str]] = field(default_factory=list)
    """(kind, text) for the audience, in words only."""
    confirmed: bool = False
    confirmed_by_account: str | None = None
    """The name of the account whose confirmation holds (an empty name: one since removed)."""
    frozen_help: str = ""
    respot_allowed: bool = False
    zones: bool = False
    svg: str = ""
    svg_caption: str = ""
    fouls: list[tuple[str, str]] = field(default_factory=list)
    """The faults the referee may call (F2–F13, and Z7 where there are zones), with titles."""
    problem: str | None = None
    header: dict[str, Any] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    """The board's words, looked up here rather than in the template: the board is
    rendered for every record, and a template's ``_()`` costs ten times as much."""
    clock: ClockView | None = None
    """The shot clock, when the header has one and a stroke is awaited (T1–T3)."""
    penalties: list[str] = field(default_factory=list)
    """Each player's penalties so far, as marks (1 a carom, 0 a miss), in a shoot-out."""
    doubt: DoubtView | None = None
    """The latest stroke in doubt, for the referee to uphold or overrule (the tablet only)."""


@dataclass
class DoubtView:
    """The latest stroke, when its source (a camera) doubted it and the referee has not
    upheld it yet (docs/format.md, "A stroke in doubt")."""

    line: int
    """The stroke's line in the match's file (what upholding names)."""
    confidence: str
    """The source's confidence in its ruling, in the page's numbers ("" when not given)."""
    reasons: list[str]
    """Why, in the page's language where the words were kept as phrases."""


@dataclass
class ClockView:
    """What ``static/clock.js`` needs to run the shot clock (docs/clock.md)."""

    key: str
    """Changes with every stroke (points, innings, striker, set): a new key starts the
    count afresh; the same key after a time-out goes on, extended."""
    stroke: int
    warning: int
    timeout: int
    taken: bool
    """A time-out was taken for this stroke (T2)."""
    left: tuple[int, int]
    """Time-outs each player has left in the game or set."""
    striker: int
    paused: bool = False
    """The referee paused the count (an interruption he allows): every tablet and board stops."""


def board_labels(t: PageWords, set_no: int, over: bool) -> dict[str, str]:
    return {
        "set": t.gettext("Last set") if over else t.gettext("Set %(number)s", number=set_no),
        "series": t.gettext("Series"), "sets": t.gettext("Sets won"),
        "set_innings": t.gettext("Innings in the set"), "match_average": t.gettext("Match average"),
        "match_high": t.gettext("Match high run"), "innings": t.gettext("Innings"),
        "average": t.gettext("Average"), "high": t.gettext("High run"), "target": t.gettext("Target"),
    }


def _cites_text(ruling: Ruling, t: PageWords) -> str:
    """The tablet's and board's line of rules under the last stroke: the ids of a carom's or
    a fault's rules; for a stroke without a point, what was missing (:func:`reasons`)."""
    if ruling.points or ruling.fouls:
        return " ".join(ruling.cites)
    return " · ".join(f"{text} ({rule})" for rule, text in reasons(0, (), ruling.cites, t))


def match_view(snap: Snapshot, t: PageWords, *, tablet: bool = False) -> MatchView:
    s = snap.state
    h = snap.header
    names = h.players
    stats = player_stats(s)
    phase = ("over" if s.finished else "shootout" if s.shootout else "play" if s.started
             else "choose" if s.lag_winner is not None else "lag")
    confirmation = snap.confirmation
    players = []
    for p in (0, 1):
        at = phase in ("play", "shootout") and s.striker == p
        players.append(PlayerView(
            name=names[p], ball=s.ball_of(p).value if s.started else None, score=s.score[p],
            innings=s.innings[p], average=t.average(stats[p].average), high_run=stats[p].high_run,
            sets=s.sets_won[p], at_table=at, series=s.series if at and s.in_inning else None,
            long=len(names[p]) > LONG_NAME, confirmed=Actor.player(p) in confirmation.by,
            target=h.points[p] if isinstance(h.points, tuple) else None,
        ))
    last = snap.rulings[-1] if snap.rulings else None
    status = {"lag": t.gettext("The lag decides who opens"),
              "choose": t.gettext("%(name)s won the lag and chooses who opens",
                                  name=names[s.lag_winner or 0]),
              "play": t.gettext("%(name)s to play", name=names[s.striker]),
              "shootout": t.gettext("Penalty shoot-out: %(name)s shoots", name=names[s.striker]),
              "over": result_text(s, names, t)}[phase]
    view = MatchView(
        id=snap.match_id, seq=snap.seq, version=snap.version, names=names,
        discipline=t.discipline(h.discipline),
        limits=t.limits(h.points, h.innings, h.sets_to_win, h.equalizing_inning), players=players,
        sets=h.sets_to_win is not None, set_no=s.set_no, phase=phase,
        striker=s.striker if phase == "play" else None, status=status,
        last=describe(last, names, t) if last else "", last_cites=_cites_text(last, t) if last else "",
        result=result_text(s, names, t),
        inning=s.innings[s.striker] + (not s.in_inning) if phase == "play" else 0,
        innings_limit=h.innings, problem=snap.problem, header=header_json(h),
        confirmed=confirmation.confirmed, confirmed_by_account=_confirmer(confirmation),
        set_results=[SetView(g.set_no, t.gettext("Set %(number)s", number=g.set_no), g.points,
                             t.ngettext("%(num)s inning", "%(num)s innings", max(g.innings)),
                             None if g.winner is None else names[g.winner])
                     for g in s.games] if h.sets_to_win is not None else [],
        labels=board_labels(t, s.set_no, phase == "over"),
    )
    clock = h.clock
    if clock is not None and phase == "play":
        key = f"{s.set_no}.{sum(s.innings_total)}.{sum(s.points_total)}.{s.striker}.{s.series}"
        view.clock = ClockView(key, clock.stroke, clock.warning, clock.timeout, s.timeout_taken,
                               (clock.timeouts - s.timeouts[0], clock.timeouts - s.timeouts[1]), s.striker,
                               clock_paused(snap.events, snap.seq))
        view.labels.update(timeout=t.gettext("Time-out"), timeouts_left=t.gettext("Time-outs left"),
                           pause=t.gettext("Pause"), resume=t.gettext("Resume"),
                           clock=t.gettext("Shot clock"))
    if s.shootout or s.penalties:
        view.penalties = [" ".join(str(int(c)) for q, c in s.penalties if q == p) or "–" for p in (0, 1)]
        view.labels["penalties"] = t.gettext("Penalties")
    if phase == "play" and s.last_inning:
        rule = "E5" if h.sets_to_win is not None else "E3" if h.equalizing_inning else "E2"
        view.board_notices.append(("equalizing", t.gettext(
            "Equalizing inning: %(name)s plays the last inning", name=names[s.striker])))
        view.notices.append(("equalizing", t.gettext(
            "Equalizing inning: %(name)s plays the last inning (%(rule)s)",
            name=names[s.striker], rule=rule)))
    if tablet:
        view.doubt = _doubt_view(snap, t)
        _tablet_notices(view, snap, t, last)
    return view


def _doubt_view(snap: Snapshot, t: PageWords) -> DoubtView | None:
    """The latest stroke's doubt in the page's words, while the referee has not upheld it."""
    in_doubt = snap.in_doubt
    if in_doubt is None:
        return None
    line, doubt = in_doubt
    confidence = doubt.get("confidence")
    reasons = doubt.get("reasons")
    return DoubtView(line, t.number(float(confidence), 3) if isinstance(confidence, (int, float)) else "",
                     [said_words(r, t) for r in reasons if isinstance(r, dict)] if isinstance(reasons, list)
                     else [])


def _tablet_notices(view: MatchView, snap: Snapshot, t: PageWords, last: Ruling | None) -> None:
    s = snap.state
    rules = s.rules
    d = rules.discipline
    if view.phase == "lag" and s.lag_pending:
        view.notices.append(("lag", t.gettext("The lag must be repeated (L3, L5, L6).")))
    if view.phase != "play":
        return
    if s.opening:
        view.notices.append(("opening", t.gettext(
            "Opening stroke: ball 1 must hit the red ball first (O3).")))
    view.zones = d.has_zones
    if d.has_zones and d.zone_limit is not None:
        view.notices.append(("zones", t.ngettext(
            "Forbidden fields: at most %(num)s carom in a row in a field or anchor; then an object ball "
            "must leave it, or the carom is a fault (Z2, Z3, Z7).",
            "Forbidden fields: at most %(num)s caroms in a row in a field or anchor; then an object ball "
            "must leave it, or the carom is a fault (Z2, Z3, Z7).", d.zone_limit)))
        for zone, count in zip(d.zones(rules.table), s.zone_counts, strict=False):
            if count:
                view.notices.append(("zones", t.ngettext(
                    "%(zone)s: %(count)s of %(num)s carom in a row",
                    "%(zone)s: %(count)s of %(num)s caroms in a row", d.zone_limit,
                    zone=zone.name, count=count)))
    view.fouls = [(r, t.rule(r)) for r in (*STROKE_FOULS, *(("Z7",) if d.has_zones else ()))]
    view.frozen_help = t.gettext(FROZEN_HELP[d.frozen_rule])
    view.respot_allowed = d.frozen is not FrozenRemedy.STARTING_POSITION_AT_ONCE
    if s.position is not None:
        touching = frozen_to(s.position, s.striker_ball, rules.table)
        if touching:
            view.notices.append(("frozen", t.gettext(
                "Ball 1 is frozen to %(balls)s.", balls=t.gettext(", ").join(t.ball(b) for b in touching))))
    placed = last.spot if last is not None and last.spot is not None and last.spot == s.position else None
    if last is not None and placed is not None:
        view.svg_caption = t.gettext("Place the balls like this (%(rules)s)",
                                     rules=" ".join(c for c in last.cites if c in PLACING_RULES))
    elif s.opening and s.position is not None:
        placed, view.svg_caption = s.position, t.gettext("Starting position (O2)")
    if placed is not None:
        view.svg = svg_table(rules.table, placed, discipline=d, landscape=True,
                             title=view.svg_caption, cue=s.striker_ball)


def _confirmer(confirmation: Confirmation) -> str | None:
    if Actor.ACCOUNT not in confirmation.by:
        return None
    return "" if confirmation.account is None else confirmation.account.name
