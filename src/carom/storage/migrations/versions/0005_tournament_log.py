"""Tournaments as append-only logs: every tournament's rows become records of its log.

Each tournament of revisions 0003-0004 (its settings, participants, groups and games)
is written as the records that make it (carom.competition.day): created with its
settings, its players entered, started with the seeds and targets it had, each game
called to its table with its match, each finished match's result taken (and confirmed
where its match was), the knock-out fed after the groups. A game is found by its two
players in its group (the round robins now follow the published Berger tables) or by
its place in the bracket. Matches are untouched. Then the old tables are dropped and
``tournaments`` keeps only its id and time.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
"""

from __future__ import annotations

import contextlib
import json
import logging
from datetime import UTC, datetime
from typing import Any

import sqlalchemy as sa
from alembic import op

from carom.competition.day import DayState, GameKey, Refused, Result, apply, derived, to_json
from carom.competition.day import records as r
from carom.competition.day.rank import next_field
from carom.competition.day.settings import Settings
from carom.storage.events import Actor, EventKind, MatchEvent, confirmation

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None
ACTOR = "migration"
_ACCOUNT_OF_BEFORE = {"organiser": Actor.ACCOUNT.value}
"""A match event's actor of before revision 0006, as the events read it now."""
log = logging.getLogger(__name__)


