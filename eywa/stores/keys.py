"""The API key aggregate: scoped keys for the HTTP API and MCP over HTTP, stored hashed.

A key reads ``eyw_<id>_<secret>``. Only ``sha256(salt + secret)`` is stored, with a random
salt per key, so a leaked key file does not leak keys; the secret is shown once, at
creation. The secret is 256 random bits, which is why a fast hash is enough (no password
stretching is needed for a secret nobody chose). The key id is public: it is the ``author``
recorded on every turn the key writes, so multi-agent audit can tell writers apart.

Scopes: ``read`` (recall, evidence, beliefs, dimensions…), ``write`` (remember) and
``admin`` (manage keys over HTTP). ``spaces`` lists the spaces a key may touch; ``"*"``
means every space (which is why no space may be called ``*``).

A creation may carry a request key (HTTP: the ``Idempotency-Key`` header, which
``eywa.Client`` sends with every ``create_key`` and reuses on its retries): the store keeps
it with the key id it made, for ``REQUEST_TTL``, in the transaction that stores the key. The
same request again (its answer lost) makes no second key: it is answered with the same key
id and a new secret, the first one replaced at once (no grace). The secret cannot be
answered again, since only its hash is stored, and the first one, which the caller never
received, must not stay live: after a retry the one secret that works is the one the caller
holds. A request key sent with another request (other spaces, scopes, name or expiry), or
naming a key revoked or expired since, is refused (``ConflictError``), nothing changed.

A key may expire (``expires_at``), and its secret may be rotated: ``rotate`` issues a new
secret under the same key id while the replaced one keeps working for a grace period, so
agents can be moved to the new secret without an outage.

Two implementations keep this protocol (one conformance suite): SQLite
(``eywa.stores.embedded.keys``, the embedded default) and Neo4j (``eywa.stores.neo4j.keys``,
server mode, so that every API replica over the same database sees a key, and its
revocation, at once). ``eywa.runtime.open_key_store`` picks one from settings. The checks
and the hashing both share live below (``issue_secret``, ``secret_matches``,
``split_key``, ``checked_spaces``, ``checked_expiry``, ``check_grace``).
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Final, Literal, Protocol, get_args

from pydantic import BaseModel, ConfigDict

from eywa.errors import ConflictError, InvalidInputError
from eywa.ids import WILDCARD_SPACE, check_space
from eywa.values import lone_surrogate, supported_utc, text_problem

Scope = Literal["read", "write", "admin", "erase"]
"""``erase`` (forget, drop a space) is apart from ``write``: a key that may add turns may not erase them."""
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)
ALL_SPACES: Final = WILDCARD_SPACE
KEY_PREFIX: Final = "eyw"

__all__ = [
    "ALL_SPACES",
    "KEY_PREFIX",
    "MAX_GRACE",
    "MAX_NAME_CHARS",
    "REQUEST_TTL",
    "SCOPES",
    "ApiKey",
    "IssuedSecret",
    "KeyStore",
    "Scope",
    "check_grace",
    "checked_expiry",
    "checked_name",
    "checked_spaces",
    "issue_secret",
    "new_key_id",
    "parse_scopes",
    "repeat_of",
    "request_fingerprint",
    "secret_matches",
    "split_key",
]


class ApiKey(BaseModel):
    """A key's public record (never its secret)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    spaces: tuple[str, ...]
    scopes: tuple[Scope, ...]
    name: str | None = None
    created_at: datetime
    revoked_at: datetime | None = None
    expires_at: datetime | None = None
    """After this instant the key authenticates no more (None: it does not expire)."""
    rotated_at: datetime | None = None
    """When the secret was last replaced (``rotate``)."""
    grace_until: datetime | None = None
    """Until when the secret replaced by the last rotation still authenticates."""

    def allows(self, space: str | None, scope: Scope) -> bool:
        """Whether this key may use ``scope`` on ``space`` (``None``: a space-less route)."""
        if self.revoked_at is not None or scope not in self.scopes:
            return False
        return space is None or ALL_SPACES in self.spaces or space in self.spaces

    def live_at(self, moment: datetime) -> bool:
        """Neither revoked nor expired at ``moment``."""
        return self.revoked_at is None and (self.expires_at is None or moment < self.expires_at)


