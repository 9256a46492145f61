"""Passwords are hashed and verified at most ``HASHING_AT_ONCE`` at a time in a process, so
a burst of logins cannot hold every thread's worth of hashing memory at once."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from carom.web.shared import auth


class _Counting:
    """A hasher that counts how many of its calls run at once."""

    def __init__(self) -> None:
        self.now = self.most = 0
        self.lock = threading.Lock()

    def _busy(self) -> None:
        with self.lock:
            self.now += 1
            self.most = max(self.most, self.now)
        time.sleep(0.05)
        with self.lock:
            self.now -= 1

    def verify(self, stored: str, password: str) -> bool:
        self._busy()
        return False

    def hash(self, password: str) -> str:
        self._busy()
        return "x"


def test_a_burst_of_logins_hashes_a_few_passwords_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    counting = _Counting()
    monkeypatch.setattr(auth, "_HASHER", counting)
    calls: list[Any] = [lambda: auth.verify_password("wrong", "$argon2id$stored"),
                        lambda: auth.verify_password("wrong", None), lambda: auth.hash_password("new one")]
    threads = [threading.Thread(target=calls[i % 3]) for i in range(12)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counting.most == auth.HASHING_AT_ONCE
