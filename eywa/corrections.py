"""Corrections: a person's decisions about what the memory holds, each audited.

Level 1 derives beliefs; people correct them. Four operations, each with its author (the key
id over HTTP) and a :class:`~eywa.stores.corrections.CorrectionRecord`:

* ``retract_belief`` (a reason is required): the belief becomes ``retracted`` (it leaves
  recall and the keyword index), its deltas are removed and every dimension it changed is
  replayed in event time without it — the replay erasure uses — and a belief it had
  superseded is active again when nothing else supersedes it.
* ``confirm_belief``: the belief's observations get the reliability of a confirmed report
  (``eywa.nous.math.confirmed_reliability``) and its dimensions are replayed with it.
* ``accept_candidate``: a refused candidate becomes a belief (its repaired form when the
  validator named a repair: polarity flipped, claim hedged), written, superseding and
  observed exactly as Level 1 would, with the extractor ``operator``; the candidate goes.
* ``dismiss_candidate``: a ``repair`` candidate leaves the repair queue (status
  ``rejected``); the automatic repair pass no longer retries it.

Identity merges are a person's decisions too, kept as ``SAME_AS`` edges rather than records
(``eywa.nous.identity``); ``accept_merge`` and ``undo_merge`` here answer their retries.

A correction sent again after its answer was lost (a dropped connection, a replica killed
after its commit, ``eywa.Client`` retrying) is answered by the record it made, and records
nothing more, as ``Memory.forget`` answers a retried forget: when the latest record of its
target is of the same kind, by the same author with the same reason, the call is that
correction's retry (``_retried``). So a person who repeats a correction word for word is
answered by the first; a *different* correction the item's state no longer allows (another
reason or author retracting a retracted belief, accepting an accepted candidate) is refused
with ``ConflictError``.

Crash safety follows the erasure's rule. On the embedded store each operation is one
transaction (``ErasureStore.atomic``). On Neo4j its steps are idempotent and the record is
written last, so an operation interrupted between steps is finished by calling it again: a
belief found ``retracted`` without its record is finished, not refused. An acceptance writes
its record before the candidate goes (the candidate is what a call finds again), so one cut
short between the two is finished by the same acceptance.
"""

from __future__ import annotations

import secrets
from datetime import datetime

from eywa import crashpoints
from eywa.errors import ConflictError, InvalidInputError, NotFoundError
from eywa.extraction.pipeline import belief_of_fact, settle_supersession
from eywa.ids import entity_key
from eywa.level1 import repaired_fact, update_dimensions
from eywa.models import Belief, Candidate, utc_now
from eywa.nous import ledger as nous
from eywa.nous.ledger import forget_beliefs, reweigh_beliefs
from eywa.nous.math import confirmed_reliability
from eywa.nous.params import DEFAULT_PARAMS, NousParams
from eywa.stores.bundle import GraphStores
from eywa.stores.corrections import CorrectionKind, CorrectionRecord
from eywa.stores.dimensions import DimensionStore, SameAsEdge

__all__ = [
    "OPERATOR", "accept_candidate", "accept_merge", "confirm_belief", "dismiss_candidate", "retract_belief",
    "undo_merge",
]  # fmt: skip

OPERATOR = "operator"
"""The extractor name of beliefs a person accepted (reprocessing never replaces them)."""


def retract_belief(
    stores: GraphStores, space: str, belief_id: str, *, reason: str, author: str | None, at: datetime | None = None
) -> CorrectionRecord:
    """Retract ``belief_id`` (module docstring); returns the record.

    Raises:
        InvalidInputError: a blank reason.
        NotFoundError: no such belief in ``space``.
        ConflictError: the belief is already retracted, by another author or for another
            reason (the same retraction sent again is answered by its record).
        StoreError: a store failed (a re-run finishes the retraction).
    """
    if not reason or not reason.strip():
        raise InvalidInputError.at("reason", "a retraction needs a reason")
    belief = _belief(stores, space, belief_id)
    if belief.status == "retracted" and _recorded(stores, space, belief_id, "retract_belief"):
        if (done := _retried(stores, space, belief_id, "retract_belief", author, reason)) is not None:
            return done
        raise ConflictError("belief", space, belief_id, "already retracted")
    with stores.erasure.atomic():
        forget_beliefs(stores.dimensions, space, [belief_id])
        stores.beliefs.set_status(space, [belief_id], "retracted")
        _revive_superseded(stores, space, belief)
        record = _record(stores, space, "retract_belief", belief_id, author, reason, at)
    crashpoints.reached("correction_recorded")
    return record


