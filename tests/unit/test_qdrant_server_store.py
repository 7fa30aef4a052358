"""QdrantServerVectorStore on qdrant-client's local mode (no Qdrant server runs here):
space-filtered cosine search, time filter, replace-on-upsert, missing/delete/count, close."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from eywa.errors import ClosedError, ConfigurationError, InvalidInputError, StoreError
from eywa.stores.embedded.vectors import point_id
from eywa.stores.qdrant import QdrantServerVectorStore
from eywa.stores.vectors import VectorPoint

DIM = 4


def vec(*values: float) -> np.ndarray:
    return np.asarray(values, dtype=np.float32)


@pytest.fixture
def store() -> QdrantServerVectorStore:
    return QdrantServerVectorStore(QdrantClient(":memory:"), DIM)


def test_search_is_cosine_filtered_by_space_and_time(store: QdrantServerVectorStore) -> None:
    store.upsert("evidence", [
        VectorPoint("ev_a", "home", vec(1, 0, 0, 0), at=100.0),
        VectorPoint("ev_b", "home", vec(1, 1, 0, 0), at=200.0),
        VectorPoint("ev_c", "other", vec(1, 0, 0, 0), at=100.0),
    ])  # fmt: skip
    hits = store.search("evidence", "home", vec(2, 0, 0, 0), limit=5)
    assert [h[0] for h in hits] == ["ev_a", "ev_b"]
    assert hits[0][1] == pytest.approx(1.0) and hits[1][1] == pytest.approx(2**-0.5, rel=1e-5)
    assert [h[0] for h in store.search("evidence", "home", vec(0, 1, 0, 0), 5, not_after=150.0)] == ["ev_a"]
    assert store.search("belief", "home", vec(1, 0, 0, 0), 5) == []
    assert store.search("evidence", "home", vec(1, 0, 0, 0), 0) == []


def test_upsert_replaces_and_counts_per_space(store: QdrantServerVectorStore) -> None:
    store.upsert("belief", [VectorPoint("bel_1", "home", vec(1, 0, 0, 0))])
    store.upsert("belief", [VectorPoint("bel_1", "home", vec(0, 0, 1, 0))])
    store.upsert("belief", [VectorPoint("bel_2", "zed", vec(0, 0, 1, 0))])
    assert store.count("belief") == 2 and store.count("belief", "home") == 1
    ((doc, score),) = store.search("belief", "home", vec(0, 0, 1, 0), 5)
    assert doc == "bel_1" and score == pytest.approx(1.0)


def test_missing_and_delete(store: QdrantServerVectorStore) -> None:
    store.upsert("entity", [VectorPoint(f"ent_{i}", "home", vec(1, i, 0, 0)) for i in range(600)])
    assert store.count("entity", "home") == 600  # more than one upsert batch
    assert store.missing("entity", ["ent_1", "ent_x"]) == {"ent_x"}
    store.delete("entity", ["ent_1", "ent_never"])
    assert store.missing("entity", ["ent_1", "ent_2"]) == {"ent_1"}
    assert store.count("entity") == 599


def test_point_ids_match_the_embedded_store(store: QdrantServerVectorStore) -> None:
    store.upsert("evidence", [VectorPoint("ev_a", "home", vec(1, 0, 0, 0))])
    (record,) = store._client.retrieve("eywa_evidence", [point_id("ev_a")], with_payload=True)
    assert record.payload == {"doc_id": "ev_a", "space": "home", "at": 0.0}


def test_bad_shapes_and_kinds_are_refused(store: QdrantServerVectorStore) -> None:
    with pytest.raises(InvalidInputError, match="shape"):
        store.upsert("evidence", [VectorPoint("ev_a", "home", vec(1, 0))])
    with pytest.raises(InvalidInputError, match="shape"):
        store.search("evidence", "home", vec(1, 0), 3)
    with pytest.raises(InvalidInputError, match="kind"):
        store.count("picture")  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError):
        QdrantServerVectorStore(QdrantClient(":memory:"), 0)


def test_local_path_persists_and_refuses_another_width(tmp_path: Path) -> None:
    first = QdrantServerVectorStore(QdrantClient(path=str(tmp_path)), DIM)
    first.upsert("evidence", [VectorPoint("ev_a", "home", vec(1, 0, 0, 0))])
    first.close()
    first.close()  # idempotent
    with pytest.raises(ClosedError):
        first.count("evidence")
    again = QdrantServerVectorStore(QdrantClient(path=str(tmp_path)), DIM)
    assert again.count("evidence", "home") == 1
    again.close()
    # another embedder's collection: a setting to change, not a store failure to retry
    with pytest.raises(ConfigurationError, match=rf"holds vectors of {DIM} dimensions and the embedder makes"):
        QdrantServerVectorStore(QdrantClient(path=str(tmp_path)), DIM + 1)

