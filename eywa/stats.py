"""The counts of a space, from the graph stores alone.

Shared by ``Memory.stats`` and ``eywa stats``: the command opens only the graph stores (no
vector shard, no directory lock), so it answers beside a running ``eywa serve``.
"""

from __future__ import annotations

from typing import Any

from eywa.nous import ledger as nous
from eywa.signals.version import current_signals_version
from eywa.stores.bundle import GraphStores

__all__ = ["space_stats"]


def space_stats(stores: GraphStores, space: str) -> dict[str, Any]:
    """Evidence, signals by kind, entities, beliefs by status, candidates by reason,
    dimensions of ``space`` (already checked by the caller), and its turns stored under an
    older ``eywa.signals.version`` (``outdated_signals``).

    Raises:
        StoreError: a store failed.
    """
    evidence = stores.evidence
    return {
        "evidence": evidence.count(space),
        "signals": evidence.count_signals(space),
        "entities": len(evidence.entities(space)),
        "beliefs": stores.beliefs.counts(space),
        "candidates_by_reason": stores.beliefs.count_by_reason(space),
        "dimensions": len(nous.list_dimensions(stores.dimensions, space, None, None)),
        # Turns whose signals an older release detected: ``eywa reprocess`` detects them again.
        "outdated_signals": evidence.count_signals_outdated(space, current_signals_version()),
    }
