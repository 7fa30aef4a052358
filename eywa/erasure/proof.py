"""The erasure proof: zero residue of one erasure, checked through the stores themselves.

Three parts, all computed by Eywa from what is stored now (the content is gone, so nothing is
recomputed from it):

* the ``erasure_proof`` audit (Cypher in Neo4j, its SQL twin in the embedded store): rows
  or nodes of each kind still holding an erased id (turns, signals, mentions, keyword rows,
  beliefs, candidates, deltas, pending marks, Level 1 job records);
* the vector store: points still stored under an erased id (``VectorStore.missing``);
* merges: identity merges (active or undone) with an entity that has no evidence left, whose
  name therefore came only from erased turns (``eywa.erasure.merges``);
* correction reasons: records about an erased belief or candidate that still hold a reason,
  and records whose reason is, keyed the same way, the very text of an erased turn;
* content: remaining turns whose ``content_hash``, keyed with the deployment's secret,
  equals an erased turn's ``content_mac``. Another turn with the very same text was not
  selected and may legitimately remain (two people both said "yes"); it is counted
  apart as ``same_text_kept``, not as residue.
"""

from __future__ import annotations

from eywa.erasure.merges import bare_merges
from eywa.erasure.plan import ErasureProof, content_mac
from eywa.errors import NotFoundError
from eywa.ids import content_hash
from eywa.stores.audit import run_audit
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.erasure import ErasureRecord

__all__ = ["erasure_proof"]


def erasure_proof(stores: GraphStores, space: str, erasure_id: str, vectors: Stores | None = None) -> ErasureProof:
    """The residue of ``erasure_id`` per kind (0 everywhere proves it), plus ``same_text_kept``.

    Raises:
        NotFoundError: no such erasure in ``space``.
        StoreError: a store failed.
    """
    record = stores.erasure.get(erasure_id)
    if record is None or record.space != space:
        raise NotFoundError("erasure", space, erasure_id)
    rows = run_audit(stores.audit, "erasure_proof", {"space": space, "erasure": erasure_id}).records()
    residue = {str(r["kind"]): int(r["residue"]) for r in rows}
    erased = [t.evidence_id for t in record.turns]
    if vectors is not None and erased:
        residue["vectors"] = len(erased) - len(vectors.vectors.missing("evidence", erased))
        residue["belief_vectors"] = (
            len(record.belief_ids) - len(vectors.vectors.missing("belief", list(record.belief_ids)))
            if record.belief_ids
            else 0
        )
    secret = stores.erasure.secret()
    macs = {t.content_mac for t in record.turns}
    residue["correction_reasons"] = _correction_reasons(stores, record, secret, macs)
    residue["merges"] = bare_merges(stores, space)
    kept = stores.erasure.content_hashes(space)
    same_text = sum(1 for h in kept.values() if content_mac(secret, h) in macs)
    return ErasureProof(
        erasure_id=erasure_id, space=space, turns=len(erased), residue=dict(sorted(residue.items())),
        same_text_kept=same_text,
    )


def _correction_reasons(stores: GraphStores, record: ErasureRecord, secret: bytes, macs: set[str]) -> int:
    """Correction records whose reason may still carry the erased words (module docstring)."""
    erased_items = {*record.belief_ids, *record.candidate_ids}
    return sum(
        1 for c in stores.corrections.corrections(record.space) if c.reason is not None
        and ({c.target_id, c.belief_id} & erased_items or content_mac(secret, content_hash(c.reason)) in macs)
    )  # fmt: skip
