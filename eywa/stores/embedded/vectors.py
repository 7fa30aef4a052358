"""Vectors in-process: one Qdrant Edge shard per item kind, every point tagged with its space.

Qdrant Edge is Qdrant's own segment engine (HNSW, payload indexes, WAL) linked into the
process, so the embedded store searches with the same machinery as the Qdrant server
instead of a brute-force Python fallback.

Layout: ``<directory>/<kind>/`` holds the shard of ``kind`` (evidence, belief, entity).
Qdrant point ids must be integers or UUIDs while Eywa's ids are strings (``ev_…``), so a
point's id is ``uuid5`` of the domain id (deterministic: re-upserting replaces) and the
domain id travels in the payload as ``doc_id``. ``space`` has a tenant keyword index and
``at`` (epoch seconds) a float index, so filtered search stays selective; ``embedder`` (the
stamp of the embedder that made a point, ``eywa.stores.vector_points``) a keyword index.

Durability: an ``upsert`` is in the shard's write-ahead log when it returns, and a process
killed after that loses none of it (the next load replays the log; a test kills one). The
segments are flushed to disk at most every ``FLUSH_EVERY_S`` per shard and on close, not after
every upsert: qdrant_edge holds the GIL through a flush's fsync (tens of ms on a busy disk),
so a flush per upsert stalled every other thread of the process (an API's requests) that
often. Like SQLite's ``synchronous=NORMAL`` beside it, what the kernel had not written
when the machine itself lost power may be lost; a deletion (erasure) is still flushed at once.

Sole-space shards: a search filters on ``space`` and ``embedder`` so that it never sees
another space's or another embedder's points; in the usual embedded directory every point
of a shard is of one space and carries the store's stamp, and the filter then selects every
point while costing its checks (10k turns: a 150-hit evidence search 5.5 against 4.1 ms of
CPU with the space condition alone, 2.8-3.0 with none; the same hits and scores). So the
store keeps, per kind, the one space every point is of when each also carries its stamp
(``_sole``: read once at open, kept by ``upsert``), and a search of that space runs without
those two conditions (the time condition stays). A point that breaks it (another space,
written in this process: the directory is locked to one) clears it before it is written;
only a reopen finds a shard sole again.

HNSW: no index is built by itself. ``build_index`` gives a shard's segments an HNSW graph
(m 16, ef_construct 100, Qdrant's defaults) when they hold at least ``threshold`` points
(``INDEXING_THRESHOLD_KB`` of vectors: 6,667 of 384 dimensions); a search then walks the graph
with ``HNSW_EF`` candidates instead of scanning every point (unless its filter leaves fewer
than that many: those are scanned exactly). Measured on the 100k-turn
benchmark store (docs/latency.md): a 50-hit evidence search 11-14 ms exact, 0.7-1.1 ms
indexed, the same hits; but the build of its 100,000 evidence points took 20-45 s and
qdrant_edge holds the GIL throughout, so no other thread of the process (a search, an
upsert, an API request) runs until it ends. That is why it is an operator's explicit step
(``Memory.index_vectors``, ``eywa index-vectors``) and never a side effect of an upsert or
of the background thread. Points written after a build land in a plain appendable segment
and are searched exactly (with the graph of the rest) until a build finds at least ``threshold``
of them in their segment (fewer stay plain: their segment is below the threshold).

Doc ids in memory: a search that reads its hits' payload (``doc_id`` and ``at``) from Qdrant
Edge costs ~4 us per hit, holding the interpreter (10k turns: a 66-hit evidence search 0.63-0.88
against 0.37 ms wall with point ids alone, the 166 hits of the person route 0.74-0.81 against
0.41): a recall's three searches spent ~0.9 ms reading payloads. So the store keeps, per kind,
each point's ``doc_id`` and ``at`` by point id (``_docs``: read from every point in pages in a
background thread after open, kept by ``upsert`` and ``delete``, the only writers of a shard
besides ``compact``, which keeps ids and payloads), and once that read is done a search asks for
point ids only. A hit the map does not hold (a point written while the read ran, before its
entry) has its payload read back (``retrieve``), so a search answers exactly what the payload
search would. An entry of a deleted point left behind by the read is never looked up: searches
return live points only, and writing a point again sets its entry.

Erasure at rest: a deleted point stays in a shard's files (segments, write-ahead log) until
they are rewritten, so an erasure calls ``compact`` on each shard it touched, which copies the
live points into a fresh shard and swaps it in (``shard_rewrite``). Every call on a shard holds
its gate shared and ``compact`` holds it alone, so no upsert lands in a shard being copied and
no search meets a closed one.
"""

from __future__ import annotations

import json
import logging
import math
import shutil
import threading
import time
import uuid
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager, nullcontext, suppress
from enum import Enum
from pathlib import Path
from typing import Any, Final

import numpy as np
import numpy.typing as npt
import qdrant_edge as qe

