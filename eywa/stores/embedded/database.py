"""One SQLite database per Memory, in WAL mode, shared by the embedded stores.

Each store declares its own tables (``ensure_schema``); all of them live in one file so a
``remember`` batch (evidence, signals, mentions, FTS rows) commits in one transaction.

One connection writes, and a thread holding it (in a transaction, or ``locked``) also reads
through it, so it sees its own uncommitted rows. Every other read goes through a read-only
connection of the reading thread's own: WAL lets readers run beside the writer, each
statement on the last committed state. A recall therefore never waits for a write
transaction (a Level 0 batch, a Level 1 transaction, an erasure) to end.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import threading
import weakref
from collections.abc import Callable, Hashable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from eywa.errors import ClosedError, StoreError

log = logging.getLogger(__name__)

_T = TypeVar("_T")

# A reader connection's own page cache (KiB, as ``cache_size`` takes it negated): readers map
# the file (``_READER_MMAP``) and so share the kernel's page cache, so each needs only a small
# cache of its own; the API's threads may each hold one.
_READER_CACHE_KIB = 8192
_READER_MMAP = 1 << 28
_BUSY_TIMEOUT_MS = 30_000
CHECKPOINT_WAIT_S = 2.0
"""How long ``checkpoint`` waits for readers on an older snapshot (an erasure's, below
the 30 s writers wait for each other: it holds the writing connection meanwhile)."""


class _Reader(sqlite3.Connection):
    """A reader connection: a subclass so that the database can hold it weakly (the reading
    thread's local holds it; when the thread ends, the connection is closed), and so that it
    can keep what ``SqliteDatabase.kept`` read through it, with the state it was read at."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.kept: dict[Hashable, tuple[int, Any]] = {}


# The key under which a snapshot's ``once`` holds its reader's ``data_version``.
_DATA_VERSION = object()


class SqliteDatabase:
    """A thread-safe wrapper over one writing SQLite connection and per-thread readers.

    SQLite serialises writers anyway; a re-entrant lock keeps the writing connection usable
    from FastAPI's thread pool and from in-process Level 1 work. Reads outside that lock go
    through the reading thread's own read-only connection (module docstring).
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self._conn = sqlite3.connect(
                str(path), check_same_thread=False, isolation_level=None, timeout=_BUSY_TIMEOUT_MS / 1000
            )
        except sqlite3.Error as exc:
            raise StoreError("sqlite", "open", str(exc)) from exc
        self._conn.row_factory = sqlite3.Row
        self._lock = threading.RLock()
        self._depth = 0
        self._closed = False
        # Per thread: ``depth``, how deeply it holds the writing connection (``transaction``,
        # ``locked``; its reads then go through that connection too); ``reader``, its read-only
        # connection with the process that opened it; ``snapshot``, whether it is in one.
        self._local = threading.local()
        self._readers: weakref.WeakSet[_Reader] = weakref.WeakSet()
        self._readers_lock = threading.Lock()
        # Reads in progress on the readers (``_reading``): ``close`` waits for them, since
        # closing a connection while another thread executes on it crashes the process
        # (a segfault inside SQLite, seen with a recall beside ``Memory.close``).
        self._reads = 0
        self._reads_done = threading.Condition(self._readers_lock)
        # An in-memory database (tests) is private to its connection: no readers beside it.
        self._readable = str(path) != ":memory:"
        # Called after each outermost transaction commits (with the writing connection, the
        # lock still held) or rolls back, and once a thread lets the connection go: the
        # in-memory keyword index (``bm25_index``).
        self._on_commit: list[Callable[[sqlite3.Connection], None]] = []
        self._on_rollback: list[Callable[[], None]] = []
        self._on_release: list[Callable[[], None]] = []
        for pragma in (
            "PRAGMA journal_mode=WAL",
            "PRAGMA synchronous=NORMAL",
            "PRAGMA foreign_keys=ON",
            "PRAGMA temp_store=MEMORY",
            "PRAGMA cache_size=-65536",
            # Deleted content is overwritten with zeros, freed pages included, so an erased
            # turn's words do not stay in the file's free space (README "Erasure", on disk).
            # Debian's SQLite is built with it on; python.org's and macOS's are not.
            "PRAGMA secure_delete=ON",
        ):
            try:
                self._conn.execute(pragma)
            except sqlite3.Error as exc:  # WAL on a read-only file system, a -wal that is no file
                self._conn.close()
                raise StoreError("sqlite", "open", f"{path}: {exc}") from exc

    def ensure_schema(self, statements: Sequence[str]) -> None:
        """Run idempotent DDL (``CREATE … IF NOT EXISTS``) in one transaction."""
        with self.transaction() as conn:
            for statement in statements:
                conn.execute(statement)

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A write transaction; nested calls join the outer one. Rolls back on any error.

        Raises:
            StoreError: SQLite could not begin it (the file is read-only, or another writer
                held it past the busy timeout), a statement of it failed in SQLite (a full
                disk) or it could not be committed.
        """
        self._check_open()
        try:
            with self._lock, self._held():
                outermost = self._depth == 0
                if outermost:
                    self._check_open()  # closed while this thread waited for the connection
                    try:
                        self._conn.execute("BEGIN IMMEDIATE")
                    except sqlite3.Error as exc:  # a read-only database, a writer holding it past the busy timeout
                        raise StoreError("sqlite", "begin", f"{self.path}: {exc}") from exc
                self._depth += 1
                try:
                    yield self._conn
                except BaseException as exc:
                    self._depth -= 1
                    if outermost:
                        self._roll_back()
                        if isinstance(exc, sqlite3.Error):  # a write the disk refused (full), below every store's checks
                            raise StoreError("sqlite", "write", str(exc)) from exc
                    raise
                else:
                    self._depth -= 1
                    if outermost:
                        try:
                            self._conn.execute("COMMIT")
                        except sqlite3.Error as exc:
                            self._roll_back()
                            raise StoreError("sqlite", "commit", str(exc)) from exc
                        for committed in self._on_commit:
                            committed(self._conn)
        finally:
            self._released()

    def _roll_back(self) -> None:
        """End the failed outermost transaction, if SQLite has not already: on some errors
        (a full disk, an I/O error) it rolls back by itself, and a ROLLBACK then failed with
        "cannot rollback - no transaction is active", an OperationalError hiding the cause."""
        try:
            if self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        finally:
            self._rolled_back()

    @property
    def writer(self) -> sqlite3.Connection:
        """The writing connection (the keyword index finds its tracker by it)."""
        return self._conn

    def add_commit_hook(
        self, committed: Callable[[sqlite3.Connection], None], rolled_back: Callable[[], None]
    ) -> None:
        """Call ``committed(writer)`` after every outermost transaction commits (the
        writing connection still held, so no write of this process comes between) and
        ``rolled_back()`` after one rolls back. Hooks must not raise."""
        self._on_commit.append(committed)
        self._on_rollback.append(rolled_back)

    def add_release_hook(self, released: Callable[[], None]) -> None:
        """Call ``released()`` in a thread each time it lets the writing connection go
        (its outermost ``transaction`` or ``locked`` ends), the connection no longer held:
        work that follows a commit but must not keep other writers waiting (the keyword
        index applies the changes ``committed`` hooks queued). Hooks must not raise."""
        self._on_release.append(released)

    def _released(self) -> None:
        if not self.holds_writer():
            for hook in self._on_release:
                hook()

    def _rolled_back(self) -> None:
        for hook in self._on_rollback:
            hook()

    def holds_writer(self) -> bool:
        """Whether the calling thread holds the writing connection (in a ``transaction`` or
        ``locked``): what it writes joins its own transaction."""
        return bool(getattr(self._local, "depth", 0))

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the connection for several queries and transactions of this thread (the
        lock is re-entrant): a caller that needs many waits once, instead of queueing
        behind other threads' queries before each of its own."""
        self._check_open()
        try:
            with self._lock, self._held():
                self._check_open()  # closed while this thread waited for the connection
                yield
        finally:
            self._released()

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """Several reads on one committed state, without waiting for the writer: in a thread
        that does not hold the writing connection, one read transaction on its reader
        connection (a commit meanwhile is not seen by the reads inside); in a thread that
        holds it, its reads are already of one state. Nested calls join the outer one.

        Raises:
            ClosedError: the database was closed.
            StoreError: SQLite could not begin or end the read transaction.
        """
        self._check_open()
        if getattr(self._local, "snapshot", False):
            yield
            return
        if self._on_writer():
            with self.locked():
                yield
            return
        with self._reading() as reader:
            self._begin_read(reader)
            self._local.snapshot = True
            self._local.once = {}
            self._local.held_reader = reader
            try:
                yield
            finally:
                self._local.snapshot = False
                self._local.once = None
                self._local.held_reader = None
                try:
                    # Ends the read transaction; nothing was written. SQLite may have ended it
                    # already, rolling back on a read's failure (a route's, which a recall survives).
                    if reader.in_transaction:
                        reader.execute("COMMIT")
                except sqlite3.Error as exc:
                    self._check_open()
                    raise StoreError("sqlite", "end snapshot", str(exc)) from exc

    @contextmanager
    def read_snapshot(self) -> Iterator[None]:
        """``snapshot`` for a sequence of reads that needs no lock: a recall's. In a thread
        that holds the writing connection, or on an in-memory database (tests), the reads go
        through that connection one by one, as they would without it, and no lock is taken
        for the block (``snapshot`` would hold the writing connection throughout).

        Why a recall reads in one: each statement outside a read transaction begins and ends
        its own, taking and dropping a read lock of the WAL (2.4 us a statement on a warm
        cache, more in a recall's cold one; ~25 statements a recall at 10k turns), and what
        is the same for every read of one snapshot is read once (``once``).

        Raises:
            ClosedError: the database was closed.
            StoreError: SQLite could not begin or end the read transaction.
        """
        self._check_open()
        if self._on_writer():
            yield
            return
        with self.snapshot():
            yield

    def once(self, key: Hashable, read: Callable[[], _T]) -> _T:
        """``read()``, made once per snapshot of this thread (``snapshot``) and kept for its
        other reads of ``key``: inside one read transaction the database cannot change, so a
        value read from it stays true until the snapshot ends. Outside one, or through the
        writing connection (whose own writes may come between), it is read each time."""
        kept: dict[Hashable, Any] | None = getattr(self._local, "once", None)
        if kept is None or self._on_writer():
            return read()
        if key not in kept:
            kept[key] = read()
        value: _T = kept[key]
        return value

    def kept(self, key: Hashable, read: Callable[[], _T]) -> _T:
        """``once``, and kept beyond its snapshot for the later snapshots of this thread's
        reader while no write has been committed since: ``read()`` is made once per committed
        state of the database, not once per recall.

        Exact: a snapshot's reads see one committed state, and a reader connection's
        ``PRAGMA data_version`` changes whenever another connection commits (a reader never
        writes itself), so two snapshots of one reader with the same ``data_version`` read the
        same state; the pragma reads no table (~3 us against ~50 for the keyword table's
        version records in a recall's cold caches). Any write, by this process or another,
        makes the next snapshot read anew: a memory written between recalls gains nothing.
        Outside a snapshot, or through the writing connection, as ``once``.

        Raises:
            StoreError: SQLite could not read the ``data_version``.
        """
        snapshot: dict[Hashable, Any] | None = getattr(self._local, "once", None)
        held: _Reader | None = getattr(self._local, "held_reader", None)
        if snapshot is None or held is None or self._on_writer():
            return self.once(key, read)
        if key in snapshot:
            value: _T = snapshot[key]
            return value
        state = snapshot.get(_DATA_VERSION)
        if state is None:
            state = snapshot[_DATA_VERSION] = int(self._executed(held, False, "PRAGMA data_version", ())[0][0])
        found = held.kept.get(key)
        if found is not None and found[0] == state:
            value = found[1]
        else:
            value = read()
            held.kept[key] = (state, value)
        snapshot[key] = value
        return value

    def _begin_read(self, reader: sqlite3.Connection) -> None:
        """Begin a read transaction on this thread's ``reader``."""
        try:
            reader.execute("BEGIN")
        except sqlite3.Error as exc:
            self._check_open()
            raise StoreError("sqlite", "begin snapshot", str(exc)) from exc

    @contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        """This thread's reader, counted as in use until the block ends (``close`` waits);
        nested blocks of one thread count once each and end in order.

        Raises:
            ClosedError: the database was closed, or is closing.
        """
        with self._readers_lock:
            if self._closed:
                raise ClosedError("database")
            self._reads += 1
        try:
            yield self._reader()
        finally:
            with self._readers_lock:
                self._reads -= 1
                if not self._reads:
                    self._reads_done.notify_all()

    def query(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[sqlite3.Row]:
        """Run a read query and return all rows: through the writing connection in a thread
        that holds it, else through the thread's read-only connection, without waiting for
        the writer.

        Raises:
            ClosedError: the database was closed (before or during the query).
            StoreError: SQLite failed, or the statement tried to write outside a transaction.
        """
        rows: list[sqlite3.Row] = self._fetched(sql, params, named=True)
        return rows

    def tuples(self, sql: str, params: Sequence[Any] | dict[str, Any] = ()) -> list[tuple[Any, ...]]:
        """``query``'s rows as plain tuples, their columns in the statement's order.

        For the read path's hot statements: a ``sqlite3.Row`` costs ~0.16 us more to make
        than a tuple, and each column read by name ~0.1 us more than by position; a recall
        at 10k turns reads ~800 rows of a few columns each (turns, their mentions, beliefs'
        subjects and cited turns, graph edges).

        Raises:
            ClosedError: the database was closed (before or during the query).
            StoreError: SQLite failed, or the statement tried to write outside a transaction.
        """
        rows: list[tuple[Any, ...]] = self._fetched(sql, params, named=False)
        return rows

    def _fetched(self, sql: str, params: Sequence[Any] | dict[str, Any], *, named: bool) -> list[Any]:
        """``query`` and ``tuples``: all rows, as ``sqlite3.Row`` when ``named``, else tuples
        (a cursor's own ``row_factory`` overrides its connection's)."""
        self._check_open()
        if self._on_writer():
            with self._lock:
                self._check_open()  # closed while this thread waited for the connection
                try:
                    return _cursor(self._conn, named).execute(sql, params).fetchall()
                except sqlite3.Error as exc:
                    raise StoreError("sqlite", "query", str(exc)) from exc
        held: sqlite3.Connection | None = getattr(self._local, "held_reader", None)
        if held is not None:  # in a snapshot: its ``_reading`` holds ``close`` off (~2 us a statement less)
            return self._executed(held, named, sql, params)
        with self._reading() as reader:
            return self._executed(reader, named, sql, params)

    @contextmanager
    def _held(self) -> Iterator[None]:
        """Count this thread's hold on the writing connection (its lock is already taken)."""
        self._local.depth = getattr(self._local, "depth", 0) + 1
        try:
            yield
        finally:
            self._local.depth -= 1

    def _on_writer(self) -> bool:
        """Whether this thread's reads go through the writing connection: it holds it, or
        the database is in memory (private to that connection, no readers beside it)."""
        return self.holds_writer() or not self._readable

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection, opened on its first read (and again in a
        forked child: a connection is never used across a fork)."""
        mine: tuple[int, _Reader] | None = getattr(self._local, "reader", None)
        if mine is not None and mine[0] == os.getpid():
            return mine[1]
        conn = sqlite3.connect(
            str(self.path), check_same_thread=False, isolation_level=None, timeout=30.0, factory=_Reader
        )
        try:
            conn.row_factory = sqlite3.Row
            for pragma in (
                "PRAGMA query_only=ON",  # a read that tried to write fails instead
                "PRAGMA temp_store=MEMORY",
                f"PRAGMA cache_size=-{_READER_CACHE_KIB}",
                f"PRAGMA mmap_size={_READER_MMAP}",
            ):
                conn.execute(pragma)
        except BaseException:
            conn.close()
            raise
        with self._readers_lock:
            self._readers.add(conn)  # a read in progress (``_reading``) holds the close off
        self._local.reader = (os.getpid(), conn)
        return conn

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

    def checkpoint(self, wait_s: float = CHECKPOINT_WAIT_S) -> bool:
        """Copy the WAL into the database file and truncate it to zero bytes; whether it did.

        Why: until a checkpoint, the main file still holds the pages as they were before the
        last writes (an erasure's deleted rows among them), and a WAL that is only reset, not
        truncated, keeps old page images past its new end. Waits up to ``wait_s`` for readers
        on an older snapshot (SQLite's busy handler), holding the writing connection: a
        reader that stays longer leaves it undone (False); the next call or ``close`` does it.

        Raises:
            ClosedError: the database was closed.
            StoreError: SQLite failed otherwise.
        """
        self._check_open()
        with self._lock, self._held():
            self._check_open()  # closed while this thread waited for the connection
            try:
                self._conn.execute(f"PRAGMA busy_timeout = {int(wait_s * 1000)}")
                busy, _, _ = self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            except sqlite3.OperationalError as exc:
                if not _held_elsewhere(exc):
                    raise StoreError("sqlite", "checkpoint", str(exc)) from exc
                busy = 1
            finally:
                self._conn.execute(f"PRAGMA busy_timeout = {_BUSY_TIMEOUT_MS}")
        return not busy

    def close(self) -> None:
        """Checkpoint the WAL and close; later use raises ``ClosedError``.

        The statistics refresh and the checkpoint are housekeeping: when another process
        holds the database (a worker writing beside a reader that closes), they are skipped
        at once rather than waited for, and the connection still closes. SQLite keeps the WAL
        consistent either way; a later close checkpoints it. When they fail otherwise (a full
        disk: ``SQLITE_FULL``), one warning says so and the connection still closes: every
        committed write is in the WAL, which the next open reads (raising left ``eywa serve``'s
        shutdown, a worker's and a reading command such as ``eywa stats`` failing on a full
        disk, when nothing was lost).
        """
        with self._readers_lock:
            if self._closed:
                return
            self._closed = True  # later reads and writes are refused; those in progress end
            while self._reads:  # (without the writing connection: a read may end by taking it)
                self._reads_done.wait()
            readers, self._readers = list(self._readers), weakref.WeakSet()
        with self._lock:
            for reader in readers:  # first: the checkpoint below truncates only a WAL no one reads
                reader.close()
            try:
                self._conn.execute("PRAGMA busy_timeout = 0")
                self._conn.execute("PRAGMA optimize")  # refresh planner statistics cheaply
                self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError as exc:
                if not _held_elsewhere(exc):  # a full disk: the WAL stays, replayed at the next open
                    log.warning(
                        "%s: the write-ahead log was not checkpointed into the database file at close (%s); the "
                        "connection is closed and every committed write is in the log, which the next open replays",
                        self.path.name, exc,
                    )  # fmt: skip
            finally:
                self._conn.close()

    def _check_open(self) -> None:
        if self._closed:
            raise ClosedError("database")

    def _executed(
        self, reader: sqlite3.Connection, named: bool, sql: str, params: Sequence[Any] | dict[str, Any]
    ) -> list[Any]:
        """A read's rows on ``reader`` (``_fetched``), SQLite's failure as ``StoreError``."""
        try:
            return _cursor(reader, named).execute(sql, params).fetchall()
        except sqlite3.Error as exc:
            self._check_open()  # closed by another thread meanwhile: say so
            raise StoreError("sqlite", "query", str(exc)) from exc


def _cursor(conn: sqlite3.Connection, named: bool) -> sqlite3.Cursor | sqlite3.Connection:
    """What to execute a read on: the connection itself for ``sqlite3.Row`` rows (its own
    factory), else a cursor of it whose rows are plain tuples."""
    if named:
        return conn
    cursor = conn.cursor()
    cursor.row_factory = None
    return cursor


def _held_elsewhere(exc: sqlite3.Error) -> bool:
    """Whether ``exc`` says another connection holds the database (SQLITE_BUSY or
    SQLITE_LOCKED, extended codes included), read from the result code, not the message."""
    primary = exc.sqlite_errorcode & 0xFF
    return primary in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
