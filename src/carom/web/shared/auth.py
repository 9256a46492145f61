"""Who may write: named accounts (a password, a session kept in the database) and the
referee of a match (a random token per match, carried by the tablet link).

Passwords are hashed with argon2id (argon2-cffi, at OWASP's minimum cost: 19 MiB, two
passes, one lane). An scrypt hash of before still verifies, and is replaced by an
argon2id hash at that login. A session cookie carries 256 random bits; the database
keeps only their SHA-256 (:mod:`carom.storage.accounts`), with the account and the
session's own anti-forgery token, which every state-changing form and request carries.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import re
import secrets
import threading

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from carom.storage.accounts import Bucket
from carom.storage.players import name_key

COOKIE = "carom_session"
SESSION_SECONDS = 30 * 24 * 3600
TOKEN_HEADER = "X-Referee-Token"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf"
MAX_PASSWORD = 1024
"""Characters of a password that are read (a longer one is cut, not hashed whole)."""
MIN_PASSWORD = 8
CLIENT_BURST, CLIENT_EVERY = 5, 12.0
"""Login attempts per client address: five at once, then one every 12 seconds."""
ACCOUNT_BURST, ACCOUNT_EVERY = 10, 6.0
"""Login attempts per account name, from wherever they come: ten, then one every 6 s."""

_HASHER = PasswordHasher(time_cost=2, memory_cost=19 * 1024, parallelism=1)
HASHING_AT_ONCE = 2
"""Passwords hashed or verified at once in a server process: each takes 16-19 MiB, so a
burst of logins (300 wrong ones from 250 addresses grew a process by some 450 MiB, which
it kept) waits its turn instead of holding every thread's worth of memory at once."""
_HASHING = threading.BoundedSemaphore(HASHING_AT_ONCE)
_DUMMY = _HASHER.hash("a password no account has")
"""Verified against when a name has no account, so that such a login costs as much."""


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str) -> str:
    """An argon2id hash (``$argon2id$v=19$m=19456,t=2,p=1$salt$hash``)."""
    with _HASHING:
        return _HASHER.hash(password[:MAX_PASSWORD])


def verify_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` is the one ``stored`` hashes: argon2id, or scrypt of before
    (at most :data:`HASHING_AT_ONCE` at a time)."""
    with _HASHING:
        return _verified(password[:MAX_PASSWORD], stored)


def _verified(password: str, stored: str | None) -> bool:
    if not stored:
        _spend(password)
        return False
    if stored.startswith("scrypt$"):
        return _verify_scrypt(password, stored)
    try:
        return _HASHER.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


def _spend(password: str) -> None:
    """Verify against a hash no account has: a login with an unknown name costs as much."""
    with contextlib.suppress(VerificationError):
        _HASHER.verify(_DUMMY, password)


def needs_rehash(stored: str) -> bool:
    """Whether a hash that verified should be replaced (scrypt, or argon2 of another cost)."""
    return stored.startswith("scrypt$") or _HASHER.check_needs_rehash(stored)


def _verify_scrypt(password: str, stored: str) -> bool:
    """``scrypt$N$r$p$salt$hash``, as hashes were made before accounts."""
    try:
        _, n, r, p, salt, digest = stored.split("$")
        got = hashlib.scrypt(password.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(_unb64(digest)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, _unb64(digest))


def new_session() -> tuple[str, str, str]:
    """A new session: the cookie's token, the key the database keeps (its SHA-256), and
    the session's anti-forgery token."""
    token = secrets.token_urlsafe(32)
    return token, session_key(token), secrets.token_urlsafe(24)


def session_key(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


_TOKEN = re.compile(r"[A-Za-z0-9_-]{43}")


def readable_cookie(cookie: str | None) -> bool:
    """Whether a cookie could be a session token at all (else it is not looked up)."""
    return cookie is not None and _TOKEN.fullmatch(cookie) is not None


def same_token(given: str | None, expected: str) -> bool:
    """A constant-time comparison of a presented token with the expected one."""
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def new_token() -> str:
    """A referee token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def login_buckets(name: str, client: str) -> tuple[Bucket, Bucket]:
    """The allowances a login attempt takes from: its account name's and its client's."""
    return (Bucket(f"account:{name_key(name)[:120]}", ACCOUNT_BURST, ACCOUNT_EVERY),
            Bucket(f"client:{client[:120]}", CLIENT_BURST, CLIENT_EVERY))