from eywa.errors import ClosedError, EywaError, InvalidInputError, StoreError
from eywa.stores.embedded.presence import Identity, identity, what_happened
from eywa.stores.embedded.room import require_room, write_estimate
from eywa.stores.embedded.shard_rewrite import REWRITE, beside, copy_points, settle, swap_in, write_synced
from eywa.stores.vector_points import point_id as point_id  # re-exported: tests and callers use it
from eywa.stores.vector_points import (
    SEARCH_PAYLOAD,
    best_rows,
    fetched,
    kind_entry,
    point_payload,
    point_vector,
    query_vector,
    scored_ids,
)
from eywa.stores.vectors import VECTOR_KINDS, ShardIndex, VectorKind, VectorPoint, VectorQuery, other_width

_BACKEND = "qdrant-edge"
_RESERVED = ("doc_id", "space", "at")
INDEXING_THRESHOLD_KB: Final = 10_000
"""Qdrant's default: a segment whose vectors take more (6,667 points of 384 float32
dimensions) gets an HNSW graph from ``build_index``; a smaller one stays plain. Also the
full-scan threshold: a search whose segment, or whose filter's estimated matches, holds
fewer vectors than that scans them exactly even in an indexed segment (so a space of a
few thousand turns in a shared shard is always searched exactly)."""
HNSW_M: Final = 16
HNSW_EF_CONSTRUCT: Final = 100
"""The graph's edges per point and build candidates: Qdrant's defaults."""
HNSW_EF: Final = 256
"""Candidates an HNSW search keeps (Qdrant's default is ef_construct, 100). On the 100k-turn
benchmark store's 100 queries, against exact search: 50 hits 99.9% the same ids at 100,
100% at 256 (99 of 100 lists identical), 150 hits 99.5% and 100%, for 0.3 ms more."""
SEARCH_THREADS: Final = 1
"""Threads of a shard's search pool (Qdrant Edge's default: one per CPU). With one, a search
runs in the thread that asks, which holds the interpreter through it either way (Qdrant Edge
does not release it); with more, that thread hands the search to a pool thread, wakes it and
sleeps until it is done, and the search meets caches warmed by another core. 10k bench store,
a 120 MB array summed before each search (the query embedding's cache eviction): the belief
shard's exact search 0.66 against 0.74 ms, the evidence shard's two-search batch 0.94 against
1.03; inside recalls, the two 0.67 / 1.02 against 0.78 / 1.10 ms (p50, load 5-6); a 100k-turn
store, HNSW-indexed: 3.2-3.9 against 5.0-5.5 ms for the evidence batch (load 7-8). The cost:
the segments of one shard are searched one after the other rather than side by side, which
an exact scan of a large shard of several segments (a bulk load before ``eywa index-vectors``)
may miss where a core is free (100k evidence points in two segments, exact: 39 ms either way
at load 8, 25 once with the default pool); loading a shard's segments at open is sequential
too. Qdrant Edge writes it into the shard's ``edge_config.json`` at open; a release
that does not set it then opens the shard with it too, and its hits are the same either way."""
FLUSH_EVERY_S = 5.0
"""The longest a shard's upserts stay in its write-ahead log only (see the module docstring)."""


_SEARCH_PARAMS: Final = qe.SearchParams(hnsw_ef=HNSW_EF)
_DOCS_PAGE: Final = 256
"""Points per page of ``_read_docs`` (Qdrant Edge holds the interpreter for each: ~3 ms)."""


def _uuid(point: int | uuid.UUID | str) -> uuid.UUID:
    """A point id as the ``uuid.UUID`` search hits carry (every point id here is a uuid5)."""
    return point if isinstance(point, uuid.UUID) else uuid.UUID(str(point))


def _key(point: int | uuid.UUID | str) -> int:
    """A point id as ``_docs`` keys it: its uuid's integer. Looking a hit up by ``hit.id.int``
    hashes and compares a Python int in C, where a ``uuid.UUID`` key ran two Python methods
    (``__hash__``, ``__eq__``) per hit: ~300 hits a recall at 10k."""
    return _uuid(point).int


def _ranked(shard: qe.EdgeShard, hits: Sequence[Any], docs: dict[int, tuple[str, float]], limit: int) -> list[tuple[str, float]]:
    """``scored_ids`` of point-id-only ``hits``, their ``doc_id`` and ``at`` from ``docs``, or
    read back for a point it does not hold (written while it was being read); a point gone
    meanwhile is left out, as a hit without payload is. The same order as ``scored_ids``
    (score, then ``at``, then doc id), built as rows directly: a hit per loop step, with no
    payload dict made for it and read back (10k bench store: ~0.1 ms less per 166-hit search).

    Only the hits that can make the cut are looked up (``_within_cut``): the engine answers
    best first, so past the ``limit``-th hit only those tied with it can, and the
    ``TIE_MARGIN`` hits after it are mostly not (each lookup builds a ``uuid.UUID`` in
    Python from the hit's id: ~0.5 us). Should a hit of those be left out, the rest are
    looked up as before."""
    kept = _within_cut(hits, limit)
    rows = _rows(shard, hits[:kept], docs)
    if len(rows) < min(limit, len(hits)) and kept < len(hits):
        rows.extend(_rows(shard, hits[kept:], docs))
    return best_rows(rows, limit)


