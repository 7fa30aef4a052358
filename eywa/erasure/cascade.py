"""The erasure cascade: select, record and remove the turns, then everything derived from them.

Steps, each idempotent so that re-running an interrupted erasure (or the next open, through
``resume_erasures``) finishes it:

1. ``start_erasure`` resolves the selector, checks it (unknown ids: an error, nothing
   erased), and runs ``ErasureStore.begin`` — one transaction that records the erasure
   ``pending``, tombstones the ids and removes the turns and their keyword rows, rebuilding
   the neighbours' keyword context. From then on no read can return the erased text.
2. ``continue_erasure``: beliefs and candidates citing the turns go; every dimension they
   touched is replayed from its remaining deltas in event time (``forget_beliefs``), so it
   equals the dimension of a memory that never saw those turns; identity merges are tested
   again on what remains (``eywa.erasure.merges``: undone or deleted); the reasons of the
   corrections about the removed beliefs and candidates are cleared (a reason may quote the
   erased turns; the records stay); beliefs they had
   superseded are active again; the remaining turns those beliefs also cited are marked
   for Level 1 again, so what the remaining turns still support is re-extracted and
   re-validated (a new belief replaces the old one: ids hash the cited turns).
3. with a vector store: the erased turns' and removed beliefs' vectors are deleted and the
   vector of each turn next to an erased one (its windows held the erased text) is rebuilt; the
   embedded vector shards the erasure touched are rewritten with only their live points
   (``Stores.compactor``: a deleted point's vector stays in a shard's files until then, and
   so does a re-embedded neighbour's old vector, derived from the erased turn); the
   store's bookkeeping the turns left without a use goes (``ErasureStore.release``:
   emptied sessions; a dropped space's jobs, counters and space node); the store's files
   are scrubbed of what the deletions left in them (``ErasureStore.scrub``); then the
   record is marked ``done``. A process without the vector store (a worker) leaves the
   record ``pending`` and the ledger's ``embed_*`` marks for the one that has it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import datetime

from eywa import crashpoints
from eywa.embedding import Embedder
from eywa.erasure.merges import reevaluate_merges
from eywa.erasure.plan import ErasureReport, content_mac, merge_counts, new_erasure_id
from eywa.errors import EywaError, NotFoundError
from eywa.ids import content_hash
from eywa.indexing import embed_pending_evidence
from eywa.models import utc_now
from eywa.nous.ledger import SpecResolver, forget_beliefs
from eywa.stores.bundle import GraphStores, Stores
from eywa.stores.erasure import ErasedTurn, ErasureRecord, ErasureSelector
from eywa.stores.vectors import VectorKind

__all__ = ["continue_erasure", "erase", "finish_vectors", "remove_derived", "resume_erasures", "start_erasure"]

log = logging.getLogger(__name__)


def start_erasure(
    stores: GraphStores, space: str, selector: ErasureSelector, author: str | None, at: datetime | None = None
) -> ErasureRecord:
    """Resolve ``selector`` and commit step 1; returns the pending record.

    Raises:
        NotFoundError: an evidence id or external id of the selector names no stored turn
            (and, for evidence ids, no erased one); nothing is erased.
        StoreError: a store failed; nothing is erased.
    """
    ids = stores.erasure.select(space, selector)
    _refuse_unknown(stores, space, selector, ids)
    hashes = stores.erasure.content_hashes(space, ids)
    secret = stores.erasure.secret()
    beliefs = stores.beliefs.beliefs_citing(space, ids) if ids else []
    record = ErasureRecord(
        id=new_erasure_id(), space=space, at=at or utc_now(), author=author, selector=selector, state="pending",
        turns=tuple(ErasedTurn(evidence_id=i, content_mac=content_mac(secret, hashes[i])) for i in ids if i in hashes),
        belief_ids=tuple(sorted(b.id for b in beliefs)),
        candidate_ids=tuple(sorted(stores.beliefs.candidates_citing(space, ids))) if ids else (),
    )  # fmt: skip
    counts = stores.erasure.begin(record)
    stores.erasure.progress(record.id, counts)  # Neo4j: step 2 is another transaction
    crashpoints.reached("erasure_begun")
    return record.model_copy(update={"counts": counts})


def continue_erasure(
    stores: GraphStores,
    record: ErasureRecord,
    *,
    vectors: Stores | None = None,
    embedder: Embedder | None = None,
    embed_batch: int = 64,
    spec_for: SpecResolver | None = None,
) -> ErasureReport:
    """Steps 2 and 3 of ``record`` (safe to repeat); returns the report.

    Raises:
        StoreError: a store failed; the record stays ``pending`` and a re-run goes on.
        EmbedderError: rebuilding a neighbour's vector failed (same).
    """
    if _derived_removed(record):  # resumed after step 2 committed: nothing of it left to do
        counts = dict(record.counts)
    else:
        counts = remove_derived(stores, record, spec_for=spec_for)
    return finish_vectors(stores, record, counts, vectors=vectors, embedder=embedder, embed_batch=embed_batch)


def _derived_removed(record: ErasureRecord) -> bool:
    """Whether step 2 of ``record`` committed: its counts (``beliefs``…) were kept with it."""
    return "beliefs" in record.counts


def remove_derived(stores: GraphStores, record: ErasureRecord, *, spec_for: SpecResolver | None = None) -> dict[str, int]:
    """Step 2: beliefs and candidates citing the erased turns, their deltas (dimensions
    replayed), merges re-evaluated, their correction reasons cleared, beliefs they superseded revived, co-cited remaining turns
    marked for Level 1.
    Returns the counts so far.

    Raises:
        StoreError: a store failed.
    """
    space = record.space
    erased = [t.evidence_id for t in record.turns]
    # Beliefs a Level 1 committed after step 1 resolved them (on Neo4j, while step 1 waited
    # for their turns) are found again by the ids they cite: their links may be gone.
    late = set(stores.beliefs.beliefs_naming(space, erased)) if erased else set()
    belief_ids = sorted(set(record.belief_ids) | late)
    doomed = stores.beliefs.get_many(space, belief_ids)
    gone = set(erased)
    again = sorted({e for b in doomed for e in b.evidence_ids} - gone)
    now = utc_now()
    stores.ledger.mark(space, "embed_belief", belief_ids, "reprocess", now)  # their vectors go
    deltas = forget_beliefs(stores.dimensions, space, belief_ids, spec_for=spec_for)
    crashpoints.reached("erasure_dimensions_replayed")
    merges = reevaluate_merges(stores, space, record.id, {b.subject for b in doomed}, spec_for=spec_for)
    reasons = stores.corrections.forget_reasons(space, [*belief_ids, *record.candidate_ids], _quoting(stores, record))
    pairs = {(b.subject, b.attribute) for b in doomed if b.attribute is not None}
    superseded = {o.id for s, a in pairs for o in stores.beliefs.beliefs(space, s, a, "superseded")}
    stores.beliefs.delete(space, belief_ids, list(record.candidate_ids))
    revived = [o for o in stores.beliefs.get_many(space, sorted(superseded))
               if o.status == "superseded" and not stores.beliefs.superseded_by(space, o.id)]  # fmt: skip
    stores.beliefs.set_status(space, [o.id for o in revived], "active")
    if again:
        stores.ledger.mark(space, "level1", again, "reprocess", now)
        stores.ledger.mark(space, "nous", again, "reprocess", now)
    derived = {"beliefs": len(doomed), "candidates": len(record.candidate_ids), "deltas": deltas, "merges": merges,
               "correction_reasons": reasons}  # fmt: skip
    counts = merge_counts(record.counts, derived, {"beliefs_revived": len(revived)})
    stores.erasure.progress(record.id, counts)  # embedded: in step 1's transaction
    crashpoints.reached("erasure_beliefs_removed")
    return counts


def finish_vectors(
    stores: GraphStores,
    record: ErasureRecord,
    counts: dict[str, int],
    *,
    vectors: Stores | None = None,
    embedder: Embedder | None = None,
    embed_batch: int = 64,
) -> ErasureReport:
    """Step 3 with a vector store: erased vectors deleted, the turns beside them re-embedded, the
    record marked ``done``. Without one the record stays ``pending`` (module docstring).

    Raises:
        StoreError: a store failed.
        EmbedderError: the embedder failed.
    """
    space = record.space
    if vectors is None or embedder is None:
        return ErasureReport(erasure_id=record.id, space=space, state="pending", counts=counts)
    erased = [t.evidence_id for t in record.turns]
    belief_ids = sorted({*record.belief_ids, *(m.item_id for m in stores.ledger.pending("embed_belief", limit=10_000, space=space))})
    gone_beliefs = sorted(set(belief_ids) - {b.id for b in stores.beliefs.get_many(space, belief_ids)})
    vectors.vectors.delete("evidence", erased)
    vectors.vectors.delete("belief", gone_beliefs)
    stores.ledger.complete(space, "embed_belief", gone_beliefs)
    marks = [m.item_id for m in stores.ledger.pending_for(space, erased) if m.stage == "embed_evidence"]
    replied_to = [m.item_id for m in stores.ledger.pending("embed_evidence", limit=10_000, space=space)]
    embed_pending_evidence(vectors, embedder, space, sorted({*marks, *replied_to}), embed_batch)
    crashpoints.reached("erasure_vectors_rebuilt")
    if vectors.compactor is not None:  # before ``done``: an interrupted erasure rewrites them when resumed
        touched: tuple[tuple[VectorKind, bool], ...] = (
            ("evidence", bool(erased)), ("belief", bool(record.belief_ids or gone_beliefs)))  # fmt: skip
        for kind in (kind for kind, removed in touched if removed):
            vectors.compactor.compact(kind)
    stores.erasure.release(space)  # sessions left without turns; a dropped space's jobs, counters, node
    if not stores.erasure.scrub():  # before ``done``: an interrupted erasure is scrubbed when resumed
        log.warning("erasure %s: a reader held off the WAL checkpoint; the next erasure or close does it", record.id)
    counts = {**counts, "vectors": len(erased) + len(record.belief_ids)}
    stores.erasure.finish(record.id, counts, utc_now())
    return ErasureReport(erasure_id=record.id, space=space, state="done", counts=counts)


def erase(
    stores: GraphStores,
    space: str,
    selector: ErasureSelector,
    author: str | None,
    *,
    vectors: Stores | None = None,
    embedder: Embedder | None = None,
    embed_batch: int = 64,
    spec_for: SpecResolver | None = None,
) -> ErasureReport:
    """The whole cascade for one selector (``start_erasure`` then ``continue_erasure``).

    Raises:
        NotFoundError: unknown ids in the selector; nothing is erased.
        StoreError: a store failed (after step 1, the erasure finishes on re-run or next open).
    """
    with stores.erasure.atomic():  # embedded: steps 1 and 2 in one transaction
        record = start_erasure(stores, space, selector, author)
        counts = remove_derived(stores, record, spec_for=spec_for)
    return finish_vectors(stores, record, counts, vectors=vectors, embedder=embedder, embed_batch=embed_batch)


def resume_erasures(
    stores: GraphStores,
    *,
    vectors: Stores | None = None,
    embedder: Embedder | None = None,
    embed_batch: int = 64,
    on_error: Callable[[str, EywaError], None] | None = None,
) -> list[ErasureReport]:
    """Finish every ``pending`` erasure (on open, in the beat): step 1 again (a no-op when it
    committed), then steps 2 and 3.

    Raises:
        StoreError: a store failed and no ``on_error`` was given.
    """
    reports = []
    for record in stores.erasure.erasures(state="pending"):
        try:
            # What the interrupted run removed was kept with the record (``progress``); a
            # step 1 repeated here removes nothing more once it had committed.
            record = record.model_copy(update={"counts": merge_counts(record.counts, stores.erasure.begin(record))})
            reports.append(continue_erasure(stores, record, vectors=vectors, embedder=embedder, embed_batch=embed_batch))
        except EywaError as exc:  # reported to the caller, who logs it; the next pass retries
            if on_error is None:
                raise
            on_error(record.id, exc)
    return reports


def _quoting(stores: GraphStores, record: ErasureRecord) -> list[str]:
    """Ids of the corrections whose reason is the very text of an erased turn (keyed hashes
    compared: the text itself is gone)."""
    macs = {t.content_mac for t in record.turns}
    secret = stores.erasure.secret()
    return [
        c.id for c in stores.corrections.corrections(record.space)
        if c.reason is not None and content_mac(secret, content_hash(c.reason)) in macs
    ]  # fmt: skip


def _refuse_unknown(stores: GraphStores, space: str, selector: ErasureSelector, ids: Sequence[str]) -> None:
    if selector.evidence_ids is not None:
        found = set(stores.erasure.select(space, ErasureSelector(evidence_ids=selector.evidence_ids)))
        missing = [i for i in selector.evidence_ids if i not in found]
        erased = stores.tombstones.tombstoned(space, missing) if missing else set()
        unknown = [i for i in missing if i not in erased]
        if unknown:
            raise NotFoundError("evidence", space, unknown[0])
    if selector.external_ids is not None:
        turns = stores.evidence.get(space, stores.erasure.select(space, ErasureSelector(external_ids=selector.external_ids)))
        known = {t.external_id for t in turns}
        unknown = [i for i in selector.external_ids if i not in known]
        if unknown:
            raise NotFoundError("external id", space, unknown[0])
