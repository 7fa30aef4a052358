"""API keys in their own SQLite file: the embedded ``KeyStore`` (see ``eywa.stores.keys``)."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

from eywa.errors import InvalidInputError, NotFoundError, StoreError
from eywa.ids import check_space
from eywa.models import utc_now
from eywa.stores.keys import ALL_SPACES, KEY_PREFIX, ApiKey, Scope, parse_scopes

__all__ = ["SqliteKeyStore"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id TEXT PRIMARY KEY,
    salt BLOB NOT NULL,
    hash TEXT NOT NULL,
    spaces TEXT NOT NULL,
    scopes TEXT NOT NULL,
    name TEXT,
    created_at TEXT NOT NULL,
    revoked_at TEXT
)
"""


def _digest(salt: bytes, secret: str) -> str:
    return hashlib.sha256(salt + secret.encode("utf-8")).hexdigest()


class SqliteKeyStore:
    """The ``KeyStore`` in one SQLite file (WAL), beside the embedded store by default.

    Thread-safe: FastAPI calls it from its thread pool.
    """

    def __init__(self, path: str | Path) -> None:
        """Open (or create) the key file.

        Raises:
            StoreError: the file cannot be opened or created.
        """
        self._path = Path(path)
        self._lock = threading.Lock()
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
        except (OSError, sqlite3.Error) as exc:
            raise StoreError("keys", "open", str(exc)) from exc

    def create(
        self, spaces: Iterable[str], scopes: Iterable[Scope], name: str | None = None
    ) -> tuple[ApiKey, str]:
        """Create a key; returns its record and the full key, which is never stored.

        Raises:
            InvalidInputError: no spaces, a bad space or an unknown scope.
            StoreError: the key file cannot be written.
        """
        chosen_spaces = tuple(dict.fromkeys(s if s == ALL_SPACES else check_space(s) for s in spaces))
        if not chosen_spaces:
            raise InvalidInputError("a key needs at least one space")
        chosen_scopes = parse_scopes(list(scopes))
        key_id = secrets.token_hex(8)
        secret = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        record = ApiKey(id=key_id, spaces=chosen_spaces, scopes=chosen_scopes, name=name, created_at=utc_now())
        self._execute(
            "INSERT INTO api_keys (id, salt, hash, spaces, scopes, name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (key_id, salt, _digest(salt, secret), json.dumps(chosen_spaces), json.dumps(chosen_scopes),
             name, record.created_at.isoformat()),
            "create",
        )
        return record, f"{KEY_PREFIX}_{key_id}_{secret}"

    def authenticate(self, token: str) -> ApiKey | None:
        """The live key ``token`` names, or ``None`` (malformed, unknown, wrong or revoked).

        Raises:
            StoreError: the key file cannot be read.
        """
        parts = token.split("_", 2)
        if len(parts) != 3 or parts[0] != KEY_PREFIX or not parts[1] or not parts[2]:
            return None
        row = self._row(parts[1])
        if row is None:
            return None
        salt, stored = row[1], str(row[2])
        if not isinstance(salt, bytes) or not hmac.compare_digest(_digest(salt, parts[2]), stored):
            return None
        record = _record(row)
        return record if record.revoked_at is None else None

    def get(self, key_id: str) -> ApiKey:
        """The record of ``key_id`` (revoked or not).

        Raises:
            NotFoundError: no such key.
            StoreError: the key file cannot be read.
        """
        row = self._row(key_id)
        if row is None:
            raise NotFoundError("api key", ALL_SPACES, key_id)
        return _record(row)

    def list(self) -> list[ApiKey]:
        """Every key, oldest first.

        Raises:
            StoreError: the key file cannot be read.
        """
        rows = self._execute("SELECT * FROM api_keys ORDER BY created_at, id", (), "list").fetchall()
        return [_record(r) for r in rows]

    def revoke(self, key_id: str) -> ApiKey:
        """Revoke ``key_id``; later requests with it get 401. Revoking twice is a no-op.

        Raises:
            NotFoundError: no such key.
            StoreError: the key file cannot be written.
        """
        self.get(key_id)
        self._execute(
            "UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL",
            (utc_now().isoformat(), key_id),
            "revoke",
        )
        return self.get(key_id)

    def ping(self) -> bool:
        """Whether the key file answers a query."""
        try:
            self._execute("SELECT 1", (), "ping")
        except StoreError:
            return False
        return True

    def close(self) -> None:
        """Close the key file."""
        with self._lock:
            self._db.close()

    def _row(self, key_id: str) -> tuple[object, ...] | None:
        found: tuple[object, ...] | None = self._execute(
            "SELECT * FROM api_keys WHERE id = ?", (key_id,), "read"
        ).fetchone()
        return found

    def _execute(self, sql: str, params: tuple[object, ...], operation: str) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, params)
            except sqlite3.Error as exc:
                raise StoreError("keys", operation, str(exc)) from exc


def _record(row: tuple[object, ...]) -> ApiKey:
    key_id, _salt, _hash, spaces, scopes, name, created, revoked = row
    return ApiKey(
        id=str(key_id),
        spaces=tuple(json.loads(str(spaces))),
        scopes=tuple(json.loads(str(scopes))),
        name=None if name is None else str(name),
        created_at=datetime.fromisoformat(str(created)),
        revoked_at=None if revoked is None else datetime.fromisoformat(str(revoked)),
    )