def _within_cut(hits: Sequence[Any], limit: int) -> int:
    """How many of ``hits`` (best first) can be among the best ``limit`` once ties are
    ordered: the first ``limit`` and those scoring as the last of them."""
    if len(hits) <= limit:
        return len(hits)
    cut = hits[limit - 1].score
    kept = limit
    while kept < len(hits) and hits[kept].score == cut:
        kept += 1
    return kept


def _rows(shard: qe.EdgeShard, hits: Sequence[Any], docs: dict[int, tuple[str, float]]) -> list[tuple[str, float, float]]:
    """(doc_id, score, at) of ``hits``: from ``docs``, or read back (see ``_ranked``)."""
    rows: list[tuple[str, float, float]] = []
    unknown = []
    for hit in hits:
        entry = docs.get(hit.id.int)
        if entry is None:
            unknown.append(hit)
        else:
            rows.append((entry[0], float(hit.score), entry[1]))
    if unknown:
        records = shard.retrieve([str(hit.id) for hit in unknown], with_payload=True, with_vector=False)
        payloads = {_key(record.id): record.payload for record in records if record.payload}
        rows.extend(
            (str(payload["doc_id"]), float(hit.score), float(payload.get("at", 0.0)))
            for hit in unknown
            if (payload := payloads.get(hit.id.int))
        )
    return rows


_TEMP_SEGMENTS: Final = "temp_segments"
_CONFIG_FILE: Final = "edge_config.json"
CORRUPT_SUFFIX: Final = ".corrupt-"
"""A damaged shard ``<kind>`` is moved to ``<kind>.corrupt-<UTC time>`` beside it."""

log = logging.getLogger(__name__)


