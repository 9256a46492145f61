"""Accounts in the database: names taken once, the last organiser kept, sessions that end
for every process, the login throttle shared by processes (two stores on one database
stand for two server processes). On SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.storage import SqlStore, open_store
from carom.storage.accounts import AccountError, Accounts, Action, Bucket, UnknownAccount
from carom.storage.roles import Account, Permission, Role

NOW = 1_900_000_000.0


@pytest.fixture
def accounts(store: SqlStore) -> Accounts:
    return Accounts(store)


@pytest.fixture
def second(database: str, tmp_path: Path) -> Iterator[Accounts]:
    """The same database through another store: another server process."""
    other = open_store(tmp_path / "other", database)
    yield Accounts(other)
    other.close()


def _organiser(accounts: Accounts) -> Account:
    return accounts.create("Olga", Role.ORGANISER, "hash-o", by=None)


def test_names_are_taken_once_folded_and_free_again_after_a_removal(accounts: Accounts) -> None:
    olga = _organiser(accounts)
    rita = accounts.create("Rita  Nová", Role.REFEREE, "hash-r", by=olga)
    assert rita.name == "Rita Nová"
    with pytest.raises(AccountError, match="already an account called"):
        accounts.create("rita nová", Role.DIRECTOR, "x", by=olga)
    accounts.remove(rita, by=olga)
    again = accounts.create("RITA NOVÁ", Role.DIRECTOR, "x", by=olga)
    assert again.id != rita.id and [a.name for a in accounts.active()] == ["Olga", "RITA NOVÁ"]
    with pytest.raises(UnknownAccount):
        accounts.get(rita.id)


@pytest.mark.parametrize(("name", "reason"), [("", "needs a name"), (" \n ", "needs a name"),
                                              ("x" * 61, "at most 60"), ("Eve\u202e", "U+202E"),
                                              ("a\x07b", "U+0007")])
def test_a_name_a_person_cannot_read_is_refused(accounts: Accounts, name: str, reason: str) -> None:
    with pytest.raises(AccountError, match=re.escape(reason)):
        accounts.create(name, Role.REFEREE, "x", by=None)
    assert not accounts.exist()


def test_the_first_account_is_made_once(accounts: Accounts) -> None:
    accounts.create("Olga", Role.ORGANISER, "x", by=None, first=True)
    with pytest.raises(AccountError, match="first account is already made"):
        accounts.create("Eve", Role.ORGANISER, "y", by=None, first=True)
    assert [a.name for a in accounts.active()] == ["Olga"]


def test_the_last_organiser_and_ones_own_account_stay(accounts: Accounts) -> None:
    olga = _organiser(accounts)
    dora = accounts.create("Dora", Role.DIRECTOR, "x", by=olga)
    with pytest.raises(AccountError, match="your own account"):
        accounts.remove(olga, by=olga)
    second = accounts.create("Otto", Role.ORGANISER, "x", by=olga)
    accounts.remove(second, by=olga)
    with pytest.raises(AccountError, match="last organiser"):
        accounts.remove(olga, by=dora)
    assert {a.name for a in accounts.active()} == {"Olga", "Dora"}


def test_roles_grant_what_the_table_says() -> None:
    olga, dora, rita = (Account(1, "o", Role.ORGANISER), Account(2, "d", Role.DIRECTOR),
                        Account(3, "r", Role.REFEREE))
    assert [a.may(Permission.ACCOUNTS) for a in (olga, dora, rita)] == [True, False, False]
    assert [a.may(Permission.RUN) for a in (olga, dora, rita)] == [True, True, False]
    assert [a.may_referee(3) for a in (olga, dora, rita)] == [True, True, True]
    assert [a.may_referee(None) for a in (olga, dora, rita)] == [True, True, False]
    assert not rita.may_referee(4)


def test_a_session_ends_in_every_process(accounts: Accounts, second: Accounts) -> None:
    olga = _organiser(accounts)
    rita = accounts.create("Rita", Role.REFEREE, "x", by=olga)
    for key in ("a" * 64, "b" * 64, "c" * 64):
        accounts.open_session(rita, key, f"csrf-{key[0]}", NOW + 100, NOW)
    found = second.session("a" * 64, NOW)
    assert found is not None and found.account == rita and found.csrf == "csrf-a"
    assert second.session("a" * 64, NOW + 100) is None  # past its time
    second.set_password(rita, "new", by=rita, keep="b" * 64)  # changed in the other process
    assert accounts.session("a" * 64, NOW) is None and accounts.session("c" * 64, NOW) is None
    assert accounts.session("b" * 64, NOW) is not None  # the browser that changed it
    second.remove(rita, by=olga)
    assert accounts.session("b" * 64, NOW) is None


def test_passwords_reset_by_an_organiser_end_the_sessions_and_are_logged(accounts: Accounts) -> None:
    olga = _organiser(accounts)
    rita = accounts.create("Rita", Role.REFEREE, "x", by=olga)
    accounts.open_session(rita, "k" * 64, "c", NOW + 100, NOW)
    accounts.set_password(rita, "y", by=olga)
    assert accounts.session("k" * 64, NOW) is None
    assert accounts.credentials("RITA") == (rita, "y")
    accounts.rehash(rita, "old", "z")  # not its hash any more: left alone
    assert accounts.credentials("rita") == (rita, "y")
    accounts.log(olga, Action.REGISTER, "3 1")
    assert [(c.by, c.action, c.subject) for c in accounts.changes()] == [
        ("Olga", Action.REGISTER, "3 1"), ("Olga", Action.RESET, "Rita"), ("Olga", Action.CREATED, "Rita"),
        (None, Action.CREATED, "Olga")]


def test_the_command_line_makes_or_resets_the_organiser(accounts: Accounts) -> None:
    made = accounts.reset_organiser("organiser", "h1")
    assert made.role is Role.ORGANISER and accounts.credentials("organiser") == (made, "h1")
    dora = accounts.create("Dora", Role.DIRECTOR, "x", by=made)
    accounts.open_session(dora, "d" * 64, "c", NOW + 100, NOW)
    promoted = accounts.reset_organiser("dora", "h2")
    assert promoted.id == dora.id and promoted.role is Role.ORGANISER
    assert accounts.session("d" * 64, NOW) is None


def test_the_throttle_holds_across_processes(accounts: Accounts, second: Accounts) -> None:
    bucket = [Bucket("client:10.0.0.9", 3, 10.0)]
    taken = [accounts.attempt(bucket, NOW), second.attempt(bucket, NOW), accounts.attempt(bucket, NOW)]
    assert taken == [0, 0, 0]
    assert second.attempt(bucket, NOW) == pytest.approx(10.0)
    assert accounts.attempt(bucket, NOW + 4) == pytest.approx(6.0)  # a refused attempt takes nothing
    assert second.attempt(bucket, NOW + 10) == 0
    assert accounts.attempt(bucket, NOW + 10) == pytest.approx(10.0)


def test_an_attempt_takes_from_every_bucket_or_from_none(accounts: Accounts) -> None:
    account = Bucket("account:rita", 2, 60.0)
    assert accounts.attempt([account, Bucket("client:a", 5, 12.0)], NOW) == 0
    assert accounts.attempt([account, Bucket("client:b", 5, 12.0)], NOW) == 0
    assert accounts.attempt([account, Bucket("client:c", 5, 12.0)], NOW) == pytest.approx(60.0)
    for _ in range(5):  # client c lost nothing to the refusal
        assert accounts.attempt([Bucket("client:c", 5, 12.0)], NOW) == 0


def test_racing_attempts_are_each_counted(accounts: Accounts, second: Accounts) -> None:
    bucket = [Bucket("client:race", 8, 1000.0)]
    barrier = threading.Barrier(8)
    waits: list[float] = []

    def attempt(i: int) -> None:
        barrier.wait()
        waits.append((accounts if i % 2 else second).attempt(bucket, NOW))

    threads = [threading.Thread(target=attempt, args=(i,)) for i in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert waits == [0.0] * 8
    assert accounts.attempt(bucket, NOW) > 0
