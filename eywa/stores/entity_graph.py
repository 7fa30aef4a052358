"""The entity graph: which entities are talked about together, kept at write time.

Two entities are *co-mentioned* when one turn mentions both (a turn's speaker counts as a
mention). Every Level 0 write adds, in its own transaction, +1 to the weight of each pair
of entities each new turn mentions, so the graph route reads a maintained graph instead of
rebuilding one per read (the embedded ``entity_edges`` table; Neo4j
``(:Entity)-[:CO_MENTIONED {space, weight}]->(:Entity)``, stored from the smaller id to the
larger and read in both directions).

``EntityGraph.neighbours`` walks it breadth-first from the entities a question names, up to
``hops`` hops. Each entity reached expands to at most ``limit`` neighbours, its heaviest
edges first (ties by entity id), which bounds the fan-out of hub entities such as a
conversation's speakers: every backend returns the same answer for the same graph. Both
backends answer in one round trip where they can (one Cypher query on Neo4j).

A caller that needs only the best of its candidates passes a stop rule (``Unsettled``): the
candidates are given best first, and a backend may place them a few at a time, asking the
rule after each read how many more of each kind it still needs. The graph route needs about
a third of its candidates' mentions and subjects to settle its cut (docs/latency.md,
"Session 50, the graph route's settled cut").
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from eywa.ids import entity_id

__all__ = ["MAX_HOPS", "EdgeKey", "EntityGraph", "Reach", "Unsettled", "co_mention_weights", "reach_from"]

# The deepest walk offered: the design's "up to two hops" (Neo4j writes it out as one query).
MAX_HOPS: Final = 2

# (space, smaller entity id, larger entity id)
EdgeKey = tuple[str, str, str]


@dataclass(frozen=True)
class Reach:
    """What ``EntityGraph.neighbours`` found within reach of the named entities.

    ``entities`` maps each entity reached to its distance in hops (the named ones are 0,
    stored or not); ``evidence`` maps each asked turn that mentions a reached entity to the
    distance of the nearest one; ``beliefs`` maps each asked *active* belief whose subject is
    a reached entity to that subject's distance. Asked items out of reach are absent.
    """

    entities: Mapping[str, int] = field(default_factory=dict)
    evidence: Mapping[str, int] = field(default_factory=dict)
    beliefs: Mapping[str, int] = field(default_factory=dict)


class Unsettled(Protocol):
    """A caller's stop rule for the placement of its candidates (``EntityGraph.neighbours``)."""

    def __call__(self, reach: Reach, evidence_read: int, beliefs_read: int) -> tuple[int, int]:
        """How many more candidate turns, and beliefs, must at least be placed, given ``reach``
        of the first ``evidence_read`` turns and ``beliefs_read`` beliefs asked (counted
        without duplicates, in the order asked); (0, 0) when the caller's answer is settled.
        """
        ...


class EntityGraph(Protocol):
    """Traversal of the co-mention graph kept at write time (see the module docstring)."""

    def neighbours(
        self,
        space: str,
        entity_ids: Sequence[str],
        hops: int,
        limit: int,
        evidence_ids: Sequence[str] = (),
        belief_ids: Sequence[str] = (),
        until: Unsettled | None = None,
    ) -> Reach:
        """Entities within ``hops`` of ``entity_ids`` and which asked items are about them.

        ``hops`` above ``MAX_HOPS`` walk ``MAX_HOPS``. ``limit`` bounds how many neighbours each reached entity expands to (heaviest edges
        first); ``evidence_ids`` and ``belief_ids`` are the candidate items to place (the
        read path passes its keyword candidates). Without ``until`` every candidate is
        placed. With it, a backend may place each kind's candidates in the order given, a
        prefix at a time, until the rule asks for no more (or none are left): candidates
        past the prefixes read are absent from the answer. A backend may always place more
        than the rule asks (Neo4j places every candidate in its one query), never fewer.

        Raises:
            ClosedError: the store was closed.
            StoreError: the backend failed.
        """
        ...


def co_mention_weights(mentions: Iterable[tuple[str, str, str]]) -> dict[EdgeKey, int]:
    """Edge weight increments of a batch: +1 per turn for each pair of entities it mentions.

    ``mentions`` holds (space, evidence id, entity id) of the new turns only (a turn
    written before must not count twice); duplicates are ignored. Pairs are ordered
    (smaller id first), so an edge has one key whichever way it is read.
    """
    by_turn: dict[tuple[str, str], set[str]] = defaultdict(set)
    for space, evidence_id, entity in mentions:
        by_turn[(space, evidence_id)].add(entity)
    weights: Counter[EdgeKey] = Counter()
    for (space, _), entities in by_turn.items():
        ordered = sorted(entities)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                weights[(space, a, b)] += 1
    return dict(sorted(weights.items()))


def reach_from(
    space: str,
    distances: Mapping[str, int],
    evidence_mentions: Mapping[str, Iterable[str]],
    belief_subjects: Mapping[str, str],
) -> Reach:
    """Place candidate items against the entity distances a backend computed.

    ``evidence_mentions`` maps asked turns to the entity ids they mention;
    ``belief_subjects`` maps asked active beliefs to their subject's name, whose entity id
    is derived here (``eywa.ids.entity_id``) the same way on every backend.
    """
    evidence: dict[str, int] = {}
    for evidence_id, entities in evidence_mentions.items():
        found = [distances[e] for e in entities if e in distances]
        if found:
            evidence[evidence_id] = min(found)
    # A recall asks about ~100 beliefs of a few subjects: each subject's id is hashed once.
    subject_ids = {subject: entity_id(space, subject) for subject in set(belief_subjects.values())}
    beliefs = {
        belief_id: distances[subject_ids[subject]]
        for belief_id, subject in belief_subjects.items()
        if subject_ids[subject] in distances
    }
    return Reach(entities=dict(distances), evidence=evidence, beliefs=beliefs)
