"""API keys in their own SQLite file: the embedded ``KeyStore`` (see ``eywa.stores.keys``).

A key file written before expiry and rotation existed gains their columns on open
(``ALTER TABLE … ADD COLUMN``; the old rows read as never expiring, never rotated).
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from pathlib import Path

from eywa.errors import InvalidInputError, NotFoundError, StoreError
from eywa.models import utc_now
from eywa.stores.keys import (
    ALL_SPACES,
    REQUEST_TTL,
    ApiKey,
    IssuedSecret,
    Scope,
    check_grace,
    checked_expiry,
    checked_name,
    checked_spaces,
    issue_secret,
    new_key_id,
    parse_scopes,
    repeat_of,
    request_fingerprint,
    secret_matches,
    split_key,
)

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
# A creation's request key (``eywa.stores.keys``: repeats answer the key it made), kept
# until ``expires_at`` (epoch seconds; the expired ones are deleted by the next creation).
_REQUESTS = """
CREATE TABLE IF NOT EXISTS key_requests (
    id TEXT PRIMARY KEY,
    key_id TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    expires_at REAL NOT NULL
)
"""
_REQUESTS_INDEX = "CREATE INDEX IF NOT EXISTS key_requests_expires_at ON key_requests(expires_at)"
# Columns added after the first version, with their types (added on open when missing).
_ADDED_COLUMNS = {
    "expires_at": "TEXT",
    "rotated_at": "TEXT",
    "previous_salt": "BLOB",
    "previous_hash": "TEXT",
    "grace_until": "TEXT",
}


class SqliteKeyStore:
    """The ``KeyStore`` in one SQLite file (WAL), beside the embedded store by default.

    Thread-safe: FastAPI calls it from its thread pool. ``clock`` is the time source
    (expiry and grace), replaceable in tests.
    """

    in_process = True
    """A key lookup is one indexed read of a local WAL file (tens of microseconds), which a
    writer never blocks: cheaper on the caller's thread than a hop to another."""

    def __init__(self, path: str | Path, *, clock: Callable[[], datetime] = utc_now) -> None:
        """Open (or create) the key file, adding the columns of newer versions.

        Raises:
            StoreError: the file cannot be opened or created.
        """
        self._path = Path(path)
        self._lock = threading.Lock()
        self._clock = clock
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self._path, check_same_thread=False, isolation_level=None, timeout=30.0)
            self._db.row_factory = sqlite3.Row
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
            self._db.execute(_REQUESTS)
            self._db.execute(_REQUESTS_INDEX)
            present = {row["name"] for row in self._db.execute("PRAGMA table_info(api_keys)")}
            for column, kind in _ADDED_COLUMNS.items():
                if column not in present:
                    self._db.execute(f"ALTER TABLE api_keys ADD COLUMN {column} {kind}")  # names from the dict above
        except (OSError, sqlite3.Error) as exc:
            raise StoreError("keys", "open", str(exc)) from exc

    def create(
        self,
        spaces: Iterable[str],
        scopes: Iterable[Scope],
        name: str | None = None,
        expires_at: datetime | None = None,
        *,
        request_key: str | None = None,
    ) -> tuple[ApiKey, str]:
        """Create a key; returns its record and the full key, which is never stored. A
        repeat of ``request_key`` answers the key it made with a new secret (``KeyStore``).

        Raises:
            InvalidInputError: no spaces, a bad space, an unknown scope, or an expiry that
                is not in the future.
            ConflictError: ``request_key`` made another key request, or its key was revoked
                or expired since.
            StoreError: the key file cannot be written.
        """
        chosen_spaces = checked_spaces(spaces)
        name = checked_name(name)
        chosen_scopes = parse_scopes(list(scopes))
        now = self._clock()
        expiry = checked_expiry(expires_at, now)
        fingerprint = request_fingerprint(chosen_spaces, chosen_scopes, name, expiry)
        key_id = new_key_id()
        issued = issue_secret(key_id)
        record = ApiKey(
            id=key_id, spaces=chosen_spaces, scopes=chosen_scopes, name=name, created_at=now, expires_at=expiry
        )
        with self._lock:
            try:
                # One write transaction (IMMEDIATE: another process's creation waits), so a
                # request key and the key it names are stored together, and two sends of one
                # request make one key.
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    made = None if request_key is None else self._request_in(request_key, now)
                    if made is not None:
                        answer = self._repeat_in(request_key or "", fingerprint, made, now)
                    else:
                        self._insert_in(record, issued, request_key, fingerprint, now)
                        answer = record, issued.token
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
            except sqlite3.Error as exc:
                raise StoreError("keys", "create", str(exc)) from exc
        return answer

    def _request_in(self, request_key: str, now: datetime) -> sqlite3.Row | None:
        """The live row of ``request_key`` (expired rows deleted first), in the caller's
        transaction."""
        self._db.execute("DELETE FROM key_requests WHERE expires_at <= ?", (now.timestamp(),))
        found: sqlite3.Row | None = self._db.execute(
            "SELECT * FROM key_requests WHERE id = ?", (request_key,)
        ).fetchone()
        return found

    def _repeat_in(self, request_key: str, fingerprint: str, made: sqlite3.Row, now: datetime) -> tuple[ApiKey, str]:
        """A repeat: the key ``made`` names, with a new secret replacing its current one at once."""
        row = self._db.execute("SELECT * FROM api_keys WHERE id = ?", (made["key_id"],)).fetchone()
        key = _record(row)
        repeat_of(request_key, str(made["fingerprint"]), fingerprint, key, now)
        issued = issue_secret(key.id)
        self._db.execute(
            "UPDATE api_keys SET previous_salt = NULL, previous_hash = NULL, salt = ?, hash = ?,"
            " rotated_at = ?, grace_until = NULL WHERE id = ?",
            (issued.salt, issued.hash, now.isoformat(), key.id),
        )
        return _record(self._db.execute("SELECT * FROM api_keys WHERE id = ?", (key.id,)).fetchone()), issued.token

    def _insert_in(
        self, record: ApiKey, issued: IssuedSecret, request_key: str | None, fingerprint: str, now: datetime
    ) -> None:
        """A new key, and its request key when there is one, in the caller's transaction."""
        self._db.execute(
            "INSERT INTO api_keys (id, salt, hash, spaces, scopes, name, created_at, expires_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (record.id, issued.salt, issued.hash, json.dumps(record.spaces), json.dumps(record.scopes), record.name,
             now.isoformat(), None if record.expires_at is None else record.expires_at.isoformat()),
        )  # fmt: skip
        if request_key is not None:
            self._db.execute(
                "INSERT INTO key_requests (id, key_id, fingerprint, expires_at) VALUES (?, ?, ?, ?)",
                (request_key, record.id, fingerprint, (now + REQUEST_TTL).timestamp()),
            )

    def authenticate(self, token: str) -> ApiKey | None:
        """The live key ``token`` names, or ``None`` (malformed, unknown, wrong, revoked or
        expired; a secret replaced by ``rotate`` still works until its grace ends).

        Raises:
            StoreError: the key file cannot be read.
        """
        parts = split_key(token)
        if parts is None:
            return None
        key_id, secret = parts
        row = self._row(key_id)
        if row is None:
            return None
        record = _record(row)
        now = self._clock()
        if not record.live_at(now):
            return None
        if secret_matches(row["salt"], row["hash"], secret):
            return record
        in_grace = record.grace_until is not None and now < record.grace_until
        return record if in_grace and secret_matches(row["previous_salt"], row["previous_hash"], secret) else None

    def rotate(self, key_id: str, grace: timedelta) -> tuple[ApiKey, str]:
        """Give ``key_id`` a new secret; the current one keeps working for ``grace``.

        Raises:
            NotFoundError: no such key.
            InvalidInputError: the key is revoked or expired, or ``grace`` is negative or
                longer than ``MAX_GRACE``.
            StoreError: the key file cannot be written.
        """
        check_grace(grace)
        now = self._clock()
        if not self.get(key_id).live_at(now):
            raise InvalidInputError.at("key_id", f"key {key_id} is revoked or expired; create a new one")
        issued = issue_secret(key_id)
        self._execute(
            "UPDATE api_keys SET previous_salt = salt, previous_hash = hash, salt = ?, hash = ?,"
            " rotated_at = ?, grace_until = ? WHERE id = ?",
            (issued.salt, issued.hash, now.isoformat(), (now + grace).isoformat(), key_id),
            "rotate",
        )
        return self.get(key_id), issued.token

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
            (self._clock().isoformat(), key_id),
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

    def _row(self, key_id: str) -> sqlite3.Row | None:
        found: sqlite3.Row | None = self._execute("SELECT * FROM api_keys WHERE id = ?", (key_id,), "read").fetchone()
        return found

    def _execute(self, sql: str, params: tuple[object, ...], operation: str) -> sqlite3.Cursor:
        with self._lock:
            try:
                return self._db.execute(sql, params)
            except sqlite3.Error as exc:
                raise StoreError("keys", operation, str(exc)) from exc


def _time(value: object) -> datetime | None:
    return None if value is None else datetime.fromisoformat(str(value))


def _record(row: sqlite3.Row) -> ApiKey:
    created = _time(row["created_at"])
    assert created is not None  # NOT NULL column
    return ApiKey(
        id=str(row["id"]),
        spaces=tuple(json.loads(str(row["spaces"]))),
        scopes=tuple(json.loads(str(row["scopes"]))),
        name=None if row["name"] is None else str(row["name"]),
        created_at=created,
        revoked_at=_time(row["revoked_at"]),
        expires_at=_time(row["expires_at"]),
        rotated_at=_time(row["rotated_at"]),
        grace_until=_time(row["grace_until"]),
    )
