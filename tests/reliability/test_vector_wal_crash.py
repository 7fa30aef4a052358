"""The embedded vector store's upserts survive a SIGKILL between two flushes.

``QdrantEdgeVectorStore.upsert`` writes the shard's write-ahead log and flushes the segments
only every ``flush_every_s`` (a flush holds the GIL through its fsync). Here a child process
upserts points with flushing put off for an hour and kills itself with SIGKILL (no
``finally``, no close, no flush); a fresh open must find and search every point.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from eywa.stores.embedded.vectors import QdrantEdgeVectorStore

DIM = 8
POINTS = 37
ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    import numpy as np
    from eywa.stores.embedded.vectors import QdrantEdgeVectorStore
    from eywa.stores.vectors import VectorPoint

    store = QdrantEdgeVectorStore(Path(sys.argv[1]), dim=8, flush_every_s=3600.0)
    rng = np.random.default_rng(7)
    for i in range(int(sys.argv[2])):  # one upsert per point, as the embedder's small batches
        vector = rng.standard_normal(8).astype(np.float32)
        store.upsert("evidence", [VectorPoint(f"ev_{i}", "alice" if i % 2 else "bob", vector, at=float(i))])
    print("upserted", flush=True)
    os.kill(os.getpid(), signal.SIGKILL)
    """
)


def test_upserts_not_yet_flushed_survive_a_sigkill(tmp_path: Path) -> None:
    directory = tmp_path / "vectors"
    environment = {**os.environ, "PYTHONPATH": str(ROOT)}
    child = subprocess.run(
        [sys.executable, "-c", CHILD, str(directory), str(POINTS)],
        env=environment, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert child.returncode == -9, child.stderr
    assert child.stdout.strip() == "upserted"
    store = QdrantEdgeVectorStore(directory, dim=DIM)
    try:
        assert store.count("evidence") == POINTS
        assert store.count("evidence", "alice") == POINTS // 2
        rng = np.random.default_rng(7)
        vectors = [rng.standard_normal(DIM).astype(np.float32) for _ in range(POINTS)]
        last = POINTS - 1  # the very last upsert before the kill is searchable too
        hits = store.search("evidence", "alice" if last % 2 else "bob", vectors[last], limit=1)
        assert [doc for doc, _ in hits] == [f"ev_{last}"]
        assert hits[0][1] == pytest.approx(1.0, abs=1e-5)
    finally:
        store.close()
