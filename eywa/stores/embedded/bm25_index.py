"""FTS5's ``bm25`` over ``evidence_fts``, ranked from an in-memory copy of its index.

Why: ranking every row that matches a query term is most of the embedded read path's cost
(docs/latency.md: 10k turns 2.5 ms per shared evidence search, 100k 23 ms); the same
ranking from numpy arrays costs a tenth (``ops/bench/bm25_outside_fts5.py``). FTS5 computes,
per matching row, ``0.0 + Σ idf·(f·(k1+1)) / (f + k1·(1 − b + b·D/avgdl))`` over the
query's phrases in order, negated; ``rank`` below makes the same IEEE operations in the same
order, so it returns the same rows with the same ranks, ties included.

Exactness is the whole point, so the index is used only when it is provably the table's:

- *Built* from FTS5's own tables in one read transaction (``fts5vocab`` 'instance', the
  ``*_docsize`` rows, the averages record), in a background thread: FTS5 answers meanwhile.
- *Maintained* by every writer of ``evidence_fts`` in this process: the writer calls
  ``note_written`` before it deletes or inserts rows; after the transaction commits (never
  after a rollback) the rows' final contents are read back, still holding the writing
  connection, and queued in commit order; they are tokenised by FTS5 itself (a private
  in-memory FTS5 table with the same tokenizer and columns), never by Python, and applied
  once the writer lets the connection go, before its write returns (``catch_up``): the next
  writer does not wait for it, and a search that finds the index one queued change behind
  applies the queue itself, or asks FTS5 while another thread applies it.
- *Versioned*: the table's version is the pair of FTS5 records every write changes (the
  averages record, ``*_data`` id 1, and the structure record, id 10, whose write counter only
  grows). A change is applied only onto the version it started from, and each search
  compares the index's version with the one its own connection reads: any other write
  (another process, a path that forgot to call ``note_written``) makes them differ, the
  search goes to FTS5 and the index is rebuilt in the background.
"""

from __future__ import annotations

import collections
import functools
import logging
import math
import re
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final

import numpy as np
import numpy.typing as npt

from eywa.errors import ClosedError
from eywa.stores.embedded.database import SqliteDatabase

log = logging.getLogger(__name__)

K1: Final = 1.2
B: Final = 0.75
TABLE: Final = "evidence_fts"
# The columns of ``evidence_fts`` in order (the two UNINDEXED ones hold no tokens).
COLUMNS: Final = ("id", "space", "speaker", "text", "next_text", "prev_text", "near_next", "near_prev")
# ``fts5vocab`` names a token's column; SQL turns it into its index.
_COLUMN_INDEX: Final = "CASE col " + " ".join(f"WHEN '{c}' THEN {i}" for i, c in enumerate(COLUMNS)) + " END"
# The MATCH expressions the read path builds (``keyword.fts_query``): quoted words joined by
# OR. Anything else is ranked by FTS5.
_MATCH: Final = re.compile(r'"([^"]*)"(?: OR "([^"]*)")*')
_WORD: Final = re.compile(r'"([^"]*)"')

# A term's pending changes are folded into its arrays once they are this many (and a
# quarter of its rows): the fold copies the arrays, so it waits for a few changes.
_MERGE_AT = 256
# How long ``close`` waits for a build it interrupted (a build reads one table; an
# interrupted read returns at its next step).
_CLOSE_WAIT_S = 30.0

Version = tuple[bytes, bytes]
IntArray = npt.NDArray[np.int64]
# Row ids and term codes held per posting and per row: 32 bits (a table of more than 2**31
# rows or terms is refused and left to FTS5, ``build``) halve the index's largest arrays.
Int32Array = npt.NDArray[np.int32]
FloatArray = npt.NDArray[np.float64]


def varints(blob: bytes) -> list[int]:
    """SQLite's varints (FTS5's averages and docsize records)."""
    out: list[int] = []
    i = 0
    while i < len(blob):
        value = 0
        for n in range(9):
            byte = blob[i]
            i += 1
            if n == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        out.append(value)
    return out


