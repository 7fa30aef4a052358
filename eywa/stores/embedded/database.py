"""One SQLite connection per Memory, in WAL mode, shared by the embedded stores.

Each store declares its own tables (``ensure_schema``); all of them live in one file so a
``remember`` batch (evidence, signals, mentions, FTS rows) commits in one transaction.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from eywa.errors import ClosedError, StoreError


class SqliteDatabase:
    """A thread-safe wrapper over one SQLite connection.

    SQLite serialises writers anyway; a re-entrant lock keeps one Python connection usable
    from FastAPI's thread pool and from in-process Level 1 work.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._conn = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=30.0
            )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "open", str(exc)) from exc
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        self._closed = False
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA temp_store=MEMORY",
            "PRAGMA cache_size=-65536",
        ):
            self._conn.execute(pragma)

    def ensure_schema(self, statements: Sequence[str]) -> None:
        """Run idempotent DDL (``CREATE … IF NOT EXISTS``) in one transaction."""
        with self.transaction() as conn:
            for statement in statements:
                conn.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; nested calls join the outer one. Rolls back on any error."""
        self._check_open()
        with self._lock:
            outermost = self._depth == 0
            if outermost:
                self._conn.execute("BEGIN IMMEDIATE")
            self._depth += 1
            try:
                yield self._conn
            except BaseException:
                self._depth -= 1
                if outermost:
                    self._conn.execute("ROLLBACK")
                raise
            else:
                self._depth -= 1
                if outermost:
                    try:
                        self._conn.execute("COMMIT")
                    except sqlite3.Error as exc:
                        self._conn.execute("ROLLBACK")
                        raise StoreError("sqlite", "commit", str(exc)) from exc

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the connection for several queries and transactions of this thread (the
        lock is re-entrant): a caller that needs many waits once, instead of queueing
        behind other threads' queries before each of its own."""
        self._check_open()
        with self._lock:
            yield

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """Run a read query and return all rows."""
        self._check_open()
        with self._lock:
            try:
                return self._conn.execute(sql, params).fetchall()
            except sqlite3.Error as exc:
                raise StoreError("sqlite", "query", str(exc)) from exc

    @contextmanager
    def read_only(self) -> Iterator[sqlite3.Connection]:
        """A separate read-only connection holding one read transaction (a snapshot).

        For queries that must never write (audits): the file is opened with ``mode=ro`` and
        ``query_only`` is on, so even a statement that tried to write would fail. The
        connection does not take the shared lock, so a long audit never blocks writers.
        Closed (and its transaction rolled back) on exit.

        Raises:
            ClosedError: the database was closed.
            StoreError: the file cannot be opened read-only.
        """
        self._check_open()
        uri = f"{self.path.resolve().as_uri()}?mode=ro"
        conn: sqlite3.Connection | None = None
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=30.0)
            conn.execute("PRAGMA query_only = ON")
            conn.execute("BEGIN")
        except sqlite3.Error as exc:
            if conn is not None:
                conn.close()
            raise StoreError("sqlite", "open read-only", str(exc)) from exc
        try:
            yield conn
        finally:
            conn.close()  # ends the read transaction; nothing was written

    def close(self) -> None:
        """Checkpoint the WAL and close; later use raises ``ClosedError``.

        The statistics refresh and the checkpoint are housekeeping: when another process
        holds the database (a worker writing beside a reader that closes), they are skipped
        at once rather than waited for, and the connection still closes. SQLite keeps the WAL
        consistent either way; a later close checkpoints it.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self._conn.execute("PRAGMA busy_timeout = 0")
                self._conn.execute("PRAGMA optimize")  # refresh planner statistics cheaply
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError as exc:
                if not _held_elsewhere(exc):
                    raise StoreError("sqlite", "close", str(exc)) from exc
            finally:
                self._conn.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedError("database")


def _held_elsewhere(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another connection holds the database (SQLITE_BUSY or
    SQLITE_LOCKED, extended codes included), read from the result code, not the message."""
    primary = exc.sqlite_errorcode & 0xFF
    return primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
