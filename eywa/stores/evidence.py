"""The evidence aggregate: immutable turns with their signals and entity mentions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

from eywa.contract import SpaceQuota, SpaceUsage
from eywa.ids import entity_id
from eywa.models import Entity, Evidence, Signal
from eywa.stores.ledger import JobRecord


@dataclass(frozen=True)
class RecallTurn:
    """What the read path shows of a stored turn, with the entities it mentions.

    The recall's items need a turn's words, provenance (id, session, speaker, time, the
    caller's metadata) and what it is about; not its signals, hash, role or author. Reading
    only these, mentions included, lets a backend load a recall's turns in one round trip
    and decode a fraction of the data (on Neo4j the driver's row decoding was most of a
    recall's CPU).
    """

    id: str
    session: str
    seq: int
    speaker: str | None
    observed_at: datetime
    text: str
    metadata: dict[str, Any]
    mentions: tuple[str, ...]  # entity ids, sorted


@dataclass(frozen=True)
class RederivedTurn:
    """A stored turn's Level 0 detected again (``EvidenceStore.rederive``): its new signals
    and the entities they (and its speaker) mention."""

    id: str
    signals: tuple[Signal, ...]
    mentions: tuple[Entity, ...]


def still_a_person(space: str, entity: str, speakers: Iterable[str | None], person_names: Iterable[str]) -> bool:
    """Whether the entity ``entity`` is a person by its mentions, as Level 0 kinds it
    (``eywa.batches.mentioned_entities``): some turn mentioning it was said by it, or names
    it in a person signal (``speakers`` and ``person_names``: the normalized, else the
    text, of the person signals of the turns that mention it). ``EvidenceStore.rederive``
    asks it of the entities its turns mention no longer as a person: Level 0 never makes a
    person an entity, so without it a kind an older release got wrong would stay."""
    names = [*(s for s in speakers if s), *person_names]
    return any(entity_id(space, name.strip()) == entity for name in names if name.strip())


@dataclass(frozen=True)
class PriorState:
    """What ``EvidenceStore.prior`` reads for a batch (see there)."""

    existing: set[str]
    entities: list[Entity]  # by name, then id
    next_seqs: dict[str, int]


class EvidenceStore(Protocol):
    """Stores turns, their signals, mentions and the keyword index in one transaction."""

    def add(
        self,
        evidence: Sequence[Evidence],
        mentions: Sequence[tuple[str, Entity]],
        *,
        job: JobRecord | None = None,
        quota: SpaceQuota | None = None,
        numbered: bool = False,
    ) -> list[str]:
        """Write a batch atomically; evidence whose id exists is skipped.

        ``mentions`` pairs an evidence id with an entity it mentions; entities are upserted
        (aliases merged). ``job``, when given, is stored in the same transaction (an
        existing id is kept; stored also when ``evidence`` is empty): an acknowledged write
        then costs one commit, and no crash can leave its turns without their job. Returns
        the ids that were new.

        ``quota``, when given, is checked (``eywa.contract.check_quota``) for each space the
        batch adds turns to, in the same transaction and once no other batch of that space
        can write until it ends (the embedded store's single writer; on Neo4j the space's
        ``:Backlog`` lock, taken by every Level 0 write of the space): batches written at
        the same moment, by threads or by processes, are checked one after the other, so
        together they never take a space over its quota. Only the turns new in the
        transaction count (re-sent turns cost nothing). A refused batch writes nothing (no
        turn, mention, mark or job) and raises ``QuotaExceededError``. ``None`` costs
        nothing; a quota costs an aggregation of the space's turns (O(turns of the space),
        which the quota itself bounds) inside the write.

        ``numbered``: the new turns were numbered after their sessions' stored turns by a
        read made before this call (``prior``'s ``next_seqs``, ``eywa.batches``). The store
        then checks, in the same transaction and once no other batch of those sessions can
        write until it ends (the embedded store's single writer; on Neo4j each session's
        node, locked, created if new, before the batch reads its sessions), that each
        session's first new turn still comes next in it: its seq is one past the highest
        stored seq (0 for a new session). A session that received turns from another writer
        in between (another replica, another process over the same Neo4j) fails the check:
        the batch writes nothing (no turn, mark or job) and raises ``SessionBusyError``,
        which the caller answers by numbering the batch again from a fresh read. Batches
        of one transaction are checked one after the other, each after the ones before it
        that passed; a refused batch leaves the others of its transaction written. The
        check is one indexed lookup per session (its highest seq). Without it (``False``:
        an import of stored turns, a rehearsal) the seqs are written as given.
        """
        ...

    def existing(self, space: str, ids: Sequence[str]) -> set[str]:
        """The subset of ``ids`` already stored in ``space``."""
        ...

    def signals_outdated(self, space: str, version: int, limit: int) -> list[str]:
        """Up to ``limit`` turns of ``space`` whose signals were detected under a signals
        version below ``version`` (``eywa.signals.version``; turns stored before versions
        existed count as 0), in the order they were stored (recorded time, then position in
        their batch), through an index on (space, version)."""
        ...

    def count_signals_outdated(self, space: str, version: int) -> int:
        """How many turns of ``space`` ``signals_outdated`` would return without a limit."""
        ...

    def entities_mentioned_before(self, space: str, before: datetime) -> list[Entity]:
        """The entities mentioned by turns of ``space`` recorded before ``before``: the names
        a batch recorded at ``before`` knew when it was ingested (``eywa.rederive``)."""
        ...

    def rederive(
        self, space: str, changed: Sequence[RederivedTurn], unchanged: Sequence[str], version: int, at: datetime
    ) -> list[str]:
        """Record turns' signals as detected again under ``version``, in one transaction.

        Each turn of ``changed`` still stored gets its signals replaced by the new ones and
        its mentions by the new mentions: the co-mention weights of the old ones are taken
        back and the new ones added, the new entities upserted (aliases merged, ``person``
        wins, as ``add`` does), entities left without a mention removed (unless an identity
        merge holds them), an entity its turns no longer name as a person made an entity
        unless another turn still does (``still_a_person``), and its ``level1`` and ``nous`` marked pending with reason
        ``signals`` (an existing ``level1`` mark takes that reason). Every turn of both lists
        still stored records ``version``. A turn erased meanwhile is skipped. Returns the
        ids of ``changed`` that were rewritten.
        """
        ...

    def get(self, space: str, ids: Sequence[str]) -> list[Evidence]:
        """The stored turns for ``ids`` (missing ids are left out), in the order asked."""
        ...

    def speakers(self, space: str, ids: Sequence[str]) -> dict[str, str | None]:
        """The speaker of each stored turn of ``ids`` (missing ids are left out): what the
        read path's evidence strength needs of the vector hits, without loading the turns."""
        ...

    def next_seq(self, space: str, session: str) -> int:
        """The position the next new turn of ``session`` will take."""
        ...

    def prior(self, space: str, ids: Sequence[str], names: Sequence[str], sessions: Sequence[str]) -> PriorState:
        """What a Level 0 batch needs of the store, in one read: which of ``ids`` are stored,
        the entities whose name (``eywa.ids.entity_key``) is among ``names``, and
        ``next_seq`` of each of ``sessions``. One round trip on a server, one hold of the
        connection on the embedded store, whatever the batch and the space hold."""
        ...

    def neighbours(self, space: str, evidence_id: str, before: int, after: int) -> list[Evidence]:
        """Turns of the same session around ``evidence_id`` (itself excluded), by seq."""
        ...

    def recall_turns(self, space: str, ids: Sequence[str]) -> list[RecallTurn]:
        """The read path's view of the stored turns among ``ids`` (missing ids are left
        out), in the order asked, each with its mentions: one read for a recall's turns."""
        ...

    def recall_neighbours(
        self, space: str, ids: Sequence[str], before: int, after: int
    ) -> dict[str, list[RecallTurn]]:
        """For each stored turn of ``ids``, the turns of its session within ``before`` /
        ``after`` seqs (itself excluded), by seq, as ``recall_turns`` reads them; ids not
        stored in ``space`` are left out. One read for all the turns a recall rescues."""
        ...

    def ids(self, space: str | None = None) -> list[str]:
        """All evidence ids, of one space or of all spaces."""
        ...

    def spaces(self) -> list[str]:
        """Every space that holds evidence."""
        ...

    def usage(self, space: str) -> SpaceUsage:
        """What ``space`` holds in the units of its quotas: turns, and the UTF-8 bytes of
        their text and metadata JSON (``eywa.contract.turn_bytes``). Read from counters the
        stores keep in the transactions that add and remove turns, so its cost (and the
        quota check's inside each write) does not grow with the space."""
        ...

    def counted_usage(self, space: str) -> SpaceUsage:
        """``usage`` from a full count of the space's turns, which the counters must always
        equal (tests and audits; O(turns of the space))."""
        ...

    def count(self, space: str) -> int:
        """Number of turns in ``space``."""
        ...

    def count_signals(self, space: str) -> dict[str, int]:
        """Signals of ``space`` by kind."""
        ...

    def entities(self, space: str) -> list[Entity]:
        """Every entity of ``space``."""
        ...

    def entities_named(self, space: str, names: Sequence[str]) -> list[Entity]:
        """The entities of ``space`` whose name or one of whose aliases is among ``names``
        (compared by ``eywa.ids.entity_key``), by name. The read path asks with the word
        spans of a question, so a recall costs the question's length, not the space's size."""
        ...

    def mentions(self, space: str, evidence_ids: Sequence[str]) -> dict[str, list[str]]:
        """Entity ids mentioned by each of ``evidence_ids``."""
        ...

    def evidence_mentioning(self, space: str, entity_ids: Sequence[str], limit: int) -> list[str]:
        """Evidence ids that mention any of ``entity_ids``, newest first."""
        ...

    def with_dates_between(
        self, space: str, start: datetime, end: datetime, limit: int
    ) -> list[str]:
        """Evidence observed in [start, end) or carrying a date signal whose window overlaps it."""
        ...

    def with_date_signals(self, space: str, limit: int) -> list[str]:
        """Evidence carrying at least one resolved date signal, newest first."""
        ...

    def dated(self, space: str, ids: Sequence[str]) -> set[str]:
        """The stored turns of ``space`` among ``ids`` that carry a date signal (resolved or
        not): what the temporal route asks of its candidates for a "when" question, without
        loading them."""
        ...


class KeywordIndex(Protocol):
    """BM25 search over evidence text and belief statements."""

    def search(
        self, space: str, query: str, limit: int, kinds: Sequence[str] = ("evidence",)
    ) -> list[tuple[str, str, float]]:
        """(kind, id, score) triples, best first; higher score is better."""
        ...
