"""What the pages show, computed from a snapshot: pure functions, no HTTP here.

The board and the tablet read the same state the rules engine made; the words
come from :mod:`carom.web.i18n`, the rule titles from the rule catalogue.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from carom.core.position import frozen_to
from carom.match.state import MatchState, Ruling
from carom.match.stats import player_stats
from carom.notation.svg import svg_table
from carom.notation.words import limits_text
from carom.notation.writer import header_json
from carom.rules.catalog import STROKE_FOULS
from carom.rules.disciplines import FrozenRemedy
from carom.storage.book import Snapshot
from carom.web.i18n import Words

PLACING_RULES = frozenset(("E3", "E5", "E6", "O2", "S3", "S4", "K3", "K4", "1C3", "1C4",
                           "3C3", "3C4", "3C5", "3C6"))
"""The rules that move balls: the ones a placing diagram cites."""


def fmt_avg(value: Any) -> str:
    return f"{float(value):.3f}"


def limits(snap: Snapshot, t: Words) -> str:
    """The match's limits in words, as the scoresheet writes them."""
    h = snap.header
    return limits_text(h.points, h.innings, h.sets_to_win, h.equalizing_inning, t.lang)


def result_text(state: MatchState, names: tuple[str, str], t: Words) -> str:
    if not state.finished:
        return ""
    return t("draw") if state.winner is None else t("won_by", name=names[state.winner])


def describe(ruling: Ruling, names: tuple[str, str], t: Words) -> str:
    """One ruling in words: a carom, a miss, a fault (with its rule), a re-spot."""
    name = names[ruling.player]
    if ruling.fouls:
        return t("fouled", name=name, codes=" ".join(ruling.fouls), title=t.rule(ruling.fouls[0]))
    if ruling.points:
        return t("plus", name=name, points=ruling.points)
    if not ruling.ends_inning:
        return t("respotted", name=name, rules=" ".join(ruling.cites))
    return t("missed", name=name)


@dataclass
class PlayerView:
    name: str
    ball: str | None
    score: int
    innings: int
    average: str
    high_run: int
    sets: int
    at_table: bool
    series: int | None


@dataclass
class MatchView:
    """Everything the board and the tablet show of one match."""

    id: int
    seq: int
    names: tuple[str, str]
    discipline: str
    limits: str
    players: list[PlayerView]
    sets: bool
    set_no: int
    phase: str
    """``lag``, ``choose`` (the lag winner decides), ``play`` or ``over``."""
    striker: int | None
    status: str
    last: str
    last_cites: str
    result: str
    inning: int
    """The striker's inning under way, or the one his next stroke begins."""
    notices: list[tuple[str, str]] = field(default_factory=list)
    """(kind, text): what the next stroke must respect."""
    frozen_help: str = ""
    respot_allowed: bool = False
    zones: bool = False
    svg: str = ""
    svg_caption: str = ""
    fouls: list[tuple[str, str]] = field(default_factory=list)
    """The faults the referee may call (F2–F13, and Z7 where there are zones), with titles."""
    problem: str | None = None
    header: dict[str, Any] = field(default_factory=dict)


def match_view(snap: Snapshot, t: Words, *, tablet: bool = False) -> MatchView:
    s = snap.state
    h = snap.header
    names = h.players
    stats = player_stats(s)
    phase = "over" if s.finished else "play" if s.started else "choose" if s.lag_winner is not None else "lag"
    players = []
    for p in (0, 1):
        at = phase == "play" and s.striker == p
        players.append(PlayerView(
            name=names[p], ball=s.ball_of(p).value if s.started else None, score=s.score[p],
            innings=s.innings[p], average=fmt_avg(stats[p].average), high_run=stats[p].high_run,
            sets=s.sets_won[p], at_table=at, series=s.series if at and s.in_inning else None,
        ))
    last = snap.rulings[-1] if snap.rulings else None
    status = {"lag": t("lag"), "choose": t("choose_opener"),
              "play": t("to_play", name=names[s.striker]),
              "over": result_text(s, names, t)}[phase]
    view = MatchView(
        id=snap.match_id, seq=snap.seq, names=names, discipline=t.discipline(h.discipline),
        limits=limits(snap, t), players=players, sets=h.sets_to_win is not None, set_no=s.set_no,
        phase=phase, striker=s.striker if phase == "play" else None, status=status,
        last=describe(last, names, t) if last else "", last_cites=" ".join(last.cites) if last else "",
        result=result_text(s, names, t),
        inning=s.innings[s.striker] + (not s.in_inning) if phase == "play" else 0,
        problem=snap.problem, header=header_json(h),
    )
    if phase == "play" and s.last_inning:
        rule = "E5" if h.sets_to_win is not None else "E3" if h.equalizing_inning else "E2"
        view.notices.append(("equalizing", t("equalizing_now", name=names[s.striker], rule=rule)))
    if tablet:
        _tablet_notices(view, snap, t, last)
    return view


def _tablet_notices(view: MatchView, snap: Snapshot, t: Words, last: Ruling | None) -> None:
    s = snap.state
    rules = s.rules
    d = rules.discipline
    if view.phase == "lag" and s.lag_pending:
        view.notices.append(("lag", t("lag_repeat")))
    if view.phase == "choose" and s.lag_winner is not None:
        view.notices.append(("lag", t("lag_won", name=view.names[s.lag_winner])))
    if view.phase != "play":
        return
    if s.opening:
        view.notices.append(("opening", t("opening_stroke")))
    view.zones = d.has_zones
    if d.has_zones:
        view.notices.append(("zones", t("zones", limit=d.zone_limit)))
        for zone, count in zip(d.zones(rules.table), s.zone_counts, strict=False):
            if count:
                view.notices.append(("zones", t("zone_count", zone=zone.name, count=count,
                                                limit=d.zone_limit)))
    view.fouls = [(r, t.rule(r)) for r in (*STROKE_FOULS, *(("Z7",) if d.has_zones else ()))]
    view.frozen_help = t(f"frozen_{d.frozen_rule}")
    view.respot_allowed = d.frozen is not FrozenRemedy.STARTING_POSITION_AT_ONCE
    if s.position is not None:
        touching = frozen_to(s.position, s.striker_ball, rules.table)
        if touching:
            view.notices.append(("frozen", t("frozen_now", balls=", ".join(t.ball(b) for b in touching))))
    placed = last.spot if last is not None and last.spot is not None and last.spot == s.position else None
    if last is not None and placed is not None:
        view.svg_caption = t("place_balls", rules=" ".join(c for c in last.cites if c in PLACING_RULES))
    elif s.opening and s.position is not None:
        placed, view.svg_caption = s.position, t("start_position")
    if placed is not None:
        view.svg = svg_table(rules.table, placed, discipline=d, landscape=True,
                             title=view.svg_caption, cue=s.striker_ball)
