"""Do writers to one space queue behind each other? Level 0 writes, one space against one each.

Every Level 0 batch counts its new pending marks into its space's backlog counter (on Neo4j
a ``:Backlog`` node per space, updated in the batch's transaction; in SQLite by triggers),
so writers to one space take the same lock once per batch. This script runs ``--writers``
threads, each writing ``--batches`` batches of ``--turns`` synthetic turns through
``Memory.remember`` (no Level 1, vectors left to workers: Level 0 alone), first all into one
space, then each into its own, and prints turns/s, the batches' p50/p95/p99 and, on Neo4j,
how many transactions the driver retried after a deadlock (it retries them: nothing is lost,
but each costs about a second) for both.

    .venv/bin/python ops/bench/space_writers.py sqlite
    .venv/bin/python ops/bench/space_writers.py neo4j --uri bolt://127.0.0.1:7687

The Neo4j run EMPTIES the database it is given (every node but the migration ledger): point
it at a throwaway server (``ops/neo4j/neo4j-test-server start``).
"""

from __future__ import annotations

import argparse
import logging
import os
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Literal

from eywa.bench.deadlocks import DeadlockCounter
from eywa.bench.synthetic import generate_corpus
from eywa.memory import Memory
from eywa.runtime import open_memory
from eywa.settings import EywaSettings


def write(mem: Memory, space: str, batches: list[list[dict[str, Any]]]) -> list[float]:
    """Each batch's wall time (ms), written one after another into ``space``."""
    times = []
    for batch in batches:
        started = time.perf_counter()
        mem.remember(space, batch, wait=False)
        times.append((time.perf_counter() - started) * 1_000)
    return times


def run(
    mem: Memory, label: str, spaces: list[str], work: list[list[list[dict[str, Any]]]], deadlocks: DeadlockCounter
) -> None:
    """The writers at once, writer ``i`` into ``spaces[i]``; prints the figures."""
    deadlocks.count = 0
    started = time.perf_counter()
    with ThreadPoolExecutor(len(work)) as pool:
        times = [t for ts in pool.map(write, [mem] * len(work), spaces, work) for t in ts]
    seconds = time.perf_counter() - started
    turns = sum(len(batch) for batches in work for batch in batches)
    times.sort()
    p95, p99 = (times[max(0, int(q * len(times)) - 1)] for q in (0.95, 0.99))
    print(f"{label}: {turns / seconds:,.0f} turns/s, batch p50 {statistics.median(times):.1f} ms, "
          f"p95 {p95:.1f} ms, p99 {p99:.1f} ms; deadlocks retried: {deadlocks.count}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("backend", choices=["sqlite", "neo4j"])
    parser.add_argument("--writers", type=int, default=8)
    parser.add_argument("--batches", type=int, default=60, help="per writer")
    parser.add_argument("--turns", type=int, default=4, help="per batch")
    parser.add_argument("--uri", default="bolt://127.0.0.1:7687", help="neo4j: a throwaway server")
    args = parser.parse_args()
    scratch = Path(tempfile.mkdtemp(prefix="eywa-writers-"))
    settings = EywaSettings(data_dir=scratch / "store", extractor="none", level1_wait=False)
    if args.backend == "neo4j":
        from neo4j import GraphDatabase

        with GraphDatabase.driver(args.uri, auth=None) as driver, driver.session() as session:
            session.run("MATCH (n) WHERE NOT n:SchemaMigration "
                        "CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 10000 ROWS").consume()  # fmt: skip
        settings = settings.model_copy(update={"neo4j_uri": args.uri, "qdrant_path": scratch / "qdrant"})
    per_writer = args.batches * args.turns
    corpus = [turn for _, turn in generate_corpus(2 * args.writers * per_writer, seed=7)]

    def work(offset: int) -> list[list[list[dict[str, Any]]]]:
        """Each writer's batches: distinct turns for every writer and every run."""
        turns = corpus[offset : offset + args.writers * per_writer]
        return [
            [turns[w * per_writer + b : w * per_writer + b + args.turns] for b in range(0, per_writer, args.turns)]
            for w in range(args.writers)
        ]

    deadlocks = DeadlockCounter()
    driver_log = logging.getLogger("neo4j")
    driver_log.addHandler(deadlocks)
    driver_log.propagate = False  # the counter replaces the driver's warning per retry
    backend: Literal["embedded", "server"] = "server" if args.backend == "neo4j" else "embedded"
    with open_memory(settings, backend=backend, embed_writes=False) as mem:
        mem.remember("warm-up", corpus[:8], wait=False)
        print(f"{args.backend}: {args.writers} writers x {args.batches} batches of {args.turns} turns, "
              f"load {os.getloadavg()[0]:.1f}")  # fmt: skip
        run(mem, "one space ", ["shared"] * args.writers, work(0), deadlocks)
        run(mem, "own spaces", [f"own-{w}" for w in range(args.writers)], work(args.writers * per_writer), deadlocks)
        print(f"load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