MAX_GRACE: Final = timedelta(days=30)
"""The longest a replaced secret may keep working after a rotation."""


def parse_scopes(text: str | Iterable[str]) -> tuple[Scope, ...]:
    """``"read,write"`` (or a list) as a sorted tuple of known scopes.

    Raises:
        InvalidInputError: an unknown or missing scope.
    """
    parts = text.split(",") if isinstance(text, str) else list(text)
    chosen = {p.strip() for p in parts if p.strip()}
    unknown = sorted(chosen - set(SCOPES))
    if unknown or not chosen:
        raise InvalidInputError(f"scopes must be a non-empty subset of {', '.join(SCOPES)}; got {sorted(chosen)}")
    return tuple(s for s in SCOPES if s in chosen)


def checked_spaces(spaces: Iterable[str]) -> tuple[str, ...]:
    """The distinct spaces of a new key, in order (``"*"`` allowed).

    Raises:
        InvalidInputError: no space, or a space name that is not valid.
    """
    chosen = tuple(dict.fromkeys(s if s == ALL_SPACES else check_space(s) for s in spaces))
    if not chosen:
        raise InvalidInputError.at("spaces", "a key needs at least one space")
    return chosen


MAX_NAME_CHARS: Final = 200
"""The longest key name (``POST /v1/keys``' ``name`` has the same bound)."""


def checked_name(name: str | None) -> str | None:
    """A key's optional label, as given.

    Raises:
        InvalidInputError: not a string, a lone surrogate (no store can write it), or longer
            than ``MAX_NAME_CHARS``.
    """
    if name is None:
        return None
    if not isinstance(name, str):
        raise InvalidInputError.at("name", "must be a string")
    if (problem := text_problem(name)) is not None:
        raise InvalidInputError.at("name", problem)
    if len(name) > MAX_NAME_CHARS:
        raise InvalidInputError.at("name", f"at most {MAX_NAME_CHARS} characters", code="limit_exceeded")
    return name


def checked_expiry(expires_at: datetime | None, now: datetime) -> datetime | None:
    """``expires_at`` as UTC, refused unless it is a supported instant after ``now``.

    Raises:
        InvalidInputError: an unsupported time or one not in the future.
    """
    if expires_at is None:
        return None
    try:
        expiry = supported_utc(expires_at)
    except ValueError as exc:
        raise InvalidInputError.at("expires_at", str(exc)) from None
    if expiry <= now:
        raise InvalidInputError.at("expires_at", "must be in the future")
    return expiry


def check_grace(grace: timedelta) -> None:
    """Refuse a rotation grace outside ``[0, MAX_GRACE]``.

    Raises:
        InvalidInputError: a negative grace or one longer than ``MAX_GRACE``.
    """
    if not timedelta(0) <= grace <= MAX_GRACE:
        raise InvalidInputError.at("grace", f"must be between 0 and {MAX_GRACE.days} days")


class IssuedSecret(BaseModel):
    """A fresh secret for ``key_id``: what the store keeps (salt, hash) and what the caller
    is shown once (``token``)."""

    model_config = ConfigDict(frozen=True)

    salt: bytes
    hash: str
    token: str


def new_key_id() -> str:
    """A random public key id (64 bits, hex)."""
    return secrets.token_hex(8)


def _digest(salt: bytes, secret: str) -> str:
    return hashlib.sha256(salt + secret.encode("utf-8")).hexdigest()


def issue_secret(key_id: str) -> IssuedSecret:
    """256 random bits for ``key_id``, salted and hashed (see the module docstring)."""
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    return IssuedSecret(salt=salt, hash=_digest(salt, secret), token=f"{KEY_PREFIX}_{key_id}_{secret}")


