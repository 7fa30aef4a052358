"""Who is looking: the console's session cookie, CSRF tokens, and the Bearer alternative.

The login form takes an API key. The session cookie (HttpOnly, SameSite=Strict, Secure
over https) is signed with ``EYWA_SESSION_SECRET`` and holds only the key id and the
session's CSRF token, never the secret; every request looks the key up again, so a revoked
or expired key loses the console at once, and a rotated one once the rotation's grace ends
for every session opened before that end (the cookie cannot say which secret opened it, and
rotating is how a leaked secret is locked out: a session opened with the new secret during
the grace signs in again after it). Without ``EYWA_SESSION_SECRET`` each process signs
with a random secret of its own (sessions end when it restarts and are not shared between
replicas). An ``Authorization: Bearer`` header works as well and needs no cookie (nor CSRF:
a cross-site form cannot send a header).

CSRF: every POST form carries the session's token (``csrf`` field); the login form, which
has no session yet, uses a double-submit token (a cookie and a field that must agree).
"""

from __future__ import annotations

import hmac
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Final

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from eywa.errors import NotFoundError
from eywa.models import utc_now
from eywa.stores.keys import ApiKey, KeyStore
from eywa.values import parse_time

__all__ = [
    "LOGIN_CSRF_COOKIE",
    "SESSION_COOKIE",
    "SESSION_MAX_AGE_S",
    "ConsoleSession",
    "SessionSigner",
    "new_token",
    "same_token",
]

SESSION_COOKIE: Final = "eywa_console"
LOGIN_CSRF_COOKIE: Final = "eywa_console_login"
SESSION_MAX_AGE_S: Final = 8 * 3600
"""A console session lasts a working day; then the key is asked for again."""


@dataclass(frozen=True)
class ConsoleSession:
    """The caller of a console request: the live key and the CSRF token of its session
    (``None`` for a Bearer request, which has no session)."""

    key: ApiKey
    csrf: str | None


def new_token() -> str:
    """A fresh random token (CSRF)."""
    return secrets.token_urlsafe(24)


def same_token(given: str | None, expected: str | None) -> bool:
    """Whether two tokens are present and equal, compared in constant time.

    Compared as UTF-8 bytes: ``hmac.compare_digest`` raises ``TypeError`` for a ``str``
    holding a non-ASCII character, and both sides come from the client (a form field, a
    cookie), so ``csrf=é`` was a 500 where a foreign token is a 403. ``surrogatepass`` keeps
    a lone surrogate encodable; it never equals a token ``new_token`` made.
    """
    if not given or not expected:
        return False
    return hmac.compare_digest(str(given).encode("utf-8", "surrogatepass"), str(expected).encode("utf-8", "surrogatepass"))


class SessionSigner:
    """Issues and reads the signed session cookie."""

    def __init__(self, secret: bytes, max_age_s: int = SESSION_MAX_AGE_S) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="eywa-console-session")
        self._max_age_s = max_age_s

    def issue(self, response: Response, request: Request, key: ApiKey) -> str:
        """Set the session cookie for ``key`` on ``response``; returns its CSRF token."""
        csrf = new_token()
        response.set_cookie(
            SESSION_COOKIE, self._serializer.dumps({"k": key.id, "c": csrf, "t": utc_now().isoformat()}),
            max_age=self._max_age_s,
            httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/console",
        )  # fmt: skip
        return csrf

    def read(self, cookie: str | None) -> tuple[str, str, datetime] | None:
        """The (key id, CSRF token, signing time) a cookie carries, or None (missing, forged
        or expired)."""
        if not cookie:
            return None
        try:
            payload = self._serializer.loads(cookie, max_age=self._max_age_s)
        except BadSignature:
            return None
        if not isinstance(payload, dict) or not all(isinstance(payload.get(f), str) for f in ("k", "c", "t")):
            return None  # a cookie of an older version (no signing time) signs in again
        try:
            signed_at = parse_time(payload["t"])
        except ValueError:
            return None
        return payload["k"], payload["c"], signed_at

    @staticmethod
    def clear(response: Response) -> None:
        """End the session on the browser's side."""
        response.delete_cookie(SESSION_COOKIE, path="/console")


def session_of(request: Request, signer: SessionSigner, keys: KeyStore) -> ConsoleSession | None:
    """The live caller of ``request``: its Bearer key, else its session cookie's key, looked up
    now (revoked or expired keys give None).

    Raises:
        StoreError: the key store cannot be read.
    """
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        key = keys.authenticate(token.strip())
        return None if key is None else ConsoleSession(key, None)
    found = signer.read(request.cookies.get(SESSION_COOKIE))
    if found is None:
        return None
    key_id, csrf, signed_at = found
    try:
        record = keys.get(key_id)
    except NotFoundError:
        return None
    now = utc_now()
    return ConsoleSession(record, csrf) if record.live_at(now) and _survives_rotation(record, signed_at, now) else None


def _survives_rotation(key: ApiKey, signed_at: datetime, now: datetime) -> bool:
    """Whether a session signed at ``signed_at`` may outlive ``key``'s last rotation: one
    opened before the rotation's grace ended may have used the replaced secret, so it lasts
    as long as that secret works (see the module docstring)."""
    if key.rotated_at is None:
        return True
    grace_end = key.grace_until or key.rotated_at
    return signed_at >= grace_end or now < grace_end
