"""Who may write: the organiser (a password, a signed session cookie) and the referee
(a random token per match, carried by the tablet link).

The password is stored as an scrypt hash. The session cookie is signed with a key
derived from that hash, so changing the password ends every session.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time

COOKIE = "carom_organiser"
SESSION_SECONDS = 30 * 24 * 3600
TOKEN_HEADER = "X-Referee-Token"
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


def session_cookie(stored: str, now: float | None = None) -> str:
    """A cookie value that proves the organiser logged in, valid for 30 days."""
    expires = int((now or time.time()) + SESSION_SECONDS)
    sig = hmac.new(_key(stored), f"organiser|{expires}".encode(), hashlib.sha256).digest()
    return f"{expires}.{_b64(sig)}"


def valid_session(cookie: str | None, stored: str | None, now: float | None = None) -> bool:
    if not cookie or not stored:
        return False
    expires, _, sig = cookie.partition(".")
    if not expires.isdigit() or int(expires) < (now or time.time()):
        return False
    want = hmac.new(_key(stored), f"organiser|{expires}".encode(), hashlib.sha256).digest()
    try:
        return hmac.compare_digest(want, _unb64(sig))
    except ValueError:
        return False


def new_token() -> str:
    """A referee token: 128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)