def split_key(token: str) -> tuple[str, str] | None:
    """``(key_id, secret)`` of a well-formed ``eyw_<id>_<secret>``, else None."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1] or not parts[2] or lone_surrogate(token) is not None:
        return None
    return parts[1], parts[2]


def secret_matches(salt: object, stored: object, secret: str) -> bool:
    """Whether ``secret`` hashes to ``stored`` under ``salt`` (constant-time comparison)."""
    return isinstance(salt, bytes) and isinstance(stored, str) and hmac.compare_digest(_digest(salt, secret), stored)


REQUEST_TTL: Final = timedelta(hours=24)
"""How long a creation's request key answers its repeats; after it, the key is forgotten
(and the same request key would make a new key). Longer than any client's retries."""


def request_fingerprint(
    spaces: tuple[str, ...], scopes: tuple[Scope, ...], name: str | None, expires_at: datetime | None
) -> str:
    """What a creation asked for, as a hash kept with its request key: a repeat must ask
    for the same key."""
    asked = [list(spaces), list(scopes), name, None if expires_at is None else expires_at.isoformat()]
    return hashlib.sha256(json.dumps(asked).encode("utf-8")).hexdigest()


def repeat_of(request_key: str, fingerprint: str, asked: str, key: ApiKey, now: datetime) -> None:
    """Check that a repeat of ``request_key`` may be answered with ``key`` (a new secret).

    Raises:
        ConflictError: the repeat asks for another key, or the key it made was revoked or
            expired since; nothing was changed.
    """
    if fingerprint != asked:
        raise ConflictError(
            "request", ALL_SPACES, request_key, "already used for another key request: send a new Idempotency-Key"
        )
    if not key.live_at(now):
        raise ConflictError("api key", ALL_SPACES, key.id, "revoked or expired since this request created it")


class KeyStore(Protocol):
    """Create, authenticate, rotate, list and revoke API keys. Safe to call from several threads."""

    @property
    def in_process(self) -> bool:
        """Whether ``authenticate`` answers from this process without waiting on a server (a
        local file): the HTTP gate then calls it on the event loop, not in a thread."""
        ...

    def create(
        self,
        spaces: Iterable[str],
        scopes: Iterable[Scope],
        name: str | None = None,
        expires_at: datetime | None = None,
        *,
        request_key: str | None = None,
    ) -> tuple[ApiKey, str]:
        """Create a key; returns its record and the full key, which is never stored.

        With ``request_key``, a repeat within ``REQUEST_TTL`` answers the key it made with a
        new secret, the previous one replaced at once (module docstring).

        Raises:
            InvalidInputError: no spaces, a bad space, an unknown scope, or an expiry that
                is not in the future.
            ConflictError: ``request_key`` made another key request, or its key was revoked
                or expired since.
            StoreError: the store cannot be written.
        """
        ...

    def authenticate(self, token: str) -> ApiKey | None:
        """The live key ``token`` names, or ``None`` (malformed, unknown, wrong, revoked or
        expired; a secret replaced by ``rotate`` still works until the grace ends).

        Raises:
            StoreError: the store cannot be read.
        """
        ...

    def rotate(self, key_id: str, grace: timedelta) -> tuple[ApiKey, str]:
        """Give ``key_id`` a new secret; the current one keeps working for ``grace``.

        The key keeps its id (the ``author`` of what it writes), spaces, scopes and expiry.
        A secret replaced by an earlier rotation stops working at once.

        Raises:
            NotFoundError: no such key.
            InvalidInputError: the key is revoked or expired, or ``grace`` is negative or
                longer than ``MAX_GRACE``.
            StoreError: the store cannot be written.
        """
        ...

    def get(self, key_id: str) -> ApiKey:
        """The record of ``key_id`` (revoked or not).

        Raises:
            NotFoundError: no such key.
            StoreError: the store cannot be read.
        """
        ...

    def list(self) -> list[ApiKey]:
        """Every key, oldest first.

        Raises:
            StoreError: the store cannot be read.
        """
        ...

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke ``key_id``; later requests with it get 401. Revoking twice is a no-op.

        Raises:
            NotFoundError: no such key.
            StoreError: the store cannot be written.
        """
        ...

    def ping(self) -> bool:
        """Whether the store answers a query (``/readyz``)."""
        ...

    def close(self) -> None:
        """Release the store."""
        ...