def confirm_belief(
    stores: GraphStores,
    space: str,
    belief_id: str,
    *,
    reason: str | None = None,
    author: str | None,
    at: datetime | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> CorrectionRecord:
    """Confirm ``belief_id``: its observations weigh as confirmed (module docstring).

    A belief about no dimension is only recorded as confirmed (``reliability_*`` None).

    Raises:
        NotFoundError: no such belief in ``space``.
        ConflictError: the belief is retracted.
        StoreError: a store failed (confirming again finishes it).
    """
    belief = _belief(stores, space, belief_id)
    if belief.status == "retracted":
        raise ConflictError("belief", space, belief_id, "retracted")
    if (done := _retried(stores, space, belief_id, "confirm_belief", author, reason)) is not None:
        return done  # not confirmed twice: a second confirmation would raise the reliability again
    deltas = stores.dimensions.deltas_of_beliefs(space, [belief_id])
    before = max((d.reliability for d in deltas), default=None)
    after = confirmed_reliability(before, params.rho_confirmed) if before is not None else None
    with stores.erasure.atomic():
        if after is not None and after != before:
            reweigh_beliefs(stores.dimensions, space, {belief_id: after}, params=params)
        record = _record(stores, space, "confirm_belief", belief_id, author, reason, at, before=before, after=after)
    crashpoints.reached("correction_recorded")
    return record


def accept_candidate(
    stores: GraphStores,
    space: str,
    candidate_id: str,
    *,
    reason: str | None = None,
    author: str | None,
    at: datetime | None = None,
) -> CorrectionRecord:
    """Turn a refused candidate into a belief (module docstring); the record names it.

    Raises:
        NotFoundError: no such candidate in ``space``.
        ConflictError: the candidate was accepted already, by another author or for another
            reason (the same acceptance sent again is answered by its record).
        StoreError: a store failed (accepting again finishes it).
    """
    found = stores.beliefs.get_candidates(space, [candidate_id])
    if not found:  # never held, or accepted (an accepted candidate is gone)
        if (done := _retried(stores, space, candidate_id, "accept_candidate", author, reason)) is not None:
            return done
        if (accepted := _recorded(stores, space, candidate_id, "accept_candidate")):
            raise ConflictError("candidate", space, candidate_id, f"already accepted as {accepted[-1].belief_id}")
        raise NotFoundError("candidate", space, candidate_id)
    if (done := _retried(stores, space, candidate_id, "accept_candidate", author, reason)) is not None:
        stores.beliefs.delete(space, [], [candidate_id])  # cut short after its record: finished
        return done
    candidate = found[0]
    fact = repaired_fact(candidate) or candidate.fact
    cited = stores.evidence.get(space, list(fact.evidence_ids))
    belief = belief_of_fact(space, fact, candidate.report, cited, OPERATOR, at or utc_now())
    with stores.erasure.atomic():
        stores.beliefs.add([belief], [])
        settle_supersession(stores.beliefs, belief, evidence_store=stores.evidence)
        held = stores.beliefs.get(space, belief.id) or belief
        if held.status != "retracted":
            update_dimensions(stores, space, [held])
        # The record before the candidate goes: a call cut short between them still finds the
        # candidate, and calling it again finishes it (above); the other way round it found
        # neither, and was refused as an unknown candidate with the acceptance unrecorded.
        record = _record(stores, space, "accept_candidate", candidate_id, author, reason, at, belief_id=belief.id)
        stores.beliefs.delete(space, [], [candidate_id])
    crashpoints.reached("correction_recorded")
    return record


def dismiss_candidate(
    stores: GraphStores,
    space: str,
    candidate_id: str,
    *,
    reason: str | None = None,
    author: str | None,
    at: datetime | None = None,
) -> CorrectionRecord:
    """Take a ``repair`` candidate out of the repair queue (it stays, ``rejected``, for audit).

    Raises:
        NotFoundError: no such candidate in ``space``.
        ConflictError: the candidate is not in the repair queue (the same dismissal sent
            again is answered by its record).
        StoreError: a store failed.
    """
    candidate = _candidate(stores, space, candidate_id)
    if candidate.status == "rejected" and (
        done := _retried(stores, space, candidate_id, "dismiss_candidate", author, reason)
    ) is not None:
        return done
    if candidate.status != "repair":
        raise ConflictError("candidate", space, candidate_id, f"{candidate.status}, not in the repair queue")
    with stores.erasure.atomic():
        stores.beliefs.set_candidate_status(space, [candidate_id], "rejected")
        record = _record(stores, space, "dismiss_candidate", candidate_id, author, reason, at)
    crashpoints.reached("correction_recorded")
    return record


def accept_merge(
    store: DimensionStore, space: str, source: str, target: str, score: float, *, author: str | None
) -> SameAsEdge:
    """Merge ``source`` into ``target`` (``nous.accept_merge``); an active merge of the same
    direction, score and author is this call's retry and answers it as it is: merged again,
    the edge took the retry's time, and the answer was not the one that was lost."""
    # The one edge of this direction, read by its key: listing the space's merges made every
    # accept cost as much as the space held.
    edge = store.same_as_edge(space, entity_key(source), entity_key(target))
    if edge is not None and edge.active and (edge.score, edge.author) == (score, author):
        return edge
    merged = nous.accept_merge(store, space, source, target, score=score, author=author)
    crashpoints.reached("merge_recorded")
    return merged


def undo_merge(store: DimensionStore, space: str, source: str, target: str, *, author: str | None) -> bool:
    """Undo the merge of the two entities (``nous.undo_merge``); True when it was undone, by
    this call or, for an undo sent again after its answer was lost, by the same author the
    last time (no active merge of the two left). False when the two were not merged."""
    if nous.undo_merge(store, space, source, target, author=author):
        crashpoints.reached("merge_recorded")
        return True
    pair = {entity_key(source), entity_key(target)}
    undone = [e for e in store.same_as(space, include_removed=True) if {e.source, e.target} == pair]
    latest = max(undone, key=lambda e: e.removed_at or e.at, default=None)
    return latest is not None and not latest.active and latest.removed_by == author


def _belief(stores: GraphStores, space: str, belief_id: str) -> Belief:
    belief = stores.beliefs.get(space, belief_id)
    if belief is None:
        raise NotFoundError("belief", space, belief_id)
    return belief


def _candidate(stores: GraphStores, space: str, candidate_id: str) -> Candidate:
    found = stores.beliefs.get_candidates(space, [candidate_id])
    if not found:
        raise NotFoundError("candidate", space, candidate_id)
    return found[0]


def _recorded(stores: GraphStores, space: str, target_id: str, kind: CorrectionKind) -> list[CorrectionRecord]:
    """The records of ``kind`` about ``target_id``, oldest first."""
    return stores.corrections.corrections(space, target_id=target_id, kinds=[kind])


def _retried(
    stores: GraphStores, space: str, target_id: str, kind: CorrectionKind, author: str | None, reason: str | None
) -> CorrectionRecord | None:
    """The record of the correction this call repeats, when it is the latest about
    ``target_id`` (module docstring): the same kind, author and reason (as recorded: stripped).

    Only the latest counts, so a retry that arrives after another correction of the same
    item is not mistaken for the state it left; a reason erasure cleared (``forget_reasons``)
    no longer matches, and the call is judged as a new one."""
    records = stores.corrections.corrections(space, target_id=target_id)
    latest = records[-1] if records else None
    if latest is not None and (latest.kind, latest.author, latest.reason) == (kind, author, _said(reason)):
        return latest
    return None


def _said(reason: str | None) -> str | None:
    """A reason as a record keeps it."""
    return reason.strip() if reason else None


def _revive_superseded(stores: GraphStores, space: str, belief: Belief) -> None:
    """Beliefs ``belief`` superseded are active again when no active belief supersedes them."""
    if belief.attribute is None:
        return
    for old in stores.beliefs.beliefs(space, belief.subject, belief.attribute, "superseded"):
        newer = stores.beliefs.get_many(space, stores.beliefs.superseded_by(space, old.id))
        if belief.id in {n.id for n in newer} and not any(n.status == "active" for n in newer if n.id != belief.id):
            stores.beliefs.set_status(space, [old.id], "active")


def _record(
    stores: GraphStores,
    space: str,
    kind: CorrectionKind,
    target_id: str,
    author: str | None,
    reason: str | None,
    at: datetime | None,
    *,
    belief_id: str | None = None,
    before: float | None = None,
    after: float | None = None,
) -> CorrectionRecord:
    record = CorrectionRecord(
        id=f"cor_{secrets.token_hex(12)}", space=space, kind=kind, target_id=target_id, author=author,
        reason=_said(reason), at=at or utc_now(), belief_id=belief_id,
        reliability_before=before, reliability_after=after,
    )  # fmt: skip
    stores.corrections.record(record)
    return record
