"""Named accounts (:mod:`carom.storage.roles`), their sessions, the login throttle and
the log of what accounts changed outside a match's own log.

Everything here lives in the database, so that it holds in every server process at
once: a logout, a password change or a removal ends the account's sessions for every
process; the login throttle counts attempts whichever process they reach. The password
hashes are opaque here (the web hashes and verifies them, :mod:`carom.web.shared.auth`);
a session is found by the SHA-256 of its cookie's token, so the database holds no
cookie that would log anyone in.

A removed account keeps its row (the records and events it made still name it); its
name may be given to a new account.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy import Connection, and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from carom.storage import schema
from carom.storage.errors import StorageError
from carom.storage.players import name_key
from carom.storage.roles import Account, Role
from carom.storage.store import MAX_ID, SqlStore

MAX_NAME = 60
"""Characters in an account's name."""


class AccountError(StorageError):
    """A change of accounts that cannot be made (the message names the field and why)."""


class UnknownAccount(AccountError):
    def __init__(self, account_id: int) -> None:
        super().__init__(f"account: there is no account {account_id}")
        self.account_id = account_id


class Action(StrEnum):
    """What an account changed, in the accounts' log."""

    CREATED = "account-created"
    REMOVED = "account-removed"
    RESET = "password-reset"
    CHANGED = "password-changed"
    REGISTER = "register-imported"


@dataclass(frozen=True, slots=True)
class Change:
    """A line of the accounts' log: who (``None``: the command line), what, when."""

    by: str | None
    action: Action
    subject: str
    """The account's name; for a register import, ``made changed`` (two counts)."""
    at: datetime | None


@dataclass(frozen=True, slots=True)
class Session:
    """A logged-in session: its account (as it is now) and its anti-forgery token."""

    account: Account
    csrf: str


@dataclass(frozen=True, slots=True)
class Bucket:
    """A login allowance: ``burst`` attempts at once, then one every ``every`` seconds."""

    key: str
    burst: int
    every: float


def checked_name(name: str) -> str:
    """An account's name as stored: spaces collapsed; refused (:class:`AccountError`) when
    empty, longer than :data:`MAX_NAME` or holding a control or format character."""
    name = " ".join(name.split())
    if not name:
        raise AccountError("name: an account needs a name")
    if len(name) > MAX_NAME:
        raise AccountError(f"name: {len(name)} characters; at most {MAX_NAME}")
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cf", "Cs", "Co", "Cn"):
            raise AccountError(f"name: a control character (U+{ord(char):04X}) is not part of a name")
    return name


def role_of(value: str) -> Role:
    try:
        return Role(value)
    except ValueError:
        raise AccountError(f"role: expected one of {', '.join(Role)}, got {value[:40]!r}") from None


_A = schema.accounts.c
_ACTIVE = _A.removed_at.is_(None)


