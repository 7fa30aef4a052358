"""FTS5's ``bm25`` over ``belief_fts``, ranked from an in-memory copy of one version of it.

Why: with the query embedding on faster kernels (docs/latency.md, session 33) the asking
thread's own routes are a recall's longer chain, and the belief half of the shared keyword
search is the largest piece of them (10k bench store: ~1.0 ms of CPU by FTS5 per recall,
against ~0.1 ranked from numpy arrays). The ranking is ``bm25_index.rank``, the same IEEE
operations as FTS5's ``bm25(belief_fts, 0, 0, 1.0)`` with its filtered plan's order (rank,
then rowid), so it returns the same ids with the same ranks, ties included.

Unlike the evidence index (``bm25_index.Bm25Index``) this copy is not kept by the writers:
it holds one version of the table (FTS5's averages and structure records, ``*_data`` rows 1
and 10; every write changes the second), and every search compares it with the version its
own connection reads. Any write (a belief added, superseded, erased; by this process or
another) makes them differ: the search goes to FTS5, as it did before this index, and a
new copy is read in a background thread, at most once per ``REBUILD_GAP`` multiple of the
last read's time, so that a store written as fast as it is read spends at most a small
share of a core re-reading it (10k bench store: ~4,400 beliefs read in ~0.1 s). An erased
belief is never returned from a copy read before its erasure: the erasure is a write.
"""

from __future__ import annotations

import logging
import sqlite3
import threading
import time
from dataclasses import dataclass
from typing import Final

import numpy as np
import numpy.typing as npt

from eywa.stores.embedded.bm25_index import (
    FloatArray,
    Int32Array,
    Tokenizer,
    Version,
    match_words,
    postings_by_term,
    rank,
    read_postings,
    read_sizes,
    read_version,
    read_version_db,
    varints,
)
from eywa.stores.embedded.database import SqliteDatabase

log = logging.getLogger(__name__)

TABLE: Final = "belief_fts"
# The route's column weights (``keyword._FILTERED["belief"]``): id and space are UNINDEXED.
WEIGHTS: Final = (0.0, 0.0, 1.0)
COLUMNS: Final = ("id", "space", "text")
# A new copy is read no sooner than this many times the last read's duration after it ended.
REBUILD_GAP: Final = 10.0
# ... and never sooner than this (seconds).
MIN_GAP_S: Final = 1.0
_CLOSE_WAIT_S: Final = 30.0


@dataclass(frozen=True)
class _Copy:
    """One version of ``belief_fts`` in memory."""

    version: Version
    rows: int
    avgdl: float
    sizes: FloatArray
    space: npt.NDArray[np.int64]
    spaces: dict[str, int]
    ids: dict[int, str]
    postings: dict[str, tuple[Int32Array, FloatArray]]


def read_copy(conn: sqlite3.Connection) -> _Copy:
    """The table as ``conn`` sees it (call inside one read transaction)."""
    version = read_version(conn, TABLE)
    averages = varints(version[0])
    rows, tokens = (averages[0], sum(averages[1:])) if averages else (0, 0)
    sizes = read_sizes(conn, TABLE)
    space = np.full(sizes.shape[0], -1, dtype=np.int64)
    spaces: dict[str, int] = {}
    ids: dict[int, str] = {}
    for rowid, item_id, owner in conn.execute(f"SELECT id, c0, c1 FROM {TABLE}_content"):  # noqa: S608
        if 0 <= rowid < sizes.shape[0]:
            ids[rowid] = str(item_id)
            space[rowid] = spaces.setdefault(str(owner), len(spaces))
    codes: dict[str, int] = {}
    t, d, f = read_postings(conn, TABLE, COLUMNS, WEIGHTS, lambda term: codes.setdefault(term, len(codes)))
    names = list(codes)
    postings = {names[code]: (rows_of, freq) for code, rows_of, freq in postings_by_term(t, d, f)}
    avgdl = float(tokens) / float(rows) if rows else 0.0
    return _Copy(version, rows, avgdl, sizes, space, spaces, ids, postings)


