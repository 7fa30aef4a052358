"""A process killed while it builds a vector shard's HNSW graph leaves a shard that reopens
with every point, answers exactly, and builds again.

``QdrantEdgeVectorStore.build_index`` runs Qdrant's optimizer, which builds the graph into a
new segment and swaps it in only when complete. Here a child process writes points, starts
the build and is killed with SIGKILL once the build's new segment is on disk, while it still
runs (the test checks); a fresh open must find every point and search it, and free what the
unfinished build wrote.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import numpy.typing as npt

from eywa.stores.embedded.vectors import QdrantEdgeVectorStore

DIM = 64
POINTS = 40_000
ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    import numpy as np
    from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
    from eywa.stores.vectors import VectorPoint

    dim, n = int(sys.argv[2]), int(sys.argv[3])
    store = QdrantEdgeVectorStore(Path(sys.argv[1]), dim, indexing_threshold_kb=1, full_scan_threshold_kb=1)
    vectors = np.random.default_rng(11).standard_normal((n, dim)).astype(np.float32)
    for start in range(0, n, 2000):
        store.upsert("evidence", [VectorPoint(f"ev_{i}", "alice", vectors[i]) for i in range(start, min(n, start + 2000))])
    print("building", flush=True)
    store.build_index("evidence")
    print("built", flush=True)
    """
)


def exact_top(vectors: npt.NDArray[np.float32], query: npt.NDArray[np.float32], k: int) -> list[str]:
    scores = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)) @ (query / np.linalg.norm(query))
    return [f"ev_{i}" for i in np.argsort(-scores, kind="stable")[:k]]


def test_a_build_killed_midway_leaves_a_shard_that_answers_and_builds_again(tmp_path: Path) -> None:
    directory = tmp_path / "vectors"
    builders = directory / "evidence" / "temp_segments"
    with subprocess.Popen(
        [sys.executable, "-c", CHILD, str(directory), str(DIM), str(POINTS)],
        env={**os.environ, "PYTHONPATH": str(ROOT)}, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as child:  # fmt: skip
        try:
            assert child.stdout is not None and child.stderr is not None
            line = child.stdout.readline().strip()
            assert line == "building", child.stderr.read()
            # Killed once the build has begun writing its new segment (a fixed half second
            # was too short on a loaded machine: the builder did not exist yet).
            deadline = time.monotonic() + 60
            while not list(builders.glob("segment_builder_*")) and child.poll() is None and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.2)  # well inside the build
            assert child.poll() is None, "the build ended before the kill: raise POINTS"
            child.send_signal(signal.SIGKILL)
            child.wait(timeout=30)
        finally:
            if child.poll() is None:
                child.kill()
                child.wait()
    assert child.returncode == -9
    vectors = np.random.default_rng(11).standard_normal((POINTS, DIM)).astype(np.float32)
    queries = np.random.default_rng(12).standard_normal((10, DIM)).astype(np.float32)
    assert list(builders.glob("segment_builder_*")), "the killed build left no builder: nothing to clean up"
    store = QdrantEdgeVectorStore(directory, DIM, indexing_threshold_kb=1, full_scan_threshold_kb=1)
    try:
        assert list(builders.glob("segment_builder_*")) == []  # the unfinished build's disk is freed
        assert store.count("evidence") == POINTS
        for query in queries:
            assert [doc for doc, _ in store.search("evidence", "alice", query, 10)] == exact_top(vectors, query, 10)
        state = store.build_index("evidence")
        assert state.points == state.indexed == POINTS
        # Random 64-dimension points are the graph's worst case (its top 10 may differ from the
        # exact one in a tie-close rank): each stored point is still its own nearest.
        for i in range(0, POINTS, POINTS // 10):
            assert store.search("evidence", "alice", vectors[i], 1)[0][0] == f"ev_{i}"
    finally:
        store.close()
