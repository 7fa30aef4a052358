"""MiniLM runs a query-sized call on one intra-op thread when the thread count is onnxruntime's.

A recall embeds two short texts; two intra-op threads cost more to wake and join than they
save, and take a core from the routes running beside the embedding. The vectors must be the
very ones the multi-threaded session computes, since stored vectors come from batches.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

from eywa.embedding import MiniLMEmbedder
from eywa.embedding.minilm import QUERY_TEXTS

PAIRS = [
    ["Where did Bruno fly for a wedding?", "Where did fly for a wedding?"],
    ["How many friends did Nikhil cook for?", "How many friends did cook for?"],
    ["What are all the hobbies Wen has?", "What are all the hobbies has?"],
]


def threads() -> set[int]:
    return {int(task.name) for task in Path("/proc/self/task").iterdir()}


def test_query_sized_calls_give_the_multithreaded_sessions_vectors_bit_for_bit() -> None:
    auto, two = MiniLMEmbedder(threads=0), MiniLMEmbedder(threads=2)
    for pair in PAIRS:
        assert len(pair) <= QUERY_TEXTS
        np.testing.assert_array_equal(auto.embed(pair), two.embed(pair))


@pytest.mark.skipif(sys.platform != "linux", reason="reads /proc/self/task")
def test_a_query_sized_call_starts_no_intra_op_thread() -> None:
    embedder = MiniLMEmbedder(threads=0)
    before = threads()
    embedder.embed(PAIRS[0])
    assert threads() - before == set()
    batch = [text for pair in PAIRS for text in pair]  # a batch gets onnxruntime's own pool
    embedder.embed(batch)
    assert len(threads() - before) >= 1 or (Path("/proc/cpuinfo").read_text().count("processor\t:") == 1)
