"""Who may write: the organiser (a password, a signed session cookie) and the referee
(a random token per match, carried by the tablet link).

The password is stored as an scrypt hash. A session cookie is signed with a key
derived from that hash and names the *session generation* it was issued in (a count
kept in the database): logging out or changing the password starts a new generation,
which ends every session issued before, on every device and every server process.
Each session has its own anti-forgery token, derived from the cookie, that every
state-changing form and request of the organiser carries.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass

from carom.core.inputs import is_digits

COOKIE = "carom_organiser"
SESSION_SECONDS = 30 * 24 * 3600
TOKEN_HEADER = "X-Referee-Token"
CSRF_HEADER = "X-CSRF-Token"
CSRF_FIELD = "csrf"
GENERATION_KEY = "session_generation"
_N, _R, _P = 2**14, 8, 1


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def hash_password(password: str) -> str:
    """``scrypt$N$r$p$salt$hash``."""
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, n=_N, r=_R, p=_P, dklen=32)
    return f"scrypt${_N}${_R}${_P}${_b64(salt)}${_b64(digest)}"


def verify_password(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode(), salt=_unb64(salt), n=int(n), r=int(r), p=int(p),
                             dklen=len(_unb64(digest)))
    except (ValueError, TypeError):
        return False
    return hmac.compare_digest(got, _unb64(digest))


def _key(stored: str) -> bytes:
    return hashlib.sha256(b"carom-session\0" + stored.encode()).digest()


def _sign(stored: str, *parts: str) -> bytes:
    return hmac.new(_key(stored), "|".join(parts).encode(), hashlib.sha256).digest()


@dataclass(frozen=True, slots=True)
class Session:
    """A valid organiser session: its generation and its anti-forgery token."""

    generation: int
    csrf: str


def session_cookie(stored: str, generation: int, now: float | None = None) -> str:
    """A cookie value that proves the organiser logged in, for 30 days or until the
    session generation changes: ``generation.expires.nonce.signature``."""
    expires = int((now or time.time()) + SESSION_SECONDS)
    nonce = secrets.token_urlsafe(12)
    sig = _sign(stored, "organiser", str(generation), str(expires), nonce)
    return f"{generation}.{expires}.{nonce}.{_b64(sig)}"


def session(cookie: str | None, stored: str | None, generation: int,
            now: float | None = None) -> Session | None:
    """The session the cookie proves, if it is signed, current and of this generation."""
    if not cookie or not stored or len(cookie) > 200:
        return None
    parts = cookie.split(".")
    if len(parts) != 4:
        return None
    gen, expires, nonce, sig = parts
    if gen != str(generation) or not is_digits(expires) or int(expires) < (now or time.time()):
        return None
    want = _sign(stored, "organiser", gen, expires, nonce)
    try:
        if not hmac.compare_digest(want, _unb64(sig)):
            return None
    except ValueError:
        return None
    return Session(generation, _b64(_sign(stored, "csrf", gen, nonce)))


def same_token(given: str | None, expected: str) -> bool:
    """A constant-time comparison of a presented token with the expected one."""
    return bool(given) and hmac.compare_digest(str(given).encode(), expected.encode())


def new_token() -> str:
    """A referee token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


class LoginThrottle:
    """At most ``burst`` login attempts per client, then one every ``every`` seconds:
    each attempt costs an scrypt hash, and guessing the password takes attempts."""

    def __init__(self, burst: int = 5, every: float = 12.0, clients: int = 10_000) -> None:
        self.burst, self.every, self.clients = burst, every, clients
        self._buckets: dict[str, tuple[float, float]] = {}

    def wait(self, client: str, now: float | None = None) -> float:
        """0 and one attempt used, or the seconds until this client may try again."""
        now = time.monotonic() if now is None else now
        tokens, since = self._buckets.get(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - since) / self.every)
        if tokens < 1.0:
            self._buckets[client] = (tokens, now)
            return (1.0 - tokens) * self.every
        if len(self._buckets) >= self.clients:
            self._forget_rested(now)
        self._buckets[client] = (tokens - 1.0, now)
        return 0.0

    def _forget_rested(self, now: float) -> None:
        """Drop the clients whose allowance is full again (they would start afresh)."""
        rested = [c for c, (tokens, since) in self._buckets.items()
                  if tokens + (now - since) / self.every >= self.burst]
        for client in rested or list(self._buckets)[: len(self._buckets) // 2]:
            del self._buckets[client]
