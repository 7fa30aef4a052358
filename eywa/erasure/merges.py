"""Identity merges after an erasure: what no longer holds is undone, what has no evidence goes.

A merge (``SAME_AS``) rests on evidence: both entities exist in the space (mentioned by a
remaining turn, or holding a dimension), and the merge test (``eywa.nous.identity``: names
compatible, a shared dimension, mean KL below the threshold) holds on their dimensions.
An erasure can take either away, so after it has replayed the dimensions:

* an edge (active or already undone) with an end that has no evidence left is deleted: that
  entity's name came only from erased turns, and no record may keep erased content;
* an active edge of which an end's dimensions changed (a removed belief was about it) is
  tested again on the remaining dimensions and undone when the test fails, with
  ``removed_by = "erasure:<id>"`` — the record names the erasure, never what it erased. A
  merge accepted by hand without a shared dimension fails the test too once an erasure
  touches it: what it rested on may have been erased, so it is undone (accept it again).

Both steps read the state as it is now, so re-running an interrupted erasure repeats them
harmlessly (an undone edge is not undone twice; a deleted one is not found again).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from eywa.ids import entity_id, entity_key
from eywa.models import utc_now
from eywa.nous.ledger import SpecResolver, merge_holds
from eywa.stores.bundle import GraphStores

__all__ = ["bare_merges", "has_evidence", "reevaluate_merges"]


def reevaluate_merges(
    stores: GraphStores,
    space: str,
    erasure_id: str,
    touched: Iterable[str],
    *,
    spec_for: SpecResolver | None = None,
    at: datetime | None = None,
) -> int:
    """Delete the merges of ``space`` with an end left without evidence, and undo the active
    ones about a ``touched`` entity (names or keys) that no longer pass the merge test.
    Returns how many edges were deleted or undone.

    Raises:
        StoreError: a store failed (re-running repeats what is left).
    """
    edges = stores.dimensions.same_as(space, include_removed=True)
    if not edges:
        return 0
    ends = sorted({key for edge in edges for key in (edge.source, edge.target)})
    bare = [key for key in ends if not has_evidence(stores, space, key)]
    removed = stores.dimensions.delete_same_as(space, bare)
    keys = {entity_key(name) for name in touched} - set(bare)
    when = at or utc_now()
    for edge in edges:
        if not edge.active or {edge.source, edge.target} & set(bare) or not {edge.source, edge.target} & keys:
            continue
        if not merge_holds(stores.dimensions, space, edge.source, edge.target, spec_for=spec_for):
            removed += stores.dimensions.remove_same_as(space, edge.source, edge.target, when, by=f"erasure:{erasure_id}")
    return removed


def bare_merges(stores: GraphStores, space: str) -> int:
    """Merge edges of ``space`` (active or undone) with an end left without evidence: what
    an erasure must have deleted (``eywa.erasure.proof`` counts them as residue).

    Raises:
        StoreError: a store failed.
    """
    edges = stores.dimensions.same_as(space, include_removed=True)
    ends = {key for edge in edges for key in (edge.source, edge.target)}
    bare = {key for key in ends if not has_evidence(stores, space, key)}
    return sum(1 for edge in edges if {edge.source, edge.target} & bare)


def has_evidence(stores: GraphStores, space: str, key: str) -> bool:
    """Whether a remaining turn mentions the entity (by key) or it holds a dimension."""
    if stores.evidence.evidence_mentioning(space, [entity_id(space, key)], 1):
        return True
    return bool(stores.dimensions.dimensions(space, key))