def _width_of(path: Path) -> int | None:
    """The vector width the shard at ``path`` was created with (its ``edge_config.json``),
    or None when that file is missing or unreadable."""
    try:
        size = json.loads((path / _CONFIG_FILE).read_text(encoding="utf-8"))["vectors"][""]["size"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return size if isinstance(size, int) else None


def _unreadable(exc: BaseException) -> bool:
    """Whether ``exc`` is a failure of qdrant_edge reading a shard: its ``Exception`` (raw, or
    as the cause of ``_mapped``'s ``StoreError``), or the ``pyo3_runtime.PanicException`` (a
    ``BaseException``) a truncated bookkeeping file makes it raise ("index out of bounds");
    never an interrupt or another of Eywa's errors."""
    if isinstance(exc, StoreError):
        return exc.__cause__ is not None and _unreadable(exc.__cause__)
    if isinstance(exc, EywaError):
        return False
    return isinstance(exc, Exception) or type(exc).__name__ == "PanicException"


def _set_aside(path: Path) -> Path:
    """Move the shard directory ``path`` to ``<path>.corrupt-<UTC time>`` (a free name).

    Raises:
        OSError: the rename failed.
    """
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}{CORRUPT_SUFFIX}{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{CORRUPT_SUFFIX}{stamp}-{n}")
    path.rename(target)
    return target


def _discard_set_aside(path: Path) -> None:
    """Delete the copies of the shard at ``path`` that an open moved aside as damaged
    (``_set_aside``). They hold the vectors the shard held then, erased ones included, and no
    erasure can delete points in a shard that does not load; their items were embedded again
    from the turns when they were moved, so nothing is lost but what was there to inspect.

    Raises:
        OSError: a copy could not be deleted (``compact`` raises it as ``StoreError``; the
            erasure stays pending and deletes it when resumed).
    """
    for moved in sorted(path.parent.glob(f"{path.name}{CORRUPT_SUFFIX}*")):
        shutil.rmtree(moved)
        log.warning("vector shard %s, set aside as damaged, deleted by an erasure: it held erased vectors", moved)


class _Gate:
    """Per shard: any number of holders at once (searches, upserts, counts), or one alone (a
    rewrite swapping the shard's files, ``close``). A waiting rewrite holds off new holders, so
    a stream of searches cannot starve it; no holder takes it twice (not reentrant)."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._shared = 0
        self._alone = False
        self._waiting = 0

    @contextmanager
    def shared(self) -> Iterator[None]:
        with self._cond:
            while self._alone or self._waiting:
                self._cond.wait()
            self._shared += 1
        try:
            yield
        finally:
            with self._cond:
                self._shared -= 1
                if not self._shared:
                    self._cond.notify_all()

    @contextmanager
    def alone(self) -> Iterator[None]:
        with self._cond:
            self._waiting += 1
            try:
                while self._alone or self._shared:
                    self._cond.wait()
            finally:
                self._waiting -= 1
            self._alone = True
        try:
            yield
        finally:
            with self._cond:
                self._alone = False
                self._cond.notify_all()


class _Empty(Enum):
    """``_sole`` of a shard without points: the first space written makes it sole."""

    EMPTY = "empty"


_EMPTY: Final = _Empty.EMPTY


def _drop_unfinished_builds(path: Path) -> None:
    """Remove the segments an index build killed midway left in ``path/temp_segments``.

    The optimizer builds a graph into ``temp_segments/segment_builder_*`` and moves it into
    ``segments`` when complete; a process killed before that leaves the builder behind, and
    neither a load nor a later build removes it (20 MB for 40,000 points of 64 dimensions;
    a 100k-turn shard's is hundreds). At open no build runs: builds happen only inside
    ``build_index`` of the process that holds the directory (``eywa.stores.embedded.lock``).

    Raises:
        OSError: a leftover cannot be removed.
    """
    temp = path / _TEMP_SEGMENTS
    if temp.is_dir():
        for leftover in temp.glob("segment_builder_*"):
            shutil.rmtree(leftover)


def _index_payload(shard: qe.EdgeShard, *, stamps: bool) -> None:
    """Create the payload indexes ``shard`` lacks: ``space`` (tenant), ``at``, and ``embedder``
    when ``stamps``.

    A new shard lacks all three; a loaded one lacks ``embedder`` when written before stamps
    existed, and all three when its segments were lost (deleted or moved by hand): Qdrant
    Edge then replays its write-ahead log into a new segment without indexes, and the
    open's facet on ``space`` would fail ("no appropriate index") instead of the shard
    opening with the points it still has, which the open's count check
    (``eywa.stores.embedded.lost_vectors``) then finds short and has embedded again.

    Raises:
        Exception: Qdrant Edge failed (the caller maps it).
    """
    present = set(shard.info().payload_schema)
    wanted: list[tuple[str, qe.KeywordIndexParams | qe.FloatIndexParams]] = [
        ("space", qe.KeywordIndexParams(is_tenant=True)),
        ("at", qe.FloatIndexParams()),
    ]
    if stamps:
        wanted.append(("embedder", qe.KeywordIndexParams()))
    for field, params in wanted:
        if field not in present:
            shard.update(qe.UpdateOperation.create_field_index(field, params))


@contextmanager
def _mapped(operation: str) -> Iterator[None]:
    """Translate qdrant_edge failures into ``StoreError`` at this boundary.

    qdrant_edge raises the builtin ``Exception`` for every failure (dimension errors,
    I/O, a closed shard), so that is the only class there is to catch; Eywa's own errors
    pass through untouched.

    Raises:
        StoreError: the driver failed; its exception is chained as ``__cause__``.
    """
    try:
        yield
    except EywaError:
        raise
    except Exception as exc:  # noqa: BLE001 - the driver's only exception type, re-raised
        raise StoreError(_BACKEND, operation, str(exc)) from exc


class QdrantEdgeVectorStore:
    """The embedded ``VectorStore``: cosine search filtered by space and optionally by time.

    Example:
        >>> store = QdrantEdgeVectorStore(Path("/tmp/eywa/vectors"), dim=384)  # doctest: +SKIP
        >>> store.search("evidence", "alice", query_vector, limit=5)  # doctest: +SKIP
        [('ev_…', 0.83), …]

    Args:
        directory: Parent folder; each kind's shard lives in ``directory/<kind>``.
        dim: Vector width. An existing shard of another width is refused.
        embedder_id: Stamp written on every point; searches see only points with it
            (None: no stamp, every point searched).
        indexing_threshold_kb: Vectors (KB) a segment needs before ``build_index`` gives
            it an HNSW graph (tests lower it to index a few points).
        full_scan_threshold_kb: Below this many KB of vectors (in the segment, or passing
            the filter) a search scans instead of walking the graph (tests lower it).
        flush_every_s: An ``upsert`` flushes its shard when the last flush is older than
            this; 0 flushes after every upsert.

    Raises:
        ConfigurationError: an existing shard is of another width (another embedder's).
        StoreError: a shard cannot be created or loaded.
        InvalidInputError: ``dim`` is not positive.
    """

    def __init__(
        self,
        directory: Path,
        dim: int,
        *,
        embedder_id: str | None = None,
        indexing_threshold_kb: int = INDEXING_THRESHOLD_KB,
        full_scan_threshold_kb: int = INDEXING_THRESHOLD_KB,
        flush_every_s: float = FLUSH_EVERY_S,
    ) -> None:
        if dim < 1:
            raise InvalidInputError(f"vector dim must be positive, got {dim}")
        self._dim = dim
        self._directory = Path(directory)
        self._gates: dict[VectorKind, _Gate] = {kind: _Gate() for kind in VECTOR_KINDS}
        self._embedder_id = embedder_id
        self._indexing_threshold_kb = indexing_threshold_kb
        self._full_scan_threshold_kb = full_scan_threshold_kb
        self._flush_every_s = flush_every_s
        self._flushed_at: dict[VectorKind, float] = {kind: time.monotonic() for kind in VECTOR_KINDS}
        self._lock = threading.Lock()
        self._closed = False
        self._shards: dict[VectorKind, qe.EdgeShard] = {}
        # Per kind: the space every point is of, each with this store's stamp (a search of it
        # needs no space or embedder condition), ``_EMPTY`` for a shard without points, None
        # when mixed (see the module docstring).
        self._sole: dict[VectorKind, str | _Empty | None] = {}
        self._sole_guard = threading.Lock()
        # Per kind: point id (its uuid's integer, ``_key``) -> (doc_id, at), and whether it holds every point (see the module
        # docstring); read after open by ``_read_docs``.
        self._docs: dict[VectorKind, dict[int, tuple[str, float]]] = {kind: {} for kind in VECTOR_KINDS}
        self._docs_ready: dict[VectorKind, bool] = dict.fromkeys(VECTOR_KINDS, False)
        # Per kind: the shard directory's identity when this store opened it (``lost_shard``);
        # None while ``compact`` swaps it for its rewrite.
        self._opened_as: dict[VectorKind, Identity | None] = dict.fromkeys(VECTOR_KINDS)
        self._shard_paths = {kind: str(self._directory / kind) for kind in VECTOR_KINDS}  # stat'ed per call
        if self._directory.exists():  # loading a shard writes to its mapped files: on a full disk, SIGBUS
            require_room(self._directory, 0, "open")
        try:
            for kind in VECTOR_KINDS:
                self._shards[kind], self._sole[kind] = self._open(self._directory / kind)
                self._opened_as[kind] = self._noted(kind)
        except StoreError:
            with suppress(StoreError):  # the open failure is the error worth reporting
                self._close_shards()
            raise
        self._reader = threading.Thread(target=self._read_docs, name="eywa-vector-docs", daemon=True)
        self._reader.start()

    def _read_docs(self) -> None:
        """Read every point's ``doc_id`` and ``at`` into ``_docs``, a page at a time (Qdrant
        Edge holds the interpreter while it reads: 10k points ~0.13 s in all), each kind then
        marked ready. Entries ``upsert`` and ``delete`` wrote meanwhile are kept (``setdefault``).
        Ends quietly when the store closes; a kind whose read fails stays unready (its searches
        read payloads)."""
        for kind in VECTOR_KINDS:
            docs, offset = self._docs[kind], None
            try:
                while True:
                    with self._using(kind) as shard, _mapped("read doc ids"):
                        request = qe.ScrollRequest(offset=offset, limit=_DOCS_PAGE, with_payload=list(SEARCH_PAYLOAD), with_vector=False)
                        records, offset = shard.scroll(request)
                    for record in records:
                        if record.payload:
                            docs.setdefault(_key(record.id), (str(record.payload["doc_id"]), float(record.payload.get("at", 0.0))))
                    if offset is None:
                        break
            except ClosedError:
                return
            except Exception:  # noqa: BLE001 - searches read payloads instead
                log.warning("vector shard %s: reading its doc ids failed; its searches read payloads", kind, exc_info=True)
                continue
            self._docs_ready[kind] = True

    def docs_ready(self, timeout: float | None = None) -> bool:
        """Wait for the doc ids' read after open (benches time searches with it); whether every
        kind's is done."""
        self._reader.join(timeout)
        return all(self._docs_ready.values())

    def _open(self, path: Path) -> tuple[qe.EdgeShard, str | _Empty | None]:
        """Load the shard at ``path`` (or create it), have it answer one search, and read
        its sole space (``_sole_space``).

        A shard that cannot be loaded, or loads and fails that search, is damaged (a
        truncated or corrupt segment file: every search of it failed with ``StoreError``
        while the open went through, or the load itself refused or panicked). Its points
        are derived data, so it is moved aside to ``<kind>.corrupt-<UTC time>`` (never
        deleted: it is the operator's to inspect or remove), with a warning naming it, and
        created empty in its place; the open's count check (``lost_vectors``) then marks
        every item of that kind for embedding again. A shard of another width is not
        damaged but another embedder's: that stays refused.

        Raises:
            ConfigurationError: the shard is of another width.
            StoreError: it cannot be moved aside or created.
        """
        try:
            settle(path)  # a rewrite a crash interrupted (``shard_rewrite``)
        except OSError as exc:
            raise StoreError(_BACKEND, "open", f"cannot finish the interrupted rewrite of {path}: {exc}") from exc
        existing = path.is_dir() and any(path.iterdir())
        try:
            shard = self._load_or_create(path)
        except BaseException as exc:
            if not existing or not _unreadable(exc):  # another width: refused before the load
                raise
            return self._recreate(path, exc), _EMPTY
        try:
            self._probe(shard)
            sole = self._sole_space(shard)
        except BaseException as exc:
            try:
                shard.close()
            except BaseException as closing:  # noqa: BLE001 - a damaged shard may fail to close too
                if not _unreadable(closing):
                    raise
            if not _unreadable(exc):
                raise
            return self._recreate(path, exc), _EMPTY
        return shard, sole

    def _probe(self, shard: qe.EdgeShard) -> None:
        """One nearest-point search with the hit's ``doc_id`` (none when the shard is empty):
        what a damaged segment's vectors or payload fail. Exact on a plain segment (every
        vector read: 2.5-3 ms for 10,000 of 384 dimensions, 22-30 ms for 100,000, against
        a 120 and 350 ms open of that shard), a graph walk on an indexed one.

        Raises:
            Exception: qdrant_edge failed.
        """
        if int(shard.count(qe.CountRequest(exact=True))) == 0:
            return
        unit = [1.0 / math.sqrt(self._dim)] * self._dim
        shard.query(qe.QueryRequest(limit=1, query=qe.Query.Nearest(unit), with_payload=["doc_id"]))

    def _recreate(self, path: Path, exc: BaseException) -> qe.EdgeShard:
        """Move the damaged shard at ``path`` aside and create it empty (see ``_open``).

        Raises:
            StoreError: the move or the creation failed (the first error is the cause).
        """
        try:
            moved = _set_aside(path)
        except OSError as move:
            raise StoreError(_BACKEND, "open", f"{path} is unreadable ({exc}) and cannot be moved aside: {move}") from exc
        log.warning(
            "vector shard %s could not be read (%s); moved to %s and created empty: its items are marked for "
            "embedding again. The moved shard holds vectors of this memory's turns (the next erasure that "
            "rewrites this shard deletes it): delete it sooner once it is not needed",
            path, str(exc) or type(exc).__name__, moved,
        )  # fmt: skip
        return self._load_or_create(path)

    def _load_or_create(self, path: Path) -> qe.EdgeShard:
        """Load the shard at ``path``, or create it with its payload indexes.

        Raises:
            ConfigurationError: the shard holds vectors of another width (another embedder's).
            StoreError: qdrant_edge refused (a ``PanicException`` passes through).
        """
        config = qe.EdgeConfig(
            vectors=qe.EdgeVectorParams(size=self._dim, distance=qe.Distance.Cosine),
            optimizers=qe.EdgeOptimizersConfig(indexing_threshold=self._indexing_threshold_kb),
            max_search_threads=SEARCH_THREADS,
            hnsw_config=qe.HnswIndexConfig(
                m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=self._full_scan_threshold_kb
            ),
        )
        with _mapped("open"):
            if path.is_dir() and any(path.iterdir()):
                width = _width_of(path)
                if width is not None and width != self._dim:
                    raise other_width(f"the vector shard {path}", width, self._dim)
                _drop_unfinished_builds(path)
                shard = qe.EdgeShard.load(str(path), config)
                _index_payload(shard, stamps=self._embedder_id is not None)
                return shard
            shard = qe.EdgeShard.create(str(path), config)
            _index_payload(shard, stamps=True)
            shard.flush()
            return shard

    def _sole_space(self, shard: qe.EdgeShard) -> str | _Empty | None:
        """The one space of every point of ``shard`` when each carries this store's stamp
        (``_EMPTY`` for no point, None otherwise): two facet reads on indexed fields.

        Raises:
            StoreError: Qdrant Edge failed.
        """
        with _mapped("open"):
            total = int(shard.count(qe.CountRequest(exact=True)))
            if total == 0:
                return _EMPTY
            spaces = list(shard.facet(qe.FacetRequest("space", limit=2, exact=True)))
            if len(spaces) != 1 or spaces[0].count != total:
                return None
            if self._embedder_id is not None:
                stamps = list(shard.facet(qe.FacetRequest("embedder", limit=2, exact=True)))
                if len(stamps) != 1 or stamps[0].value != self._embedder_id or stamps[0].count != total:
                    return None
        return str(spaces[0].value)

    def _shard(self, kind: VectorKind) -> qe.EdgeShard:
        """The open shard of ``kind``.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
        """
        return kind_entry(self._shards, kind, closed=self._closed, store="QdrantEdgeVectorStore")

    @contextmanager
    def _using(self, kind: VectorKind) -> Iterator[qe.EdgeShard]:
        """The open shard of ``kind``, held shared: a rewrite (``compact``) or ``close`` waits
        until the caller is done, and the caller never sees a shard they closed.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
        """
        self._shard(kind)  # the kind checked before its gate is looked up
        with self._gates[kind].shared():
            yield self._shard(kind)

    def upsert(self, kind: VectorKind, points: Sequence[VectorPoint]) -> None:
        """Insert or replace points; in the shard's write-ahead log before returning, its
        segments flushed when the last flush is older than ``flush_every_s``.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: a vector has the wrong shape.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            if not points:
                return
            require_room(self._directory, write_estimate(len(points), self._dim), "upsert")
            records = [
                qe.Point(point_id(point.id), point_vector(point, self._dim), point_payload(point, self._embedder_id))
                for point in points
            ]
            spaces = {point.space for point in points}
            sole = self._sole[kind]
            if sole is not None and spaces != {sole} and (sole is not _EMPTY or len(spaces) > 1):
                with self._sole_guard:  # before the write, after any unfiltered search in progress
                    self._sole[kind] = None
            with _mapped("upsert"):
                shard.update(qe.UpdateOperation.upsert_points(records))
                docs = self._docs[kind]
                for point in points:
                    docs[_key(point_id(point.id))] = (point.id, float(point.at))
                if self._sole[kind] is _EMPTY:  # after the write: searches filtered until then
                    self._sole[kind] = spaces.pop()
                now = time.monotonic()
                if now - self._flushed_at[kind] >= self._flush_every_s:
                    shard.flush()
                    self._flushed_at[kind] = now

    def search(
        self,
        kind: VectorKind,
        space: str,
        vector: npt.NDArray[np.float32],
        limit: int,
        not_after: float | None = None,
    ) -> list[tuple[str, float]]:
        """(doc_id, cosine) pairs, best first, only from ``space`` (and ``at <= not_after``).

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: the query vector has the wrong shape.
            StoreError: Qdrant Edge failed.
        """
        return self.search_batch(kind, space, [(vector, limit)], not_after)[0]

    def search_batch(
        self, kind: VectorKind, space: str, queries: Sequence[VectorQuery], not_after: float | None = None
    ) -> list[list[tuple[str, float]]]:
        """What ``search`` returns for each of ``queries`` (vector, limit), in order, from one
        ``query_batch`` call when there are several: Qdrant Edge plans the batch as a whole
        and makes one pass over the segments for it. After a question's embedding has
        streamed the model's weights through the cache, the recall's two evidence searches
        (the vector route's top 50 and the person route's top 150, 10k bench store, a 120 MB
        array summed before each pair to stand in for the embedding) took 1.52 ms as one
        batch against 2.01 as two calls (one alone 1.05), with the same hits in the same order.

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: a query vector has the wrong shape.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            vectors = [query_vector(vector, self._dim) for vector, _ in queries]
            asked = [n for n, (_, limit) in enumerate(queries) if limit > 0]
            found: list[list[tuple[str, float]]] = [[] for _ in queries]
            if not asked:
                return found
            unfiltered = self._sole[kind] == space  # a sole-space shard's points all pass both
            # An unfiltered search holds the guard, so an upsert that clears ``_sole`` (say, the
            # first point of another space) waits until it has ended, and one that cleared it
            # meanwhile is seen here: no other space's point is ever searched unfiltered.
            with self._sole_guard if unfiltered else nullcontext():
                unfiltered = unfiltered and self._sole[kind] == space
                must: list[qe.ConditionType] = []
                if not unfiltered:
                    must.append(qe.FieldCondition("space", match=qe.MatchValue(space)))
                    if self._embedder_id is not None:
                        must.append(qe.FieldCondition("embedder", match=qe.MatchValue(self._embedder_id)))
                if not_after is not None:
                    must.append(qe.FieldCondition("at", range=qe.RangeFloat(lte=float(not_after))))
                docs = self._docs[kind] if self._docs_ready[kind] else None
                requests = [
                    qe.QueryRequest(
                        limit=fetched(queries[n][1]),
                        query=qe.Query.Nearest(vectors[n]),
                        filter=qe.Filter(must=must) if must else None,
                        with_payload=False if docs is not None else list(SEARCH_PAYLOAD),
                        params=_SEARCH_PARAMS,  # used by indexed segments only
                    )
                    for n in asked
                ]
                with _mapped("search"):
                    if len(requests) == 1:
                        hits = [shard.query(requests[0])]
                    else:
                        hits = shard.query_batch(qe.QueryBatchRequest(requests))
                    for n, found_hits in zip(asked, hits, strict=True):
                        limit = queries[n][1]
                        found[n] = (
                            _ranked(shard, found_hits, docs, limit) if docs is not None else scored_ids(found_hits, limit)
                        )
            return found

    def missing(self, kind: VectorKind, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` that has no point.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            if not ids:
                return set()
            by_point = {point_id(doc_id): doc_id for doc_id in ids}
            with _mapped("missing"):
                found = shard.retrieve(list(by_point), with_payload=False, with_vector=False)
            present = {str(uuid.UUID(str(record.id))) for record in found}
            return {doc_id for pid, doc_id in by_point.items() if pid not in present}

    def delete(self, kind: VectorKind, ids: Sequence[str]) -> None:
        """Remove points (erasure); flushed before returning. Unknown ids are ignored.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            if not ids:
                return
            require_room(self._directory, write_estimate(len(ids), 0), "delete")
            with _mapped("delete"):
                shard.update(qe.UpdateOperation.delete_points([point_id(doc_id) for doc_id in ids]))
                shard.flush()
                docs = self._docs[kind]
                for doc_id in ids:
                    docs.pop(_key(point_id(doc_id)), None)

    def count(self, kind: VectorKind, space: str | None = None) -> int:
        """Exact number of points of ``kind``, in ``space`` when given.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            flt = None
            if space is not None:
                flt = qe.Filter(must=[qe.FieldCondition("space", match=qe.MatchValue(space))])
            with _mapped("count"):
                return int(shard.count(qe.CountRequest(exact=True, filter=flt)))

    def index_state(self) -> tuple[ShardIndex, ...]:
        """Every kind's shard: its points, how many an HNSW graph holds, its segments.

        Raises:
            ClosedError: the store was closed.
            StoreError: Qdrant Edge failed.
        """
        states = []
        for kind in VECTOR_KINDS:
            with self._using(kind):
                states.append(self._state(kind))
        return tuple(states)

    def build_index(self, kind: VectorKind) -> ShardIndex:
        """Give ``kind``'s shard an HNSW graph (segments of ``threshold`` points or more) and
        merge its segments; returns the state after.

        Blocking, and it holds the GIL throughout (qdrant_edge does not release it): no
        other thread of this process runs meanwhile; 100,000 points of 384 dimensions took
        20-45 s on two cores and ~480 MiB more memory. Crash-safe: a process killed mid-build
        reopens with every point and answers exactly, and builds again
        (``tests/reliability/test_vector_index_crash.py``).

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
            StoreError: Qdrant Edge failed.
        """
        with self._using(kind) as shard:
            with _mapped("build_index"):
                points = int(shard.info().points_count)
                require_room(self._directory, 2 * write_estimate(points, self._dim), "build_index")  # graph and copy
                shard.optimize()
                shard.flush()  # the swapped segments on disk now, not at the next periodic flush
                self._flushed_at[kind] = time.monotonic()
            return self._state(kind)

    def compact(self, kind: VectorKind) -> int:
        """Rewrite ``kind``'s shard into fresh files holding only its live points, and delete
        the old files: what deletions left in the segments and the write-ahead log (the deleted
        points' vectors, ids and payloads) is then in no file (``shard_rewrite``; erasure at
        rest). Copies of the shard an open set aside as damaged are deleted too
        (``_discard_set_aside``). Returns the points kept.

        Every other call on this shard waits meanwhile (50,000 points of 384 dimensions: about
        2.5-3 s). The points are copied, not embedded again; the rewritten shard's segments
        have no HNSW graph (``index_state`` shows them unindexed; ``build_index`` builds it
        again). Crash-safe: an interrupted rewrite leaves a whole shard, old or new, that the
        next open settles (``tests/reliability/test_vector_rewrite_crash.py``).

        Raises:
            ClosedError: the store was closed.
            InvalidInputError: ``kind`` is not a vector kind.
            StoreError: Qdrant Edge or the filesystem failed (the shard at hand is reopened).
        """
        self._shard(kind)
        path = self._directory / kind
        rewrite = beside(path, REWRITE)
        with self._gates[kind].alone():
            shard = self._shard(kind)
            with _mapped("compact"):
                points = int(shard.info().points_count)
            require_room(self._directory, write_estimate(points, self._dim), "compact")  # the copy beside the old
            with _mapped("compact"):
                if rewrite.exists():
                    shutil.rmtree(rewrite)
                target = self._load_or_create(rewrite)
                try:
                    kept = copy_points(shard, target)
                    target.flush()
                finally:
                    target.close()
                graph = int(shard.info().indexed_vectors_count)
                write_synced(rewrite)
            self._opened_as[kind] = None  # replaced by this store: not a loss
            try:
                with _mapped("compact"):
                    shard.close()
                    swap_in(path)
            finally:  # the new shard, or the old one when the swap failed before its renames
                self._shards[kind], self._sole[kind] = self._open(path)
                self._opened_as[kind] = self._noted(kind)
                self._flushed_at[kind] = time.monotonic()
            with _mapped("compact"):  # still alone: a call waiting on the gate returns after all of it
                _discard_set_aside(path)
        if graph:
            log.info("vector shard %s rewritten without its HNSW graph (%d points had one): eywa index-vectors "
                     "builds it again", path, graph)  # fmt: skip
        return kept

    def _noted(self, kind: VectorKind) -> Identity:
        """The identity of ``kind``'s shard directory, just opened.

        Raises:
            StoreError: it cannot be stat'ed.
        """
        try:
            return identity(self._directory / kind)
        except OSError as exc:
            raise StoreError(_BACKEND, "open", f"the {kind} shard cannot be stat'ed: {exc}") from exc

    def lost_shard(self) -> str | None:
        """What happened to a shard directory since this store opened it (deleted with
        ``vectors/`` or alone, replaced, unreachable), said as "the vector store's <kind>
        shard was deleted"; None when each is still the one opened. One ``stat`` per kind
        (``presence``); a shard ``compact`` is swapping is not looked at."""
        for kind, noted in tuple(self._opened_as.items()):
            if noted is None:
                continue
            happened = what_happened(self._shard_paths[kind], noted)
            if happened is not None and self._opened_as.get(kind) == noted:  # not swapped meanwhile
                return f"the vector store's {kind} shard {happened}"
        return None

    def _state(self, kind: VectorKind) -> ShardIndex:
        shard = self._shard(kind)
        with _mapped("index_state"):
            info = shard.info()
        return ShardIndex(
            kind=kind,
            points=int(info.points_count),
            indexed=int(info.indexed_vectors_count),
            segments=int(info.segments_count),
            threshold=-(-self._indexing_threshold_kb * 1024 // (self._dim * 4)),
        )

    def close(self) -> None:
        """Flush and close every shard; later calls raise ``ClosedError``. Idempotent.

        Raises:
            StoreError: a shard failed to flush or close (all shards are still closed).
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
        with ExitStack() as held:
            for kind in VECTOR_KINDS:  # after every call in progress; later ones see ``_closed``
                held.enter_context(self._gates[kind].alone())
            self._close_shards()

    def _close_shards(self) -> None:
        """Flush and close every opened shard, reporting the first failure after trying all."""
        first: StoreError | None = None
        for kind, shard in self._shards.items():
            try:
                with _mapped("close"):
                    shard.flush()
            except StoreError as exc:  # a full disk: closed all the same, or its files stay open
                first = first or StoreError(
                    "qdrant-edge", "close",
                    f"the {kind} shard's last flush failed ({exc}); the next open counts the shards against the "
                    "ledger and embeds again what they lost",
                )  # fmt: skip
            try:
                with _mapped("close"):
                    shard.close()
            except StoreError as exc:
                first = first or exc
        if first is not None:
            raise first
