"""The belief aggregate: validated beliefs, their support links, supersession edges and the
candidates the validator refused.

Beliefs are never deleted by Level 1: a later value of a single-valued attribute supersedes
the earlier belief (status ``superseded`` plus a ``SUPERSEDES`` edge), so "what did we believe
and why" stays answerable. Only erasure (which removes the evidence a belief rests on) and
reprocessing (which replaces what an older extractor version proposed about a turn with what
the current one proposes) may retract or remove them.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from eywa.models import Belief, BeliefStatus, Candidate, CandidateStatus
from eywa.stores.evidence import RecallTurn
from eywa.stores.ledger import StageDone


@dataclass(frozen=True)
class RecallBelief:
    """What the read path shows of an active belief: its statement and subject, and the
    turns it cites (``RecallTurn``, in the belief's order, any no longer stored left out).
    Not its support spans, validation report or history: a recall hydrating beliefs reads
    them and their turns in one round trip."""

    id: str
    statement: str
    subject: str
    cited: tuple[RecallTurn, ...]


@dataclass(frozen=True)
class BeliefCites:
    """Whose an active belief is and which turns it rests on, without reading them: the
    read path needs only this of the beliefs its routes found before fusion (a belief
    resting on one turn is that turn there), and loads whole items for the few it keeps."""

    id: str
    subject: str
    cited: tuple[str, ...]  # ids of its cited turns still stored, in the belief's order


@dataclass(frozen=True)
class BeliefLine:
    """What the routes that choose beliefs by subject and attribute read of an active
    belief: not its support spans, validation report or history (``beliefs`` and
    ``get_many`` load those, which the routes never look at)."""

    id: str
    subject: str
    attribute: str | None
    statement: str
    value: str | None
    evidence_ids: tuple[str, ...]


def without_erased(
    beliefs: Sequence[Belief], candidates: Sequence[Candidate], tombstoned: Callable[[str, list[str]], set[str]]
) -> tuple[list[Belief], list[Candidate]]:
    """The beliefs and candidates that cite no tombstoned (erased) turn.

    ``BeliefStore.add`` asks ``tombstoned`` (space, cited ids -> the erased ones) inside its
    own transaction: a Level 1 of another process (a worker, another API replica) may have
    read a turn before an erasure and propose from it after the erasure has finished, and
    what it proposes quotes the erased words (README, Erasure: queued work for an erased
    turn does nothing).
    """
    cited: defaultdict[str, set[str]] = defaultdict(set)
    for belief in beliefs:
        cited[belief.space].update(belief.evidence_ids)
    for candidate in candidates:
        cited[candidate.space].update(candidate.fact.evidence_ids)
    erased = {(space, i) for space, ids in cited.items() for i in tombstoned(space, sorted(ids))}
    if not erased:
        return list(beliefs), list(candidates)
    return (
        [b for b in beliefs if not any((b.space, i) in erased for i in b.evidence_ids)],
        [c for c in candidates if not any((c.space, i) in erased for i in c.fact.evidence_ids)],
    )


class BeliefStore(Protocol):
    """Stores beliefs (with ``SUPPORTED_BY`` links and the keyword index) and candidates."""

    def add(
        self, beliefs: Sequence[Belief], candidates: Sequence[Candidate], done: StageDone | None = None
    ) -> tuple[list[str], list[str]]:
        """Write beliefs and candidates in one transaction; existing ids are skipped.

        The same transaction marks each new belief ``embed_belief`` and, when ``done`` is
        given, clears the ``level1`` marks of its turns and records which extractor did them
        (``eywa.stores.ledger``): a Level 1 batch and its bookkeeping commit together.
        Returns the ids of the beliefs and of the candidates that were new, so that a re-run
        of Level 1 can tell it wrote nothing. A belief or candidate citing a tombstoned
        (erased) turn is not written (``without_erased``, checked in that transaction).
        """
        ...

    def get(self, space: str, belief_id: str) -> Belief | None:
        """One belief of ``space`` (with support links and report), or None."""
        ...

    def recall_beliefs(self, space: str, belief_ids: Sequence[str]) -> list[RecallBelief]:
        """The *active* beliefs of ``space`` among ``belief_ids``, in the order asked, each
        with its cited turns as the read path shows them: one read for a recall's beliefs."""
        ...

    def belief_cites(self, space: str, belief_ids: Sequence[str]) -> list[BeliefCites]:
        """The *active* beliefs of ``space`` among ``belief_ids``, in the order asked, each
        with the ids of the turns ``recall_beliefs`` would give as its ``cited``."""
        ...

    def beliefs_about(
        self, space: str, subjects: Sequence[str], attributes: Sequence[str]
    ) -> dict[str, list[BeliefLine]]:
        """For each of ``subjects`` (every one a key), its *active* beliefs whose attribute
        is one of ``attributes``, in event-time order: what ``beliefs(space, subject,
        attribute)`` lists for each pair (the subject matched as it matches it), all in one
        read (the belief route asks for a few people and attributes at once)."""
        ...

    def belief_lines(self, space: str, belief_ids: Sequence[str], attributes: Sequence[str]) -> list[BeliefLine]:
        """The *active* beliefs of ``space`` among ``belief_ids`` whose attribute is one of
        ``attributes``, in the order asked (the inference route keeps the trait beliefs
        among its keyword hits)."""
        ...

    def get_many(self, space: str, belief_ids: Sequence[str]) -> list[Belief]:
        """The beliefs of ``space`` among ``belief_ids`` (missing ids left out), in that order."""
        ...

    def beliefs(
        self,
        space: str,
        subject: str | None = None,
        attribute: str | None = None,
        status: BeliefStatus | None = "active",
    ) -> list[Belief]:
        """Beliefs filtered by subject (case-insensitive), attribute and status (None = any).

        Ordered by event time, then id, so callers get a stable order.
        """
        ...

    def candidates(self, space: str, status: CandidateStatus | None = "rejected") -> list[Candidate]:
        """Refused candidates of ``space`` with their reasons (status None = both kinds)."""
        ...

    def supersede(self, space: str, old_id: str, new_id: str) -> bool:
        """Record ``new SUPERSEDES old`` and mark ``old`` superseded.

        Returns False (and changes nothing) when the edge already exists or either belief is
        missing, so the call is idempotent.
        """
        ...

    def superseded_by(self, space: str, belief_id: str) -> list[str]:
        """Ids of the beliefs that supersede ``belief_id``."""
        ...

    def set_status(self, space: str, belief_ids: Sequence[str], status: BeliefStatus) -> int:
        """Change the status of beliefs (e.g. retract on erasure); returns rows changed.

        Retracted beliefs leave the keyword index.
        """
        ...

    def set_candidate_status(self, space: str, candidate_ids: Sequence[str], status: CandidateStatus) -> int:
        """Change the status of candidates (an operator dismisses one from the repair queue:
        ``rejected``); returns how many exist."""
        ...

    def beliefs_citing(self, space: str, evidence_ids: Sequence[str]) -> list[Belief]:
        """Beliefs with a ``SUPPORTED_BY`` link to any of ``evidence_ids``, any status."""
        ...

    def candidates_citing(self, space: str, evidence_ids: Sequence[str]) -> list[str]:
        """Ids of candidates that cite any of ``evidence_ids``."""
        ...

    def beliefs_naming(self, space: str, evidence_ids: Sequence[str]) -> list[str]:
        """Ids of the beliefs whose cited ids name any of ``evidence_ids``, linked or not: the
        erasure's sweep once the turns (and, on Neo4j, their ``SUPPORTED_BY`` edges) are gone,
        for a belief another process committed while the erasure's first step ran. A scan
        of the space's beliefs."""
        ...

    def get_candidates(self, space: str, candidate_ids: Sequence[str]) -> list[Candidate]:
        """The candidates of ``space`` among ``candidate_ids`` (missing ids left out), in that order."""
        ...

    def delete(self, space: str, belief_ids: Sequence[str], candidate_ids: Sequence[str]) -> None:
        """Remove beliefs and candidates for good, with their links and index rows (erasure,
        and reprocessing, which replaces what another extractor version proposed)."""
        ...

    def count_by_reason(self, space: str) -> dict[str, int]:
        """How many refused candidates carry each reason code."""
        ...

    def counts(self, space: str) -> dict[str, int]:
        """Beliefs per status and candidates per status, keyed ``belief_<status>`` and
        ``candidate_<status>``."""
        ...

    def ids(self, space: str) -> list[str]:
        """All belief ids of ``space``."""
        ...