def upgrade() -> None:
    op.create_table(
        "tournament_log",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("seq", sa.Integer, nullable=False),
        sa.Column("kind", sa.String(32), nullable=False),
        sa.Column("actor", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("body", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("tournament_id", "seq", name="tournament_log_pkey"),
    )
    op.create_table(
        "tournament_matches",
        sa.Column("match_id", sa.Integer, sa.ForeignKey("matches.id"), primary_key=True),
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id", ondelete="CASCADE"),
                  nullable=False),
        sa.Column("game", sa.String(40), nullable=False),
        sa.UniqueConstraint("tournament_id", "game", name="tournament_matches_game_once"),
    )
    op.create_index("ix_tournament_matches_tournament_id", "tournament_matches", ["tournament_id"])
    connection = op.get_bind()
    for row in connection.execute(sa.text("SELECT * FROM tournaments ORDER BY id")).mappings().all():
        records = _records(connection, row)
        connection.execute(sa.text(
            "INSERT INTO tournament_log (tournament_id, seq, kind, actor, at, body) "
            "VALUES (:t, :seq, :kind, :actor, :at, :body)"), [
            {"t": row["id"], "seq": seq, "kind": r.kind_of(rec), "actor": rec.actor, "at": rec.at,
             "body": json.dumps(to_json(rec), ensure_ascii=False)}
            for seq, rec in enumerate(records, start=1)])
        calls = [{"m": rec.match, "t": row["id"], "g": rec.game.text} for rec in records
                 if isinstance(rec, r.GameCalled) and rec.match is not None]
        if calls:
            connection.execute(sa.text("INSERT INTO tournament_matches (match_id, tournament_id, game) "
                                       "VALUES (:m, :t, :g)"), calls)
    op.drop_index("ix_games_tournament_id", "games")
    op.drop_table("games")
    op.drop_table("tournament_groups")
    op.drop_index("ix_participants_tournament_id", "participants")
    op.drop_table("participants")
    for column in ("name", "discipline", "table_size", "points", "innings", "sets_to_win",
                   "equalizing_inning", "mode", "groups", "tables", "handicap", "knockout_size", "seeding",
                   "clock", "state"):
        op.execute(f"ALTER TABLE tournaments DROP COLUMN {column}")  # SQLite 3.35+: no copy of the table


def downgrade() -> None:
    raise NotImplementedError("revision 0005 is not undone: restore a copy of the database")


def _moment(value: Any) -> datetime:
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is None:
        return datetime.now(UTC)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class _Log:
    """The records of one tournament, each checked by applying it."""

    def __init__(self) -> None:
        self.state = DayState()
        self.records: list[r.Record] = []

    def add(self, record: r.Record) -> bool:
        try:
            self.state = apply(self.state, record)
        except Refused as error:  # rows the old code left inconsistent: the record is left out
            log.warning("revision 0005: %s left out of the log (%s)", r.kind_of(record), error)
            return False
        self.records.append(record)
        return True


def _records(connection: sa.Connection, row: Any) -> list[r.Record]:
    tid = row["id"]
    at = _moment(row["created_at"])
    settings = Settings(row["name"], row["discipline"], row["table_size"], row["points"], row["innings"],
                        row["sets_to_win"], bool(row["equalizing_inning"]), row["mode"], row["groups"],
                        row["tables"], bool(row["handicap"]), row["knockout_size"], row["seeding"],
                        None if row["clock"] is None else json.loads(row["clock"]))
    out = _Log()
    out.add(r.Created(actor=ACTOR, at=at, settings=settings))
    parts = connection.execute(sa.text("SELECT player_id, seed, target FROM participants "
                                       "WHERE tournament_id = :t ORDER BY id"), {"t": tid}).mappings().all()
    started = row["state"] != "entry"
    for part in parts:
        out.add(r.Entered(actor=ACTOR, at=at, player=part["player_id"],
                          seed=None if started else part["seed"], target=None if started else part["target"]))
    if not started:
        return out.records
    seeds = tuple(p["player_id"] for p in sorted(parts, key=lambda p: (p["seed"] or 2**31, p["player_id"])))
    out.add(r.Started(actor=ACTOR, at=at, seeds=seeds,
                      targets=tuple((p["player_id"], p["target"]) for p in parts if p["target"] is not None)))
    games = connection.execute(sa.text(
        "SELECT g.stage, g.group_no, g.round, g.slot, g.player0_id, g.player1_id, g.table_no, g.match_id, "
        "m.created_at FROM games g LEFT JOIN matches m ON m.id = g.match_id WHERE g.tournament_id = :t "
        "AND g.match_id IS NOT NULL ORDER BY g.match_id"), {"t": tid}).mappings().all()
    ko_stage = len(out.state.stages)
    finished: list[tuple[int, Any, GameKey, bool]] = []  # (match, row, key, flip) not taken yet
    for game in games:
        _take_finished(connection, out, finished, before=game["match_id"])
        if game["stage"] == "ko" and ko_stage not in out.state.fields and ko_stage > 1:
            out.add(r.StageFed(actor=ACTOR, at=_moment(game["created_at"]), stage=ko_stage,
                               field=next_field(out.state, ko_stage)))
        found = _key(out.state, game, ko_stage)
        if found is None:
            log.warning("revision 0005: tournament %s: no game for match %s", tid, game["match_id"])
            continue
        key, flip = found
        if out.add(r.GameCalled(actor=ACTOR, at=_moment(game["created_at"]), game=key,
                                table=game["table_no"] or 1, match=game["match_id"])):
            finished.append((game["match_id"], game, key, flip))
    _take_finished(connection, out, finished, before=None)
    if ko_stage > 1 and ko_stage not in out.state.fields:
        with contextlib.suppress(Refused):  # the groups are not done: the knock-out is fed on the day
            out.add(r.StageFed(actor=ACTOR, at=at, stage=ko_stage, field=next_field(out.state, ko_stage)))
    return out.records


def _key(state: DayState, game: Any, ko_stage: int) -> tuple[GameKey, bool] | None:
    """The new key of an old game, and whether its match lists the players the other way."""
    a, b = game["player0_id"], game["player1_id"]
    if game["stage"] == "ko":
        key = GameKey(ko_stage, 0, 1, game["round"], game["slot"])
        found = derived(state).by_key.get(key)
        if found is None:
            return None
        return key, found.players == (b, a)
    for g in derived(state).games:
        if g.key.stage == 1 and g.key.group == game["group_no"] and set(g.players) == {a, b}:
            return g.key, g.players == (b, a)
    return None


def _take_finished(connection: sa.Connection, out: _Log, pending: list[tuple[int, Any, GameKey, bool]],
                   before: int | None) -> None:
    """The results of the called games whose matches are finished (those before match ``before``)."""
    from carom.storage.book import LiveMatch
    from carom.storage.store import StoredMatch
    for item in list(pending):
        match_id, game, key, flip = item
        if before is not None and match_id >= before:
            continue
        pending.remove(item)
        which = {"m": match_id}
        header = connection.execute(sa.text("SELECT header FROM matches WHERE id = :m"), which).scalar()
        lines = connection.execute(sa.text("SELECT line, created_at FROM records WHERE match_id = :m "
                                           "ORDER BY seq"), which).all()
        rows = connection.execute(sa.text("SELECT kind, actor, seq, created_at FROM match_events "
                                          "WHERE match_id = :m ORDER BY id"), which)
        # before revision 0006 the organiser's password confirmed as 'organiser': an account's
        events = tuple(MatchEvent(EventKind(e.kind), Actor(_ACCOUNT_OF_BEFORE.get(e.actor, e.actor)), e.seq,
                                  e.created_at) for e in rows)
        try:
            snap = LiveMatch(StoredMatch(match_id, header, "", tuple(x.line for x in lines), None, None,
                                         events)).snapshot
        except ValueError:
            continue
        state = snap.state
        if not state.finished or snap.problem is not None or (key.knockout and state.winner is None):
            continue
        result = Result(state.points_total, state.innings_total, state.high_run, state.winner)
        if flip:
            result = Result(result.points[::-1], result.innings[::-1], result.high_run[::-1],  # type: ignore[arg-type]
                            None if result.winner is None else 1 - result.winner)
        when = _moment(lines[-1].created_at if lines else game["created_at"])
        if out.add(r.GameFinished(actor=ACTOR, at=when, game=key, result=result)) and \
                confirmation(events, snap.seq).confirmed:
            out.add(r.GameConfirmed(actor=ACTOR, at=when, game=key))