def rank(
    postings: Sequence[tuple[Int32Array, FloatArray]],
    sizes: FloatArray,
    rows: int,
    avgdl: float,
    allowed: npt.NDArray[np.bool_] | None,
    limit: int,
) -> list[tuple[int, float]]:
    """FTS5's ``ORDER BY bm25(...), rowid LIMIT limit`` over one OR query, as (rowid, rank).

    ``postings`` holds, per phrase of the query in order, the rows holding it and its
    weighted frequency in each (each instance adding its column's weight, in column order);
    ``sizes[rowid]`` is the row's token count over every column; ``rows`` and ``avgdl`` the
    table's row count and tokens per row; ``allowed`` the rows that may be returned (the
    space's) or None. Pure: the same IEEE operations as FTS5's ``fts5Bm25Function``.
    """
    score = np.zeros(sizes.shape[0])
    matched = np.zeros(sizes.shape[0], dtype=bool)
    for docs, freq in postings:
        hits = int(docs.shape[0])
        idf = math.log((rows - hits + 0.5) / (hits + 0.5))
        if idf <= 0.0:
            idf = 1e-6
        part = idf * ((freq * (K1 + 1.0)) / (freq + K1 * ((1 - B) + B * sizes[docs] / avgdl)))
        score[docs] = score[docs] + part
        matched[docs] = True
    if allowed is not None:
        matched &= allowed[: matched.shape[0]]
    found = np.nonzero(matched)[0]
    ranks = -1.0 * score[found]
    found, ranks = within_cut(found, ranks, limit)
    order = np.lexsort((found, ranks))[:limit]
    return list(zip(found[order].tolist(), ranks[order].tolist(), strict=True))


def within_cut(
    found: npt.NDArray[np.intp], ranks: FloatArray, limit: int
) -> tuple[npt.NDArray[np.intp], FloatArray]:
    """The rows of ``found`` (with their ``ranks``) that can be among the ``limit`` best by
    (rank, rowid): those ranked at or better than the ``limit``-th best rank, ties at the cut
    included (the row id orders them). Sorting only these gives the same first ``limit``
    rows as sorting every matching row, at a fraction of the cost: a 10k bench search
    matches ~1,500 rows (a feedback search up to ~9,000) for 50 or 200 kept, and the full
    two-key sort of them took 0.27-0.47 ms mean per search, this 0.09-0.12 (docs/latency.md,
    session 36)."""
    if not 0 < limit < ranks.shape[0]:
        return found, ranks
    keep = ranks <= np.partition(ranks, limit - 1)[limit - 1]
    return found[keep], ranks[keep]


def match_words(match: str) -> list[str] | None:
    """The quoted words of a read-path MATCH expression, or None for any other syntax."""
    if not _MATCH.fullmatch(match):
        return None
    return _WORD.findall(match)


class Tokenizer:
    """FTS5's own tokenisation (a private in-memory FTS5 table with ``evidence_fts``'s
    columns and tokenizer): a row's tokens by column and its size, or a word's tokens.

    SQLite is the same library as the store's, so the tokens are the ones FTS5 indexes.
    """

    def __init__(self) -> None:
        self._conn = sqlite3.connect(":memory:", check_same_thread=False, isolation_level=None)
        cols = ", ".join(f"{c} UNINDEXED" if c in ("id", "space") else c for c in COLUMNS)
        self._conn.execute(f"CREATE VIRTUAL TABLE tok USING fts5({cols}, tokenize='porter unicode61')")
        self._conn.execute("CREATE VIRTUAL TABLE tokv USING fts5vocab('tok', 'instance')")
        self._lock = threading.Lock()
        self._words: dict[str, tuple[str, ...]] = {}

    def word(self, word: str) -> tuple[str, ...]:
        """The tokens FTS5 makes of one quoted word (cached; a phrase if several)."""
        with self._lock:
            found = self._words.get(word)
            if found is None:
                self._conn.execute("INSERT INTO tok(rowid, text) VALUES (1, ?)", (word,))
                found = tuple(r[0] for r in self._conn.execute("SELECT term FROM tokv ORDER BY col, offset"))
                self._conn.execute("DELETE FROM tok")
                if len(self._words) > 100_000:
                    self._words.clear()
                self._words[word] = found
            return found

    def rows(
        self, rows: Sequence[tuple[object, ...]]
    ) -> tuple[Sequence[str], Sequence[int], Sequence[int], dict[int, int]]:
        """Rows (rowid and the eight columns) tokenised: per token instance its term, row id
        and column index; and each row's size (``*_docsize``)."""
        with self._lock:
            marks = ",".join("?" * (len(COLUMNS) + 1))
            self._conn.execute("BEGIN")
            try:
                self._conn.executemany(f"INSERT INTO tok(rowid, {', '.join(COLUMNS)}) VALUES ({marks})", rows)  # noqa: S608
                found = self._conn.execute(f"SELECT term, doc, {_COLUMN_INDEX} FROM tokv").fetchall()  # noqa: S608
                sizes = {d: sum(varints(sz)) for d, sz in self._conn.execute("SELECT id, sz FROM tok_docsize")}
            finally:
                self._conn.execute("ROLLBACK")
        if not found:
            return [], [], [], sizes
        terms, docs, cols = zip(*found, strict=True)
        return terms, docs, cols, sizes


