"""QdrantEdgeVectorStore: space isolation, time filter, durability, idempotence, errors."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
import qdrant_edge as qe

import eywa.stores.embedded.vectors as vectors_module
from eywa.stores.embedded import shard_rewrite
from eywa.errors import ClosedError, ConfigurationError, InvalidInputError, StoreError
from eywa.stores.embedded.vectors import QdrantEdgeVectorStore, point_id
from eywa.stores.vectors import ShardIndex, VectorPoint

DIM = 8


def unit(*values: float) -> npt.NDArray[np.float32]:
    vector = np.zeros(DIM, dtype=np.float32)
    vector[: len(values)] = values
    return vector / np.linalg.norm(vector)


def random_points(n: int, space: str, seed: int, prefix: str = "ev", dim: int = DIM) -> list[VectorPoint]:
    rng = np.random.default_rng(seed)
    return [
        VectorPoint(
            id=f"{prefix}_{space}_{i}",
            space=space,
            vector=rng.standard_normal(dim).astype(np.float32),
            at=float(i),
        )
        for i in range(n)
    ]


@pytest.fixture()
def store(tmp_path: Path) -> Iterator[QdrantEdgeVectorStore]:
    vectors = QdrantEdgeVectorStore(tmp_path / "vectors", DIM)
    yield vectors
    vectors.close()


def test_creates_one_shard_per_kind(tmp_path: Path) -> None:
    QdrantEdgeVectorStore(tmp_path, DIM).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["belief", "entity", "evidence"]


def test_search_never_crosses_spaces_even_for_the_nearest_point(
    store: QdrantEdgeVectorStore,
) -> None:
    query = unit(1, 0)
    store.upsert(
        "evidence",
        [VectorPoint("ev_a", "alice", unit(1, 0)), VectorPoint("ev_b", "bob", unit(1, 0.3))],
    )
    store.upsert("evidence", [VectorPoint("ev_b2", "bob", unit(0, 1))])
    bob = store.search("evidence", "bob", query, limit=10)
    assert [doc for doc, _ in bob] == ["ev_b", "ev_b2"]
    assert bob[0][1] > bob[1][1]
    alice = store.search("evidence", "alice", query, limit=10)
    assert [doc for doc, _ in alice] == ["ev_a"] and alice[0][1] == pytest.approx(1.0, abs=1e-5)
    assert store.search("evidence", "carol", query, limit=10) == []


def test_kinds_are_separate_collections(store: QdrantEdgeVectorStore) -> None:
    store.upsert("belief", [VectorPoint("be_1", "alice", unit(1, 0))])
    assert store.search("evidence", "alice", unit(1, 0), 5) == []
    assert store.count("belief") == 1 and store.count("evidence") == 0


def test_time_filter_keeps_points_at_or_before_the_limit(store: QdrantEdgeVectorStore) -> None:
    store.upsert(
        "evidence",
        [
            VectorPoint("ev_old", "alice", unit(1, 0.5), at=100.0),
            VectorPoint("ev_edge", "alice", unit(1, 0.2), at=200.0),
            VectorPoint("ev_new", "alice", unit(1, 0), at=300.0),
        ],
    )
    hits = store.search("evidence", "alice", unit(1, 0), 10, not_after=200.0)
    assert [doc for doc, _ in hits] == ["ev_edge", "ev_old"]
    assert [doc for doc, _ in store.search("evidence", "alice", unit(1, 0), 10)][0] == "ev_new"


def test_results_are_best_first_and_limited(store: QdrantEdgeVectorStore) -> None:
    points = random_points(50, "alice", seed=1)
    store.upsert("evidence", points)
    query = points[7].vector
    hits = store.search("evidence", "alice", query, limit=5)
    assert len(hits) == 5 and hits[0][0] == points[7].id
    scores = [score for _, score in hits]
    assert scores == sorted(scores, reverse=True)
    matrix = np.stack([p.vector / np.linalg.norm(p.vector) for p in points])
    expected = np.argsort(-(matrix @ (query / np.linalg.norm(query))))[:5]
    assert [doc for doc, _ in hits] == [points[i].id for i in expected]
    assert store.search("evidence", "alice", query, limit=0) == []


def test_reopen_after_close_sees_every_point_and_index(tmp_path: Path) -> None:
    first = QdrantEdgeVectorStore(tmp_path, DIM)
    first.upsert("evidence", random_points(30, "alice", seed=2) + random_points(20, "bob", seed=3))
    first.upsert("entity", [VectorPoint("en_1", "alice", unit(0, 1), payload={"name": "Cecilia"})])
    first.close()
    again = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        assert again.count("evidence") == 50
        assert again.count("evidence", "bob") == 20
        found = again.search("entity", "alice", unit(0, 1), 1)
        assert [doc for doc, _ in found] == ["en_1"] and found[0][1] == pytest.approx(1.0, abs=1e-5)
        assert again.missing("evidence", ["ev_alice_0", "ev_bob_19", "ev_nobody"]) == {"ev_nobody"}
    finally:
        again.close()


def test_searches_run_in_the_asking_thread(tmp_path: Path) -> None:
    """Every shard is opened with a search pool of ``SEARCH_THREADS`` (one): a search runs in
    the thread that asks instead of being handed to a pool thread (fails before: Qdrant Edge's
    default pool, one thread per CPU, and no ``max_search_threads`` in the shard's config)."""
    QdrantEdgeVectorStore(tmp_path, DIM).close()
    for kind in ("evidence", "belief", "entity"):
        config = json.loads((tmp_path / kind / "edge_config.json").read_text(encoding="utf-8"))
        assert config["max_search_threads"] == vectors_module.SEARCH_THREADS == 1


@pytest.mark.parametrize("indexed", [False, True], ids=["plain", "indexed"])
def test_a_store_written_with_the_default_search_pool_answers_the_same(tmp_path: Path, indexed: bool) -> None:
    """A store written before ``SEARCH_THREADS`` (Qdrant Edge's default pool: its shards' configs
    have no ``max_search_threads``) opens and answers every search with the same hits and scores,
    plain and HNSW-indexed, filtered by time or not."""
    points = random_points(1500, "alice", seed=4)
    queries = [p.vector for p in random_points(12, "query", seed=6)]
    threshold = 1 if indexed else vectors_module.INDEXING_THRESHOLD_KB
    plain_config = qe.EdgeConfig

    def default_pool(*args: Any, **kwargs: Any) -> qe.EdgeConfig:
        kwargs.pop("max_search_threads")
        return plain_config(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(qe, "EdgeConfig", default_pool)
        before = QdrantEdgeVectorStore(tmp_path, DIM, indexing_threshold_kb=threshold, full_scan_threshold_kb=threshold)
        before.upsert("evidence", points)
        before.upsert("belief", random_points(300, "alice", seed=5, prefix="bl"))
        if indexed:
            before.build_index("evidence")
        answers = [
            (before.search("evidence", "alice", q, 40), before.search("evidence", "alice", q, 20, not_after=700.0),
             before.search("belief", "alice", q, 30))
            for q in queries
        ]  # fmt: skip
        before.close()
    assert "max_search_threads" not in json.loads((tmp_path / "evidence" / "edge_config.json").read_text("utf-8"))
    after = QdrantEdgeVectorStore(tmp_path, DIM, indexing_threshold_kb=threshold, full_scan_threshold_kb=threshold)
    try:
        assert after.index_state()[0].indexed == (1500 if indexed else 0)
        assert [
            (after.search("evidence", "alice", q, 40), after.search("evidence", "alice", q, 20, not_after=700.0),
             after.search("belief", "alice", q, 30))
            for q in queries
        ] == answers  # fmt: skip
    finally:
        after.close()


def test_reopen_with_another_width_is_refused(tmp_path: Path) -> None:
    # Another embedder's shard: a setting to change, not a store failure to retry.
    QdrantEdgeVectorStore(tmp_path, DIM).close()
    with pytest.raises(ConfigurationError, match=rf"holds vectors of {DIM} dimensions and the embedder makes {DIM * 2}"):
        QdrantEdgeVectorStore(tmp_path, DIM * 2)
    again = QdrantEdgeVectorStore(tmp_path, DIM)  # left as it was
    again.close()


def test_missing_reports_ids_without_points_after_partial_upsert(
    store: QdrantEdgeVectorStore,
) -> None:
    points = random_points(10, "alice", seed=4)
    store.upsert("evidence", points[:6])
    assert store.missing("evidence", [p.id for p in points]) == {p.id for p in points[6:]}
    assert store.missing("evidence", []) == set()
    assert store.missing("belief", [points[0].id]) == {points[0].id}


def test_delete_removes_points_and_ignores_unknown_ids(store: QdrantEdgeVectorStore) -> None:
    store.upsert(
        "evidence",
        [VectorPoint("ev_1", "alice", unit(1, 0)), VectorPoint("ev_2", "alice", unit(0, 1))],
    )
    store.delete("evidence", ["ev_1", "ev_never"])
    assert store.count("evidence", "alice") == 1
    assert [doc for doc, _ in store.search("evidence", "alice", unit(1, 0), 10)] == ["ev_2"]
    assert store.missing("evidence", ["ev_1", "ev_2"]) == {"ev_1"}


def test_upsert_is_idempotent_and_replaces(store: QdrantEdgeVectorStore) -> None:
    store.upsert("evidence", [VectorPoint("ev_1", "alice", unit(1, 0), at=1.0)])
    store.upsert("evidence", [VectorPoint("ev_1", "alice", unit(0, 1), at=5.0)])
    assert store.count("evidence") == 1
    found = store.search("evidence", "alice", unit(0, 1), 1)
    assert [doc for doc, _ in found] == ["ev_1"] and found[0][1] == pytest.approx(1.0, abs=1e-5)
    assert store.search("evidence", "alice", unit(0, 1), 1, not_after=2.0) == []


def test_count_by_space(store: QdrantEdgeVectorStore) -> None:
    store.upsert("evidence", random_points(4, "alice", seed=5) + random_points(3, "bob", seed=6))
    assert (
        store.count("evidence"),
        store.count("evidence", "alice"),
        store.count("evidence", "zed"),
    ) == (7, 4, 0)


def test_point_ids_are_deterministic_uuids() -> None:
    assert point_id("ev_ab12") == point_id("ev_ab12") != point_id("ev_ab13")
    assert len(point_id("ev_ab12")) == 36


def test_wrong_vector_width_is_an_input_error(store: QdrantEdgeVectorStore) -> None:
    with pytest.raises(InvalidInputError):
        store.upsert("evidence", [VectorPoint("ev_1", "alice", np.ones(DIM + 1, dtype=np.float32))])
    with pytest.raises(InvalidInputError):
        store.search("evidence", "alice", np.ones(3, dtype=np.float32), 5)
    assert store.count("evidence") == 0


def exact_top(points: list[VectorPoint], query: npt.NDArray[np.float32], k: int) -> list[str]:
    """The ``k`` nearest ids by cosine, computed in numpy: what any index must answer."""
    matrix = np.stack([p.vector / np.linalg.norm(p.vector) for p in points])
    scores = matrix @ (query / np.linalg.norm(query))
    return [points[i].id for i in np.argsort(-scores, kind="stable")[:k]]


@pytest.mark.parametrize("spaces", [("alice",), ("alice", "bob")])
def test_an_indexed_shard_answers_the_exact_top_hits(
    tmp_path: Path, spaces: tuple[str, ...], monkeypatch: pytest.MonkeyPatch
) -> None:
    """With thresholds low enough to index and walk 1,500 points, the HNSW search answers the
    same top hits as an exact scan, for a sole-space shard (unfiltered) and a shared one
    (filtered). 32 dimensions: in 8 a graph walk is exact even with few candidates."""
    dim = 32
    store = QdrantEdgeVectorStore(tmp_path / "vectors", dim, indexing_threshold_kb=1, full_scan_threshold_kb=1)
    try:
        points = {space: random_points(1500, space, seed=n, dim=dim) for n, space in enumerate(spaces)}
        for batch in points.values():
            store.upsert("evidence", batch)
        assert store.index_state()[0] == ShardIndex("evidence", 1500 * len(spaces), 0, 1, threshold=8)
        state = store.build_index("evidence")
        assert state.indexed == state.points == 1500 * len(spaces) and state.unindexed == 0
        queries = random_points(20, "query", seed=99, dim=dim)
        for space, batch in points.items():
            for query in queries:
                hits = store.search("evidence", space, query.vector, 10)
                assert [doc for doc, _ in hits] == exact_top(batch, query.vector, 10)
        # The graph is what answered: walked with too few candidates, it misses some hits.
        monkeypatch.setattr(vectors_module, "_SEARCH_PARAMS", qe.SearchParams(hnsw_ef=1))
        sloppy = [
            [doc for doc, _ in store.search("evidence", space, query.vector, 10)] != exact_top(batch, query.vector, 10)
            for space, batch in points.items()
            for query in queries
        ]
        assert any(sloppy)
    finally:
        store.close()


def test_a_shard_under_the_threshold_stays_plain_and_exact(store: QdrantEdgeVectorStore) -> None:
    points = random_points(200, "alice", seed=7)
    store.upsert("evidence", points)
    state = store.build_index("evidence")
    assert (state.points, state.indexed) == (200, 0)  # 200 points of 8 dims: far under 10 MB
    hits = store.search("evidence", "alice", points[3].vector, 5)
    assert [doc for doc, _ in hits] == exact_top(points, points[3].vector, 5)


def test_a_reopened_indexed_shard_answers_and_takes_new_points(tmp_path: Path) -> None:
    """The built graph is on disk: a reopen (with the default threshold) finds it indexed and
    answering exactly; a point written after the build is searched too (plain segment)."""
    points = random_points(1500, "alice", seed=3)
    store = QdrantEdgeVectorStore(tmp_path / "vectors", DIM, indexing_threshold_kb=1, full_scan_threshold_kb=1)
    store.upsert("evidence", points)
    store.build_index("evidence")
    store.close()
    reopened = QdrantEdgeVectorStore(tmp_path / "vectors", DIM, full_scan_threshold_kb=1)
    try:
        assert reopened.index_state()[0].indexed == 1500
        query = random_points(1, "query", seed=5)[0].vector
        assert [doc for doc, _ in reopened.search("evidence", "alice", query, 10)] == exact_top(points, query, 10)
        late = VectorPoint("ev_late", "alice", query)
        reopened.upsert("evidence", [late])
        assert reopened.search("evidence", "alice", query, 1)[0][0] == "ev_late"
        assert reopened.index_state()[0].points == 1501
    finally:
        reopened.close()


def test_every_call_after_close_raises_closed_error(tmp_path: Path) -> None:
    vectors = QdrantEdgeVectorStore(tmp_path, DIM)
    vectors.close()
    vectors.close()  # idempotent
    calls: list[Callable[[], object]] = [
        lambda: vectors.upsert("evidence", [VectorPoint("ev_1", "alice", unit(1, 0))]),
        lambda: vectors.search("evidence", "alice", unit(1, 0), 3),
        lambda: vectors.missing("evidence", ["ev_1"]),
        lambda: vectors.delete("evidence", ["ev_1"]),
        lambda: vectors.count("evidence"),
        vectors.index_state,
        lambda: vectors.build_index("evidence"),
        lambda: vectors.compact("evidence"),
    ]
    for call in calls:
        with pytest.raises(ClosedError):
            call()


# A shard whose points are all of one space (each with the store's stamp) is searched
# without the space and embedder conditions; these tests pin that it answers exactly as the
# filtered search and that nothing of another space or embedder slips through.


def test_sole_space_search_answers_as_the_filtered_search(tmp_path: Path) -> None:
    store = QdrantEdgeVectorStore(tmp_path, DIM, embedder_id="m1")
    try:
        points = random_points(60, "alice", seed=4)
        store.upsert("evidence", points[:30])
        store.upsert("evidence", points[30:])
        queries = [p.vector for p in random_points(5, "q", seed=5)]
        sole = [store.search("evidence", "alice", q, 20) for q in queries]
        timed = [store.search("evidence", "alice", q, 20, not_after=25.0) for q in queries]
        # A point of another space, nearest to every query, makes the shard mixed: the same
        # searches now run filtered, and must give the same hits and scores.
        store.upsert("evidence", [VectorPoint(f"ev_bob_{i}", "bob", q) for i, q in enumerate(queries)])
        assert [store.search("evidence", "alice", q, 20) for q in queries] == sole
        assert [store.search("evidence", "alice", q, 20, not_after=25.0) for q in queries] == timed
        assert all(at <= 25 for hits in timed for doc, _ in hits for at in [int(doc.rsplit("_", 1)[1])])
    finally:
        store.close()


def test_a_point_of_another_space_is_never_searched_into_a_sole_space(tmp_path: Path) -> None:
    store = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        store.upsert("evidence", [VectorPoint("ev_a", "alice", unit(1, 0))])
        assert store.search("evidence", "bob", unit(1, 0), 5) == []  # another space's search stays filtered
        store.upsert("evidence", [VectorPoint("ev_b", "bob", unit(1, 0))])
        assert [doc for doc, _ in store.search("evidence", "alice", unit(1, 0), 5)] == ["ev_a"]
        assert [doc for doc, _ in store.search("evidence", "bob", unit(1, 0), 5)] == ["ev_b"]
    finally:
        store.close()


def test_a_batch_of_two_spaces_into_an_empty_shard_keeps_them_apart(tmp_path: Path) -> None:
    store = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        store.upsert("evidence", [VectorPoint("ev_a", "alice", unit(1, 0)), VectorPoint("ev_b", "bob", unit(1, 0))])
        assert [doc for doc, _ in store.search("evidence", "alice", unit(1, 0), 5)] == ["ev_a"]
    finally:
        store.close()


@pytest.mark.parametrize("second", ["alice", "bob"])
def test_reopened_shard_is_sole_only_when_every_point_is_of_one_space(tmp_path: Path, second: str) -> None:
    first = QdrantEdgeVectorStore(tmp_path, DIM)
    first.upsert("evidence", [VectorPoint("ev_1", "alice", unit(1, 0)), VectorPoint("ev_2", second, unit(1, 0.1))])
    first.close()
    again = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        found = [doc for doc, _ in again.search("evidence", "alice", unit(1, 0), 5)]
        assert found == (["ev_1", "ev_2"] if second == "alice" else ["ev_1"])
    finally:
        again.close()


def test_reopened_under_another_embedder_searches_only_its_stamp(tmp_path: Path) -> None:
    old = QdrantEdgeVectorStore(tmp_path, DIM, embedder_id="m1")
    old.upsert("evidence", [VectorPoint("ev_old", "alice", unit(1, 0))])
    old.close()
    new = QdrantEdgeVectorStore(tmp_path, DIM, embedder_id="m2")
    try:
        assert new.search("evidence", "alice", unit(1, 0), 5) == []  # one space, but not its stamp
        new.upsert("evidence", [VectorPoint("ev_new", "alice", unit(0, 1))])
        assert [doc for doc, _ in new.search("evidence", "alice", unit(1, 0), 5)] == ["ev_new"]
    finally:
        new.close()


class _BlockingShard:
    """A shard whose next query waits for ``release`` after saying it has ``started``."""

    def __init__(self, shard: object) -> None:
        self._shard = shard
        self.started, self.release = threading.Event(), threading.Event()

    def query(self, request: object) -> object:
        self.started.set()
        assert self.release.wait(10)
        return self._shard.query(request)  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._shard, name)


def test_an_upsert_of_another_space_waits_for_an_unfiltered_search_in_progress(tmp_path: Path) -> None:
    store = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        store.upsert("evidence", [VectorPoint("ev_a", "alice", unit(1, 0))])
        blocking = _BlockingShard(store._shards["evidence"])
        store._shards["evidence"] = blocking  # type: ignore[assignment]
        with ThreadPoolExecutor(2) as pool:
            search = pool.submit(store.search, "evidence", "alice", unit(1, 0), 5)
            assert blocking.started.wait(10)  # searching alice's sole shard, unfiltered
            upsert = pool.submit(store.upsert, "evidence", [VectorPoint("ev_b", "bob", unit(1, 0))])
            time.sleep(0.2)
            assert not upsert.done()  # bob's point is not written under the unfiltered search
            blocking.release.set()
            assert [doc for doc, _ in search.result(10)] == ["ev_a"]
            upsert.result(10)
        assert [doc for doc, _ in store.search("evidence", "alice", unit(1, 0), 5)] == ["ev_a"]
    finally:
        store.close()


# ``compact``: an erasure rewrites a shard with only its live points (erasure at rest).


def _bytes_under(directory: Path) -> bytes:
    return b"".join(p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file())


def _stored(vectors: QdrantEdgeVectorStore, doc_id: str) -> bytes:
    """The point's vector as the segments hold it (normalised for cosine: little-endian float32)."""
    (record,) = vectors._shards["evidence"].retrieve([point_id(doc_id)], with_payload=False, with_vector=True)
    values = record.vector[""] if isinstance(record.vector, dict) else record.vector
    return np.asarray(values, dtype=np.float32).tobytes()


def test_compact_keeps_every_live_point_and_drops_the_deleted_ones_bytes(tmp_path: Path) -> None:
    vectors = QdrantEdgeVectorStore(tmp_path, DIM)
    points = random_points(50, "alice", seed=3) + random_points(5, "bob", seed=4)
    vectors.upsert("evidence", points)
    gone = points[:10]
    query = unit(1, 2, 3)
    needles = [_stored(vectors, p.id) for p in gone]
    vectors.delete("evidence", [p.id for p in gone])
    before = vectors.search("evidence", "alice", query, 100)
    assert all(n in _bytes_under(tmp_path / "evidence") for n in needles)  # what deletion leaves
    assert vectors.compact("evidence") == 45
    assert vectors.search("evidence", "alice", query, 100) == before
    assert vectors.search("evidence", "alice", query, 100, not_after=20.0) == [
        hit for hit in before if float(hit[0].rsplit("_", 1)[1]) <= 20.0
    ]  # the ``at`` payload and its index came along
    assert vectors.count("evidence", "bob") == 5
    assert vectors.missing("evidence", [p.id for p in points]) == {p.id for p in gone}
    assert not any(n in _bytes_under(tmp_path) for n in needles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["belief", "entity", "evidence"]
    vectors.upsert("evidence", gone[:1])  # the new shard takes writes, and keeps them on reopen
    vectors.close()
    again = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        assert again.count("evidence") == 46
    finally:
        again.close()


def test_compact_is_idempotent_and_takes_an_empty_shard(store: QdrantEdgeVectorStore) -> None:
    assert store.compact("belief") == 0
    store.upsert("belief", random_points(3, "alice", seed=5, prefix="bl"))
    assert store.compact("belief") == store.compact("belief") == 3


@pytest.mark.parametrize("state", ["rewrite", "rewritten", "set_aside", "swapped"])
def test_an_interrupted_rewrite_is_settled_at_open_into_a_whole_shard(tmp_path: Path, state: str) -> None:
    """Each state a crash can leave (``shard_rewrite``): the open finds the old shard (an
    incomplete rewrite is discarded) or the new one, never an empty one, and no leftover."""
    old_points, new_points = random_points(6, "alice", seed=6), random_points(4, "alice", seed=7)
    QdrantEdgeVectorStore(tmp_path / "new", DIM).close()
    new = QdrantEdgeVectorStore(tmp_path / "new", DIM)
    new.upsert("evidence", new_points)
    new.close()
    old = QdrantEdgeVectorStore(tmp_path / "vectors", DIM)
    old.upsert("evidence", old_points)
    old.close()
    shard = tmp_path / "vectors" / "evidence"
    moved = {"rewrite": ".rewrite", "rewritten": ".rewritten", "set_aside": ".rewritten", "swapped": ".replaced"}
    if state == "set_aside":
        shard.rename(shard.with_name("evidence.replaced"))
    if state == "swapped":
        shard.rename(shard.with_name("evidence.replaced"))
        (tmp_path / "new" / "evidence").rename(shard)
    else:
        (tmp_path / "new" / "evidence").rename(shard.with_name("evidence" + moved[state]))
    vectors = QdrantEdgeVectorStore(tmp_path / "vectors", DIM)
    try:
        expected = old_points if state == "rewrite" else new_points
        assert vectors.count("evidence") == len(expected)
        assert vectors.missing("evidence", [p.id for p in expected]) == set()
    finally:
        vectors.close()
    assert sorted(p.name for p in (tmp_path / "vectors").iterdir()) == ["belief", "entity", "evidence"]


def test_an_upsert_during_a_rewrite_waits_for_it_and_is_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An upsert while ``compact`` copies the shard would land in the old shard's files and be
    deleted with them; it waits for the swap and goes into the new shard."""
    vectors = QdrantEdgeVectorStore(tmp_path, DIM)
    vectors.upsert("evidence", random_points(20, "alice", seed=8))
    copying = threading.Event()
    real = shard_rewrite.copy_points

    def slow_copy(source: qe.EdgeShard, target: qe.EdgeShard) -> int:
        copying.set()
        time.sleep(0.3)
        return real(source, target)

    monkeypatch.setattr(vectors_module, "copy_points", slow_copy)
    late = random_points(1, "alice", seed=9, prefix="late")
    with ThreadPoolExecutor(max_workers=1) as pool:
        rewrite = pool.submit(vectors.compact, "evidence")
        assert copying.wait(5)
        vectors.upsert("evidence", late)  # blocks until the rewrite is done
        assert rewrite.done() and rewrite.result() == 20
    try:
        assert vectors.count("evidence") == 21
        assert vectors.missing("evidence", [late[0].id]) == set()
        assert vectors.search("evidence", "alice", late[0].vector, 1)[0][0] == late[0].id
    finally:
        vectors.close()


def _payload_searches(store: QdrantEdgeVectorStore, monkeypatch: pytest.MonkeyPatch) -> Callable[..., list[tuple[str, float]]]:
    """The store's search with its hits' payloads read from Qdrant Edge (doc ids not in memory)."""

    def search(*args: object) -> list[tuple[str, float]]:
        with monkeypatch.context() as patched:
            patched.setattr(store, "_docs_ready", dict.fromkeys(store._docs_ready, False))  # noqa: SLF001
            return store.search(*args)  # type: ignore[arg-type]

    return search


def test_doc_ids_read_after_open_answer_as_the_payloads_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = QdrantEdgeVectorStore(tmp_path, DIM)
    points = random_points(60, "alice", seed=7) + random_points(20, "bob", seed=8, prefix="ev_b")
    # Ties: points with the same vector are ordered by ``at``, then doc id.
    points += [VectorPoint(f"ev_tie{i}", "alice", unit(1, 0, 0), at=float(10 - i)) for i in range(5)]
    first.upsert("evidence", points)
    first.close()
    store = QdrantEdgeVectorStore(tmp_path, DIM)
    try:
        assert store.docs_ready(30)
        assert len(store._docs["evidence"]) == len(points)  # noqa: SLF001 - read from every point
        asked = _payload_searches(store, monkeypatch)
        for n, query in enumerate([unit(1, 0, 0), *(p.vector for p in points[:10])]):
            for space, limit, not_after in (("alice", 5, None), ("alice", 30, None), ("bob", 8, None), ("alice", 10, 30.0 + n)):
                assert store.search("evidence", space, query, limit, not_after) == asked("evidence", space, query, limit, not_after)
        assert [i for i, _ in store.search("evidence", "alice", unit(1, 0, 0), 5)] == [f"ev_tie{i}" for i in range(4, -1, -1)]
    finally:
        store.close()


def test_doc_ids_in_memory_follow_upserts_and_deletes(store: QdrantEdgeVectorStore, monkeypatch: pytest.MonkeyPatch) -> None:
    assert store.docs_ready(30)
    asked = _payload_searches(store, monkeypatch)
    store.upsert("evidence", [VectorPoint(f"ev_{i}", "alice", unit(1, 0, 0), at=float(i)) for i in range(4)])
    assert [i for i, _ in store.search("evidence", "alice", unit(1, 0, 0), 4)] == ["ev_0", "ev_1", "ev_2", "ev_3"]
    # Written again later in time: its tie order follows its new ``at`` (a stale entry would not).
    store.upsert("evidence", [VectorPoint("ev_0", "alice", unit(1, 0, 0), at=9.0)])
    assert [i for i, _ in store.search("evidence", "alice", unit(1, 0, 0), 4)] == ["ev_1", "ev_2", "ev_3", "ev_0"]
    store.delete("evidence", ["ev_1"])
    assert [i for i, _ in store.search("evidence", "alice", unit(1, 0, 0), 4)] == ["ev_2", "ev_3", "ev_0"]
    assert store.search("evidence", "alice", unit(1, 0, 0), 4) == asked("evidence", "alice", unit(1, 0, 0), 4)


def test_a_hit_whose_doc_id_is_not_in_memory_has_its_payload_read(store: QdrantEdgeVectorStore) -> None:
    # A point written while the doc ids were being read, before its entry: read back.
    assert store.docs_ready(30)
    store.upsert("evidence", [VectorPoint("ev_a", "alice", unit(1, 0), at=1.0), VectorPoint("ev_b", "alice", unit(0, 1), at=2.0)])
    store._docs["evidence"].clear()  # noqa: SLF001
    assert [i for i, _ in store.search("evidence", "alice", unit(1, 0), 2)] == ["ev_a", "ev_b"]
