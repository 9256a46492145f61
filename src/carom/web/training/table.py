"""``/table``: the training table. A person places the balls, aims, plays the stroke on the
simulator (``POST /api/simulate``) and sees it animated with the referee's ruling, or asks
the shot finder (``POST /api/solve``) what to play (docs/table.md).

The page's address holds the position and the stroke, so that it can be shared::

    /table?d=three-cushion&t=large&b=white&w=0.892,0.71&y=0.71,0.71&r=0.71,2.13
          &s=3.12&a=163.35&sd=0.025&h=0.377&e=0&o=0

``d`` discipline, ``t`` table, ``b`` the ball struck, ``w``/``y``/``r`` the balls in metres
(GEOMETRY.md), ``s`` speed (m/s), ``a`` direction (degrees), ``sd``/``h`` the tip's side and
height (fractions of R), ``e`` elevation (degrees), ``o=1`` the opening stroke.
``/table?match=ID&line=N`` starts from the position before line ``N`` of a scoreboard
match (the scoresheet links there). What cannot be used is left out with a notice, never
refused: the page then starts from the starting position.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from carom.core.balls import BALLS, Ball, Cushion, cue_ball_problem
from carom.core.errors import RecordError
from carom.core.inputs import is_digits
from carom.core.position import Position, position_problems, starting_position
from carom.core.records import Call, Stroke
from carom.core.table import TABLES, TableSpec
from carom.match.replay import Replayer
from carom.notation.reader import parse_record
from carom.notation.svg import LANDSCAPE_SIDES, MM, RAIL, svg_table
from carom.rules.disciplines import DISCIPLINES, Discipline
from carom.storage.book import Snapshot
from carom.storage.errors import UnknownMatch
from carom.web.shared.deps import render, services, words
from carom.web.shared.i18n import PageWords
from carom.web.shared.views import missing_words

router = APIRouter(include_in_schema=False)

DEFAULT_DISCIPLINE = "three-cushion"
DEFAULT_STRIKE = {"speed": 3.0, "direction": 90.0, "side": 0.0, "height": 0.0, "elevation": 0.0}
STRIKE_KEYS = {"s": "speed", "a": "direction", "sd": "side", "h": "height", "e": "elevation"}
STRIKE_RANGES = {"speed": (0.1, 15.0), "direction": (-360.0, 360.0), "side": (-0.5, 0.5),
                 "height": (-0.5, 0.5), "elevation": (0.0, 89.0)}
"""What the page's controls take (within the simulator's limits, carom.physics.strike)."""
BALL_KEYS = {"w": Ball.WHITE, "y": Ball.YELLOW, "r": Ball.RED}


@dataclass(frozen=True, slots=True)
class Replayed:
    """A position of a scoreboard match before one of its strokes."""

    line: int
    player: int
    inning: int
    ball: Ball
    position: Position
    opening: bool


@dataclass
class Setup:
    """What the page starts from."""

    rules: Discipline
    table: TableSpec
    ball: Ball = Ball.WHITE
    position: Position | None = None
    strike: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_STRIKE))
    opening: bool = False
    notices: list[str] = field(default_factory=list)
    source: str | None = None
    """Where the position came from, in words (a match's line)."""


def match_positions(snap: Snapshot) -> list[Replayed]:
    """Every stroke of a match whose position before it is known (a stroke record's
    ``start``, or the position the replay tracked), with the ball played."""
    replayer = Replayer(snap.header)
    out: list[Replayed] = []
    for line, text in enumerate(snap.lines, start=2):
        try:
            record = parse_record(text, snap.header)
        except RecordError:
            break
        state = replayer.state
        playing = state.started and not state.finished and state.striker is not None
        if isinstance(record, Stroke | Call) and playing and state.striker is not None:
            position = record.start if isinstance(record, Stroke) and record.start else state.position
            if position is not None and all(b in position for b in BALLS):
                out.append(Replayed(line, state.striker, state.innings[state.striker] + (not state.in_inning),
                                    state.ball_of(state.striker), position, state.opening))
        try:
            replayer.feed(line, record)
        except RecordError:
            break
    return out


def _point(text: str, table: TableSpec) -> tuple[float, float] | None:
    x, comma, y = text.partition(",")
    try:
        p = (float(x), float(y))
    except ValueError:
        return None
    if not comma or not all(math.isfinite(v) for v in p):
        return None
    return p if 0.0 <= p[0] <= table.width and 0.0 <= p[1] <= table.length else None


def read_setup(query: Mapping[str, str], t: PageWords, snap: Snapshot | None = None) -> Setup:
    """The page's start from its address (see the module's doc); what cannot be used
    becomes a notice."""
    if snap is not None:
        name = snap.header.discipline
        table_name: str | None = snap.header.table
    else:
        name = query.get("d", DEFAULT_DISCIPLINE)
        table_name = query.get("t")
    if name not in DISCIPLINES:
        t_name = name[:40]
        name = DEFAULT_DISCIPLINE
        setup_notice = t.gettext("There is no discipline %(name)s: three-cushion is shown.", name=t_name)
    else:
        setup_notice = None
    rules = DISCIPLINES[name]
    if table_name not in rules.tables:
        table_name = rules.tables[0]
    setup = Setup(rules, TABLES[str(table_name)])
    if setup_notice:
        setup.notices.append(setup_notice)
    if snap is not None:
        _from_match(setup, snap, query.get("line", ""), t)
    else:
        _from_query(setup, query, t)
    if setup.position is None:
        setup.position = starting_position(setup.table, setup.ball)
    return setup


def _from_match(setup: Setup, snap: Snapshot, line: str, t: PageWords) -> None:
    found = {p.line: p for p in match_positions(snap)}
    chosen = found.get(int(line)) if is_digits(line) and len(line) < 9 else None
    if chosen is None:
        setup.notices.append(t.gettext("Line %(line)s of match %(number)s has no known position: the "
                                       "starting position is shown.", line=line[:9] or "?",
                                       number=snap.match_id))
        return
    setup.position, setup.ball, setup.opening = chosen.position, chosen.ball, chosen.opening
    setup.source = t.gettext("%(players)s, line %(line)s: %(player)s to play",
                             players=" – ".join(snap.header.players), line=chosen.line,
                             player=snap.header.players[chosen.player])


def _from_query(setup: Setup, query: Mapping[str, str], t: PageWords) -> None:
    ball = query.get("b", "white")
    if ball in ("white", "yellow") and cue_ball_problem(Ball(ball)) is None:
        setup.ball = Ball(ball)
    setup.opening = query.get("o") == "1"
    given = {BALL_KEYS[k]: _point(query[k], setup.table) for k in BALL_KEYS if k in query}
    if given:
        points = {b: p for b, p in given.items() if p is not None}
        problems = position_problems(points, setup.table)
        if len(points) == 3 and not problems:
            setup.position = Position(points)
        else:
            setup.notices.append(t.gettext("The position in the address cannot be played (%(reason)s): "
                                           "the starting position is shown.",
                                           reason=problems[0] if problems else t.gettext("a ball is missing "
                                                                                         "or off the table")))
    for key, name in STRIKE_KEYS.items():
        if key not in query:
            continue
        try:
            value = float(query[key])
        except ValueError:
            value = math.nan
        low, high = STRIKE_RANGES[name]
        if math.isfinite(value) and low <= value <= high:
            setup.strike[name] = value
    if math.hypot(setup.strike["side"], setup.strike["height"]) > 0.5:
        setup.strike["side"] = setup.strike["height"] = 0.0


def page_words(t: PageWords) -> dict[str, Any]:
    """The words the page's script shows, in the page's language (a placeholder is given
    itself as its value: the script fills it in)."""
    side_name = {Cushion.TOP: t.pgettext("cushion", "top"), Cushion.BOTTOM: t.pgettext("cushion", "bottom"),
                 Cushion.LEFT: t.pgettext("cushion", "left"), Cushion.RIGHT: t.pgettext("cushion", "right")}
    # the page draws the table on its side: a cushion is named where the picture shows it
    return {
        "point": t.ngettext("%(num)s point", "%(num)s points", 1),
        "points": t.ngettext("%(num)s point", "%(num)s points", 2),
        "no_point": t.gettext("No point"),
        "missing": missing_words(t),
        "fault": t.gettext("Fault: %(rules)s", rules="%(rules)s"),
        "ball_n": t.gettext("ball %(n)s: %(ball)s", n="%(n)s", ball="%(ball)s"),
        "cushion_n": t.gettext("cushion %(n)s: %(cushion)s", n="%(n)s", cushion="%(cushion)s"),
        "cushions": {cushion.value: side_name[shown] for cushion, shown in LANDSCAPE_SIDES.items()},
        "balls": {b.value: t.ball(b.value) for b in BALLS},
        "chance": t.gettext("%(chance)s chance", chance="%(chance)s"),
        "play": t.gettext("Play"),
        "playing": t.gettext("Playing…"),
        "searching": t.gettext("Searching…"),
        "none_found": t.gettext("No scoring stroke found from this position."),
        "error": t.gettext("The server refused: %(reason)s", reason="%(reason)s"),
        "copied": t.gettext("Link copied"),
        "decimal": t.pgettext("number", "decimal separator"),
    }


def config(setup: Setup, t: PageWords) -> dict[str, Any]:
    from carom.solve.finder import SOLVABLE  # the shot finder's module, loaded on the first table page

    assert setup.position is not None
    table = setup.table
    return {
        "discipline": setup.rules.id, "table": table.name, "ball": setup.ball.value,
        "opening": setup.opening, "strike": setup.strike,
        "position": {b.value: list(setup.position[b]) for b in BALLS},
        "starts": {b: {k.value: list(v) for k, v in starting_position(table, Ball(b)).items()}
                   for b in ("white", "yellow")},
        "geometry": {"width": table.width, "length": table.length, "radius": table.ball_radius,
                     "rail": RAIL, "mm": MM},
        "solvable": setup.rules.id in SOLVABLE,
        "words": page_words(t),
    }


@router.get("/table", response_class=HTMLResponse)
def table_page(request: Request) -> Response:
    t = words(request)
    query = dict(request.query_params)
    snap = None
    match = query.get("match", "")
    if match:
        try:
            number = int(match) if is_digits(match) and len(match) < 10 else None
            snap = None if number is None else services(request).book.snapshot(number)
        except UnknownMatch:
            snap = None
        if snap is None:
            query = {}
    setup = read_setup(query, t, snap)
    if match and snap is None:
        setup.notices.append(t.gettext("There is no match %(number)s.", number=match[:12]))
    assert setup.position is not None
    drawing = svg_table(setup.table, setup.position, discipline=setup.rules, landscape=True,
                        title=t.gettext("Training table"))
    choices = [(d, t.discipline(d), DISCIPLINES[d].tables) for d in DISCIPLINES]
    return render(request, "table.html", setup=setup, drawing=drawing, choices=choices,
                  tables=[(n, t.table(n)) for n in setup.rules.tables],
                  config=json.dumps(config(setup, t), ensure_ascii=False).replace("</", "<\\/"))