def _frequencies(
    term: npt.NDArray[np.int64], doc: npt.NDArray[np.int64], col: npt.NDArray[np.int64], weights: Sequence[float]
) -> tuple[IntArray, IntArray, FloatArray]:
    """Per (term, row) pair, sorted: its weighted frequency as FTS5 sums it (each instance
    adds its column's weight, columns in order; within a column the weight is the same)."""
    ncol = len(weights)
    stride = int(doc.max()) + 1 if doc.size else 1
    keys, counts = np.unique((term * stride + doc) * ncol + col, return_counts=True)
    pair, column = keys // ncol, keys % ncol
    pairs, inverse = np.unique(pair, return_inverse=True)
    freq = np.zeros(pairs.shape[0])
    for c in range(ncol):
        in_col = column == c
        for k in range(int(counts[in_col].max()) if in_col.any() else 0):
            at = inverse[in_col & (counts > k)]
            freq[at] = freq[at] + weights[c]
    return pairs // stride, pairs % stride, freq


@dataclass
class _Change:
    """One committed transaction's writes: the version before and after, the rows touched
    (their final contents: absent = deleted), the evidence rows' spaces, the totals."""

    before: Version
    after: Version
    rows: dict[int, tuple[object, ...] | None]
    owners: dict[int, str]
    averages: list[int]


