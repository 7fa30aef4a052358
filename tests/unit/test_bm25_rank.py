"""``bm25_index.rank`` keeps FTS5's order (rank, then row id) for the first ``limit`` rows
while sorting only the rows that can be among them (``within_cut``): the same list as a
sort of every matching row, ties at the cut included."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eywa.stores.embedded.bm25_index import B, K1, rank


def sorted_fully(
    postings: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]], sizes: np.ndarray[Any, Any], limit: int
) -> list[tuple[int, float]]:
    """What ``rank`` returned before ``within_cut``: every matching row sorted (the same
    arithmetic as ``rank``)."""
    rows, avgdl = sizes.shape[0], float(sizes.mean())
    score = np.zeros(rows)
    matched = np.zeros(rows, dtype=bool)
    for docs, freq in postings:
        hits = int(docs.shape[0])
        idf = math.log((rows - hits + 0.5) / (hits + 0.5))
        idf = idf if idf > 0.0 else 1e-6
        score[docs] = score[docs] + idf * ((freq * (K1 + 1.0)) / (freq + K1 * ((1 - B) + B * sizes[docs] / avgdl)))
        matched[docs] = True
    found = np.nonzero(matched)[0]
    ranks = -1.0 * score[found]
    order = np.lexsort((found, ranks))[:limit]
    return list(zip(found[order].tolist(), ranks[order].tolist(), strict=True))


# Few distinct sizes and frequencies, so that many rows tie, at the cut too.
posting_of = st.lists(
    st.tuples(st.integers(0, 59), st.sampled_from([1.0, 2.0, 3.0])), min_size=1, max_size=40, unique_by=lambda p: p[0]
)
postings_of = st.lists(posting_of, min_size=1, max_size=4)


@settings(max_examples=300, deadline=None)
@given(postings_of, st.lists(st.sampled_from([4.0, 8.0, 12.0]), min_size=60, max_size=60), st.integers(1, 70))
def test_rank_is_the_full_sort_cut_at_the_limit(
    raw: list[list[tuple[int, float]]], sizes_list: list[float], limit: int
) -> None:
    sizes = np.array(sizes_list)
    postings = [
        (np.array(sorted(d for d, _ in p), dtype=np.int32), np.array([f for _, f in sorted(p)])) for p in raw
    ]
    assert rank(postings, sizes, 60, float(sizes.mean()), None, limit) == sorted_fully(postings, sizes, limit)


def test_only_the_rows_that_can_make_the_cut_are_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    # 1,000 matching rows, 50 kept: rows 0-39 hold both terms and score best, rows 40-999
    # one term each, their scores spread over seven frequencies: the 50th best is tied with
    # the other rows of its frequency, and only the rows at or above it can make the cut.
    sizes = np.full(1000, 10.0)
    postings = [
        (np.arange(40, dtype=np.int32), np.full(40, 2.0)),
        (np.arange(1000, dtype=np.int32), np.arange(1000, dtype=np.float64) % 7 + 1.0),
    ]
    sorted_sizes: list[int] = []
    lexsort = np.lexsort

    def spy(keys: Any) -> Any:
        sorted_sizes.append(len(keys[0]))
        return lexsort(keys)

    monkeypatch.setattr(np, "lexsort", spy)
    found = rank(postings, sizes, 1000, 10.0, None, 50)
    monkeypatch.undo()
    assert found == sorted_fully(postings, sizes, 50)
    cut = found[-1][1]
    full = sorted_fully(postings, sizes, 1000)
    assert sorted_sizes == [sum(1 for _, r in full if r <= cut)]
    assert sorted_sizes[0] < 1000
