"""Named commit boundaries of the write path, where a crash-injection test may stop a process.

The write path calls ``crashpoints.reached(name)`` right after each durable step (the Level 0
commit, a vector upsert, a Level 1 batch, a dimension save). In production ``reached`` does
nothing: it is a module-level no-op, never configured by settings or the environment. The
reliability suite (``tests/reliability``) runs a child process that replaces it, before any
work, with a function that SIGKILLs the process at the k-th arrival at one named point, then
reopens the store and checks that reconciliation finishes what the crash interrupted.

Callers must look the function up on the module at each call (``crashpoints.reached(...)``,
never ``from eywa.crashpoints import reached``), so a replacement is seen everywhere.
"""

from __future__ import annotations

from typing import Final, Literal

__all__ = ["CRASH_POINTS", "CrashPoint", "reached"]

CrashPoint = Literal[
    "level0_committed",  # evidence, signals, keyword rows and pending marks are durable
    "evidence_vectors_upserted",  # a batch of turn vectors is durable, its marks not yet cleared
    "level1_batch_written",  # one extraction batch's beliefs, candidates and mark removal committed
    "beliefs_written",  # every extraction batch of a pass committed, supersession not yet settled
    "dimension_saved",  # one dimension's deltas and state committed
    "dimensions_updated",  # every dimension of a pass saved, the ``nous`` marks not yet cleared
    "belief_vectors_upserted",  # belief vectors durable, their marks not yet cleared
    "erasure_chunk_removed",  # Neo4j, a large erasure: one chunk of its turns removed, not every chunk yet
    "erasure_begun",  # an erasure's record, tombstones and turn removal committed (eywa.erasure)
    "erasure_dimensions_replayed",  # the erased beliefs' deltas removed, their dimensions replayed
    "erasure_beliefs_removed",  # the beliefs and candidates citing erased turns removed
    "erasure_vectors_rebuilt",  # erased vectors deleted, neighbours re-embedded; record not yet done
    "vector_shard_rewritten",  # embedded: a shard's live points copied into ``<kind>.rewritten``, synced
    "vector_shard_set_aside",  # embedded: the old shard moved to ``<kind>.replaced``, no ``<kind>`` yet
    "vector_shard_swapped",  # embedded: the rewritten shard in place, the old files not yet deleted
    "signals_rederived",  # one chunk of outdated turns re-detected (eywa.rederive), its Level 1 owed
    "correction_recorded",  # a correction and its dimension replay committed, its answer not yet returned
    "merge_recorded",  # an identity merge accepted or undone (eywa.corrections), its answer not yet returned
]
CRASH_POINTS: Final[tuple[CrashPoint, ...]] = (
    "level0_committed",
    "evidence_vectors_upserted",
    "level1_batch_written",
    "beliefs_written",
    "dimension_saved",
    "dimensions_updated",
    "belief_vectors_upserted",
    "erasure_chunk_removed",
    "erasure_begun",
    "erasure_dimensions_replayed",
    "erasure_beliefs_removed",
    "erasure_vectors_rebuilt",
    "vector_shard_rewritten",
    "vector_shard_set_aside",
    "vector_shard_swapped",
    "signals_rederived",
    "correction_recorded",
    "merge_recorded",
)


def reached(point: CrashPoint) -> None:
    """Called by the write path after the durable step ``point``; does nothing here."""
