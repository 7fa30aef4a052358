"""Counting the Neo4j driver's deadlock retries, for benchmarks and tests of concurrent writers.

The driver retries a transaction that Neo4j aborted with ``DeadlockDetected`` and logs a
warning on its ``neo4j`` logger each time: nothing is lost, but each retry waits about a
second, so how often it happens is what a benchmark of writers reports and what a test of
the write statements' lock order asserts (``eywa/stores/neo4j/level0.py``, "Lock order").
"""

from __future__ import annotations

import logging

__all__ = ["DeadlockCounter"]


class DeadlockCounter(logging.Handler):
    """Counts the driver's "will be retried" warnings that a deadlock caused, silently."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record: logging.LogRecord) -> None:
        if "DeadlockDetected" in record.getMessage():
            self.count += 1
