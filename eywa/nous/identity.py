"""Identity resolution: propose, accept and undo SAME_AS merges between entities.

Two entities are proposed as one when their names are compatible (same name, a known
nickname, a short form, a first name against a full name, or a typo variant by Jaro-Winkler similarity, rapidfuzz)
*and* the dimensions they share agree: the mean symmetrised KL divergence over the shared
attributes is below ``NousParams.kl_threshold_bits``. Names alone never merge, because two
different people often share a first name; without a shared dimension there is nothing to
compare, so no merge is proposed either. Accepted merges are edges, never rewrites: undoing
one only deactivates the edge, and reads follow active edges (``cluster``).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from itertools import combinations

import networkx as nx
from rapidfuzz.distance import JaroWinkler

from eywa.ids import entity_key
from eywa.models import Frozen, as_utc, utc_now
from eywa.nous import math as nm
from eywa.nous.engine import DimensionState, decay_to, distribution_of
from eywa.nous.params import DEFAULT_PARAMS, NousParams
from eywa.stores.dimensions import DimensionStore, SameAsEdge

# A few common English short forms; prefixes ("Mel"/"Melinda") and typos are caught by rule.
_NICKNAMES: dict[str, frozenset[str]] = {
    "robert": frozenset({"bob", "rob", "bobby", "robbie"}),
    "william": frozenset({"bill", "will", "billy", "liam"}),
    "elizabeth": frozenset({"liz", "beth", "lizzie", "eliza", "betty"}),
    "margaret": frozenset({"maggie", "meg", "peggy"}),
    "richard": frozenset({"rick", "dick", "rich"}),
    "james": frozenset({"jim", "jimmy", "jamie"}),
    "john": frozenset({"jack", "johnny"}),
    "katherine": frozenset({"kate", "katie", "kathy", "kat"}),
    "catherine": frozenset({"cathy", "cat", "kate"}),
    "jennifer": frozenset({"jen", "jenny"}),
    "michael": frozenset({"mike", "mikey"}),
    "alexander": frozenset({"alex", "sasha"}),
    "alexandra": frozenset({"alex", "sasha", "lexi"}),
    "anthony": frozenset({"tony"}),
    "edward": frozenset({"ed", "eddie", "ted"}),
}


class MergeProposal(Frozen):
    """Two entities that look like one person or thing, with the reasons in numbers."""

    space: str
    source: str
    target: str
    name_score: float
    divergence_bits: float
    shared_attributes: tuple[str, ...]
    score: float


def name_compatibility(a: str, b: str, params: NousParams = DEFAULT_PARAMS) -> float:
    """How compatible two names are, in [0, 1]; 0 means they cannot name the same entity."""
    ka, kb = entity_key(a), entity_key(b)
    if not ka or not kb:
        return 0.0
    if ka == kb:
        return 1.0
    ta, tb = ka.split(), kb.split()
    first_a, first_b = ta[0], tb[0]
    if len(ta) > 1 and len(tb) > 1 and ta[-1] != tb[-1]:
        return 0.0  # two different surnames
    if first_b in _NICKNAMES.get(first_a, frozenset()) or first_a in _NICKNAMES.get(
        first_b, frozenset()
    ):
        return 0.9
    if first_a == first_b:
        return 0.85  # "Rosalind" and "Rosalind Price"
    short, long = sorted((first_a, first_b), key=len)
    if len(short) >= params.name_min_prefix and long.startswith(short):
        return 0.8  # "Mel" and "Melinda"
    similarity = float(JaroWinkler.similarity(ka, kb))
    return similarity if similarity >= params.name_fuzzy_min else 0.0


def _states(
    store: DimensionStore, space: str, key: str, tau_for: dict[str, float], as_of: datetime | None
) -> dict[str, DimensionState]:
    states: dict[str, DimensionState] = {}
    for record in store.dimensions(space, key):
        state = DimensionState.from_json(record.state)
        tau = tau_for.get(record.attribute)
        states[record.attribute] = state if tau is None else decay_to(state, as_of, tau)
    return states


def divergence_bits(a: DimensionState, b: DimensionState) -> float:
    """Symmetrised KL divergence (bits) between two states of the same attribute."""
    if a.cardinality == "single" and b.cardinality == "single":
        return nm.symmetric_kl_categorical(a.probabilities, b.probabilities)
    return nm.symmetric_kl_memberships(distribution_of(a), distribution_of(b))


def propose_merges(
    store: DimensionStore,
    space: str,
    entities: Sequence[str],
    *,
    tau_days: dict[str, float] | None = None,
    as_of: datetime | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> list[MergeProposal]:
    """Pairs of ``entities`` worth merging, best first; pairs already merged are skipped.

    ``tau_days`` (attribute → τ) lets the comparison decay both sides to ``as_of`` first.
    """
    taus = tau_days or {}
    keys = list(dict.fromkeys(entity_key(e) for e in entities if entity_key(e)))
    names = {entity_key(e): e for e in entities}
    states = {k: _states(store, space, k, taus, as_of) for k in keys}
    merged = _clusters(store, space)  # one read of the merges, not one per pair (N²/2 round trips on Neo4j)
    proposals: list[MergeProposal] = []
    for ka, kb in combinations(keys, 2):
        if kb in merged.get(ka, ()):
            continue
        proposal = _evidence(space, (names[ka], states[ka]), (names[kb], states[kb]), params)
        if proposal is not None:
            proposals.append(proposal)
    return sorted(proposals, key=lambda p: (-p.score, p.source, p.target))


def merge_holds(
    store: DimensionStore,
    space: str,
    source: str,
    target: str,
    *,
    tau_days: dict[str, float] | None = None,
    as_of: datetime | None = None,
    params: NousParams = DEFAULT_PARAMS,
) -> bool:
    """Whether ``propose_merges``' test still holds for the two entities on the dimensions
    stored now (names compatible, a shared dimension, mean KL below the threshold).

    An erasure asks this of a merge whose dimensions it changed (``eywa.erasure.merges``).
    """
    taus = tau_days or {}
    sides = [(name, _states(store, space, entity_key(name), taus, as_of)) for name in (source, target)]
    return _evidence(space, sides[0], sides[1], params) is not None


def _evidence(
    space: str, a: tuple[str, dict[str, DimensionState]], b: tuple[str, dict[str, DimensionState]], params: NousParams
) -> MergeProposal | None:
    """The proposal for two entities and their (decayed) states, or None when the test fails."""
    (name_a, states_a), (name_b, states_b) = a, b
    name_score = name_compatibility(name_a, name_b, params)
    shared = tuple(sorted(set(states_a) & set(states_b)))
    if name_score <= 0.0 or not shared:
        return None
    div = sum(divergence_bits(states_a[at], states_b[at]) for at in shared) / len(shared)
    if div >= params.kl_threshold_bits:
        return None
    return MergeProposal(
        space=space, source=name_a, target=name_b, name_score=name_score, divergence_bits=div,
        shared_attributes=shared, score=name_score * 2.0 ** (-div),
    )  # fmt: skip


def accept_merge(
    store: DimensionStore,
    space: str,
    source: str,
    target: str,
    score: float = 1.0,
    at: datetime | None = None,
    author: str | None = None,
) -> SameAsEdge:
    """Record ``source`` SAME_AS ``target`` by ``author``; reads of either now see both."""
    edge = SameAsEdge(
        space=space,
        source=entity_key(source),
        target=entity_key(target),
        score=score,
        at=as_utc(at) if at is not None else utc_now(),
        author=author,
    )
    store.add_same_as(edge)
    return edge


def undo_merge(
    store: DimensionStore,
    space: str,
    source: str,
    target: str,
    at: datetime | None = None,
    author: str | None = None,
) -> bool:
    """Deactivate the merge (kept for audit, ``removed_by`` = ``author``); False when the two
    were not merged directly."""
    when = as_utc(at) if at is not None else utc_now()
    return store.remove_same_as(space, entity_key(source), entity_key(target), when, by=author)


def _clusters(store: DimensionStore, space: str) -> dict[str, set[str]]:
    """Each merged entity key's cluster over active SAME_AS edges (keys in no merge are absent)."""
    graph: nx.Graph[str] = nx.Graph()
    graph.add_edges_from((e.source, e.target) for e in store.same_as(space))
    return {key: component for component in nx.connected_components(graph) for key in component}


def cluster(store: DimensionStore, space: str, key: str) -> set[str]:
    """Entity keys reachable from ``key`` over active SAME_AS edges (itself included)."""
    return set(_clusters(store, space).get(key, {key}))