@dataclass
class _State:
    """The index of one version of the table."""

    version: Version
    weights: tuple[float, ...]
    rows: int = 0
    tokens: int = 0
    codes: dict[str, int] = field(default_factory=dict)
    docs: list[Int32Array] = field(default_factory=list)
    freq: list[FloatArray] = field(default_factory=list)
    delta: dict[int, dict[int, float | None]] = field(default_factory=dict)
    row_terms: dict[int, Int32Array] = field(default_factory=dict)
    sizes: FloatArray = field(default_factory=lambda: np.zeros(1))
    space: npt.NDArray[np.int64] = field(default_factory=lambda: np.full(1, -1, dtype=np.int64))
    spaces: dict[str, int] = field(default_factory=dict)

    @property
    def avgdl(self) -> float:
        return float(self.tokens) / float(self.rows) if self.rows else 0.0

    def grow(self, top: int) -> None:
        """Room for rowid ``top`` in the per-row arrays."""
        if top >= self.sizes.shape[0]:
            size = max(top + 1, self.sizes.shape[0] * 2)
            self.sizes = np.concatenate([self.sizes, np.zeros(size - self.sizes.shape[0])])
            self.space = np.concatenate([self.space, np.full(size - self.space.shape[0], -1, dtype=np.int64)])

    def code(self, term: str) -> int:
        found = self.codes.get(term)
        if found is None:
            found = self.codes[term] = len(self.docs)
            self.docs.append(np.zeros(0, dtype=np.int32))
            self.freq.append(np.zeros(0))
        return found

    def posting(self, term: str) -> tuple[Int32Array, FloatArray]:
        """The rows holding ``term`` and their weighted frequencies (pending changes merged)."""
        code = self.codes.get(term)
        if code is None:
            return np.zeros(0, dtype=np.int32), np.zeros(0)
        self.merge(code)
        return self.docs[code], self.freq[code]

    def merge(self, code: int) -> None:
        """Fold a term's pending changes into its arrays (on its next search, or once they
        are many: a term no search asks for, a stopword, would otherwise gather them all)."""
        pending = self.delta.pop(code, None)
        if pending:
            docs, freq = self.docs[code], self.freq[code]
            keep = ~np.isin(docs, np.fromiter(pending, np.int32, len(pending)))
            added = [(d, f) for d, f in pending.items() if f is not None]
            self.docs[code] = np.concatenate([docs[keep], np.array([d for d, _ in added], dtype=np.int32)])
            self.freq[code] = np.concatenate([freq[keep], np.array([f for _, f in added], dtype=np.float64)])

    def prune(self) -> int:
        """Fold every pending change and forget the terms no row holds any more (an erased
        turn's words: a term's slot stays, empty, until the next build). Returns how many
        terms were forgotten. Cost: the pending terms' postings and one pass over the terms."""
        for code in list(self.delta):
            self.merge(code)
        empty = [term for term, code in self.codes.items() if not self.docs[code].shape[0]]
        for term in empty:
            del self.codes[term]
        return len(empty)

    def apply(self, change: _Change, tokenizer: Tokenizer) -> None:
        """Bring the index from ``change.before`` to ``change.after``. Grouped by term
        (a Level 0 batch of 500 turns rewrites ~2,000 rows, ~10^5 (term, row) pairs)."""
        if change.rows and max(change.rows) >= 2**31 - 1:
            raise ValueError("row ids beyond 32 bits: left to FTS5")
        touched: set[int] = set()
        gone = [(rowid, self.row_terms.pop(rowid)) for rowid in change.rows if rowid in self.row_terms]
        if gone:
            codes = np.concatenate([held for _, held in gone]).astype(np.int64)
            owners = np.repeat(np.array([rowid for rowid, _ in gone], dtype=np.int64), [held.shape[0] for _, held in gone])
            order = np.argsort(codes, kind="stable")
            for code, rowids in _split(codes[order], owners[order]):
                self.delta.setdefault(code, {}).update(dict.fromkeys(rowids.tolist()))
                touched.add(code)
        for rowid in change.rows:
            if rowid < self.sizes.shape[0]:
                self.sizes[rowid] = 0.0
                self.space[rowid] = -1
        present = [(rowid, *values) for rowid, values in change.rows.items() if values is not None]
        terms, docs, cols, sizes = tokenizer.rows(present) if present else ([], [], [], {})
        if terms:
            known = self.codes
            codes = np.array([known[t] if t in known else self.code(t) for t in terms], dtype=np.int64)
            term, rowids, freq = _frequencies(codes, np.array(docs, dtype=np.int64), np.array(cols, dtype=np.int64), self.weights)
            for code, at in _split(term, np.arange(term.shape[0], dtype=np.int64)):
                span = slice(int(at[0]), int(at[-1]) + 1)
                self.delta.setdefault(code, {}).update(zip(rowids[span].tolist(), freq[span].tolist(), strict=True))
                touched.add(code)
            order = np.argsort(rowids, kind="stable")
            for rowid, held in _split(rowids[order], term[order]):
                self.row_terms[rowid] = held.astype(np.int32)
        for rowid, size in sizes.items():
            self.grow(rowid)
            self.sizes[rowid] = float(size)
        for rowid, space in change.owners.items():
            self.grow(rowid)
            self.space[rowid] = self.spaces.setdefault(space, len(self.spaces))
        for code in touched:
            if len(self.delta.get(code, ())) > max(_MERGE_AT, self.docs[code].shape[0] // 4):
                self.merge(code)
        self.rows, self.tokens = change.averages[0], sum(change.averages[1:])
        self.version = change.after


def _split(keys: IntArray, values: IntArray) -> Iterable[tuple[int, IntArray]]:
    """Runs of equal ``keys`` (sorted) with their values."""
    if not keys.size:
        return []
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    bounds = [*starts.tolist(), int(keys.shape[0])]
    return [(int(keys[bounds[i]]), values[bounds[i] : bounds[i + 1]]) for i in range(len(starts))]


@functools.cache
def _version_sql(table: str) -> str:
    """The query of an FTS5 table's version: its averages (``*_data`` id 1) and structure (id 10) records."""
    return f"SELECT id, block FROM {table}_data WHERE id IN (1, 10) ORDER BY id"  # noqa: S608


def read_version(conn: sqlite3.Connection, table: str = TABLE) -> Version:
    """An FTS5 table's version as ``conn`` sees it: its averages and structure records."""
    blocks = dict(conn.execute(_version_sql(table)).fetchall())
    return bytes(blocks.get(1, b"")), bytes(blocks.get(10, b""))


def read_sizes(conn: sqlite3.Connection, table: str) -> FloatArray:
    """Each row's token count over every column (``*_docsize``), by row id; row ids beyond 32
    bits are refused (the caller leaves the table to FTS5)."""
    top = int(conn.execute(f"SELECT coalesce(max(id), 0) FROM {table}_docsize").fetchone()[0])  # noqa: S608
    if top >= 2**31 - 1:
        raise ValueError("row ids beyond 32 bits: left to FTS5")
    sizes = np.zeros(top + 1)
    for rowid, blob in conn.execute(f"SELECT id, sz FROM {table}_docsize"):  # noqa: S608
        sizes[rowid] = float(sum(varints(blob)))
    return sizes


def read_postings(
    conn: sqlite3.Connection, table: str, columns: Sequence[str], weights: Sequence[float], code: Callable[[str], int]
) -> tuple[IntArray, IntArray, FloatArray]:
    """Every (term code, row id) pair of an FTS5 table with its weighted frequency, sorted by
    term then row (``_frequencies``), read from FTS5's own index (``fts5vocab`` 'instance');
    ``code`` numbers the terms. Read in chunks into compact arrays: 100k turns are ~5M token
    instances, which as Python lists of ints held ~300 MB at the peak."""
    conn.execute(f"CREATE VIRTUAL TABLE IF NOT EXISTS temp.{table}_instance USING fts5vocab(main, '{table}', 'instance')")
    column = {c: i for i, c in enumerate(columns)}
    terms: list[npt.NDArray[np.int32]] = []
    docs: list[npt.NDArray[np.int32]] = []
    cols: list[npt.NDArray[np.int8]] = []
    cursor = conn.execute(f"SELECT term, doc, col FROM temp.{table}_instance")  # noqa: S608
    while chunk := cursor.fetchmany(65536):
        terms.append(np.fromiter((code(t) for t, _, _ in chunk), np.int32, len(chunk)))
        docs.append(np.fromiter((d for _, d, _ in chunk), np.int32, len(chunk)))
        cols.append(np.fromiter((column[c] for _, _, c in chunk), np.int8, len(chunk)))
    if not terms:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, np.zeros(0)
    return _frequencies(
        np.concatenate(terms).astype(np.int64), np.concatenate(docs).astype(np.int64),
        np.concatenate(cols).astype(np.int64), weights,
    )  # fmt: skip


def postings_by_term(term: IntArray, doc: IntArray, freq: FloatArray) -> Iterator[tuple[int, Int32Array, FloatArray]]:
    """``read_postings``' pairs as one posting per term: its code, rows and frequencies."""
    for code, held in _split(term, np.arange(term.shape[0], dtype=np.int64)):
        yield code, doc[held[0] : held[-1] + 1].astype(np.int32), freq[held[0] : held[-1] + 1].copy()


def build(conn: sqlite3.Connection, weights: Sequence[float]) -> _State:
    """The index of the table as ``conn`` sees it (call inside one read transaction)."""
    state = _State(version=read_version(conn), weights=tuple(weights))
    averages = varints(state.version[0])
    state.rows, state.tokens = (averages[0], sum(averages[1:])) if averages else (0, 0)
    sizes = read_sizes(conn, TABLE)
    state.grow(sizes.shape[0] - 1)
    state.sizes[: sizes.shape[0]] = sizes
    for rowid, space in conn.execute("SELECT rowid, space FROM evidence"):
        state.grow(rowid)
        state.space[rowid] = state.spaces.setdefault(space, len(state.spaces))
    t, d, f = read_postings(conn, TABLE, COLUMNS, weights, state.code)
    for code, rows, freq in postings_by_term(t, d, f):
        state.docs[code], state.freq[code] = rows, freq
    order = np.argsort(d, kind="stable")
    for rowid, held in _split(d[order], t[order]):
        state.row_terms[rowid] = held.astype(np.int32)
    return state


# Each writing connection's index, by the connection's id (``note_written`` finds it from the
# connection a store's write function holds; a connection cannot be weakly referenced, its
# index can, and the index holds the connection, so an id is not reused while listed).
_TRACKERS: weakref.WeakValueDictionary[int, Bm25Index] = weakref.WeakValueDictionary()


def note_written(conn: sqlite3.Connection, rowids: Iterable[int]) -> None:
    """Tell the index that ``evidence_fts`` rows ``rowids`` are about to be deleted or
    (re)written in ``conn``'s transaction. Call before the write. A no-op when no index
    tracks ``conn`` (workers, the FTS5-only setting)."""
    index = _TRACKERS.get(id(conn))
    if index is not None and index.writer is conn:
        index.written(conn, rowids)


class Bm25Index:
    """The in-memory bm25 index of ``evidence_fts`` for one database (see module docstring)."""

    def __init__(self, db: SqliteDatabase, weights: Sequence[float]) -> None:
        self._db = db
        self._weights = tuple(weights)
        self._tokenizer = Tokenizer()
        self._lock = threading.Lock()
        self._state: _State | None = None
        self._building = False
        self._queue: list[_Change] = []
        self._checking = False
        # Set by ``close``: no build or check starts after it, and it waits for those running
        # (they read the database file; one still running after close could recreate the
        # WAL's side files in a directory its owner is deleting). The running build's
        # connection, which close interrupts.
        self._closed = False
        self._threads: set[threading.Thread] = set()
        self._build_conn: sqlite3.Connection | None = None
        self.builds = 0  # how many builds finished (tests and benches wait on it)
        self.answered = 0  # searches ranked here, and sent to FTS5 (benches report both)
        self.fell_back = 0
        # The open transaction's writes (writer thread only): version before, data_version, rows.
        self._pending: tuple[Version, int, set[int]] | None = None
        self._ready = threading.Event()
        # Set by a ``scrub`` that found a build running: the build's snapshot may predate
        # the erasure, so the build prunes once it has applied the erasure's change.
        self._prune_when_built = False
        self.writer = db.writer
        _TRACKERS[id(db.writer)] = self
        # Committed changes not yet applied, in commit order (``_committed``, ``catch_up``);
        # None for one that could not be read. A deque's appends and pops are atomic: a
        # commit queues its change without the index's lock, which an apply may hold.
        # ``_applying``: one thread applies at a time (only it pops).
        self._unapplied: collections.deque[_Change | None] = collections.deque()
        self._applying = threading.Lock()
        db.add_commit_hook(self._committed, self._rolled_back)
        db.add_release_hook(self.catch_up)
        self.rebuild()

    # -- writes --------------------------------------------------------------------------
    def written(self, conn: sqlite3.Connection, rowids: Iterable[int]) -> None:
        """Record rows about to be written in the open transaction (first call: the version
        before it, and SQLite's data_version, to prove no other connection commits between
        this transaction and the version read after it)."""
        if self._pending is None:
            data_version = conn.execute("PRAGMA data_version").fetchone()[0]
            self._pending = (read_version(conn), int(data_version), set())
        self._pending[2].update(rowids)

    def _rolled_back(self) -> None:
        self._pending = None

    def _committed(self, conn: sqlite3.Connection) -> None:
        """After COMMIT, still holding the writing connection: read the touched rows'
        final contents and the new version in one read transaction, and queue the change;
        it is applied once the connection is let go (``catch_up``), so the next writer does
        not wait for the tokenising (measured: over half of a group commit's hold)."""
        pending, self._pending = self._pending, None
        if pending is None:
            return
        before, data_version, touched = pending
        try:
            change = self._read_change(conn, before, data_version, sorted(touched))
        except Exception:  # the index must never fail a write: FTS5 answers, rebuilt later
            log.exception("keyword index: reading a committed change failed; rebuilding")
            change = None
        self._unapplied.append(change)  # in commit order (the writing connection is held)

    def catch_up(self, *, wait: bool = True) -> None:
        """Apply the committed changes queued so far, oldest first (the writing thread, once
        it lets the connection go, before its write returns; a search that finds the index
        behind). One thread applies at a time; with ``wait`` off, a caller that finds
        another applying returns at once (a search then asks FTS5 rather than wait)."""
        if not self._applying.acquire(blocking=wait):
            return
        try:
            while self._unapplied:
                self._apply(self._unapplied.popleft())
        finally:
            self._applying.release()

    def scrub(self) -> None:
        """After an erasure (``SqliteErasureStore.scrub``): apply what it committed and forget
        the terms it left without a row, so that no erased word stays in this copy either
        (``_State.prune``). A build running meanwhile may have read its snapshot before the
        erasure committed: it prunes when it ends, after applying the erasure's change."""
        self.catch_up()
        with self._lock:
            if self._state is not None:
                self._state.prune()
            elif self._building:
                self._prune_when_built = True

    def terms(self) -> set[str]:
        """The terms the index holds (tests: an erasure leaves none of the erased words)."""
        with self._lock:
            return set(self._state.codes) if self._state is not None else set()

    def _apply(self, change: _Change | None) -> None:
        """Bring the index over one committed change (None: one that could not be read),
        or rebuild it when the change does not start from the index's version."""
        with self._lock:
            if change is None:
                self._state = None
            elif self._building:
                self._queue.append(change)
                return
            elif self._state is not None and self._state.version == change.after:
                return  # a build's snapshot already held it
            elif self._state is not None and self._state.version == change.before:
                try:
                    self._state.apply(change, self._tokenizer)
                    return
                except Exception:
                    log.exception("keyword index: applying a change failed; rebuilding")
                    self._state = None
            else:
                self._state = None
        self.rebuild()

    def _read_change(self, conn: sqlite3.Connection, before: Version, data_version: int, rowids: list[int]) -> _Change | None:
        conn.execute("BEGIN")
        try:
            after = read_version(conn)
            rows: dict[int, tuple[object, ...] | None] = dict.fromkeys(rowids)
            owners: dict[int, str] = {}
            for chunk in range(0, len(rowids), 500):
                part = rowids[chunk : chunk + 500]
                marks = ",".join("?" * len(part))
                for row in conn.execute(f"SELECT id, c0, c1, c2, c3, c4, c5, c6, c7 FROM {TABLE}_content WHERE id IN ({marks})", part):  # noqa: S608
                    rows[row[0]] = tuple(row[1:])
                for row in conn.execute(f"SELECT rowid, space FROM evidence WHERE rowid IN ({marks})", part):  # noqa: S608
                    owners[row[0]] = row[1]
            same = conn.execute("PRAGMA data_version").fetchone()[0] == data_version
        finally:
            conn.execute("COMMIT")
        if not same:  # another connection committed since this transaction began
            return None
        return _Change(before, after, rows, owners, varints(after[0]))

    # -- builds --------------------------------------------------------------------------
    def rebuild(self) -> None:
        """Build the index again in a background thread (FTS5 answers until it is ready)."""
        with self._lock:
            if self._building or self._closed:
                return
            self._building, self._queue, self._state = True, [], None
            self._ready.clear()
            self._start(self._build, "eywa-bm25-build")

    def _start(self, target: Callable[[], None], name: str) -> None:
        """Run ``target`` in a daemon thread that ``close`` waits for (lock held)."""

        def run() -> None:
            try:
                target()
            finally:
                with self._lock:
                    self._threads.discard(thread)

        thread = threading.Thread(target=run, name=name, daemon=True)
        self._threads.add(thread)
        thread.start()

    def close(self) -> None:
        """Stop building and checking before the database closes: a running build's read
        is interrupted, and close returns once no thread of this index is left (searches
        after it go to FTS5, whose database is closed too)."""
        with self._lock:
            self._closed = True
            threads = list(self._threads)
        deadline = time.monotonic() + _CLOSE_WAIT_S
        for thread in threads:
            # Again and again: an interrupt between two statements is lost (SQLite's
            # ``sqlite3_interrupt`` stops only the statements running when it is called).
            while thread.is_alive() and time.monotonic() < deadline:
                with self._lock:
                    if self._build_conn is not None:
                        self._build_conn.interrupt()
                thread.join(0.05)
            if thread.is_alive():
                log.warning("keyword index: %s still running %.0f s after close", thread.name, _CLOSE_WAIT_S)

    def _build(self) -> None:
        state: _State | None = None
        try:
            if self._closed:
                raise ClosedError("keyword index")
            # Its own read-only connection (``mode=ro``; not ``query_only``, which would also
            # refuse the TEMP ``fts5vocab`` table), one read transaction for the whole build.
            conn = sqlite3.connect(f"{self._db.path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
            try:
                with self._lock:
                    closed = self._closed
                    self._build_conn = None if closed else conn
                if not closed:
                    conn.execute("BEGIN")
                    state = build(conn, self._weights)
            finally:
                with self._lock:
                    self._build_conn = None
                conn.close()
        except Exception:  # a closed database, a failed read: FTS5 keeps answering
            if not self._closed:  # interrupted by close: nothing to report
                log.warning("keyword index: build failed; FTS5 answers", exc_info=True)
        with self._lock:
            queue, self._queue, self._building = self._queue, [], False
            prune, self._prune_when_built = self._prune_when_built, False
            applied = False
            for change in queue:
                if state is None:
                    break
                if state.version == change.before:
                    state.apply(change, self._tokenizer)
                    applied = True
                elif applied:  # a gap: a change this process did not see
                    state = None
            if prune and state is not None:
                state.prune()
            self._state = state
            self.builds += 1
            self._ready.set()

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Wait for the current build to finish (benches, tests); whether one is ready."""
        self._ready.wait(timeout)
        with self._lock:
            return self._state is not None

    # -- searches ------------------------------------------------------------------------
    def ranked(self, space: str, match: str, limit: int) -> list[tuple[str, float]] | None:
        """(id, bm25) best first, exactly FTS5's filtered plan, or None when the index
        cannot answer (not built, another version, a phrase, other syntax)."""
        return self.named(space, self.ranked_rows(space, match, limit))

    def ranked_rows(self, space: str, match: str, limit: int) -> list[tuple[int, float]] | None:
        """``ranked`` as (row id, bm25), before the rows' ids are read (``named``), or None
        when the index cannot answer (counted as sent to FTS5). A caller that keeps only
        some of the rows (the keyword index's search of both kinds, cut to ``limit`` once
        merged) names only those."""
        found = self._rank(space, match, limit)
        if found is None:
            self.fell_back += 1
        return found

    def named(self, space: str, found: Sequence[tuple[int, float]] | None) -> list[tuple[str, float]] | None:
        """(id, bm25) of ``ranked_rows``' rows ``found``, in their order, or None when one of
        them is no turn of ``space`` (or ``found`` is None: the index could not answer).

        The rows' ids and spaces are read from ``evidence`` itself, as FTS5's plans read them
        (a row id per result, on the primary key): a turn gone behind the FTS table's back
        sends the search to FTS5. FTS5's filtered plan leaves such a row out and ranks the
        next one in its place, so a prefix of its rows without one is FTS5's own prefix."""
        if found is None:
            return None
        marks = ",".join("?" * len(found))
        owners = {
            row[0]: (row[1], row[2])
            for row in self._db.tuples(
                f"SELECT rowid, id, space FROM evidence WHERE rowid IN ({marks})",  # noqa: S608 - marks only
                [rowid for rowid, _ in found],
            )
        } if found else {}  # fmt: skip
        if all(owners.get(rowid, ("", None))[1] == space for rowid, _ in found):
            self.answered += 1
            return [(owners[rowid][0], score) for rowid, score in found]
        self.fell_back += 1
        return None

    def _rank(self, space: str, match: str, limit: int) -> list[tuple[int, float]] | None:
        """(rowid, bm25) from the index if it can answer ``match`` and is of the version
        this thread's connection reads; else None (and, for another version, a check)."""
        words = match_words(match)
        if words is None or self._state is None:
            return None
        terms = [self._tokenizer.word(w) for w in words]
        if any(len(t) != 1 for t in terms):
            return None
        version = read_version_db(self._db)
        for attempt in range(2):
            with self._lock:
                state = self._state
                if state is not None and state.version == version:
                    code = state.spaces.get(space)
                    if code is None:
                        return []
                    postings = [state.posting(t[0]) for t in terms]
                    return rank(postings, state.sizes, state.rows, state.avgdl, state.space == code, limit)
                behind = bool(self._unapplied)
            if not behind or attempt:
                break
            self.catch_up(wait=False)  # committed but not applied yet: apply, unless another thread is
        if state is not None:
            self._check_soon()
        return None

    def _check_soon(self) -> None:
        """A search saw another version: a reader on an older or newer snapshot than the
        index, or a write the index did not see. Holding the writing connection and with
        every change this process committed applied (``catch_up``), compare again; rebuild
        if the index is behind."""
        with self._lock:
            if self._checking or self._building or self._closed:
                return
            self._checking = True
            self._start(self._check, "eywa-bm25-check")

    def _check(self) -> None:
        try:
            with self._db.locked():
                self.catch_up()  # what this process committed is applied: only another write is behind
                current = read_version_db(self._db)
                with self._lock:
                    behind = self._state is not None and self._state.version != current
            if behind:
                self.rebuild()
        except Exception:
            log.debug("keyword index: check failed", exc_info=True)
        finally:
            with self._lock:
                self._checking = False


def read_version_db(db: SqliteDatabase, table: str = TABLE) -> Version:
    """An FTS5 table's version through ``db``'s connection for this thread: read once per
    committed state of the database (``SqliteDatabase.kept``: a recall's keyword searches,
    speakers and belief searches each ask, and asked three or four reads of ~50 us each in a
    recall's cold caches at 10k before a snapshot's reads shared one; recalls with no write
    between them now share it too)."""

    def read() -> Version:
        blocks = {row[0]: row[1] for row in db.tuples(_version_sql(table))}
        return bytes(blocks.get(1, b"")), bytes(blocks.get(10, b""))

    return db.kept(("fts version", table), read)

