"""How many onnxruntime intra-op threads the suite's embedders use.

``make test`` runs two xdist processes beside Neo4j on a two-core machine. onnxruntime's
default (one spinning intra-op thread per core in each process) then oversubscribes the
cores, and every embedding waits on its pool's barrier; one thread per process computes the
same vectors with less CPU. Outside xdist the default (0: one per core) stands.
"""

from __future__ import annotations

import os

SUITE_EMBED_THREADS = 1 if os.environ.get("PYTEST_XDIST_WORKER") else 0
