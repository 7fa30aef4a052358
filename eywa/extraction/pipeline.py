"""The extraction step of Level 1: propose → validate → store → supersede.

``extract_beliefs`` is the step ``eywa.level1.run_level1`` (the one Level 1 workflow) runs
before the Nous update. Ids are deterministic (same candidate on the same evidence → same
belief or candidate id) and stores skip existing ids, so running it twice on the same turns
writes nothing the second time. With ``complete_stage`` each batch's beliefs and candidates
are written in the transaction that clears its turns' ``level1`` marks (``eywa.stores.ledger``),
so a batch is either fully recorded as done or read again, never half of each.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from datetime import datetime

from pydantic import Field

from eywa import crashpoints
from eywa.attributes import AttributeSpec, canonical_fact, get_attribute
from eywa.errors import NotFoundError
from eywa.extraction.base import Extractor, extractor_label, extractor_version
from eywa.extraction.context import ContextualExtractor, Earlier, earlier_context, named_values, people_of
from eywa.extraction.validator import Validator
from eywa.ids import stable_id
from eywa.models import (
    Belief,
    Candidate,
    CandidateFact,
    CandidateStatus,
    Evidence,
    Frozen,
    SupportLink,
    ValidationReport,
    as_utc,
    utc_now,
)
from eywa.nous.observations import event_time
from eywa.stores.beliefs import BeliefStore
from eywa.stores.evidence import EvidenceStore
from eywa.stores.ledger import StageDone


class Level1Report(Frozen):
    """What one Level 1 run did. ``beliefs`` are the newly written ones (for Nous)."""

    evidence: int = 0
    missing_evidence: int = 0
    proposed: int = 0
    accepted: int = 0
    rejected: int = 0
    repair: int = 0
    duplicates: int = 0
    superseded: int = 0
    by_reason: dict[str, int] = Field(default_factory=dict)
    beliefs: tuple[Belief, ...] = ()


class Explanation(Frozen):
    """Why a belief is held: the belief, its validation report and the full cited turns."""

    belief: Belief
    report: ValidationReport | None
    turns: list[Evidence]


def _fact_key(space: str, fact: CandidateFact) -> tuple[str, ...]:
    return (
        space,
        " ".join(fact.statement.casefold().split()),
        fact.subject.strip().casefold(),
        fact.attribute or "",
        (fact.value or "").strip().casefold(),
        fact.polarity,
        fact.modality,
        "" if fact.valid_from is None else as_utc(fact.valid_from).isoformat(),
        "" if fact.valid_to is None else as_utc(fact.valid_to).isoformat(),
        *sorted(set(fact.evidence_ids)),
    )


def belief_id(space: str, fact: CandidateFact) -> str:
    """The deterministic id of the belief a candidate becomes."""
    return stable_id("bel", *_fact_key(space, fact))


def candidate_id(space: str, fact: CandidateFact) -> str:
    """The deterministic id of a refused candidate."""
    return stable_id("cand", *_fact_key(space, fact))


def extract_beliefs(
    *,
    space: str,
    evidence_ids: Sequence[str],
    evidence_store: EvidenceStore,
    belief_store: BeliefStore,
    extractor: Extractor,
    validator: Validator,
    batch_size: int = 32,
    attributes: Mapping[str, AttributeSpec] | None = None,
    now: datetime | None = None,
    complete_stage: bool = False,
    decided: Callable[[], Collection[str]] | None = None,
    unread: Callable[[Sequence[str]], Collection[str]] | None = None,
) -> Level1Report:
    """Extract, validate and store beliefs for ``evidence_ids`` of ``space``; idempotent.

    Args:
        space: the space the turns belong to; citations outside it are refused.
        evidence_ids: turns to read (ids missing from the store are counted and skipped).
        evidence_store: where the turns (and any other cited turns) are read from.
        belief_store: where beliefs and refused candidates are written.
        extractor: proposes candidate facts; a ``ContextualExtractor`` also gets what came
            before each batch (``eywa.extraction.context.earlier_context``).
        validator: checks each candidate against its cited turns.
        batch_size: turns handed to the extractor per call.
        attributes: attribute registry (cardinality decides supersession); default registry
            when None.
        now: recorded_at of what is written (tests pass a fixed time).
        complete_stage: clear each batch's ``level1`` marks (and record the extractor as
            their reader) in the transaction that stores the batch.
        decided: the ids of the candidates a person accepted or dismissed (read once, when
            a candidate is first refused): proposed again (``eywa reprocess``), such a
            candidate is not written back into the repair queue.
        unread: the ids among those given whose Level 1 is still owed (their ``level1``
            mark): such a turn is read in its own turn, after what it leans on, so it is not
            read again here (``_read_again``); without it, every turn said later may be.

    Returns:
        Counts by outcome and reason, and the newly written beliefs.

    Raises:
        ExtractorError: the extractor failed (e.g. an LLM endpoint after its retries); the
            batches already written stay written, and a re-run continues idempotently.
        StoreError: a store failed.
    """
    recorded_at = utc_now() if now is None else as_utc(now)
    version, label = extractor_version(extractor), extractor_label(extractor)
    totals: Counter[str] = Counter()
    by_reason: Counter[str] = Counter()
    new_ids: list[str] = []
    settled: set[str] | None = None
    ids = list(dict.fromkeys(evidence_ids))
    for offset in range(0, len(ids), max(batch_size, 1)):
        chunk = ids[offset : offset + max(batch_size, 1)]
        done = StageDone(space=space, evidence_ids=tuple(chunk), done_by=label) if complete_stage else None
        turns = evidence_store.get(space, chunk)
        totals["evidence"] += len(turns)
        totals["missing_evidence"] += len(chunk) - len(turns)
        if not turns:
            if done is not None:  # erased meanwhile: nothing to read, the stage is done
                belief_store.add([], [], done)
            continue
        if isinstance(extractor, ContextualExtractor):
            earlier = earlier_context(space, turns, evidence_store, belief_store)
            facts = list(extractor.propose_after(space, turns, earlier))
        else:
            facts = list(extractor.propose(space, turns))
        totals["proposed"] += len(facts)
        known = {t.id: t for t in turns}
        wanted = {i for f in facts for i in f.evidence_ids if i not in known}
        if wanted:
            known.update({t.id: t for t in evidence_store.get(space, sorted(wanted))})
        beliefs: dict[str, Belief] = {}
        refused: dict[str, Candidate] = {}
        for raw in facts:
            fact = canonical_fact(raw, attributes)
            report = validator.validate(space, fact, known)
            if report.accepted:
                belief = _belief(space, fact, report, known, extractor.name, recorded_at, version)
                beliefs.setdefault(belief.id, belief)
                totals["accepted"] += 1
                continue
            status: CandidateStatus = "repair" if report.repairable else "rejected"
            totals[status] += 1
            by_reason.update(str(r) for r in report.reasons)
            cand = Candidate(
                id=candidate_id(space, fact), space=space, fact=fact, status=status,
                reasons=report.reasons, report=report, extractor=extractor.name, recorded_at=recorded_at,
                extractor_version=version,
            )
            refused.setdefault(cand.id, cand)
        if isinstance(extractor, ContextualExtractor) and beliefs:
            # A turn read before what it leans on had arrived (sessions sent out of order):
            # read again now that the name is known, as it would have been read in order.
            for belief in _read_again(space, turns, list(beliefs.values()), evidence_store, belief_store, extractor,
                                      validator, attributes, recorded_at, version, unread):
                beliefs.setdefault(belief.id, belief)
        if refused and decided is not None:
            settled = settled if settled is not None else set(decided())
            refused = {i: c for i, c in refused.items() if i not in settled}
        written, _ = belief_store.add(list(beliefs.values()), list(refused.values()), done)
        crashpoints.reached("level1_batch_written")
        totals["duplicates"] += len(beliefs) - len(written)
        new_ids.extend(written)
        ordered = sorted(beliefs.values(), key=_when)
        for belief in ordered:
            totals["superseded"] += settle_supersession(belief_store, belief, attributes, evidence_store)
    return Level1Report(
        evidence=totals["evidence"], missing_evidence=totals["missing_evidence"],
        proposed=totals["proposed"], accepted=totals["accepted"], rejected=totals["rejected"],
        repair=totals["repair"], duplicates=totals["duplicates"], superseded=totals["superseded"],
        by_reason=dict(sorted(by_reason.items())), beliefs=tuple(belief_store.get_many(space, new_ids)),
    )


_LEANING_TURNS = 20
"""The most turns mentioning a name that are read again when a batch's belief names it
(``_read_again``): a read that leans on a name ("Biscuit died", "Sorry, I meant Porto, not
Lisbon", "I left Initech") is rare, and the bound keeps a batch's cost independent of how
often a name was said."""


def _read_again(
    space: str,
    batch: Sequence[Evidence],
    beliefs: Sequence[Belief],
    evidence_store: EvidenceStore,
    belief_store: BeliefStore,
    extractor: ContextualExtractor,
    validator: Validator,
    attributes: Mapping[str, AttributeSpec] | None,
    recorded_at: datetime,
    version: str | None,
    unread: Callable[[Sequence[str]], Collection[str]] | None = None,
) -> list[Belief]:
    """What the turns stored before this batch, and said after it, by or about the people
    whose names this batch's beliefs give (``eywa.extraction.context.named_values``: a
    speaker's own, or those of someone a turn names, "Eva left Globex" after "Eva works at
    Globex"), make once read knowing them.
    Turns whose Level 1 is still owed (``unread``) are left to their own reading, which comes
    after this batch and knows the names: a bulk write read unit by unit read each later turn
    twice, and Level 1 is once per turn.

    Read in order, such a turn saw the name in its ``Earlier``; read before the name was
    known (sessions sent out of order), it made nothing. Each new belief also cites the turn
    of this batch that gave the name (as a reply cites its question), so it is written with
    the batch and reaches the dimensions with it. Only what the name changes is kept, and only
    what the validator accepts with that citation: a pet's death read again ("Biscuit died")
    is refused beside the turn that had the pet (evidence positive), so it is still lost."""
    named = named_values(beliefs)
    if not named:
        return []
    in_batch = {t.id: t for t in batch}
    names = sorted({value for values in named.values() for _, value in values.values()})
    entities = evidence_store.entities_named(space, names)
    if not entities:
        return []
    ids = [i for i in evidence_store.evidence_mentioning(space, [e.id for e in entities], _LEANING_TURNS)
           if i not in in_batch]  # fmt: skip
    if unread is not None and ids:
        owed = set(unread(ids))
        ids = [i for i in ids if i not in owed]
    first_said = min(t.observed_at for t in batch)
    later = sorted(
        (t for t in evidence_store.get(space, ids)
         if t.observed_at >= first_said and any(p.casefold() in named for p in people_of([t]))),
        key=lambda t: (t.observed_at, t.session, t.seq),
    )  # fmt: skip
    if not later:
        return []
    before = earlier_context(space, later, evidence_store, belief_store)
    merged = {speaker: dict(values) for speaker, values in before.named.items()}
    for speaker, values in named.items():
        merged.setdefault(speaker, {}).update(values)
    plain = {_fact_key(space, f) for f in extractor.propose_after(space, later, before)}
    known: dict[str, Evidence] = {t.id: t for t in later} | in_batch
    found: list[Belief] = []
    for raw in extractor.propose_after(space, later, Earlier(previous=before.previous, named=merged)):
        if _fact_key(space, raw) in plain:
            continue
        givers = _givers(raw, beliefs, in_batch, known)
        if not givers:
            continue
        fact = canonical_fact(raw.model_copy(update={"evidence_ids": (*raw.evidence_ids, *givers)}), attributes)
        report = validator.validate(space, fact, known)
        if report.accepted:
            found.append(_belief(space, fact, report, known, extractor.name, recorded_at, version))
    return found


def _givers(
    fact: CandidateFact, beliefs: Sequence[Belief], batch: Mapping[str, Evidence], known: Mapping[str, Evidence]
) -> tuple[str, ...]:
    """The batch turns whose beliefs hold a name that ``fact``'s turn says, said before it."""
    said = " ".join(known[i].text for i in fact.evidence_ids if i in known).casefold()
    at = max((known[i].observed_at for i in fact.evidence_ids if i in known), default=None)
    out: list[str] = []
    for belief in beliefs:
        value = (belief.value or "").casefold()
        if not value or not re.search(rf"(?<!\w){re.escape(value)}(?!\w)", said):
            continue
        for i in belief.evidence_ids:
            if i in batch and i not in out and (at is None or batch[i].observed_at <= at):
                out.append(i)
    return tuple(out)


def _belief(
    space: str,
    fact: CandidateFact,
    report: ValidationReport,
    known: Mapping[str, Evidence],
    extractor: str,
    recorded_at: datetime,
    version: str | None = None,
) -> Belief:
    cited = [known[i] for i in fact.evidence_ids if i in known]
    observed = max((t.observed_at for t in cited), default=None)
    event_at = fact.valid_from if fact.valid_from is not None else observed
    return Belief(
        id=belief_id(space, fact), space=space, statement=fact.statement, subject=fact.subject,
        attribute=fact.attribute, value=fact.value, polarity=fact.polarity, modality=fact.modality,
        valid_from=fact.valid_from, valid_to=fact.valid_to, recorded_at=recorded_at, status="active",
        extractor=extractor, evidence_ids=tuple(dict.fromkeys(fact.evidence_ids)), support=cited_support(fact, report),
        report=report, event_at=None if event_at is None else as_utc(event_at), extractor_version=version,
    )


def cited_support(fact: CandidateFact, report: ValidationReport) -> tuple[SupportLink, ...]:
    """The belief's ``SUPPORTED_BY`` links: the validator's, with a span, and one without a
    span (score 0) for each other turn the fact cites.

    A fact can cite a turn none of its words are in: the reply that asserts what its
    question said ("Do you still work at Initech?" "Yes."), or the turn whose belief gave a
    name a later turn is read again with ("I work at Globex" for "I left Globex and joined
    Initech"). The stores find a turn's beliefs by these links (``beliefs_citing``: the
    dimension update of a turn, supersession, erasure), so a cited turn without one left
    its belief out of the dimensions when the two turns were written apart (the reply in a
    later write than its question: an agent writing turn by turn)."""
    linked = {link.evidence_id for link in report.support}
    bare = tuple(SupportLink(evidence_id=i, span=None, score=0.0) for i in dict.fromkeys(fact.evidence_ids)
                 if i not in linked)  # fmt: skip
    return (*report.support, *bare)


def belief_of_fact(
    space: str, fact: CandidateFact, report: ValidationReport, cited: Sequence[Evidence], extractor: str,
    recorded_at: datetime,
) -> Belief:
    """The belief ``fact`` becomes, exactly as Level 1 builds it (an operator accepting a
    refused candidate uses it: same id, same event time)."""
    return _belief(space, fact, report, {e.id: e for e in cited}, extractor, recorded_at)


def _when(belief: Belief) -> tuple[datetime, str]:
    return (belief.event_at or belief.recorded_at, belief.id)


def _placed(
    evidence_store: EvidenceStore | None, space: str, beliefs: Sequence[Belief]
) -> Callable[[Belief], tuple[datetime, str]]:
    """The order key of ``beliefs`` by the time the dimension places them at (their cited
    turns read once), or ``_when`` without an evidence store."""
    if evidence_store is None:
        return _when
    wanted = sorted({i for b in beliefs for i in b.evidence_ids})
    turns = {e.id: e for e in evidence_store.get(space, wanted)} if wanted else {}

    def placed(belief: Belief) -> tuple[datetime, str]:
        cited = [turns[i] for i in belief.evidence_ids if i in turns]
        return event_time(belief, cited), belief.id

    return placed


def _contradict(a: Belief, b: Belief) -> bool:
    """Whether two beliefs of one single-valued attribute cannot both hold: another value
    held (Initech and Globex), or one value held and not held. That a value is *not* held
    contradicts no other value: "Ana left Paris" (employer Paris, negative) leaves "Ana
    works at Initech" standing, and so does "not Initech" the later "works at Globex"."""
    same = (a.value or "").casefold() == (b.value or "").casefold()
    if same:
        return a.polarity != b.polarity
    return a.polarity == "positive" and b.polarity == "positive"


def settle_supersession(
    belief_store: BeliefStore,
    belief: Belief,
    attributes: Mapping[str, AttributeSpec] | None = None,
    evidence_store: EvidenceStore | None = None,
) -> int:
    """Apply supersession for one belief of a single-valued attribute; idempotent.

    A belief with a later validity supersedes the active beliefs on the same (subject,
    attribute) it contradicts (``_contradict``: another value held, or the same value
    held and not held); one that arrives late but is older is itself marked superseded by
    the newer one, also when that one is itself superseded by now: "works at Initech" in
    January is outdated by "works at Globex" in March whether or not Initech again in May
    came in first (it stayed active when it did, so ``beliefs`` depended on the order the
    sessions were sent). Only asserted beliefs take part: "might move to
    Paris" does not replace where someone lives. Returns the number of new edges.

    "Later" is the time the dimension places each belief at (``eywa.nous.observations.
    event_time``, read from the cited turns of ``evidence_store``): an open-ended belief
    with a stated start holds up to the time it was said. "I quit Initech last month",
    said on 20 July, is Initech not held from 1 June up to 20 July, so it ends "I work at
    Initech" said on 15 June; ordered by its start it came first, and the job said after
    it marked it superseded while the dimension (rightly) answered not Initech. Without an
    evidence store, the start (or the time said) orders them, as before.
    """
    if belief.attribute is None or belief.modality != "asserted":
        return 0
    if get_attribute(belief.attribute, attributes).cardinality != "single":
        return 0
    current = belief_store.get(belief.space, belief.id)
    if current is None or current.status != "active":
        return 0
    others = [
        o
        for o in belief_store.beliefs(belief.space, subject=belief.subject, attribute=belief.attribute, status=None)
        if o.id != belief.id and o.status in ("active", "superseded") and o.modality == "asserted"
        and _contradict(o, current)
    ]
    when = _placed(evidence_store, belief.space, [current, *others])
    edges = 0
    mine = when(current)[0]
    for other in sorted(others, key=when):
        theirs = when(other)[0]
        if theirs < mine and other.status == "active":
            edges += int(belief_store.supersede(belief.space, other.id, belief.id))
        elif theirs > mine:
            edges += int(belief_store.supersede(belief.space, belief.id, other.id))
            break
    return edges


def explain(belief_store: BeliefStore, evidence_store: EvidenceStore, space: str, belief_id: str) -> Explanation:
    """The belief, its validation report and the full text of the turns it cites.

    Raises:
        NotFoundError: no belief ``belief_id`` in ``space``.
    """
    belief = belief_store.get(space, belief_id)
    if belief is None:
        raise NotFoundError("belief", space, belief_id)
    turns = evidence_store.get(space, list(belief.evidence_ids))
    return Explanation(belief=belief, report=belief.report, turns=turns)
