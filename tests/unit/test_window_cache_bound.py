"""The window cache (``eywa.embedding.cache``) stays within its bound, least recently used
out first, and never serves one model's vector to another."""

from __future__ import annotations

import numpy as np

from eywa.embedding.cache import WindowCache
from tests.contract.conftest import HashEmbedder
from tests.contract.test_window_cache import RecordingEmbedder


class OtherModel(RecordingEmbedder):
    model_id = "hash-other"


def test_the_least_recently_used_window_goes_first() -> None:
    embedder, cache = RecordingEmbedder(), WindowCache(capacity=2)
    cache.embed(embedder, ["a", "b"])
    cache.embed(embedder, ["a"])  # a is used again: b is now the oldest
    cache.embed(embedder, ["c"])
    assert len(cache) == 2
    assert [cache.holds(embedder, t) for t in ("a", "b", "c")] == [True, False, True]
    assert embedder.texts == ["a", "b", "c"]


def test_a_kept_window_is_the_embedding_and_another_model_embeds_its_own() -> None:
    first, second, cache = RecordingEmbedder(), OtherModel(), WindowCache()
    kept = cache.embed(first, ["Rosa: the kettle is on"])
    again = cache.embed(second, ["Rosa: the kettle is on"])
    assert second.texts == ["Rosa: the kettle is on"]
    np.testing.assert_array_equal(kept["Rosa: the kettle is on"], HashEmbedder().embed(["Rosa: the kettle is on"])[0])
    assert cache.holds(first, "Rosa: the kettle is on") and len(cache) == 2 and again


def test_a_cache_of_no_size_keeps_nothing() -> None:
    embedder, cache = RecordingEmbedder(), WindowCache(capacity=0)
    cache.embed(embedder, ["x"])
    cache.embed(embedder, ["x"])
    assert embedder.texts == ["x", "x"] and len(cache) == 0
