"""Time one space's backlog count (``StageLedger.space_backlog``) with a large backlog.

The trace of every recall, ``GET /v1/spaces`` and the space stats read it, so its cost must
not grow with the number of pending marks. The script marks ``--marks`` turns of a space
``big`` pending for three stages (and two turns of a space ``small``), then times 50 reads
of ``big``'s counts; on Neo4j it also prints the read's PROFILE db hits for both spaces.

    .venv/bin/python ops/bench/space_backlog.py sqlite --marks 50000
    .venv/bin/python ops/bench/space_backlog.py neo4j --marks 50000 --uri bolt://127.0.0.1:7687

The Neo4j run EMPTIES the database it is given (every node but the migration ledger): point
it at a throwaway server (``ops/neo4j/neo4j-test-server start``).
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from eywa.settings import EywaSettings
from eywa.stores.bundle import Stores
from eywa.stores.embedded.factory import open_embedded
from eywa.stores.ledger import DERIVED_STAGES, PendingStage
from eywa.stores.server import open_server

AT = datetime(2024, 1, 1, tzinfo=UTC)
STAGES: tuple[PendingStage, ...] = ("embed_evidence", "level1", "nous")


def fill(stores: Stores, marks: int) -> None:
    """``marks`` turns of ``big`` pending for every stage of ``STAGES``, two of ``small``."""
    for start in range(0, marks, 5_000):
        ids = [f"t{i}" for i in range(start, min(marks, start + 5_000))]
        for stage in STAGES:
            stores.ledger.mark("big", stage, ids, "new", AT)
    stores.ledger.mark("small", "embed_evidence", ["x1", "x2"], "new", AT)


def timed(read: Callable[[], object], repeats: int = 50) -> tuple[float, float]:
    """p50 and p95 in ms of ``repeats`` calls, after one warm-up call."""
    read()
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        read()
        times.append((time.perf_counter() - started) * 1_000)
    times.sort()
    return statistics.median(times), times[int(0.95 * len(times)) - 1]


def db_hits(plan: dict[str, Any]) -> int:
    return int(plan.get("dbHits", 0)) + sum(db_hits(child) for child in plan.get("children", []))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("backend", choices=["sqlite", "neo4j"])
    parser.add_argument("--marks", type=int, default=50_000)
    parser.add_argument("--uri", default="bolt://127.0.0.1:7687", help="neo4j: a throwaway server")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="eywa-backlog-"))
    if args.backend == "sqlite":
        stores = open_embedded(scratch / "store", 8)
    else:
        from neo4j import GraphDatabase

        from eywa.stores.neo4j import ledger

        with GraphDatabase.driver(args.uri, auth=None) as driver, driver.session() as session:
            session.run("MATCH (n) WHERE NOT n:SchemaMigration "
                        "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()  # fmt: skip
        stores = open_server(EywaSettings(data_dir=scratch, neo4j_uri=args.uri, qdrant_path=scratch / "qdrant"), 8)
    try:
        fill(stores, args.marks)
        print("counts: big", stores.ledger.space_backlog("big"), "small", stores.ledger.space_backlog("small"))
        if args.backend == "neo4j":
            with GraphDatabase.driver(args.uri, auth=None) as driver, driver.session() as session:
                for space in ("big", "small"):
                    summary = session.run("PROFILE " + ledger._SPACE_BACKLOG, space=space,
                                          stages=list(DERIVED_STAGES)).consume()  # fmt: skip
                    assert summary.profile is not None
                    print(f"{space}: PROFILE db hits {db_hits(summary.profile)}")
        p50, p95 = timed(lambda: stores.ledger.space_backlog("big"))
        print(f"{args.backend}, {args.marks:,} marks: space_backlog(big) p50 {p50:.3f} ms, p95 {p95:.3f} ms")
    finally:
        stores.close()


if __name__ == "__main__":
    main()
