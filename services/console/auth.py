"""Who is looking: the console's session cookie, CSRF tokens, and the Bearer alternative.

The login form takes an API key. The session cookie (HttpOnly, SameSite=Strict, Secure
over https) is signed with ``EYWA_SESSION_SECRET`` and holds only the key id and the
session's CSRF token, never the secret; every request looks the key up again, so a revoked
or expired key loses the console at once. Without ``EYWA_SESSION_SECRET`` each process signs
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
from typing import Final

from fastapi import Request, Response
from itsdangerous import BadSignature, URLSafeTimedSerializer

from eywa.errors import NotFoundError
from eywa.models import utc_now
from eywa.stores.keys import ApiKey, KeyStore

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
    """Whether two tokens are present and equal, compared in constant time."""
    return bool(given) and bool(expected) and hmac.compare_digest(str(given), str(expected))


class SessionSigner:
    """Issues and reads the signed session cookie."""

    def __init__(self, secret: bytes, max_age_s: int = SESSION_MAX_AGE_S) -> None:
        self._serializer = URLSafeTimedSerializer(secret, salt="eywa-console-session")
        self._max_age_s = max_age_s

    def issue(self, response: Response, request: Request, key: ApiKey) -> str:
        """Set the session cookie for ``key`` on ``response``; returns its CSRF token."""
        csrf = new_token()
        response.set_cookie(
            SESSION_COOKIE, self._serializer.dumps({"k": key.id, "c": csrf}), max_age=self._max_age_s,
            httponly=True, samesite="strict", secure=request.url.scheme == "https", path="/console",
        )  # fmt: skip
        return csrf

    def read(self, cookie: str | None) -> tuple[str, str] | None:
        """The (key id, CSRF token) a cookie carries, or None (missing, forged or expired)."""
        if not cookie:
            return None
        try:
            payload = self._serializer.loads(cookie, max_age=self._max_age_s)
        except BadSignature:
            return None
        if not isinstance(payload, dict) or not isinstance(payload.get("k"), str) or not isinstance(payload.get("c"), str):
            return None
        return payload["k"], payload["c"]

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
    key_id, csrf = found
    try:
        record = keys.get(key_id)
    except NotFoundError:
        return None
    return ConsoleSession(record, csrf) if record.live_at(utc_now()) else None