class BeliefBm25:
    """The in-memory copy of ``belief_fts`` for one database (see module docstring)."""

    def __init__(self, db: SqliteDatabase) -> None:
        self._db = db
        self._tokenizer = Tokenizer()
        self._lock = threading.Lock()
        self._copy: _Copy | None = None
        self._thread: threading.Thread | None = None
        self._conn: sqlite3.Connection | None = None
        self._closed = False
        self._not_before = 0.0
        self._ready = threading.Event()
        self.answered = 0  # searches ranked here, and sent to FTS5 (benches report both)
        self.fell_back = 0
        self._reread()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait for the copy being read (benches, tests); whether one is held."""
        self._ready.wait(timeout)
        with self._lock:
            return self._copy is not None

    def ranked(self, space: str, match: str, limit: int) -> list[tuple[str, float]] | None:
        """(id, bm25) best first, exactly FTS5's filtered plan over ``belief_fts``, or None
        when the copy cannot answer (none held, another version, a phrase, other syntax)."""
        words = match_words(match)
        copy = self._copy
        if words is None or copy is None:
            self.fell_back += 1
            if copy is None:  # none held (dropped by ``scrub``, a failed read): read one
                self._reread()
            return None
        terms = [self._tokenizer.word(w) for w in words]
        if any(len(t) != 1 for t in terms):
            self.fell_back += 1
            return None
        if read_version_db(self._db, TABLE) != copy.version:
            self.fell_back += 1
            self._reread()
            return None
        self.answered += 1
        code = copy.spaces.get(space)
        if code is None:
            return []
        empty = (np.zeros(0, dtype=np.int32), np.zeros(0))
        postings = [copy.postings.get(t[0], empty) for t in terms]
        found = rank(postings, copy.sizes, copy.rows, copy.avgdl, copy.space == code, limit)
        return [(copy.ids[rowid], score) for rowid, score in found]

    def scrub(self) -> None:
        """After an erasure (``SqliteErasureStore.scrub``): drop a copy older than the table
        — it holds the erased beliefs' ids and words, unused but kept until a search found
        it stale — and read a new one."""
        with self._lock:
            reading = self._thread
        if reading is not None:  # a read begun before the erasure committed may hold it
            reading.join(_CLOSE_WAIT_S)
        with self._lock:
            copy = self._copy
        if copy is None or read_version_db(self._db, TABLE) == copy.version:
            return
        with self._lock:
            if self._copy is copy:
                self._copy = None
        self._reread()

    def terms(self) -> set[str]:
        """The terms and ids the copy holds (tests: an erasure leaves none of the erased)."""
        copy = self._copy
        return set(copy.postings) | set(copy.ids.values()) if copy is not None else set()

    def _reread(self) -> None:
        """Read a new copy in a background thread, unless one is being read or the last
        ended too recently (``REBUILD_GAP``)."""
        with self._lock:
            if self._closed or self._thread is not None or time.monotonic() < self._not_before:
                return
            self._ready.clear()
            self._thread = threading.Thread(target=self._read, name="eywa-belief-bm25", daemon=True)
            self._thread.start()

    def _read(self) -> None:
        began = time.monotonic()
        copy: _Copy | None = None
        try:
            conn = sqlite3.connect(f"{self._db.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            try:
                with self._lock:
                    closed = self._closed
                    self._conn = None if closed else conn
                if not closed:
                    conn.execute("BEGIN")
                    copy = read_copy(conn)
            finally:
                with self._lock:
                    self._conn = None
                conn.close()
        except Exception:  # a closed database, a failed read: FTS5 keeps answering
            if not self._closed:
                log.warning("belief keyword copy: read failed; FTS5 answers", exc_info=True)
        ended = time.monotonic()
        with self._lock:
            if copy is not None:
                self._copy = copy
            self._not_before = ended + max(MIN_GAP_S, REBUILD_GAP * (ended - began))
            self._thread = None
            self._ready.set()

    def close(self) -> None:
        """Stop reading before the database closes (a running read is interrupted)."""
        with self._lock:
            self._closed = True
            thread = self._thread
        if thread is None:
            return
        deadline = time.monotonic() + _CLOSE_WAIT_S
        while thread.is_alive() and time.monotonic() < deadline:
            with self._lock:
                if self._conn is not None:
                    self._conn.interrupt()
            thread.join(0.05)