class Accounts:
    """The accounts of a store."""

    def __init__(self, store: SqlStore) -> None:
        self.store = store

    # --- reads ------------------------------------------------------------------------

    def exist(self) -> bool:
        """Whether any account exists (until one does, the first start's setup link works)."""
        with self.store.engine.connect() as connection:
            return connection.execute(select(_A.id).where(_ACTIVE).limit(1)).first() is not None

    def active(self) -> list[Account]:
        """The accounts (not the removed ones), by name."""
        with self.store.engine.connect() as connection:
            rows = connection.execute(select(_A.id, _A.name, _A.role).where(_ACTIVE).order_by(_A.name_key))
            return [Account(r.id, r.name, Role(r.role)) for r in rows]

    def get(self, account_id: int) -> Account:
        """The account (:class:`UnknownAccount`, also for a removed one)."""
        if not 0 < account_id <= MAX_ID:
            raise UnknownAccount(account_id)
        with self.store.engine.connect() as connection:
            row = connection.execute(select(_A.id, _A.name, _A.role)
                                     .where(_A.id == account_id, _ACTIVE)).first()
        if row is None:
            raise UnknownAccount(account_id)
        return Account(row.id, row.name, Role(row.role))

    def referee(self, account_id: int | None) -> Account | None:
        """The referee's account of this id (``None``: none), or :class:`UnknownAccount`
        when it is no referee's."""
        if account_id is None:
            return None
        account = self.get(account_id)
        if account.role is not Role.REFEREE:
            raise UnknownAccount(account_id)
        return account

    def credentials(self, name: str) -> tuple[Account, str] | None:
        """The account called ``name`` (folded) and its password hash, if there is one."""
        with self.store.engine.connect() as connection:
            row = connection.execute(select(_A.id, _A.name, _A.role, _A.password_hash)
                                     .where(_A.name_key == name_key(name), _ACTIVE)).first()
        return None if row is None else (Account(row.id, row.name, Role(row.role)), row.password_hash)

    def session(self, key: str, now: float) -> Session | None:
        """The session whose cookie token hashes to ``key``, if it is current and its
        account is not removed."""
        s = schema.sessions.c
        with self.store.engine.connect() as connection:
            row = connection.execute(
                select(_A.id, _A.name, _A.role, s.csrf)
                .join_from(schema.sessions, schema.accounts, _A.id == s.account_id)
                .where(s.key == key, s.expires > int(now), _ACTIVE)).first()
        return None if row is None else Session(Account(row.id, row.name, Role(row.role)), row.csrf)

    def sessions(self, account_id: int, now: float) -> int:
        """How many current sessions the account has."""
        s = schema.sessions.c
        with self.store.engine.connect() as connection:
            return int(connection.execute(select(func.count()).where(
                s.account_id == account_id, s.expires > int(now))).scalar_one())

    def changes(self, limit: int = 50) -> list[Change]:
        """The accounts' log, newest first."""
        g = schema.account_log.c
        with self.store.engine.connect() as connection:
            rows = connection.execute(
                select(_A.name, g.action, g.subject, g.created_at)
                .outerjoin_from(schema.account_log, schema.accounts, _A.id == g.account_id)
                .order_by(g.id.desc()).limit(limit))
            return [Change(r.name, Action(r.action), r.subject, r.created_at) for r in rows]

    # --- accounts ---------------------------------------------------------------------

    def create(self, name: str, role: Role, password_hash: str, *, by: Account | None,
               first: bool = False) -> Account:
        """A new account. ``first``: only while there is no account at all (the first
        start's setup), else :class:`AccountError`. A name another account has (folded)
        is refused."""
        name = checked_name(name)

        def job(connection: Connection) -> Account:
            if first and connection.execute(select(_A.id).where(_ACTIVE).limit(1)).first() is not None:
                raise AccountError("setup: the first account is already made; log in")
            self._free(connection, name)
            made = connection.execute(insert(schema.accounts).values(
                name=name, name_key=name_key(name), role=role.value, password_hash=password_hash,
                created_by=None if by is None else by.id).returning(_A.id)).scalar_one()
            account = Account(int(made), name, role)
            _log(connection, by, Action.CREATED, name)
            return account

        return self.store.run(job)

    @staticmethod
    def _free(connection: Connection, name: str) -> None:
        if connection.execute(select(_A.id).where(_A.name_key == name_key(name), _ACTIVE)).first():
            raise AccountError(f"name: there is already an account called {name}")

    def set_password(self, account: Account, password_hash: str, *, by: Account | None,
                     keep: str | None = None) -> None:
        """A new password for ``account``: every session of it ends but the one whose
        key is ``keep`` (the browser that changed its own password)."""

        def job(connection: Connection) -> None:
            done = connection.execute(update(schema.accounts).where(_A.id == account.id, _ACTIVE)
                                      .values(password_hash=password_hash))
            if done.rowcount != 1:
                raise UnknownAccount(account.id)
            _end_sessions(connection, account.id, keep)
            own = by is not None and by.id == account.id
            _log(connection, by, Action.CHANGED if own else Action.RESET, account.name)

        self.store.run(job)

    def rehash(self, account: Account, old: str, new: str) -> None:
        """Store ``new`` in place of ``old``, the same password hashed anew (a login that
        found an old kind of hash), unless the password changed meanwhile."""

        def job(connection: Connection) -> None:
            connection.execute(update(schema.accounts).where(_A.id == account.id, _A.password_hash == old)
                               .values(password_hash=new))

        self.store.run(job)

    def reset_organiser(self, name: str, password_hash: str) -> Account:
        """The command line's way in (``carom serve --organiser-password``): the account
        called ``name`` gets this password and the organiser's role, and is made when there
        is none; its sessions end."""
        name = checked_name(name)

        def job(connection: Connection) -> Account:
            row = connection.execute(select(_A.id, _A.name)
                                     .where(_A.name_key == name_key(name), _ACTIVE)).first()
            if row is None:
                made = connection.execute(insert(schema.accounts).values(
                    name=name, name_key=name_key(name), role=Role.ORGANISER.value,
                    password_hash=password_hash).returning(_A.id)).scalar_one()
                _log(connection, None, Action.CREATED, name)
                return Account(int(made), name, Role.ORGANISER)
            connection.execute(update(schema.accounts).where(_A.id == row.id)
                               .values(password_hash=password_hash, role=Role.ORGANISER.value))
            _end_sessions(connection, row.id, None)
            _log(connection, None, Action.RESET, row.name)
            return Account(row.id, row.name, Role.ORGANISER)

        return self.store.run(job)

    def remove(self, account: Account, *, by: Account) -> None:
        """Remove ``account``: its sessions end at once. Refused for one's own account and
        for the last organiser (someone must be able to manage accounts)."""
        if account.id == by.id:
            raise AccountError("account: you cannot remove your own account; another organiser can")

        def job(connection: Connection) -> None:
            row = connection.execute(select(_A.role).where(_A.id == account.id, _ACTIVE)).first()
            if row is None:
                raise UnknownAccount(account.id)
            if row.role == Role.ORGANISER.value:
                organisers = connection.execute(select(func.count()).where(
                    _A.role == Role.ORGANISER.value, _ACTIVE)).scalar_one()
                if organisers <= 1:
                    raise AccountError(f"account: {account.name} is the last organiser")
            connection.execute(update(schema.accounts).where(_A.id == account.id)
                               .values(removed_at=func.now(), removed_by=by.id))
            _end_sessions(connection, account.id, None)
            _log(connection, by, Action.REMOVED, account.name)

        self.store.run(job)

    def log(self, by: Account | None, action: Action, subject: str) -> None:
        """Add a line to the accounts' log (for a change made elsewhere: a register import)."""
        self.store.run(lambda connection: _log(connection, by, action, subject))

    # --- sessions ---------------------------------------------------------------------

    def open_session(self, account: Account, key: str, csrf: str, expires: float, now: float) -> None:
        """A new session of ``account`` (the sessions past their time go at the same moment)."""
        s = schema.sessions.c

        def job(connection: Connection) -> None:
            connection.execute(delete(schema.sessions).where(s.expires <= int(now)))
            connection.execute(insert(schema.sessions).values(key=key, account_id=account.id, csrf=csrf,
                                                              expires=int(expires)))

        self.store.run(job)

    def end_sessions(self, account: Account, *, keep: str | None = None) -> None:
        """End every session of ``account`` (but ``keep``), in every process."""
        self.store.run(lambda connection: _end_sessions(connection, account.id, keep))

    # --- the login throttle -----------------------------------------------------------

    def attempt(self, buckets: Sequence[Bucket], now: float) -> float:
        """Take one login attempt from each bucket: 0 when every bucket had one (all are
        taken), else the seconds until the emptiest has one again (none is taken)."""
        t = schema.login_throttle.c

        def job(connection: Connection) -> float:
            horizon = max(b.burst * b.every for b in buckets)
            connection.execute(delete(schema.login_throttle).where(t.at < now - horizon))
            left: list[tuple[Bucket, float, bool]] = []
            for bucket in buckets:
                row = connection.execute(select(t.tokens, t.at).where(t.key == bucket.key)
                                         .with_for_update()).first()
                tokens = float(bucket.burst) if row is None else min(
                    float(bucket.burst), row.tokens + max(0.0, now - row.at) / bucket.every)
                left.append((bucket, tokens, row is not None))
            wait = max(((1.0 - tokens) * bucket.every for bucket, tokens, _ in left if tokens < 1.0),
                       default=0.0)
            for bucket, tokens, known in left:
                kept = tokens if wait else tokens - 1.0
                if known:
                    connection.execute(update(schema.login_throttle).where(t.key == bucket.key)
                                       .values(tokens=kept, at=now))
                else:
                    _insert_bucket(connection, bucket.key, kept, now, taken=not wait)
            return wait

        return self.store.run(job)


def _insert_bucket(connection: Connection, key: str, tokens: float, now: float, *, taken: bool) -> None:
    """A new bucket; when another process made it first, our attempt is taken from that one."""
    t = schema.login_throttle.c
    try:
        with connection.begin_nested():
            connection.execute(insert(schema.login_throttle).values(key=key, tokens=tokens, at=now))
    except IntegrityError:
        connection.execute(update(schema.login_throttle).where(t.key == key)
                           .values(tokens=t.tokens - (1.0 if taken else 0.0)))


def _end_sessions(connection: Connection, account_id: int, keep: str | None) -> None:
    s = schema.sessions.c
    where = s.account_id == account_id
    connection.execute(delete(schema.sessions).where(where if keep is None else and_(where, s.key != keep)))


def _log(connection: Connection, by: Account | None, action: Action, subject: str) -> None:
    connection.execute(insert(schema.account_log).values(
        account_id=None if by is None else by.id, action=action.value, subject=subject[:500]))


def wait_seconds(wait: float) -> int:
    """A wait as the whole seconds a ``Retry-After`` names (at least 1)."""
    return max(1, math.ceil(wait))
