"""Level 1 as one workflow: extraction, validation and supersession, then the Nous update.

``run_level1`` is the only Level 1 path. The embedded ``Memory`` calls it in-process after
Level 0; the Celery task ``eywa.extract_and_validate`` calls it in a worker with the ids of
turns the API stored. Both pass the graph stores (a ``GraphStores`` bundle; a full ``Stores``
is one too) and a ``dimension_lock``: a worker takes a Redis lease per dimension, so two
workers never interleave one dimension's read-modify-write; in-process, the default takes
no lock (one process, one Level 1 thread).

What to do comes from the stage ledger (``eywa.stores.ledger``), not from the caller: a turn
is read by the extractor only while its ``level1`` mark is pending, and each batch clears the
marks in the transaction that stores its beliefs; its dimensions are updated only while its
``nous`` mark is pending, cleared after the update. So a pass interrupted anywhere (a crash,
a killed worker, a lost broker message) is finished by the next pass over the same turns, and
a pass over turns already done writes nothing. Every write is idempotent besides
(deterministic ids, stores skip what exists, the Nous ledger skips known deltas), so work
repeated after a crash writes nothing twice. The Nous update applies every non-retracted
belief citing the turns, not only the newly written ones.

Vectors are not touched here: new beliefs carry ``embed_belief`` marks that the process
holding the vector store finishes (``eywa.reconcile``).

``repair_candidates`` re-validates the repaired form of ``repair`` candidates through the
same extraction step and the same Nous update.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Iterable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

from eywa import crashpoints
from eywa.attributes import get_attribute
from eywa.extraction.base import Extractor, extractor_version
from eywa.extraction.pipeline import Level1Report, belief_id, extract_beliefs, settle_supersession
from eywa.extraction.validator import Validator
from eywa.ids import entity_key
from eywa.models import Belief, Candidate, CandidateFact, Delta, Evidence, ReasonCode, utc_now
from eywa.nous.ledger import apply_beliefs, forget_beliefs
from eywa.nous.observations import Observation, observation_from_belief
from eywa.stores.bundle import GraphStores
from eywa.stores.ledger import DERIVED_STAGES

__all__ = [
    "DimensionKey",
    "DimensionLock",
    "Level1Outcome",
    "RepairOutcome",
    "group_by_dimension",
    "no_lock",
    "repair_candidates",
    "repaired_fact",
    "replace_outdated",
    "run_level1",
    "settle_written",
    "update_dimensions",
]

DimensionKey = tuple[str, str, str]
"""(space, entity key, canonical attribute): what one dimension lock guards."""

DimensionLock = Callable[[DimensionKey], AbstractContextManager[object]]
"""Gives the context manager to hold while one dimension is updated."""


def no_lock(key: DimensionKey) -> AbstractContextManager[object]:
    """The in-process default: one Level 1 thread per memory needs no lock."""
    return nullcontext()


@dataclass(frozen=True)
class Level1Outcome:
    """What one Level 1 pass did, end to end.

    ``report`` is None when no extractor ran (none configured, or no turn still owed
    Level 1); ``beliefs`` counts the beliefs applied to dimensions.
    """

    report: Level1Report | None
    beliefs: int
    deltas: tuple[Delta, ...]
    level1_done: int = 0
    nous_done: int = 0


def run_level1(
    stores: GraphStores,
    space: str,
    evidence_ids: Sequence[str],
    extractor: Extractor | None,
    validator: Validator,
    *,
    batch_size: int,
    dimension_lock: DimensionLock = no_lock,
) -> Level1Outcome:
    """Finish the ``level1`` and ``nous`` stages that the ledger says ``evidence_ids`` still owe.

    In order: settle supersession of beliefs already written for turns whose dimensions are
    pending (a previous pass may have stopped between a batch and its supersession); replace
    what another version of the extractor proposed about the turns to read again
    (``eywa reprocess``), or any version about turns whose signals were detected again and
    changed (marks of reason ``signals``, ``eywa.rederive``; the other turns those beliefs
    cite are read again with them); extract, validate and store, each batch in the transaction that
    clears its turns' ``level1``; then update the dimensions of every non-retracted belief
    citing the turns whose Level 1 is done, and clear their ``nous``. Tombstoned turns only
    lose their marks. Without an extractor, ``level1`` stays pending (another process, a
    worker, owns it) and only turns already past it get their dimension update.

    Raises:
        ExtractorError: the extractor failed; what earlier batches wrote stays, and a re-run
            continues where it stopped.
        StoreError: a store (or the lock's backend) failed.
    """
    ids = list(dict.fromkeys(evidence_ids))
    erased = stores.tombstones.tombstoned(space, ids)
    if erased:
        for stage in DERIVED_STAGES:
            stores.ledger.complete(space, stage, sorted(erased))
        ids = [i for i in ids if i not in erased]
    marks = stores.ledger.pending_for(space, ids)
    resignalled = {m.item_id for m in marks if m.stage == "level1" and m.reason == "signals"}
    if resignalled and extractor is not None:
        ids += _read_with(stores, space, ids, resignalled)
        marks = stores.ledger.pending_for(space, ids)
    owed = {(m.item_id, m.stage) for m in marks}
    to_read = in_turn_order(stores, space, [i for i in ids if (i, "level1") in owed]) if extractor is not None else []
    to_settle = [i for i in ids if (i, "nous") in owed and (i, "level1") not in owed]
    settle_written(stores, space, to_settle)
    report = None
    if extractor is not None and to_read:
        replace_outdated(stores, space, to_read, extractor, reread=resignalled)
        report = extract_beliefs(
            space=space, evidence_ids=to_read, evidence_store=stores.evidence, belief_store=stores.beliefs,
            extractor=extractor, validator=validator, batch_size=batch_size, complete_stage=True,
            decided=lambda: decided_candidates(stores, space),
            unread=lambda ids: {m.item_id for m in stores.ledger.pending_for(space, ids) if m.stage == "level1"},
        )  # fmt: skip
        crashpoints.reached("beliefs_written")
    ready = [i for i in ids if (i, "nous") in owed and ((i, "level1") not in owed or i in set(to_read))]
    citing = [b for b in stores.beliefs.beliefs_citing(space, ready) if b.status != "retracted"]
    deltas = update_dimensions(stores, space, citing, dimension_lock=dimension_lock)
    crashpoints.reached("dimensions_updated")
    settled = stores.ledger.complete(space, "nous", ready)
    return Level1Outcome(
        report=report, beliefs=len(citing), deltas=tuple(deltas), level1_done=len(to_read), nous_done=settled
    )


def decided_candidates(stores: GraphStores, space: str) -> set[str]:
    """The candidates of ``space`` a person accepted or dismissed (``eywa.corrections``).

    Their decision outlives a new extractor version, as a retraction does: ``eywa reprocess``
    neither replaces a dismissed candidate nor writes an accepted (or dismissed) one back
    into the repair queue when the next version proposes the same fact again — where the
    beat's repair pass would turn a dismissed one into a belief.

    Raises:
        StoreError: the correction log cannot be read.
    """
    records = stores.corrections.corrections(space, kinds=("accept_candidate", "dismiss_candidate"))
    return {c.target_id for c in records}


def in_turn_order(stores: GraphStores, space: str, evidence_ids: Sequence[str]) -> list[str]:
    """``evidence_ids`` in conversation order (time said, session, position), whatever order
    they came in: a batch, a crash's leftovers and a reprocessing read turns, and settle
    supersession, in the same order, so they reach the same beliefs. Ids without a turn
    (erased) come last."""
    turns = sorted(stores.evidence.get(space, evidence_ids), key=lambda t: (t.observed_at, t.session, t.seq, t.id))
    known = [t.id for t in turns]
    return known + sorted(set(evidence_ids) - set(known))


def settle_written(stores: GraphStores, space: str, evidence_ids: Sequence[str]) -> int:
    """Settle supersession of the beliefs citing ``evidence_ids``, in event-time order.

    Batch by batch, extraction settles what it wrote right after writing it; a crash in
    between leaves a batch recorded as read but unsettled. Settling again is a no-op for
    beliefs already settled, so the turns whose dimension update is pending are settled
    first, before later batches are read, as an uninterrupted run would have. Returns the
    new ``SUPERSEDES`` edges.

    Raises:
        StoreError: a store failed.
    """
    if not evidence_ids:
        return 0
    written = sorted(stores.beliefs.beliefs_citing(space, evidence_ids), key=lambda b: (b.event_at or b.recorded_at, b.id))
    return sum(settle_supersession(stores.beliefs, b, evidence_store=stores.evidence) for b in written)


def _read_with(stores: GraphStores, space: str, ids: Sequence[str], resignalled: set[str]) -> list[str]:
    """The other turns cited by beliefs of turns whose signals changed (``eywa.rederive``):
    replacing those beliefs takes what reading the other turns proposed too (a reply's fact
    cites the question before it), so they are read again as well. Their ``level1`` and
    ``nous`` are marked (reason ``signals``) before anything is removed, so a crash in
    between leaves them owed."""
    beliefs = stores.beliefs.beliefs_citing(space, sorted(resignalled))
    others = sorted({i for b in beliefs for i in b.evidence_ids} - set(ids))
    if others:
        at = utc_now()
        for stage in DERIVED_STAGES:
            stores.ledger.mark(space, stage, others, "signals", at)
    return others


def replace_outdated(
    stores: GraphStores, space: str, evidence_ids: Sequence[str], extractor: Extractor, *, reread: Collection[str] = ()
) -> int:
    """Remove what another version of ``extractor`` proposed about turns it is about to read.

    ``reread`` are turns among them whose signals were detected again and changed
    (``eywa.rederive``, marks of reason ``signals``): what any version proposed citing them
    goes too, since it was validated against the signals they no longer carry.

    Beliefs and candidates citing the turns whose extractor is ``extractor`` (or its
    ``repair:`` form) with another version go, except retracted beliefs and candidates a
    person dismissed (a correction stands: the same fact proposed again has the same id and
    stays retracted, or dismissed; ``decided_candidates``): their deltas are forgotten and the touched
    dimensions replayed (``eywa.nous.ledger.forget_beliefs``), their vectors are marked for
    removal (``embed_belief`` on an id without a belief), and beliefs they had superseded are
    active again until the new beliefs settle. What the current version proposes again is
    written back by the extraction that follows, so replacing twice equals replacing once.
    Returns the beliefs removed.

    Raises:
        StoreError: a store failed.
    """
    names = {extractor.name, f"repair:{extractor.name}"}
    version = extractor_version(extractor)

    def outdated(name: str, made_by: str | None, cited: Sequence[str]) -> bool:
        return name in names and (made_by != version or not reread_set.isdisjoint(cited))

    reread_set = set(reread)

    # A retracted belief stays: a person's correction outlives a new extractor version, and a
    # fact proposed again hashes to the same id, which the store then keeps as it is.
    doomed = [
        b for b in stores.beliefs.beliefs_citing(space, evidence_ids)
        if outdated(b.extractor, b.extractor_version, b.evidence_ids) and b.status != "retracted"
    ]  # fmt: skip
    candidates = stores.beliefs.get_candidates(space, stores.beliefs.candidates_citing(space, evidence_ids))
    stale = [c.id for c in candidates if outdated(c.extractor, c.extractor_version, c.fact.evidence_ids)]
    if stale:  # a dismissed candidate stays, as a retracted belief does
        decided = decided_candidates(stores, space)
        stale = [i for i in stale if i not in decided]
    if not doomed and not stale:
        return 0
    ids = [b.id for b in doomed]
    stores.ledger.mark(space, "embed_belief", ids, "reprocess", utc_now())
    forget_beliefs(stores.dimensions, space, ids)
    pairs = {(b.subject, b.attribute) for b in doomed if b.attribute is not None}
    superseded = {o.id for subject, attribute in pairs for o in stores.beliefs.beliefs(space, subject, attribute, "superseded")}
    stores.beliefs.delete(space, ids, stale)
    revived = [o for o in stores.beliefs.get_many(space, sorted(superseded)) if o.status == "superseded"
               and not stores.beliefs.superseded_by(space, o.id)]  # fmt: skip
    stores.beliefs.set_status(space, [o.id for o in revived], "active")
    return len(ids)


def group_by_dimension(beliefs: Iterable[Belief], cited: Sequence[Evidence]) -> dict[DimensionKey, list[Observation]]:
    """The observations of ``beliefs`` by the dimension they update, keyed as the ledger keys it."""
    groups: dict[DimensionKey, list[Observation]] = defaultdict(list)
    for belief in beliefs:
        observation = observation_from_belief(belief, cited, get_attribute(belief.attribute) if belief.attribute else None)
        if observation is not None:
            key = (observation.space, entity_key(observation.entity), get_attribute(observation.attribute).name)
            groups[key].append(observation)
    return dict(groups)


def update_dimensions(
    stores: GraphStores, space: str, beliefs: Sequence[Belief], *, dimension_lock: DimensionLock = no_lock
) -> list[Delta]:
    """The Nous update: each (entity, attribute, value) belief observes its dimension.

    One dimension at a time, in key order, each under ``dimension_lock(key)``. Returns the
    deltas that were new (re-applying a belief writes nothing).

    Raises:
        StoreError: a store (or the lock's backend) failed.
    """
    if not beliefs:
        return []
    cited = stores.evidence.get(space, sorted({i for b in beliefs for i in b.evidence_ids}))
    created: list[Delta] = []
    for key, observations in sorted(group_by_dimension(beliefs, cited).items()):
        with dimension_lock(key):
            created.extend(apply_beliefs(stores.dimensions, observations))
        crashpoints.reached("dimension_saved")
    return created


# --- repair of "repair" candidates --------------------------------------------------------


def repaired_fact(candidate: Candidate) -> CandidateFact | None:
    """The candidate's fact with its faulty flags fixed, or None when it is not repairable.

    The validator marks a candidate repairable when it failed only ``polarity_flip`` (the
    evidence negates what it asserts, or the reverse) and/or ``modality_lost`` (the evidence
    hedges what it asserts). The fix is the flag: flip the polarity, mark the claim hedged.
    """
    reasons = set(candidate.reasons)
    if not reasons or not reasons <= {ReasonCode.POLARITY_FLIP, ReasonCode.MODALITY_LOST}:
        return None
    fact = candidate.fact
    update: dict[str, object] = {}
    if ReasonCode.POLARITY_FLIP in reasons:
        update["polarity"] = "negative" if fact.polarity == "positive" else "positive"
    if ReasonCode.MODALITY_LOST in reasons:
        update["modality"] = "hedged"
    return fact.model_copy(update=update)


@dataclass(frozen=True)
class _Proposals:
    """An extractor that proposes the given facts for the turns they cite."""

    facts: tuple[CandidateFact, ...]
    origin: str

    @property
    def name(self) -> str:
        return f"repair:{self.origin}"

    def propose(self, space: str, evidence: Sequence[Evidence]) -> Iterable[CandidateFact]:
        present = {e.id for e in evidence}
        return [f for f in self.facts if present.intersection(f.evidence_ids)]


@dataclass(frozen=True)
class RepairOutcome:
    """What one repair pass of a space did (``report`` of the last re-validation, if any)."""

    space: str
    examined: int
    repaired: int
    report: Level1Report | None
    deltas: tuple[Delta, ...] = ()


def repair_candidates(
    stores: GraphStores,
    space: str,
    validator: Validator,
    *,
    limit: int = 500,
    dimension_lock: DimensionLock = no_lock,
) -> RepairOutcome:
    """Re-validate the repaired form of up to ``limit`` repairable candidates of ``space``.

    The repaired facts are the proposals of a tiny extractor named ``repair:<extractor>``,
    so they are validated again, get deterministic ids and take part in supersession like
    any belief; accepted ones update their dimensions. A candidate whose repair was
    accepted is deleted (its belief replaces it); one that still fails stays. Idempotent.

    Raises:
        StoreError: a store failed (nothing is deleted before its belief is written).
    """
    candidates = stores.beliefs.candidates(space, status="repair")[:limit]
    fixes = {c.id: f for c in candidates if (f := repaired_fact(c)) is not None}
    if not fixes:
        return RepairOutcome(space=space, examined=len(candidates), repaired=0, report=None)
    by_origin: dict[str, list[Candidate]] = {}
    for cand in candidates:
        if cand.id in fixes:
            by_origin.setdefault(cand.extractor, []).append(cand)
    repaired: list[str] = []
    report: Level1Report | None = None
    deltas: list[Delta] = []
    for origin, group in sorted(by_origin.items()):
        facts = tuple(fixes[c.id] for c in group)
        evidence_ids = sorted({i for f in facts for i in f.evidence_ids})
        report = extract_beliefs(
            space=space, evidence_ids=evidence_ids, evidence_store=stores.evidence, belief_store=stores.beliefs,
            extractor=_Proposals(facts=facts, origin=origin), validator=validator, batch_size=len(evidence_ids),
        )  # fmt: skip
        deltas += update_dimensions(stores, space, report.beliefs, dimension_lock=dimension_lock)
        held = {b.id for b in stores.beliefs.get_many(space, [belief_id(space, fixes[c.id]) for c in group])}
        repaired.extend(c.id for c in group if belief_id(space, fixes[c.id]) in held)
    if repaired:
        stores.beliefs.delete(space, [], repaired)
    return RepairOutcome(
        space=space, examined=len(candidates), repaired=len(repaired), report=report, deltas=tuple(deltas)
    )
