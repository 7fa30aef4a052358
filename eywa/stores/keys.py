"""The API key aggregate: scoped keys for the HTTP API and MCP over HTTP, stored hashed.

A key reads ``eyw_<id>_<secret>``. Only ``sha256(salt + secret)`` is stored, with a random
salt per key, so a leaked key file does not leak keys; the secret is shown once, at
creation. The secret is 256 random bits, which is why a fast hash is enough (no password
stretching is needed for a secret nobody chose). The key id is public: it is the ``author``
recorded on every turn the key writes, so multi-agent audit can tell writers apart.

Scopes: ``read`` (recall, evidence, beliefs, dimensions…), ``write`` (remember) and
``admin`` (manage keys over HTTP). ``spaces`` lists the spaces a key may touch; ``"*"``
means every space (which is why no space may be called ``*``).

A key may expire (``expires_at``), and its secret may be rotated: ``rotate`` issues a new
secret under the same key id while the replaced one keeps working for a grace period, so
agents can be moved to the new secret without an outage.

One implementation today, SQLite (``eywa.stores.embedded.keys``), opened by the runtime
(``eywa.runtime.open_key_store``) for both backends; a Neo4j key store (stateless API
replicas) implements this same protocol later.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Final, Literal, Protocol, get_args

from pydantic import BaseModel, ConfigDict

from eywa.errors import InvalidInputError
from eywa.ids import WILDCARD_SPACE

Scope = Literal["read", "write", "admin", "erase"]
"""``erase`` (forget, drop a space) is apart from ``write``: a key that may add turns may not erase them."""
SCOPES: Final[tuple[Scope, ...]] = get_args(Scope)
ALL_SPACES: Final = WILDCARD_SPACE
KEY_PREFIX: Final = "eyw"

__all__ = ["ALL_SPACES", "KEY_PREFIX", "MAX_GRACE", "SCOPES", "ApiKey", "KeyStore", "Scope", "parse_scopes"]


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


class KeyStore(Protocol):
    """Create, authenticate, rotate, list and revoke API keys. Safe to call from several threads."""

    def create(
        self,
        spaces: Iterable[str],
        scopes: Iterable[Scope],
        name: str | None = None,
        expires_at: datetime | None = None,
    ) -> tuple[ApiKey, str]:
        """Create a key; returns its record and the full key, which is never stored.

        Raises:
            InvalidInputError: no spaces, a bad space, an unknown scope, or an expiry that
                is not in the future.
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
